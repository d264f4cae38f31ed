"""Chinese Checkers solitaire: bring one player's pieces across the empty star in few moves.

The pieces start on the first ``rows`` rows of point 1 (all ten with ``rows=4``) and must fill
the same triangle at the far tip of point 4. Moves are the race's own: :class:`Solitaire` asks a
two-player :class:`~qipan.games.chinese_checkers.ChineseCheckers` game (with the chosen ``jump``,
``chain`` and ``other_corners`` options) for red's legal moves in a state where blue has no
pieces, so the puzzle follows every rule of the engine and nothing else.

Two solvers, both counting the positions they expand:

* :func:`shortest` is exact: a bidirectional breadth-first search. A move read backwards is a
  move (steps, and jump chains over pieces that stay put, are symmetric), so the search from the
  target uses the same generator. Use it for small instances and end positions.
* :func:`lower_bound` proves that no crossing is shorter than a bound (exact when it finds one
  that short): iterative deepening on the moves that bring no piece into the target.
* :func:`crossing` is a heuristic beam search from both ends meeting in the middle (Bell's
  bidirectional idea with a beam instead of a complete frontier): it finds Levenspiel's 27-move
  optimum with adjacent jumps, but proves nothing.

>>> from qipan.games.chinese_checkers import hole_name
>>> puzzle = Solitaire(rows=2)
>>> [hole_name(h) for h in puzzle.start], [hole_name(h) for h in puzzle.target]
(['a1', 'b1', 'b2'], ['p1', 'p2', 'q1'])
>>> result = shortest(Solitaire(rows=1))
>>> len(result.moves), result.nodes
(16, 83)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from qipan.core.errors import GameError
from qipan.games.chinese_checkers.board import (
    HOLES,
    INDEX,
    NUM_HOLES,
    POINT_HOLES,
    ROW_OF,
    TIPS,
    distance,
)
from qipan.games.chinese_checkers.game import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.moves import Move

Pieces = tuple[int, ...]
"""A position: the sorted holes of the pieces."""

ROTATED: tuple[int, ...] = tuple(INDEX[(-q, -r, -s)] for q, r, s in HOLES)
"""The half turn about the centre: point 1 onto point 4, and every move onto a move."""


def rotate(pieces: Iterable[int]) -> Pieces:
    """The position turned half round (the start triangle becomes the target)."""
    return tuple(sorted(ROTATED[h] for h in pieces))


class Solitaire:
    """One player's pieces alone on the star, from the tip rows of point 1 to those of point 4."""

    def __init__(self, rows: int = 4, jump: str = "adjacent", chain: bool = True,
                 other_corners: str = "allowed") -> None:
        if not 1 <= rows <= 4:
            raise GameError(f"a solitaire triangle has 1 to 4 rows, not {rows}")
        self.rows = rows
        self.game = ChineseCheckers(options={"jump": jump, "chain": chain, "other_corners": other_corners})
        first = min(ROW_OF[h] for h in POINT_HOLES[1])
        self.start: Pieces = tuple(sorted(h for h in POINT_HOLES[1] if ROW_OF[h] < first + rows))
        self.target: Pieces = rotate(self.start)

    def __repr__(self) -> str:
        return f"Solitaire(rows={self.rows}, jump={self.game.config['jump']!r})"

    def state(self, pieces: Iterable[int]) -> ChineseCheckersState:
        """The engine state: these red pieces, no blue ones, red to move."""
        board = [0] * NUM_HOLES
        for h in pieces:
            board[h] = 1
        return ChineseCheckersState(tuple(board), 0)

    def moves(self, pieces: Pieces) -> list[Move]:
        """Every legal move, from the engine."""
        return list(self.game.legal_actions(self.state(pieces)))

    def is_solved(self, pieces: Iterable[int]) -> bool:
        return tuple(sorted(pieces)) == self.target

    def replay(self, moves: Sequence[Move], pieces: Pieces | None = None) -> Pieces:
        """Play ``moves`` through the engine (``is_legal`` and ``next_state``) and return where
        the pieces end; GameError naming the first illegal move."""
        state = self.state(self.start if pieces is None else pieces)
        for number, move in enumerate(moves, 1):
            if not self.game.is_legal(state, move):
                raise GameError(f"move {number} ({move}): {self.game.explain_illegal(state, move)}")
            state = self.game.next_state(state, move)._replace(turn=0)
        return tuple(h for h in range(NUM_HOLES) if state.board[h])

    def parse(self, texts: Iterable[str], pieces: Pieces | None = None) -> list[Move]:
        """Moves written ``a1-b2`` (checked by the engine's parser, in sequence)."""
        current = self.start if pieces is None else pieces
        out = []
        for text in texts:
            move = self.game.parse_action(self.state(current), text)
            out.append(move)
            current = play(current, move)
        return out


def play(pieces: Pieces, move: Move) -> Pieces:
    """The position after ``move`` (which must be legal)."""
    return tuple(sorted([h for h in pieces if h != move.start] + [move.end]))


def successors(puzzle: Solitaire, pieces: Pieces) -> list[tuple[Move, Pieces]]:
    return [(move, play(pieces, move)) for move in puzzle.moves(pieces)]


@dataclass(frozen=True)
class Result:
    """A solver's answer: the moves (None when none was found) and the positions expanded."""

    moves: list[Move] | None
    nodes: int


def _path(parents: dict[Pieces, tuple[Pieces, Move] | None], pieces: Pieces) -> list[Move]:
    moves = []
    while (link := parents[pieces]) is not None:
        pieces, move = link
        moves.append(move)
    return moves[::-1]


def _join(forward: dict[Pieces, tuple[Pieces, Move] | None], backward: dict[Pieces, tuple[Pieces, Move] | None],
          meet: Pieces) -> list[Move]:
    """The forward path to ``meet`` and the backward path from it, turned into forward moves."""
    back = _path(backward, meet)
    return _path(forward, meet) + [Move(m.end, m.start) for m in reversed(back)]


def shortest(puzzle: Solitaire, pieces: Pieces | None = None, max_nodes: int = 200_000) -> Result:
    """An optimal crossing from ``pieces`` (the start by default) by bidirectional breadth-first
    search; ``moves`` is None if ``max_nodes`` positions were expanded first."""
    start = puzzle.start if pieces is None else tuple(sorted(pieces))
    if start == puzzle.target:
        return Result([], 0)
    sides: list[dict[Pieces, tuple[Pieces, Move] | None]] = [{start: None}, {puzzle.target: None}]
    layers = [[start], [puzzle.target]]
    nodes = 0
    while layers[0] and layers[1]:
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        mine, other = sides[side], sides[1 - side]
        nxt = []
        for position in layers[side]:
            nodes += 1
            if nodes > max_nodes:
                return Result(None, nodes)
            for move, child in successors(puzzle, position):
                if child in mine:
                    continue
                mine[child] = (position, move)
                if child in other:
                    # The first meeting is optimal: both sides were complete to their depth.
                    return Result(_join(sides[0], sides[1], child), nodes)
                nxt.append(child)
        layers[side] = nxt
    return Result(None, nodes)


@dataclass(frozen=True)
class Bound:
    """A proved lower bound on the moves of a crossing; ``exact`` when a crossing that short was
    found (the bound is then the optimum). ``nodes``: the positions expanded."""

    moves: int
    exact: bool
    nodes: int


class _OutOfNodes(Exception):
    pass


def lower_bound(puzzle: Solitaire, pieces: Pieces | None = None, max_nodes: int = 50_000) -> Bound:
    """The fewest moves a crossing from ``pieces`` (the start by default) can take, as far as
    ``max_nodes`` expanded positions prove.

    A move changes the number of pieces in the target by +1, 0 or -1, so a crossing with k pieces
    outside the target takes k + w moves, where its waste w counts 1 for each move that brings no
    piece in and 2 for each that takes one out. A depth-first search (moves bringing a piece in
    first, failures remembered with their budget) shows that no crossing wastes 0, 1, 2, ... moves
    in turn; the first waste with a crossing gives the optimum."""
    start = puzzle.start if pieces is None else tuple(sorted(pieces))
    target = frozenset(puzzle.target)
    failed: dict[Pieces, int] = {}
    nodes = 0

    def waste(move: Move) -> int:
        return (move.end not in target) + (move.start in target)

    def feasible(position: Pieces, budget: int) -> bool:
        nonlocal nodes
        if position == puzzle.target:
            return True
        if failed.get(position, -1) >= budget:
            return False
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        for cost, move in sorted(((waste(m), m) for m in puzzle.moves(position)), key=lambda c: c[0]):
            if cost <= budget and feasible(play(position, move), budget - cost):
                return True
        failed[position] = budget
        return False

    bound = sum(h not in target for h in start)
    try:
        while not feasible(start, bound - sum(h not in target for h in start)):
            bound += 1
    except _OutOfNodes:
        return Bound(bound, False, nodes - 1)
    return Bound(bound, True, nodes)


def _cost(table: Sequence[int], pieces: Pieces, weight: float) -> float:
    return sum(table[h] + weight * table[h] * table[h] for h in pieces)


_TO_TARGET = tuple(distance(h, TIPS[4]) for h in range(NUM_HOLES))


def crossing(puzzle: Solitaire, width: int = 4000, weight: float = 0.05, max_depth: int = 40) -> Result:
    """A short crossing from the start by beam search from both ends.

    Each side keeps the ``width`` best new positions of every depth, best by the pieces'
    distances d to the far tip (sum of d + weight * d², which brings up stragglers). A move that
    reaches a position the other side kept joins a crossing; the search keeps the shortest and
    stops once it is no longer than twice the depth searched (its middle has been passed). The
    two sides are the same search turned half round, so only one is run."""
    seen: dict[Pieces, tuple[Pieces, Move] | None] = {puzzle.start: None}
    depth_of = {puzzle.start: 0}
    layer = [puzzle.start]
    nodes = 0
    best: tuple[int, Pieces, Pieces, Move] | None = None
    for depth in range(max_depth):
        found: dict[Pieces, tuple[Pieces, Move]] = {}
        for position in layer:
            nodes += 1
            for move, child in successors(puzzle, position):
                back = depth_of.get(rotate(child))
                if back is not None and (best is None or depth + 1 + back < best[0]):
                    best = (depth + 1 + back, position, child, move)
                if child not in seen and child not in found:
                    found[child] = (position, move)
        if best is not None and best[0] <= 2 * (depth + 1):
            break
        layer = sorted(found, key=lambda p: _cost(_TO_TARGET, p, weight))[:width]
        for child in layer:
            seen[child] = found[child]
            depth_of[child] = depth + 1
    if best is None:
        return Result(None, nodes)
    _, position, child, move = best
    # The backward half is the forward path to rotate(child), turned half round and reversed.
    tail = [Move(ROTATED[m.end], ROTATED[m.start]) for m in reversed(_path(seen, rotate(child)))]
    return Result([*_path(seen, position), move, *tail], nodes)


def notation(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


__all__ = ["ROTATED", "Bound", "Pieces", "Result", "Solitaire", "crossing", "lower_bound", "notation", "play",
           "rotate", "shortest", "successors"]
