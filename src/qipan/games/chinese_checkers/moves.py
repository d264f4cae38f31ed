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
from functools import cache
from typing import Any, NamedTuple

from qipan.games.chinese_checkers.board import (
    ADJACENT_JUMPS,
    HEX_JUMPS,
    HEX_NEIGHBOURS,
    HOLES,
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
    return [MOVES[i] for i in capture_move_ids(cells)]


def capture_move_ids(cells: Sequence[int]) -> list[int]:
    """The ids of :func:`capture_moves`, in order (the moves sort as their ids do)."""
    captures: list[int] = []
    steps: list[int] = []
    for hole in range(NUM_HOLES):
        if not cells[hole]:
            continue
        base = hole * NUM_HOLES
        for over, land in HEX_JUMPS[hole]:
            if cells[over] and not cells[land]:
                captures.append(base + land)
        if not captures:
            for n in HEX_NEIGHBOURS[hole]:
                if not cells[n]:
                    steps.append(base + n)
    return sorted(captures) if captures else sorted(steps)


CAPTURED: dict[tuple[int, int], int] = {
    (hole, land): over for hole in range(NUM_HOLES) for over, land in HEX_JUMPS[hole]
}
"""(start, landing) of a capture -> the captured hole."""


# --- legal move ids straight from the board (the fast path of the learning environments) ---------
#
# The board is read as lines: every hole lies on three, and a line's occupancy is one small int
# (bit i: a piece on the i-th hole along it). The jumps from a hole along a line depend only on
# that int, so a table per (line length, position) answers them with one look-up: a code for the
# pair (distance of the landing hole ahead, distance behind), 0 meaning no jump that way.
# Adjacent jumps skip the lines: two byte look-ups per jump cost less than keeping them.


def _lines() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """Every line of holes (in order along directions 0, 1 and 2), and per hole its
    (line, position) on its three lines."""
    lines: list[tuple[int, ...]] = []
    where: list[list[tuple[int, int]]] = [[] for _ in range(NUM_HOLES)]
    for constant, along in ((2, 0), (1, 0), (0, 1)):  # the cube coordinate fixed on the line, the one growing
        groups: dict[int, list[int]] = {}
        for hole, cube in enumerate(HOLES):
            groups.setdefault(cube[constant], []).append(hole)
        for key in sorted(groups):
            line = sorted(groups[key], key=lambda h: HOLES[h][along])
            for pos, hole in enumerate(line):
                where[hole].append((len(lines), pos))
            lines.append(tuple(line))
    return tuple(lines), tuple(tuple(w) for w in where)


LINES, _ON_LINES = _lines()
_LINE_BITS = tuple(tuple((line, 1 << pos) for line, pos in _ON_LINES[h]) for h in range(NUM_HOLES))
_STEP_BITS = tuple(sum(1 << n for n in NEIGHBOURS[h]) for h in range(NUM_HOLES))


def _landing(pattern: int, length: int, long: bool) -> int:
    """Distance to the landing hole of a jump over ``pattern`` (bit i: a piece i + 1 holes away,
    ``length`` holes on the board that way), or 0 when there is no jump."""
    if not pattern:
        return 0
    i = (pattern & -pattern).bit_length() - 1  # the first piece: i + 1 holes away
    land = 2 * i + 1
    if (i and not long) or land >= length or pattern >> (i + 1) & ((1 << (land - i)) - 1):
        return 0
    return land + 1


def _reversed(pattern: int, length: int) -> int:
    return int(format(pattern, f"0{length}b")[::-1], 2) if length else 0


@cache
def _codes(length: int, pos: int, long: bool) -> list[int]:
    """For every occupancy of a line of ``length`` holes, the jumps from the hole at ``pos`` as
    ``ahead * (pos + 1) + behind`` (the landing distances each way, 0 for none)."""
    after = length - pos - 1
    ahead = [_landing(p, after, long) for p in range(1 << after)]
    behind = [_landing(_reversed(p, pos), pos, long) for p in range(1 << pos)]
    # Occupancy p = (holes ahead) << (pos + 1) | (the hole itself) << pos | (holes behind).
    return [a * (pos + 1) + b for a in ahead for b in behind * 2]


_Jumps = tuple[int, list[int], tuple[int, ...], int, list[int], tuple[int, ...], int, list[int], tuple[int, ...]]


@cache
def _jump_tables(long: bool) -> tuple[_Jumps, ...]:
    """Per hole, for each of its three lines in turn: the line, its :func:`_codes` table and the
    landing holes of each code as a bitboard (flat, to be unpacked in one go)."""
    tables = []
    for hole in range(NUM_HOLES):
        entries: list[Any] = []
        for line, pos in _ON_LINES[hole]:
            holes = LINES[line]
            ahead = [0, *(1 << h for h in holes[pos + 1:])]  # by distance
            behind = [0, *(1 << h for h in reversed(holes[:pos]))]
            landings = tuple(ahead[a] | behind[b] for a in range(len(ahead)) for b in range(pos + 1))
            entries += (line, _codes(len(holes), pos, long), landings)
        tables.append(tuple(entries))
    return tuple(tables)


@cache
def _ban_bits(ban: bytes) -> tuple[int, int]:
    """(holes where a move may end, holes a chain may pass) as bitboards."""
    return (sum(1 << h for h in range(NUM_HOLES) if not ban[h]),
            sum(1 << h for h in range(NUM_HOLES) if ban[h] < 2))


_ADJACENT = tuple(tuple((over, land, 1 << land) for over, land in ADJACENT_JUMPS[h]) for h in range(NUM_HOLES))
_DIGITS = b"0" + b"1" * 255  # -> "0" empty, "1" occupied: read reversed in base 2, the bitboard
_HOLE_BITS = tuple(1 << h for h in range(NUM_HOLES))


@cache
def _adjacent_jumps(ban: bytes) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per hole, its adjacent jumps (jumped hole, landing hole, landing bit) that may land."""
    return tuple(tuple(jump for jump in _ADJACENT[h] if ban[jump[1]] < 2) for h in range(NUM_HOLES))


def _adjacent_ends(board: Sequence[int], mark: int, chain: bool, ban: bytes) -> list[tuple[int, int]]:
    """:func:`move_ends` for adjacent jumps: a jump is two byte look-ups (the jumped hole full,
    the landing hole empty), cheaper than the line tables (and their occupancy per line) when a
    jump never goes further; the steps come from the occupancy bitboard."""
    jumps = _adjacent_jumps(ban)
    stop_ok = _ban_bits(ban)[0]
    cells = bytes(board)  # 0 empty, otherwise occupied
    free = stop_ok & ~int(cells.translate(_DIGITS)[::-1], 2)
    result = []
    start = cells.find(mark)
    while start >= 0:
        if chain:
            # The start may stay occupied: each jump moves twice a unit step, so a chain never
            # reaches a neighbour of the start to jump over it (and the start itself is seen).
            seen = _HOLE_BITS[start]
            reached = [start]
            for hole in reached:  # grows as it goes: a breadth-first search
                for over, land, bit in jumps[hole]:
                    if cells[over] and not cells[land] and not seen & bit:
                        seen |= bit
                        reached.append(land)
            result.append((start, (seen ^ _HOLE_BITS[start]) & stop_ok | _STEP_BITS[start] & free))
        else:
            ends = _STEP_BITS[start] & free
            for over, land, bit in jumps[start]:
                if cells[over] and not cells[land]:
                    ends |= bit
            result.append((start, ends & stop_ok))
        start = cells.find(mark, start + 1)
    return result


def move_ends(board: Sequence[int], mark: int, long: bool, chain: bool, ban: bytes) -> list[tuple[int, int]]:
    """Per piece marked ``mark`` (in hole order): its hole and the holes its moves end on, as a
    bitboard (bit h: hole h) — the moves :func:`destinations` gives, in bulk, without a move
    object or a list of cells per piece (the fast path of the learning environments)."""
    if not long:
        return _adjacent_ends(board, mark, chain, ban)
    jumps = _jump_tables(long)
    stop_ok, pass_ok = _ban_bits(ban)
    occupied = 0
    lines = [0] * len(LINES)
    starts = []
    for hole, value in enumerate(board):
        if value:
            occupied |= 1 << hole
            for line, bit in _LINE_BITS[hole]:
                lines[line] |= bit
            if value == mark:
                starts.append(hole)
    result = []
    for start in starts:
        for line, bit in _LINE_BITS[start]:  # the moving piece has left its hole
            lines[line] ^= bit
        seen = 1 << start
        frontier = [start]
        while frontier:
            line0, codes0, landings0, line1, codes1, landings1, line2, codes2, landings2 = jumps[frontier.pop()]
            new = (landings0[codes0[lines[line0]]] | landings1[codes1[lines[line1]]]
                   | landings2[codes2[lines[line2]]]) & pass_ok & ~seen
            seen |= new
            while chain and new:
                low = new & -new
                frontier.append(low.bit_length() - 1)
                new ^= low
        for line, bit in _LINE_BITS[start]:
            lines[line] ^= bit
        result.append((start, (seen & ~(1 << start) | _STEP_BITS[start] & ~occupied) & stop_ok))
    return result


def legal_move_ids(board: Sequence[int], mark: int, long: bool, chain: bool, ban: bytes) -> list[int]:
    """The ids of every move of the pieces marked ``mark`` — the moves :func:`destinations`
    gives, in the same order (by start, then end) — or the pass's id when there is none."""
    ids: list[int] = []
    for start, ends in move_ends(board, mark, long, chain, ban):
        base = start * NUM_HOLES
        while ends:
            low = ends & -ends
            ids.append(base + low.bit_length() - 1)
            ends ^= low
    return ids or [PASS.id]
