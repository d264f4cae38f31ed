"""The Abalone board: 61 cells, their names, and bitboard geometry.

Cells live in a padded bitboard: cell (row, number) — row 0..8 for A..I, number 1..9 along the
diagonals — is bit ``(row + PAD) * WIDTH + (number - 1 + PAD)``. The padding is wide enough that
up to five steps in any direction from a real cell land on padding, never on another real cell,
so whole sets of marbles move with one shift.

>>> cell_name(cell_index("e5"))
'e5'
>>> len(CELLS)
61
"""

from __future__ import annotations

from collections.abc import Callable
from operator import lshift, rshift

from qipan.core.errors import GameError, brief

WIDTH = 16
PAD = 5
ROWS = "abcdefghi"

# The six directions as (row step, number step), in the order used everywhere.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
# Bit offset of one step in each direction.
DELTAS: tuple[int, ...] = tuple(dr * WIDTH + dn for dr, dn in DIRECTIONS)
# The three axes (a direction and its opposite): directions 0, 1, 2 and 3, 4, 5.
AXES = (0, 1, 2)


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def _bit(row: int, number: int) -> int:
    return (row + PAD) * WIDTH + (number - 1 + PAD)


def on_board(row: int, number: int) -> bool:
    return 0 <= row <= 8 and max(1, row - 3) <= number <= min(9, row + 5)


CELLS: tuple[int, ...] = tuple(
    _bit(row, number) for row in range(9) for number in range(1, 10) if on_board(row, number)
)
"""Bit indices of the 61 cells, ordered a1, a2, ..., i9."""

NAMES: dict[int, str] = {}
INDEX: dict[str, int] = {}
for _row in range(9):
    for _number in range(1, 10):
        if on_board(_row, _number):
            NAMES[_bit(_row, _number)] = f"{ROWS[_row]}{_number}"
            INDEX[f"{ROWS[_row]}{_number}"] = _bit(_row, _number)

VALID = sum(1 << c for c in CELLS)
"""Mask of every real cell."""
UNIVERSE = (1 << ((9 + 2 * PAD) * WIDTH)) - 1
"""Mask of the whole padded bitboard."""

CENTER = INDEX["e5"]


def cell_name(cell: int) -> str:
    return NAMES[cell]


def cell_index(name: str) -> int:
    """The bit index of a cell name such as ``"e5"`` (case-insensitive)."""
    try:
        return INDEX[name.strip().lower()]
    except KeyError:
        raise GameError(f"{brief(name, 40)} is not a cell: rows are a..i, numbers 1..9 (e.g. a1, e5, i9)") from None


def row_number(cell: int) -> tuple[int, int]:
    """(row 0..8, number 1..9) of a cell."""
    return cell // WIDTH - PAD, cell % WIDTH - PAD + 1


def step(cell: int, direction: int) -> int | None:
    """The neighbour of ``cell`` in ``direction``, or None off the board."""
    target = cell + DELTAS[direction]
    return target if target in NAMES else None


def direction_between(a: int, b: int) -> int | None:
    """The direction from ``a`` to its neighbour ``b``, or None if they are not neighbours."""
    delta = b - a
    return DELTAS.index(delta) if delta in DELTAS else None


def ring(cell: int) -> int:
    """Hex distance from the centre (0 at e5, 4 on the edge)."""
    row, number = row_number(cell)
    dr, dn = row - 4, number - 5
    return max(abs(dr), abs(dn), abs(dr - dn))


def mask(cells: list[int] | tuple[int, ...]) -> int:
    result = 0
    for cell in cells:
        result |= 1 << cell
    return result


def cells_of(bits: int) -> list[int]:
    """The cells set in ``bits``, in increasing order."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells


def shift(bits: int, offset: int) -> int:
    """Move every bit by ``offset`` (positive: towards higher indices)."""
    return bits << offset if offset >= 0 else bits >> -offset


Shift = Callable[[int, int], int]

AHEAD: tuple[tuple[Shift, int], ...] = tuple((rshift, d) if d > 0 else (lshift, -d) for d in DELTAS)
"""Per direction: ``(op, k)`` such that ``op(bits, j * k)`` moves what lies ``j`` steps ahead of
each cell onto the cell. ``operator.rshift`` / ``lshift`` run as fast as writing the operator
out, while calling :func:`shift` costs a Python call: this is for the hot loops."""
