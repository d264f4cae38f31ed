"""Abalone speed: legal-move generation at the standard start, perft(3), random playouts.

    python benchmarks/abalone.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.cli.perft import perft


def best_of(fn, repeats: int, number: int) -> float:  # type: ignore[no-untyped-def]
    """Best mean time of one call over ``repeats`` batches of ``number`` calls."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - started) / number)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the playout measurement")
    args = parser.parse_args()
    game = qipan.load("abalone")
    start = game.initial_state()
    for variant in ("standard", "belgian-daisy", "german-daisy"):
        g = qipan.load("abalone", variant=variant)
        s = g.initial_state()
        t = best_of(lambda g=g, s=s: g.legal_actions(s), 5, 2000)
        print(f"legal moves at the {variant} start: {len(g.legal_actions(s))} in {t * 1e3:.4f} ms")
    started = time.perf_counter()
    leaves = perft(game, start, 3)
    elapsed = time.perf_counter() - started
    print(f"perft(3) = {leaves} in {elapsed:.3f} s ({leaves / elapsed:,.0f} leaves/s)")
    rng = random.Random(1)
    moves = games = 0
    deadline = time.perf_counter() + args.seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline:
        state = start
        for _ in range(200):  # random play rarely ends a game: cut playouts at 200 plies
            actions = game.legal_actions(state)
            if not actions:
                break
            state = game.next_state(state, rng.choice(actions))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - started
    print(f"random playouts: {moves / elapsed:,.0f} moves/s ({games} playouts of up to 200 plies)")


if __name__ == "__main__":
    main()
