"""Nicknames: no accounts, only a name a person picks for a seat (or to chat as a spectator).

A name is stripped, 1..:data:`MAX_NAME` characters, and holds no invisible or control
character (Unicode categories C*: controls, format characters such as bidi overrides and
zero-width spaces, surrogates, private use, unassigned; nor line or paragraph separators, nor
the blank letters of :data:`BLANKS`), at least one visible character, and at most
:data:`MAX_MARKS` combining marks on any character. A seat
without a name goes by its side ("black", "player 1").

>>> check_name("  Mei "), check_name(None)
('Mei', None)
>>> check_name("Mei\\u202eieM")
Traceback (most recent call last):
...
qipan.core.errors.GameError: a name may not contain invisible or control characters (U+202E, character 4)
>>> display_name({"kind": "human", "name": "Mei"}, "black"), display_name({"kind": "human"}, "black")
('Mei', 'black')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from qipan.core.errors import GameError

MAX_NAME = 24
"""Longest nickname (characters, after stripping)."""

BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern): a name or
message of them would look empty, or like someone else's name."""
MAX_MARKS = 4
"""Most combining marks on one character: enough for any script's stacked diacritics, too few
for text that spills over the lines around it ("Zalgo")."""

SPECTATOR = "spectator"
"""What a spectator who gave no name is called in the spectators' chat."""


def check_text(value: object, what: str, longest: int) -> str:
    """``value`` stripped, if it is a string of 1..``longest`` visible-or-space characters;
    else GameError saying why (it never repeats the text)."""
    if not isinstance(value, str):
        raise GameError(f"{what} must be a string of 1..{longest} characters")
    text = value.strip()
    if not text:
        raise GameError(f"{what} is empty")
    if len(text) > longest:
        raise GameError(f"{what} is at most {longest} characters, not {len(text)}")
    marks = 0
    for at, char in enumerate(text, 1):
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp") or char in BLANKS:
            raise GameError(f"{what} may not contain invisible or control characters "
                            f"(U+{ord(char):04X}, character {at})")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise GameError(f"{what} may not stack more than {MAX_MARKS} marks on one character (character {at})")
    if all(unicodedata.category(char)[0] in "MZ" for char in text):
        raise GameError(f"{what} has no visible character")
    return text


def check_name(value: object) -> str | None:
    """A nickname from a request (None when none was given); GameError for a bad one."""
    if value is None:
        return None
    return check_text(value, "a name", MAX_NAME)


def display_name(seat: Mapping[str, Any], side: str) -> str:
    """What a seat is called: its player's nickname, or its side when they gave none."""
    name = seat.get("name")
    return name if isinstance(name, str) and name else side
