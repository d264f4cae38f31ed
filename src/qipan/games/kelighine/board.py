"""The Kelighine board as data: cells, tiers, colours, adjacency, corners, start cells.

Cells are small integers: ``A1..A16`` are 0..15, ``B1..B8`` 16..23, ``C1..C8`` 24..31, the corners
``D E F G`` 32..35, the start cells ``I L H K`` 36..39 and the goal ``J`` 40.

>>> cell("B7"), name(cell("B7"))
(22, 'B7')
>>> sorted(name(c) for c in ADJACENT[cell("B7")])
['A13', 'A14', 'B6', 'B8', 'C6', 'C7']
>>> [name(c) for c in sorted(indirect_cells(cell("A5")))]
['A1', 'A9', 'A13', 'B1', 'B3', 'B5', 'B7', 'C1', 'C3', 'C5', 'C7']
"""

from __future__ import annotations

from collections import deque

from qipan.core.errors import GameError, brief

NUM_CELLS = 41
D, E, F, G = 32, 33, 34, 35
I, L, H, K = 36, 37, 38, 39  # noqa: E741 - the board's own letters
J = 40
CORNERS = (D, E, F, G)
STARTS = (I, L, H, K)

NAMES: tuple[str, ...] = (
    tuple(f"A{i}" for i in range(1, 17))
    + tuple(f"B{j}" for j in range(1, 9))
    + tuple(f"C{k}" for k in range(1, 9))
    + ("D", "E", "F", "G", "I", "L", "H", "K", "J")
)
_BY_NAME = {n: i for i, n in enumerate(NAMES)}


def A(i: int) -> int:
    """Cell A(i), numbers wrapping round the ring (A(17) is A1)."""
    return (i - 1) % 16


def B(j: int) -> int:
    return 16 + (j - 1) % 8


def C(k: int) -> int:
    return 24 + (k - 1) % 8


def name(c: int) -> str:
    """The printed name of a cell."""
    return NAMES[c]


def cell(text: str) -> int:
    """The cell called ``text`` (case-insensitive); GameError if there is none."""
    key = text.strip().upper()
    if key not in _BY_NAME:
        raise GameError(
            f"unknown cell {brief(text, 40)}; cells are A1..A16, B1..B8, C1..C8, corners D E F G, "
            "start cells I L H K and the goal J"
        )
    return _BY_NAME[key]


def tier(c: int) -> int:
    """1 for A cells, 2 for B, 3 for C, 0 for corners, start cells and J."""
    if c < 16:
        return 1
    if c < 24:
        return 2
    if c < 32:
        return 3
    return 0


def number(c: int) -> int:
    """The number of a tier cell (A7 -> 7)."""
    return (c if c < 16 else c - 16 if c < 24 else c - 24) + 1


def colour(c: int) -> str | None:
    """"white" for odd-numbered cells, "black" for even ones, None for cells without a number."""
    if tier(c) == 0:
        return None
    return "white" if number(c) % 2 else "black"


def step(c: int, n: int) -> int:
    """The tier cell ``n`` steps counter-clockwise from tier cell ``c`` (negative: clockwise)."""
    t = tier(c)
    size = 16 if t == 1 else 8
    base = (0, 0, 16, 24)[t]
    return base + (c - base + n) % size


# Half-step positions on the A ring: A(k) is 2k, the corner or start cell between A(k) and A(k+1)
# is 2k+1 (mod 32). They measure the A lap (see rules contract, section 2).
GAP: dict[int, int] = {D: 33 % 32, E: 9, F: 17, G: 25, I: 5, L: 13, H: 21, K: 29}


def gap_neighbours(c: int) -> tuple[int, int]:
    """The A cells (k, k+1) on either side of a corner or start cell, clockwise one first."""
    k = (GAP[c] - 1) // 2 or 16
    return A(k), A(k + 1)


def _build_adjacency() -> tuple[frozenset[int], ...]:
    adj: list[set[int]] = [set() for _ in range(NUM_CELLS)]

    def link(x: int, y: int) -> None:
        adj[x].add(y)
        adj[y].add(x)

    for i in range(1, 17):
        link(A(i), A(i + 1))
    for j in range(1, 9):
        link(B(j), B(j + 1))
        link(B(j), A(2 * j - 1))
        link(B(j), A(2 * j))
    for k in range(1, 9):
        link(C(k), C(k + 1))
        link(C(k), B(k))
        link(C(k), B(k + 1))
        link(C(k), J)
    for x in (*CORNERS, *STARTS):
        for y in gap_neighbours(x):
            link(x, y)
    return tuple(frozenset(s) for s in adj)


ADJACENT: tuple[frozenset[int], ...] = _build_adjacency()
"""Edge adjacency of every cell (symmetric)."""


def lower_cells(c: int) -> tuple[int, ...]:
    """The cells of the next lower tier touching B or C cell ``c`` (in cell order)."""
    t = tier(c)
    return tuple(sorted(x for x in ADJACENT[c] if tier(x) == t - 1 and t >= 2))


def upper_cells(c: int) -> tuple[int, ...]:
    """Promotion targets of tier cell ``c``: the touching cells of the next tier, or J from C."""
    t = tier(c)
    if t == 3:
        return (J,)
    return tuple(sorted(x for x in ADJACENT[c] if tier(x) == t + 1))


def _distances() -> tuple[tuple[int, ...], ...]:
    # Shortest paths over A, B, C cells and corners only (rules contract, section 4, rule 1).
    graph = set(range(32)) | set(CORNERS)
    table: list[tuple[int, ...]] = []
    for source in range(NUM_CELLS):
        dist = [-1] * NUM_CELLS
        if source in graph:
            dist[source] = 0
            queue = deque([source])
            while queue:
                x = queue.popleft()
                for y in ADJACENT[x]:
                    if y in graph and dist[y] < 0:
                        dist[y] = dist[x] + 1
                        queue.append(y)
        table.append(tuple(dist))
    return tuple(table)


DISTANCE: tuple[tuple[int, ...], ...] = _distances()
"""``DISTANCE[x][y]``: path length between A/B/C cells and corners (-1 for other cells)."""


def nearest_corners(source: int, free: frozenset[int] | set[int]) -> tuple[int, ...]:
    """The free corners nearest to ``source`` (several on a tie), or () when none is free.

    >>> [name(c) for c in nearest_corners(cell("A2"), set(CORNERS))]
    ['D']
    """
    options = [c for c in CORNERS if c in free]
    if not options:
        return ()
    best = min(DISTANCE[source][c] for c in options)
    return tuple(c for c in options if DISTANCE[source][c] == best)


def _indirect(c: int) -> frozenset[int]:
    t = tier(c)
    if t == 0:
        return frozenset()
    odd = number(c) % 2
    same = {x for x in range(16, 32) if number(x) % 2 == odd}
    if t == 1:
        m = number(c)
        return frozenset({A(m + 4), A(m + 8), A(m + 12)} | same)
    if t == 2:
        return frozenset(same - {c})
    return frozenset(x for x in same if tier(x) == 3 and x != c)


INDIRECT: tuple[frozenset[int], ...] = tuple(_indirect(c) for c in range(NUM_CELLS))


def indirect_cells(last: int) -> frozenset[int]:
    """The indirect-push cells of a turn whose last piece stands on ``last`` (-1: none)."""
    return INDIRECT[last] if last >= 0 else frozenset()
