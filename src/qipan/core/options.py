"""Typed game options and variants, parsed from JSON values or command-line strings.

Every option is bounded: a numeric option declares either ``choices`` or both a ``minimum`` and
a ``maximum`` (declaring one without them is a programming error, refused at import), and
:meth:`Option.parse` raises nothing but :class:`GameError`, whatever it is given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qipan.core.errors import GameError, brief, choices_text

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}

MAX_NUMBER_TEXT = 40
"""Longest text read as a number (``"604800"``, ``" 1e3 "``): longer text is refused unread."""

MAX_TEXT = 4096
"""Longest string option value (a deck file path at most, Linux's PATH_MAX, or an inline deck)."""


def is_inline(value: object) -> bool:
    """Whether the value of a ``local_file`` option is the file's content itself (JSON text,
    starting with ``{``) rather than a path.

    >>> is_inline(' {"cards": []}'), is_inline("decks/mine.toml")
    (True, False)
    """
    return isinstance(value, str) and value.lstrip().startswith("{")


def _number(bound: float) -> str:
    """A bound as written in the declaration: ``604800``, not ``604800.0`` or ``6.048e+05``."""
    return str(int(bound)) if float(bound).is_integer() else repr(bound)


_KIND_NAMES = {bool: "true or false", int: "whole number", float: "finite number", str: "string"}


@dataclass(frozen=True)
class Option:
    """One game option: its name, type (from the default), default, and allowed values.

    >>> Option("dice", 6, "faces of the die", choices=(4, 6)).parse("4")
    4
    >>> Option("chain", True, "chained jumps").parse("off")
    False
    >>> Option("turns", 20, "turns in the game", minimum=2, maximum=50).parse(10**400)
    Traceback (most recent call last):
    ...
    qipan.core.errors.GameError: option turns: a number of about 401 digits is above the maximum 50
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    local_file: bool = False
    """The value names a file on the machine running the game: fine in the terminal, refused
    (other than the default) by the server, which must never open a client-given path. A value
    that :func:`is_inline` is the file's content instead, which the server accepts."""
    seat: bool = False
    """The value's digit choices are seat numbers counted from 0, as the API and the engine
    protocol count them; front ends for people show and read them counted from 1."""

    def __post_init__(self) -> None:
        kind = self.kind
        if kind not in _KIND_NAMES:
            raise TypeError(f"option {self.name}: the default must be a bool, int, float or str")
        if self.choices is not None and any(type(c) is not kind for c in self.choices):
            raise TypeError(f"option {self.name}: every choice must be a {kind.__name__} like the default")
        low, high = self.minimum, self.maximum
        if kind in (int, float) and self.choices is None and (low is None or high is None):
            raise TypeError(f"option {self.name} is numeric: declare its choices, or both a minimum "
                            "and a maximum")
        if any(b is not None and not math.isfinite(b) for b in (low, high)) or (
                low is not None and high is not None and low > high):
            raise TypeError(f"option {self.name}: the minimum and maximum must be finite, in order")
        try:
            self.parse(self.default)
        except GameError as exc:
            raise TypeError(f"option {self.name}: the default is not allowed ({exc})") from None

    @property
    def kind(self) -> type:
        return type(self.default)

    def parse(self, value: object) -> Any:
        """Convert ``value`` (a JSON value or a string) to this option's type, or raise GameError."""
        kind = self.kind
        if kind is str and isinstance(value, str) and len(value) > MAX_TEXT:
            # Not quoted at all: a long value is a whole document (an inline deck), not a word.
            raise GameError(f"option {self.name}: a text of {len(value)} characters is longer than {MAX_TEXT} "
                            "characters")
        parsed = self._convert(value)
        if parsed is None:
            raise GameError(f"option {self.name}: {brief(value, 40)} is not a {_KIND_NAMES[kind]} "
                            f"({self.help})")
        if self.choices is not None and parsed not in self.choices:
            raise GameError(f"option {self.name}: {brief(parsed, 40)} is not allowed; choose one of "
                            f"{choices_text(self.choices)}")
        if isinstance(parsed, str):
            return parsed
        if self.minimum is not None and parsed < self.minimum:
            raise GameError(f"option {self.name}: {brief(parsed, 40)} is below the minimum {_number(self.minimum)}")
        if self.maximum is not None and parsed > self.maximum:
            raise GameError(f"option {self.name}: {brief(parsed, 40)} is above the maximum {_number(self.maximum)}")
        return float(parsed) if kind is float else parsed

    def _convert(self, value: object) -> bool | int | float | str | None:
        """``value`` as this option's type (numbers not yet range-checked), or None if it is not one."""
        kind = self.kind
        if kind is str:
            return value if isinstance(value, str) else None
        if isinstance(value, str):
            text = value.strip().lower()
            if kind is bool:
                return text in _TRUE if text in _TRUE | _FALSE else None
            if not 0 < len(text) <= MAX_NUMBER_TEXT:
                return None
            try:
                value = int(text) if kind is int else float(text)
            except ValueError:
                return None
        if isinstance(value, bool):
            return value if kind is bool else None
        if kind is bool:
            return None
        if isinstance(value, float):
            if not math.isfinite(value) or (kind is int and not value.is_integer()):
                return None
            return int(value) if kind is int else value
        # An int stays an int until the range check, so a huge one never overflows a float.
        return value if isinstance(value, int) else None

    def describe(self) -> str:
        """``"players=2 (one of 2, 3): number of players"``, with the range of a bounded number."""
        if self.choices:
            allowed = f" (one of {choices_text(self.choices)})"
        elif self.minimum is not None and self.maximum is not None:
            allowed = f" ({_number(self.minimum)}..{_number(self.maximum)})"
        else:
            allowed = ""
        return f"{self.name}={self.default!r}{allowed}: {self.help}"


@dataclass(frozen=True)
class Variant:
    """A named variant: a description and the option defaults it changes."""

    name: str
    help: str
    defaults: Mapping[str, Any] = field(default_factory=dict)


def resolve_options(
    game_name: str,
    declared: tuple[Option, ...],
    variant: Variant,
    given: Mapping[str, object] | None,
) -> dict[str, Any]:
    """Merge declared defaults, the variant's defaults and the given values, checking each."""
    if given is not None and not isinstance(given, Mapping):
        raise GameError(f"options must be a mapping of names to values, not {brief(given, 40)}")
    by_name = {o.name: o for o in declared}
    values: dict[str, Any] = {o.name: o.default for o in declared}
    values.update(variant.defaults)
    for key, raw in (given or {}).items():
        key_norm = key.replace("-", "_") if isinstance(key, str) else None
        if key_norm not in by_name:
            allowed = choices_text(sorted(by_name)) if by_name else "none"
            raise GameError(f"{game_name} has no option {brief(key, 40)}; its options are: {allowed}")
        values[key_norm] = by_name[key_norm].parse(raw)
    return values


def parse_option_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Parse ``["players=3", "jump=adjacent"]`` into a dict (values stay strings).

    >>> parse_option_assignments(["players=3"])
    {'players': '3'}
    """
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise GameError(f"option {brief(item)} must be written KEY=VALUE, e.g. players=3")
        result[key.strip()] = value.strip()
    return result
