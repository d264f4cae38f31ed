"""Nicknames: no accounts, only a name a person picks for a seat (or to chat as a spectator).

A name is stripped, 1..:data:`MAX_NAME` characters, and holds no invisible or control
character (Unicode categories C*: controls, format characters such as bidi overrides and
zero-width spaces, surrogates, private use, unassigned; nor line or paragraph separators). A seat
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
    for at, char in enumerate(text, 1):
        if unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp"):
            raise GameError(f"{what} may not contain invisible or control characters "
                            f"(U+{ord(char):04X}, character {at})")
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
