"""Abalone "eject in N": push an opposing marble off within N of your moves, whatever the defence.

A puzzle is a position, the side to move attacking, with exactly one first move that forces an
ejection within ``n`` attacking moves against every reply, and no forced ejection in fewer. It is
rated by ``n``: easy (1: find the only push-off), medium (2), hard (3).

The proof is an AND-OR search on the engine's own bitboard move generator and move execution
(:func:`qipan.games.abalone.moves.generate` and ``perform``): the attacker needs one move that
works, the defender is given every legal reply. A reply that pushes the attacker's sixth marble
off ends the game and refutes the line.

>>> import qipan
>>> game = qipan.load("abalone")
>>> winning_moves(game.initial_state(), 1)
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from qipan.games.abalone.game import MARBLES, TO_WIN, Abalone, AbaloneState
from qipan.games.abalone.moves import AbaloneMove, generate, perform

RATINGS = {1: "easy", 2: "medium", 3: "hard"}
MAX_N = 3
_LOST = MARBLES - TO_WIN
"""A side left with this many marbles has lost."""


def sides(state: AbaloneState) -> tuple[int, int]:
    """(attacker, defender) bitboards: the side to move attacks."""
    return (state.black, state.white) if state.turn == 0 else (state.white, state.black)


def ejecting(own: int, opp: int) -> Iterator[AbaloneMove]:
    """The moves of ``own`` that push one of ``opp``'s marbles off the board."""
    count = opp.bit_count()
    for move in generate(own, opp):
        if move.size == 0 and perform(own, opp, move)[1].bit_count() < count:
            yield move


class OutOfNodes(Exception):
    """The prover expanded more positions than it was allowed."""


class Prover:
    """Forced-ejection proofs, counting the positions it reaches (``nodes``: after each move
    tried, and each position searched with the attacker to move); more than ``max_nodes``
    raises :class:`OutOfNodes`."""

    def __init__(self, max_nodes: int | None = None) -> None:
        self.nodes = 0
        self.max_nodes = max_nodes

    def forces(self, own: int, opp: int, n: int) -> bool:
        """Whether the attacker (``own``, to move) pushes a marble off within ``n`` own moves."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfNodes
        if next(ejecting(own, opp), None) is not None:
            return True
        return n > 1 and any(self.move_forces(own, opp, move, n) for move in generate(own, opp))

    def move_forces(self, own: int, opp: int, move: AbaloneMove, n: int) -> bool:
        """Whether ``move`` forces an ejection within ``n`` own moves (itself included)."""
        self.nodes += 1
        own2, opp2 = perform(own, opp, move)
        if opp2.bit_count() < opp.bit_count():
            return True
        if n == 1:
            return False
        for reply in generate(opp2, own2):
            opp3, own3 = perform(opp2, own2, reply)
            if own3.bit_count() <= _LOST or not self.forces(own3, opp3, n - 1):
                return False
        return True


def winning_moves(state: AbaloneState, n: int, prover: Prover | None = None) -> list[AbaloneMove]:
    """Every first move that forces an ejection within ``n`` moves of the side to move."""
    prover = prover or Prover()
    own, opp = sides(state)
    return [move for move in generate(own, opp) if prover.move_forces(own, opp, move, n)]


@dataclass(frozen=True)
class Verdict:
    """The smallest ``n`` (up to the limit asked) with a forced ejection, the first moves that
    force it, and the positions expanded. ``n`` is 0 when there is none."""

    n: int
    moves: list[AbaloneMove]
    nodes: int

    @property
    def unique(self) -> bool:
        return self.n > 0 and len(self.moves) == 1


def analyse(state: AbaloneState, max_n: int = MAX_N, max_nodes: int | None = None) -> Verdict:
    """The shortest forced ejection from ``state`` with every first move that achieves it
    (:class:`OutOfNodes` beyond ``max_nodes`` positions)."""
    prover = Prover(max_nodes)
    for n in range(1, max_n + 1):
        moves = winning_moves(state, n, prover)
        if moves:
            return Verdict(n, moves, prover.nodes)
    return Verdict(0, [], prover.nodes)


@dataclass(frozen=True)
class Puzzle:
    """A shipped puzzle: the position (the engine's state JSON), ``n``, the one solution."""

    id: str
    state: dict[str, Any]
    n: int
    solution: str
    source: str

    @property
    def rating(self) -> str:
        return RATINGS[self.n]

    def position(self, game: Abalone) -> AbaloneState:
        return game.state_from_json(self.state)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "n": self.n, "rating": self.rating, "solution": self.solution,
                "source": self.source, "state": self.state}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(str(data["id"]), dict(data["state"]), int(data["n"]), str(data["solution"]),
                   str(data["source"]))


def shipped() -> list[Puzzle]:
    """The puzzles in ``data/abalone.json``."""
    from qipan.puzzles.data import load

    return [Puzzle.from_json(item) for item in load("abalone.json")["puzzles"]]


def generate_puzzles(games: int, seed: int, pairings: tuple[tuple[str, str], ...] = (("easy", "medium"),),
                     per_rating: int = 4, max_nodes: int = 60_000, max_plies: int = 300, per_game: int = 2,
                     gap: int = 20, log: Callable[[str], None] | None = None) -> list[Puzzle]:
    """Puzzles from AI games: game ``i`` pairs the levels ``pairings[i % len(pairings)]`` (black,
    white) with the seed ``seed + i``; every position from the sixth move on is analysed (up to
    ``max_nodes`` positions), and one with a unique forced ejection is kept until there are
    ``per_rating`` puzzles of each rating.

    A game gives at most ``per_game`` puzzles, at least ``gap`` plies apart: a position a few
    plies after a kept one is usually its continuation (the same attack two moves on), so the set
    is spread over games instead."""
    game = Abalone()
    found: list[Puzzle] = []
    seen: set[int] = set()
    for i in range(games):
        levels = pairings[i % len(pairings)]
        kept: list[int] = []
        ply = 0
        for ply, state in game_positions(levels, seed + i, max_plies):
            if len(kept) >= per_game:
                break
            key = state.key()
            if ply >= 6 and key not in seen and (not kept or ply - kept[-1] >= gap):
                seen.add(key)
                try:
                    verdict = analyse(state, MAX_N, max_nodes)
                except OutOfNodes:
                    verdict = Verdict(0, [], max_nodes)
                if verdict.unique and sum(p.n == verdict.n for p in found) < per_rating:
                    source = f"{levels[0]} (black) against {levels[1]} (white), seed {seed + i}, move {ply + 1}"
                    puzzle = Puzzle(f"abalone-{len(found) + 1:03d}", game.state_to_json(state), verdict.n,
                                    game.action_text(state, verdict.moves[0]), source)
                    found.append(puzzle)
                    kept.append(ply)
                    if log:
                        log(f"{puzzle.id}: eject in {puzzle.n} ({puzzle.rating}), {puzzle.solution}; {source}")
                    if len(found) >= per_rating * len(RATINGS):
                        return found
        if log:
            log(f"game {i + 1} (seed {seed + i}) done at ply {ply}: {len(found)} puzzles so far")
    return found


def game_positions(levels: tuple[str, str], seed: int, max_plies: int = 300) -> Iterator[tuple[int, AbaloneState]]:
    """The positions of an AI game (black ``levels[0]``, white ``levels[1]``, random choices from
    ``seed``) with their ply, from the start until it ends or ``max_plies``; the same every time."""
    from qipan.ai import make_agent

    game = Abalone()
    agents = [make_agent(game, level) for level in levels]
    rng = random.Random(seed)
    state = game.initial_state()
    for ply in range(max_plies):
        mover = game.to_move(state)
        if mover is None:
            return
        yield ply, state
        state = game.next_state(state, agents[mover].choose(game, game.view(state, mover), rng))
