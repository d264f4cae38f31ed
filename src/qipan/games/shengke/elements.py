"""The rules data of Sheng-Ke: elements, their two cycles, the dice and the range table.

Everything the post left open (the dice glyphs, the range pictures) lives here as plain data, so
a corrected table is a one-line change; the game option ``ranges`` replaces the range table for
one game, written as :func:`ranges_text` writes it.

>>> ELEMENTS[GENERATES[WOOD]], ELEMENTS[OVERCOMES[WOOD]]
('fire', 'earth')
>>> range_cells(12, 2, player=0)  # c3, range 2 = left and right
(11, 13)
>>> ranges_text(RANGES)
'8/46/846/8246/7913/789123/47896/78946123'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from qipan.core.errors import GameError, brief

WOOD, FIRE, EARTH, METAL, WATER = range(5)

ELEMENTS: tuple[str, ...] = ("wood", "fire", "earth", "metal", "water")
GLYPHS: tuple[str, ...] = ("木", "火", "土", "金", "水")
COLOURS: tuple[str, ...] = ("青", "赤", "黃", "白", "玄")
"""The colour character that starts a card name of each element (青翼龍 is a wood card)."""

PINYIN: tuple[str, ...] = ("mu", "huo", "tu", "jin", "shui")

GENERATES: tuple[int, ...] = (FIRE, EARTH, METAL, WATER, WOOD)
"""生: wood → fire → earth → metal → water → wood. ``GENERATES[x]`` is what ``x`` generates."""

OVERCOMES: tuple[int, ...] = (EARTH, METAL, WATER, WOOD, FIRE)
"""剋: wood → earth → water → fire → metal → wood. ``OVERCOMES[x]`` is what ``x`` overcomes."""

ANY = -1
DICE: tuple[int, ...] = (WOOD, FIRE, EARTH, METAL, WATER, ANY)
"""[decision] Die face 1..6 → element (index 0 is face 1); ANY lets the roller pick."""

# Directions as (rows towards the opponent, columns towards the owner's right).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "front": (1, 0),
    "back": (-1, 0),
    "left": (0, -1),
    "right": (0, 1),
    "front-left": (1, -1),
    "front-right": (1, 1),
    "back-left": (-1, -1),
    "back-right": (-1, 1),
}

RANGES: dict[int, tuple[str, ...]] = {
    1: ("front",),
    2: ("left", "right"),
    3: ("front", "left", "right"),
    4: ("front", "back", "left", "right"),
    5: ("front-left", "front-right", "back-left", "back-right"),
    6: ("front-left", "front", "front-right", "back-left", "back", "back-right"),
    7: ("left", "front-left", "front", "front-right", "right"),
    8: ("front-left", "front", "front-right", "left", "right", "back-left", "back", "back-right"),
}
"""[decision] Range number → cells, read from the card owner's side. 2 and 7 are from the post."""

Ranges = Mapping[int, tuple[str, ...]]

KEYPAD: dict[str, str] = {
    "7": "front-left", "8": "front", "9": "front-right",
    "4": "left", "6": "right",
    "1": "back-left", "2": "back", "3": "back-right",
}
"""The text form of a range: its cells as the digits of a numeric keypad around the card (5),
front (towards the opponent) on top, in the order the range lists them."""

_KEY: dict[str, str] = {direction: key for key, direction in KEYPAD.items()}

MAX_RANGES_TEXT = 100
"""The longest range table read as text (the longest legal one, every range all eight cells, is 71)."""


def ranges_text(ranges: Ranges) -> str:
    """A range table as the ``ranges`` option writes it: the ranges 1..8 separated by ``/``."""
    return "/".join("".join(_KEY[d] for d in ranges[n]) for n in sorted(ranges))


def parse_ranges(text: str) -> dict[int, tuple[str, ...]]:
    """The range table written as ``text`` (see :data:`KEYPAD`); GameError naming the problem.

    >>> parse_ranges("8/46/846/8246/7913/789123/47896/78946123") == RANGES
    True
    >>> parse_ranges("8/46")
    Traceback (most recent call last):
    ...
    qipan.core.errors.GameError: the range table has 2 ranges; it needs 8 (1 to 8), separated by '/'
    """
    if len(text) > MAX_RANGES_TEXT:
        raise GameError(f"the range table is {len(text)} characters long; at most {MAX_RANGES_TEXT}")
    groups = [g.strip() for g in text.strip().split("/")]
    if len(groups) != len(RANGES):
        raise GameError(f"the range table has {len(groups)} ranges; it needs {len(RANGES)} (1 to "
                        f"{len(RANGES)}), separated by '/'")
    table: dict[int, tuple[str, ...]] = {}
    for number, group in enumerate(groups, 1):
        if not group or any(key not in KEYPAD for key in group):
            raise GameError(f"range {number} is {brief(group, 20)}: write its cells as keypad digits around "
                            "the card (5): 8 front, 2 back, 4 left, 6 right, 7 9 1 3 the diagonals")
        if len(set(group)) != len(group):
            raise GameError(f"range {number} ({group}) names a cell twice")
        table[number] = tuple(KEYPAD[key] for key in group)
    return table

SIZE = 5
"""The field is SIZE × SIZE. Cell index = (row - 1) * SIZE + column, a1 = 0, e5 = 24."""

FILES = "abcde"


def cell_name(cell: int) -> str:
    """``cell_name(12) == "c3"``."""
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int | None:
    """The cell index of ``"c3"`` (case-insensitive), or None when it is not a cell."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345":
        return None
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


def _offset(player: int, direction: str) -> tuple[int, int]:
    forward, right = DIRECTIONS[direction]
    # 甲 (player 0) sits on row 1 facing row 5 with file a on the left; 乙 sits opposite.
    return (forward, right) if player == 0 else (-forward, -right)


def range_cells(cell: int, number: int, player: int, ranges: Ranges = RANGES) -> tuple[int, ...]:
    """The on-board cells of range ``number`` around ``cell`` for a card owned by ``player``,
    in the order of the range table (:data:`RANGES` unless given)."""
    row, col = divmod(cell, SIZE)
    out = []
    for direction in ranges[number]:
        dr, dc = _offset(player, direction)
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return tuple(out)


RangeCells = tuple[dict[int, tuple[tuple[int, ...], ...]], ...]
"""``cells[player][number][cell]``: a range table worked out for every card on every cell."""


@functools.lru_cache(maxsize=64)
def range_table(text: str) -> RangeCells:
    """The range table written as ``text`` (:func:`parse_ranges`), worked out for every cell."""
    ranges = parse_ranges(text)
    return tuple(
        {n: tuple(range_cells(cell, n, p, ranges) for cell in range(SIZE * SIZE)) for n in ranges} for p in (0, 1)
    )


RANGE_CELLS: RangeCells = range_table(ranges_text(RANGES))

NEIGHBOURS: tuple[frozenset[int], ...] = tuple(
    frozenset(
        r * SIZE + c
        for r, c in ((cell // SIZE + 1, cell % SIZE), (cell // SIZE - 1, cell % SIZE),
                     (cell // SIZE, cell % SIZE + 1), (cell // SIZE, cell % SIZE - 1))
        if 0 <= r < SIZE and 0 <= c < SIZE
    )
    for cell in range(SIZE * SIZE)
)
"""Orthogonal neighbours of each cell (the two cards placed in one turn may not touch)."""


def parse_element(text: str) -> int | None:
    """Element index from an English name, pinyin, glyph or colour (case-insensitive), or None.

    >>> parse_element("Metal"), parse_element("水"), parse_element("huo")
    (3, 4, 1)
    """
    key = text.strip().lower()
    for table in (ELEMENTS, GLYPHS, PINYIN, COLOURS):
        if key in table:
            return table.index(key)
    return None
