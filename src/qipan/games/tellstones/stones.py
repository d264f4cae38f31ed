"""The seven Tellstones symbols, the action value and the slot notation.

>>> SYMBOLS[parse_symbol("SH")]
'shield'
>>> SYMBOLS[parse_symbol("天秤")]
'scale'
>>> slot_label(1, 3, lines=2)
'b4'
"""

from __future__ import annotations

from typing import NamedTuple

from qipan.core.errors import GameError, brief

SYMBOLS = ("crown", "shield", "sword", "flag", "knight", "hammer", "scale")
"""The symbols in their fixed order (index = symbol id)."""

CHINESE = ("王冠", "盾牌", "寶劍", "旗幟", "騎士", "戰錘", "天秤")
ABBREVIATIONS = ("c", "sh", "sw", "f", "k", "h", "sc")
SLOTS = 7
LINE_LETTERS = "ab"

# Action kinds.
PLACE, HIDE, SWAP, PEEK, STOP, CHALLENGE, BOAST, BELIEVE, DOUBT, COUNTER, NAME, FIRST = range(12)
KIND_WORDS = ("place", "hide", "swap", "peek", "stop", "challenge", "boast", "believe", "doubt",
              "counter", "name", "first")


class Action(NamedTuple):
    """One decision. ``line`` is 0 or 1, ``a``/``b`` are 0-based slots (``b`` of a peek is 1
    when the teammate looks), ``symbol`` a symbol id; ``a`` of FIRST is the starting player."""

    kind: int
    line: int = 0
    a: int = 0
    b: int = 0
    symbol: int = 0


def parse_symbol(text: str) -> int:
    """A symbol id from its name, Chinese name, abbreviation or a unique prefix."""
    word = text.strip().lower()
    for table in (SYMBOLS, CHINESE, ABBREVIATIONS):
        if word in table:
            return table.index(word)
    matches = [i for i, name in enumerate(SYMBOLS) if word and name.startswith(word)]
    if len(matches) == 1:
        return matches[0]
    raise GameError(
        f"{brief(text, 40)} is not a stone; name one of {', '.join(SYMBOLS)} "
        f"(or {', '.join(a.upper() for a in ABBREVIATIONS)})"
    )


def slot_label(line: int, slot: int, lines: int) -> str:
    """``"4"`` for slot index 3 of a one-line game, ``"b4"`` with two lines."""
    return f"{LINE_LETTERS[line]}{slot + 1}" if lines > 1 else str(slot + 1)


def parse_slot(text: str, lines: int) -> tuple[int, int]:
    """``(line, slot)`` from ``"4"`` (one line) or ``"a4"``/``"b4"`` (two lines; ``"a4"`` is
    accepted in a one-line game too)."""
    word = text.strip().lower()
    line = 0
    if word[:1] in LINE_LETTERS and len(word) > 1:
        line = LINE_LETTERS.index(word[0])
        word = word[1:]
    elif lines > 1:
        raise GameError(f"slot {brief(text, 40)} needs its line: a1..a7 or b1..b7")
    if not word.isdecimal() or not 1 <= int(word) <= SLOTS or line >= lines:
        allowed = "1..7" if lines == 1 else "a1..a7 or b1..b7"
        raise GameError(f"{brief(text, 40)} is not a slot; slots are {allowed}")
    return line, int(word) - 1
