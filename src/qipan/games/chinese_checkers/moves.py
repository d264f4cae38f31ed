"""Moves and move generation: steps, symmetric (long) or adjacent jumps, and jump chains.

A move is identified by its start and end hole only; the jump path is recovered on demand
(:func:`find_path`), because two chains with the same start and end are the same move.

Generation works on a mutable list of cells (0 empty, otherwise occupied) in which the moving
piece's start hole is already emptied: during a chain the piece has left it, so it can be
passed over and landed on, and the piece never jumps over itself.

>>> str(Move(3, 9)), str(PASS)
('c1-d4', 'pass')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from qipan.games.chinese_checkers.board import (
    ADJACENT_JUMPS,
    HEX_JUMPS,
    HEX_NEIGHBOURS,
    NAMES,
    NEIGHBOURS,
    NUM_HOLES,
    RAYS,
)


class Move(NamedTuple):
    """A move from ``start`` to ``end`` (hole indices); ``PASS`` when a player cannot move."""

    start: int
    end: int

    def __str__(self) -> str:
        if self.start == self.end == -1:
            return "pass"
        if 0 <= self.start < NUM_HOLES and 0 <= self.end < NUM_HOLES:
            return f"{NAMES[self.start]}-{NAMES[self.end]}"
        return f"Move({self.start}, {self.end})"

    @property
    def id(self) -> int:
        """The move's integer id: ``start * 121 + end``, or ``121 * 121`` for a pass."""
        return NUM_HOLES * NUM_HOLES if self.start < 0 else self.start * NUM_HOLES + self.end


PASS = Move(-1, -1)
NUM_MOVE_IDS = NUM_HOLES * NUM_HOLES + 1

MOVES: tuple[Move, ...] = tuple(Move(s, e) for s in range(NUM_HOLES) for e in range(NUM_HOLES))
"""Every (start, end) move, indexed by id: generation never allocates a move."""


def move_from_id(action_id: int) -> Move:
    return PASS if action_id == NUM_HOLES * NUM_HOLES else MOVES[action_id]


def single_jumps(cells: Sequence[int], hole: int, long: bool) -> list[int]:
    """Landing holes of one jump from ``hole``.

    Long (symmetric) jumps go over the first piece along a line, at any distance d, to the hole
    at distance 2d when everything between is empty; adjacent jumps only use d = 1."""
    if not long:
        return [land for over, land in ADJACENT_JUMPS[hole] if cells[over] and not cells[land]]
    out = []
    for ray in RAYS[hole]:
        n = len(ray)
        i = 0
        while i < n and not cells[ray[i]]:
            i += 1
        land = 2 * i + 1
        if land >= n:
            continue
        j = i + 1
        while j <= land and not cells[ray[j]]:
            j += 1
        if j > land:
            out.append(ray[land])
    return out


def destinations(cells: Sequence[int], start: int, long: bool, chain: bool, ban: bytes) -> list[int]:
    """Sorted end holes of every move of the piece at ``start`` (whose cell must be emptied).

    ``ban[h]`` is 0 where a move may end, 1 where a chain may pass but not stop (``pass-only``
    corners) and 2 where the piece may not land at all (``forbidden`` corners)."""
    ends = {n for n in NEIGHBOURS[start] if not cells[n] and not ban[n]}
    seen = {start}
    frontier = [start]
    while frontier:
        for target in single_jumps(cells, frontier.pop(), long):
            if target not in seen and ban[target] < 2:
                seen.add(target)
                if chain:
                    frontier.append(target)
    seen.discard(start)
    ends.update(h for h in seen if not ban[h])
    return sorted(ends)


def find_path(
    cells: Sequence[int], start: int, end: int, long: bool, chain: bool, ban: bytes
) -> list[int] | None:
    """The holes a move visits, ``[start, ..., end]``: a step, or the shortest jump chain
    (first found in direction order). ``cells`` must have the start emptied. None if no path."""
    if end in NEIGHBOURS[start] and not cells[end]:
        return [start, end]
    parent = {start: start}
    frontier = [start]
    while frontier:
        nxt: list[int] = []
        for hole in frontier:
            for target in single_jumps(cells, hole, long):
                if target in parent or ban[target] >= 2:
                    continue
                parent[target] = hole
                if target == end:
                    path = [end]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(target)
        frontier = nxt if chain else []
    return None


def capture_moves(cells: Sequence[int]) -> list[Move]:
    """Legal moves of the 食棋 variant: the captures if there is any, otherwise the steps."""
    captures: list[Move] = []
    steps: list[Move] = []
    for hole in range(NUM_HOLES):
        if not cells[hole]:
            continue
        base = hole * NUM_HOLES
        for over, land in HEX_JUMPS[hole]:
            if cells[over] and not cells[land]:
                captures.append(MOVES[base + land])
        if not captures:
            for n in HEX_NEIGHBOURS[hole]:
                if not cells[n]:
                    steps.append(MOVES[base + n])
    return sorted(captures) if captures else sorted(steps)


CAPTURED: dict[tuple[int, int], int] = {
    (hole, land): over for hole in range(NUM_HOLES) for over, land in HEX_JUMPS[hole]
}
"""(start, landing) of a capture -> the captured hole."""
