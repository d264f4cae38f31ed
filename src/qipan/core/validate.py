"""Checked reading of untrusted JSON into game states.

Every ``state_from_json`` reads data that may come from anyone (the engine's ``load``, a file,
a view to sample from). A :class:`Reader` checks one value at a time — its type, its range, its
length — and fails with a short :class:`GameError` that names the field and quotes the value
briefly, never with a Python error such as ``TypeError`` or ``OverflowError``.

>>> read = Reader("Abalone state")
>>> read.integer(3, "quiet", 0, 100)
3
>>> read.integer(float("inf"), "quiet", 0, 100)
Traceback (most recent call last):
...
qipan.core.errors.GameError: bad Abalone state: quiet must be an integer 0..100, not inf
>>> read.choice("white", "turn", ("black", "white"))
1
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from qipan.core.errors import GameError, brief, choices_text

MAX_COUNT = 10**9
"""The largest counter (moves, turns, plies) a state may hold: beyond any game anyone plays,
and far below where a number gets too long to print or to send to a browser exactly."""

MAX_ITEMS = 10_000
"""The longest list a state may hold where the rules set no length (histories, logs)."""


class Reader:
    """Checks values read from JSON; every failure is a GameError ``"bad {what}: ..."``."""

    def __init__(self, what: str):
        self.what = what

    def fail(self, message: str) -> GameError:
        """The error to raise for ``message`` (the caller raises it)."""
        return GameError(f"bad {self.what}: {message}")

    def mapping(self, value: Any, name: str) -> Mapping[str, Any]:
        """A JSON object."""
        if not isinstance(value, Mapping):
            raise self.fail(f"{name} must be a JSON object, not {brief(value, 40)}")
        return value

    def field(self, data: Mapping[str, Any], key: str) -> Any:
        """A field that must be present (``None`` is a value)."""
        if key not in data:
            raise self.fail(f"missing field {key!r}")
        return data[key]

    def integer(self, value: Any, name: str, low: int, high: int) -> int:
        """An integer ``low..high`` (a boolean or a float is not one)."""
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{name} must be an integer {low}..{high}, not {brief(value, 40)}")
        return value

    def flag(self, value: Any, name: str) -> bool:
        """``true`` or ``false``."""
        if not isinstance(value, bool):
            raise self.fail(f"{name} must be true or false, not {brief(value, 40)}")
        return value

    def text(self, value: Any, name: str, longest: int = 80) -> str:
        """A string of at most ``longest`` characters."""
        if not isinstance(value, str) or len(value) > longest:
            raise self.fail(f"{name} must be a string of at most {longest} characters, not {brief(value, 40)}")
        return value

    def choice(self, value: Any, name: str, choices: Sequence[Hashable]) -> int:
        """The index of ``value`` among ``choices`` (compared by type too: ``1`` is not ``True``)."""
        for index, choice in enumerate(choices):
            if type(value) is type(choice) and value == choice:
                return index
        raise self.fail(f"{name} must be one of {choices_text(choices)}, not {brief(value, 40)}")

    def array(self, value: Any, name: str, length: int | None = None, longest: int = MAX_ITEMS) -> list[Any]:
        """A JSON array, of exactly ``length`` items when given, else of at most ``longest``."""
        if not isinstance(value, list):
            raise self.fail(f"{name} must be a list, not {brief(value, 40)}")
        if length is not None and len(value) != length:
            raise self.fail(f"{name} must list {length} item(s), not {len(value)}")
        if len(value) > longest:
            raise self.fail(f"{name} must list at most {longest} items, not {len(value)}")
        return value

    def distinct(self, items: Sequence[Hashable], name: str) -> None:
        """Refuse a repeated item (items must be hashable: check their types first)."""
        if len(set(items)) != len(items):
            raise self.fail(f"{name} lists an item twice")


__all__ = ["MAX_COUNT", "MAX_ITEMS", "Reader"]
