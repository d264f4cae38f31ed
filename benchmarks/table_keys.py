"""Transposition-table keys for Abalone: the state itself against a Zobrist key.

``AlphaBetaAgent`` keys its table by the state itself (hashed by Python, compared in full on a
hash match). This script measures what a Zobrist key would cost instead: a 64-bit random key per
(colour, cell), one per quiet-move count and one for the side to move, XORed together. It is
computed bytewise (tabulation): a precomputed table per byte of each bitboard holds, for each of
the 256 byte values, the XOR of the keys of the bits that value sets, so a key takes one lookup
per byte. Prints the cost per state of each key, of a dictionary lookup by it and of an
evaluation, then hard's depth-4 search with either key (same positions, same moves).

    python benchmarks/table_keys.py [--positions 200] [--searches 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import qipan
from qipan.ai.search import AlphaBetaAgent
from qipan.games.abalone.ai import evaluate, order
from qipan.games.abalone.game import AbaloneState

_BYTES = 31  # the bitboards have fewer than 31 * 8 bits


class Zobrist:
    """Zobrist keys of Abalone states (marbles, side to move, quiet-move count)."""

    def __init__(self, seed: int = 0x5EED, max_quiet: int = 1000):
        rng = random.Random(seed)
        self.bits = [[rng.getrandbits(64) for _ in range(_BYTES * 8)] for _ in range(2)]
        self.turn = rng.getrandbits(64)
        self.quiet = [rng.getrandbits(64) for _ in range(max_quiet + 1)]
        self.tables = [[self._byte_keys(colour, i) for i in range(_BYTES)] for colour in range(2)]

    def _byte_keys(self, colour: int, index: int) -> list[int]:
        keys = []
        for value in range(256):
            key = 0
            for bit in range(8):
                if value >> bit & 1:
                    key ^= self.bits[colour][8 * index + bit]
            keys.append(key)
        return keys

    def by_bits(self, state: AbaloneState) -> int:
        """The definition: the XOR of every set bit's key."""
        key = (self.turn if state.turn else 0) ^ self.quiet[state.quiet]
        for colour, board in enumerate((state.black, state.white)):
            for bit in range(board.bit_length()):
                if board >> bit & 1:
                    key ^= self.bits[colour][bit]
        return key

    def by_shifts(self, state: AbaloneState) -> int:
        key = (self.turn if state.turn else 0) ^ self.quiet[state.quiet]
        black, white = self.tables
        board, i = state.black, 0
        while board:
            key ^= black[i][board & 255]
            board >>= 8
            i += 1
        board, i = state.white, 0
        while board:
            key ^= white[i][board & 255]
            board >>= 8
            i += 1
        return key

    def __call__(self, state: AbaloneState) -> int:
        key = (self.turn if state.turn else 0) ^ self.quiet[state.quiet]
        for table, value in zip(self.tables[0], state.black.to_bytes(_BYTES, "little"), strict=True):
            if value:
                key ^= table[value]
        for table, value in zip(self.tables[1], state.white.to_bytes(_BYTES, "little"), strict=True):
            if value:
                key ^= table[value]
        return key


def positions(game: Any, count: int, seed: int) -> list[AbaloneState]:
    """States of seeded random games (restarted when one ends)."""
    rng = random.Random(seed)
    found: list[AbaloneState] = []
    state = game.initial_state()
    while len(found) < count:
        if game.to_move(state) is None:
            state = game.initial_state()
        found.append(state)
        state = game.next_state(state, rng.choice(list(game.legal_actions(state))))
    return found


def per_state(label: str, work: Callable[[], object], states: int, repeat: int = 5, number: int = 50) -> None:
    seconds = min(timeit.repeat(work, number=number, repeat=repeat))
    print(f"| {label} | {seconds / (number * states) * 1e6:.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--searches", type=int, default=6, help="depth-4 searches with each key")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = qipan.load("abalone", options={"quiet_move_limit": 100})
    states = positions(game, args.positions, args.seed)
    zobrist = Zobrist()
    keys = {zobrist(s) for s in states}
    assert all(zobrist(s) == zobrist.by_shifts(s) == zobrist.by_bits(s) for s in states)
    assert len(keys) == len(set(states)), "a Zobrist collision among the sampled positions"
    by_state = dict.fromkeys(states, 0)
    by_key = dict.fromkeys(keys, 0)
    n = len(states)
    print(f"Abalone, {n} positions of random games (seed {args.seed}); microseconds per state\n")
    print("| operation | µs |\n|---|---|")
    per_state("hash(state)", lambda: [hash(s) for s in states], n)
    per_state("dict lookup by the state", lambda: [by_state.get(s) for s in states], n)
    per_state("Zobrist key, bytewise", lambda: [zobrist(s) for s in states], n)
    per_state("Zobrist key, shifting byte by byte", lambda: [zobrist.by_shifts(s) for s in states], n)
    per_state("dict lookup by Zobrist key (computing it)", lambda: [by_key.get(zobrist(s)) for s in states], n)
    per_state("evaluate", lambda: [evaluate(game, s, 0) for s in states], n)

    print(f"\nHard's search to depth 4 from {args.searches} of these positions, each key:\n")
    print("| key | nodes | seconds | nodes/s | same moves |\n|---|---|---|---|---|")
    sample = states[:: max(1, n // args.searches)][: args.searches]
    moves: dict[str, list[Any]] = {}
    for label, key in (("the state itself", None), ("Zobrist", zobrist)):
        nodes, seconds, chosen = 0, 0.0, []
        for state in sample:
            agent = AlphaBetaAgent(evaluate, depth=4, order=order, key=key)
            start = time.perf_counter()
            move, _ = agent.search(game, state, random.Random(0))
            seconds += time.perf_counter() - start
            nodes += agent.stats.nodes
            chosen.append(move)
        moves[label] = chosen
        same = "-" if label == "the state itself" else str(chosen == moves["the state itself"])
        print(f"| {label} | {nodes:,} | {seconds:.2f} | {nodes / seconds:,.0f} | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
