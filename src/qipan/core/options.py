"""Typed game options and variants, parsed from JSON values or command-line strings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qipan.core.errors import GameError, choices_text

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One game option: its name, type (from the default), default, and allowed values.

    >>> Option("dice", 6, "faces of the die", choices=(4, 6)).parse("4")
    4
    >>> Option("chain", True, "chained jumps").parse("off")
    False
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    local_file: bool = False
    """The value names a file on the machine running the game: fine in the terminal, refused
    (other than the default) by the server, which must never open a client-given path."""

    @property
    def kind(self) -> type:
        return type(self.default)

    def parse(self, value: object) -> Any:
        """Convert ``value`` (a JSON value or a string) to this option's type, or raise GameError."""
        kind = self.kind
        parsed: Any
        try:
            if kind is bool:
                if isinstance(value, bool):
                    parsed = value
                elif isinstance(value, str) and value.lower() in _TRUE | _FALSE:
                    parsed = value.lower() in _TRUE
                else:
                    raise ValueError
            elif kind is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                parsed = int(value)  # type: ignore[call-overload]
            elif kind is float:
                if isinstance(value, bool):
                    raise ValueError
                parsed = float(value)  # type: ignore[arg-type]
            else:
                if not isinstance(value, str):
                    raise ValueError
                parsed = value
        except (TypeError, ValueError):
            raise GameError(
                f"option {self.name}: {value!r} is not a {kind.__name__} ({self.help})"
            ) from None
        if self.choices is not None and parsed not in self.choices:
            raise GameError(
                f"option {self.name}: {parsed!r} is not allowed; choose one of {choices_text(self.choices)}"
            )
        if self.minimum is not None and parsed < self.minimum:
            raise GameError(f"option {self.name}: {parsed} is below the minimum {self.minimum}")
        if self.maximum is not None and parsed > self.maximum:
            raise GameError(f"option {self.name}: {parsed} is above the maximum {self.maximum}")
        return parsed

    def describe(self) -> str:
        allowed = f" (one of {choices_text(self.choices)})" if self.choices else ""
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
    by_name = {o.name: o for o in declared}
    values: dict[str, Any] = {o.name: o.default for o in declared}
    values.update(variant.defaults)
    for key, raw in (given or {}).items():
        key_norm = key.replace("-", "_")
        if key_norm not in by_name:
            allowed = choices_text(sorted(by_name)) if by_name else "none"
            raise GameError(f"{game_name} has no option {key!r}; its options are: {allowed}")
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
            raise GameError(f"option {item!r} must be written KEY=VALUE, e.g. players=3")
        result[key.strip()] = value.strip()
    return result
