"""The 121-hole star: coordinates, names, neighbours, jump rays and the six points.

Holes are numbered 0..120 in notation order: row ``a`` (player 1's home tip) to row ``q`` (the
opposite tip), left to right within a row as seen by player 1. Internally every hole also has
cube coordinates (q, r, s) with q + r + s = 0: row ``a`` is r = 8, row ``q`` is r = -8, and q
grows to the right.

>>> hole_name(0), hole_name(CENTRE), hole_name(120)
('a1', 'i5', 'q1')
>>> hole_index("D2") == hole_index("d2")
True
>>> len(HOLES), len(POINT_HOLES[1]), len(REGION15[1])
(121, 10, 15)
"""

from __future__ import annotations

from qipan.core.errors import GameError, brief

ROW_LETTERS = "abcdefghijklmnopq"

DIRECTIONS: tuple[tuple[int, int, int], ...] = (
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
)

# Point k (1..6, counter-clockwise from player 1's home at the bottom) is where
# sign * coordinate[axis] >= 5.
POINT_AXES: dict[int, tuple[int, int]] = {1: (1, 1), 2: (2, -1), 3: (0, 1), 4: (1, -1), 5: (2, 1), 6: (0, -1)}


def _on_star(q: int, r: int, s: int) -> bool:
    return min(q, r, s) >= -4 or max(q, r, s) <= 4


def _build() -> tuple[list[tuple[int, int, int]], list[str], list[int], list[int]]:
    cubes: list[tuple[int, int, int]] = []
    names: list[str] = []
    rows: list[int] = []
    numbers: list[int] = []
    for row, letter in enumerate(ROW_LETTERS):
        r = 8 - row
        number = 0
        for q in range(-8, 9):
            s = -q - r
            if _on_star(q, r, s):
                number += 1
                cubes.append((q, r, s))
                names.append(f"{letter}{number}")
                rows.append(row)
                numbers.append(number)
    return cubes, names, rows, numbers


HOLES, NAMES, ROW_OF, NUMBER_OF = _build()
"""Cube coordinates, names ("d2"), row index (0 = row a) and number in row of every hole."""

NUM_HOLES = len(HOLES)
INDEX: dict[tuple[int, int, int], int] = {cube: i for i, cube in enumerate(HOLES)}
_NAME_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
CENTRE = INDEX[(0, 0, 0)]

ROW_LENGTHS: tuple[int, ...] = tuple(ROW_OF.count(row) for row in range(17))


def _step(hole: int, direction: int, distance: int = 1) -> int | None:
    q, r, s = HOLES[hole]
    dq, dr, ds = DIRECTIONS[direction]
    return INDEX.get((q + dq * distance, r + dr * distance, s + ds * distance))


def _ray(hole: int, direction: int) -> tuple[int, ...]:
    out: list[int] = []
    distance = 1
    while (nxt := _step(hole, direction, distance)) is not None:
        out.append(nxt)
        distance += 1
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for d in range(6) if (n := _step(h, d)) is not None) for h in range(NUM_HOLES)
)
"""The on-board neighbours of every hole."""

RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for d in range(6) if len(ray := _ray(h, d)) >= 2) for h in range(NUM_HOLES)
)
"""For every hole, the holes along each line away from it (rays too short to jump along dropped)."""

ADJACENT_JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((ray[0], ray[1]) for ray in RAYS[h]) for h in range(NUM_HOLES)
)
"""For every hole, the (jumped hole, landing hole) pairs of a jump over an adjacent piece."""


def in_hexagon(hole: int) -> bool:
    """Whether ``hole`` belongs to the central hexagon of 61 holes."""
    return max(abs(c) for c in HOLES[hole]) <= 4


HEXAGON: tuple[int, ...] = tuple(h for h in range(NUM_HOLES) if in_hexagon(h))

HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in NEIGHBOURS[h] if in_hexagon(n)) if in_hexagon(h) else () for h in range(NUM_HOLES)
)
HEX_JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((a, b) for a, b in ADJACENT_JUMPS[h] if in_hexagon(b)) if in_hexagon(h) else ()
    for h in range(NUM_HOLES)
)
"""The central hexagon's steps and adjacent jumps (the 食棋 capture variant uses only these)."""


def _point_value(hole: int, point: int) -> int:
    axis, sign = POINT_AXES[point]
    return sign * HOLES[hole][axis]


POINT_OF: tuple[int, ...] = tuple(
    next((p for p in range(1, 7) if _point_value(h, p) >= 5), 0) for h in range(NUM_HOLES)
)
"""The point (1..6) a hole lies in, or 0 for the central hexagon."""

POINT_HOLES: dict[int, tuple[int, ...]] = {
    p: tuple(h for h in range(NUM_HOLES) if POINT_OF[h] == p) for p in range(1, 7)
}
"""The 10 holes of each point."""

REGION15: dict[int, tuple[int, ...]] = {
    p: tuple(
        h for h in range(NUM_HOLES) if POINT_OF[h] == p or (in_hexagon(h) and _point_value(h, p) == 4)
    )
    for p in range(1, 7)
}
"""Each point plus the 5-hole hexagon row next to it: the 15-piece camps."""

TIPS: dict[int, int] = {p: next(h for h in POINT_HOLES[p] if _point_value(h, p) == 8) for p in range(1, 7)}


def opposite_point(point: int) -> int:
    """The point across the board: 1 <-> 4, 2 <-> 5, 3 <-> 6."""
    return (point + 2) % 6 + 1


def distance(a: int, b: int) -> int:
    """Hex distance between two holes (steps needed on an empty board).

    >>> distance(hole_index("a1"), hole_index("q1"))
    16
    """
    qa, ra, sa = HOLES[a]
    qb, rb, sb = HOLES[b]
    return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))


def hole_name(hole: int) -> str:
    """The notation of a hole index."""
    return NAMES[hole]


def hole_index(name: str) -> int:
    """The hole index of a name like ``d2`` (case-insensitive); GameError if there is none."""
    key = name.strip().lower()
    if key in _NAME_INDEX:
        return _NAME_INDEX[key]
    if key[:1] in ROW_LETTERS and key[:1] and key[1:].isdigit():
        row = ROW_LETTERS.index(key[0])
        raise GameError(
            f"there is no hole {brief(name, 40)}: row {key[0]} has holes 1..{ROW_LENGTHS[row]}"
        )
    raise GameError(f"there is no hole {brief(name, 40)}: holes are a row a..q and a number, e.g. d2 or i5")
