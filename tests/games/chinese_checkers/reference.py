"""A deliberately naive Chinese Checkers move generator written straight from the contract, used
to cross-check the table-driven one. Holes are cube coordinates; nothing is precomputed."""

from __future__ import annotations

Cube = tuple[int, int, int]
DIRS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def on_star(c: Cube) -> bool:
    return min(c) >= -4 or max(c) <= 4


def add(c: Cube, d: Cube, k: int = 1) -> Cube:
    return (c[0] + k * d[0], c[1] + k * d[1], c[2] + k * d[2])


def jumps(occupied: set[Cube], c: Cube, long: bool) -> set[Cube]:
    """Landings of one jump from ``c`` (``occupied`` must not contain the moving piece)."""
    out = set()
    for d in DIRS:
        for k in range(1, 9 if long else 2):
            pivot = add(c, d, k)
            if not on_star(pivot):
                break
            if pivot in occupied:
                land = add(c, d, 2 * k)
                path = [add(c, d, i) for i in range(k + 1, 2 * k + 1)]
                if all(on_star(h) and h not in occupied for h in path):
                    out.add(land)
                break
    return out


def ends(
    occupied: set[Cube], start: Cube, long: bool = True, chain: bool = True,
    no_stop: frozenset[Cube] = frozenset(), no_land: frozenset[Cube] = frozenset(),
) -> set[Cube]:
    """Every end hole of the piece on ``start``."""
    others = occupied - {start}
    result = {add(start, d) for d in DIRS if on_star(add(start, d)) and add(start, d) not in others}
    result -= no_land | no_stop
    reached: set[Cube] = set()
    todo = [start]
    while todo:
        c = todo.pop()
        for land in jumps(others, c, long):
            if land in no_land or land in reached:
                continue
            reached.add(land)
            if chain:
                todo.append(land)
    return result | (reached - {start} - no_stop)
