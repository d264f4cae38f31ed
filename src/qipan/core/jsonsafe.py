"""JSON from untrusted sources, bounded: size, nesting, number length and non-finite numbers.

Python's :func:`json.loads` accepts ``NaN`` and ``Infinity``, recurses once per nesting level
(a deep enough document raises ``RecursionError``), and refuses integers over 4,300 digits with
an error that is not a ``JSONDecodeError``. Every front end that reads JSON from a client, a file
or a pipe goes through :func:`loads`, which turns all of that into one :class:`GameError` with a
short message, before any game code sees the value.

>>> loads('{"cmd": "new", "game": "abalone"}')
{'cmd': 'new', 'game': 'abalone'}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
qipan.core.errors.GameError: JSON nested deeper than 32 levels
>>> loads('{"time_limit": 1e999}')
Traceback (most recent call last):
...
qipan.core.errors.GameError: JSON numbers must be finite, not 1e999
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from qipan.core.errors import GameError, brief, brief_text

T = TypeVar("T")

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (game states need about 5)."""

MAX_NUMBER_CHARS = 40
"""Longest JSON number literal accepted; every option and field fits in far fewer digits."""

_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)
"""A string (to its closing quote, or as far as it goes when it has none) or a bracket. Each
character is read once: a string that never closes must not be scanned again from every quote in
it, which made a line of ``\\"`` pairs quadratic (a 1 MiB line: most of an hour)."""


def _number(kind: type) -> Any:
    def parse(literal: str) -> Any:
        if len(literal) > MAX_NUMBER_CHARS:
            raise GameError(f"JSON number too long ({len(literal)} characters; at most {MAX_NUMBER_CHARS})")
        value = kind(literal)
        if kind is float and value in (float("inf"), float("-inf")):
            raise GameError(f"JSON numbers must be finite, not {brief_text(literal, 40)}")
        return value

    return parse


def _constant(name: str) -> Any:
    raise GameError(f"JSON numbers must be finite, not {name}")


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (a cheap check before parsing).

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        char = text[match.start()]
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def loads(text: str | bytes, *, max_chars: int | None = None, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from an untrusted source, or raise GameError with a short message.

    ``max_chars`` bounds the text's length (checked before anything else)."""
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise GameError("JSON must be UTF-8 text") from None
    if max_chars is not None and len(text) > max_chars:
        raise GameError(f"too long ({len(text)} characters; at most {max_chars})")
    if nesting_depth(text) > max_depth:
        raise GameError(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_int=_number(int), parse_float=_number(float), parse_constant=_constant)
    except GameError:
        raise
    except json.JSONDecodeError as exc:
        # json's own messages may end in "at" ("Unterminated string starting at").
        what = exc.msg.removesuffix(" at")
        raise GameError(f"not valid JSON ({what} at character {exc.pos})") from None
    except (ValueError, RecursionError):
        raise GameError("not valid JSON") from None


def load_file(path: str | Path, limit: int, what: str, parse: Callable[[Any], T]) -> T:
    """``parse`` of the JSON in the file at ``path``, read only up to ``limit`` bytes: GameError
    in one line naming the file when it cannot be read, is larger (not ``what``: "a record"),
    is not JSON or ``parse`` refuses it."""
    shown = brief(str(path))
    try:
        with open(path, "rb") as file:
            raw = file.read(limit + 1)
    except (OSError, ValueError) as exc:
        raise GameError(f"cannot read {shown}: {getattr(exc, 'strerror', None) or 'not readable'}") from None
    if len(raw) > limit:
        raise GameError(f"{shown} is larger than {limit >> 20} MiB: not {what}")
    try:
        return parse(loads(raw))
    except GameError as exc:
        raise GameError(f"{shown}: {exc}") from None
