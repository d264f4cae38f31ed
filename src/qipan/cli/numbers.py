"""Numbers on the command line: one clear message for a value that is not one, or out of range.

Typer's and click's own int and float types answer ``--games ten`` with messages such as
"Input should be a valid integer, unable to parse string as an integer" (and their wording
changes between versions); every numeric option of ``qipan`` parses through here instead.

>>> parse_whole("12", 1, 20), parse_number(" 0.5 ", 0, None)
(12, 0.5)
>>> parse_whole("ten", 1, None)
Traceback (most recent call last):
...
ValueError: 'ten' is not a whole number
>>> parse_whole("99999", 1, 65535)
Traceback (most recent call last):
...
ValueError: must be from 1 to 65535, not 99999
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import click
import typer

from qipan.core.errors import brief

MAX_DIGITS = 40
"""Longest text read as a number: longer text is refused unread."""


def _range(minimum: float | None, maximum: float | None) -> str:
    def show(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else str(x)

    if minimum is not None and maximum is not None:
        return f"from {show(minimum)} to {show(maximum)}"
    if minimum is not None:
        return f"at least {show(minimum)}"
    return f"at most {show(maximum)}" if maximum is not None else ""


def _check(value: float, text: str, minimum: float | None, maximum: float | None) -> None:
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ValueError(f"must be {_range(minimum, maximum)}, not {text}")


def _text(value: object, what: str) -> str:
    text = str(value).strip()
    if not text or len(text) > MAX_DIGITS:
        raise ValueError(f"{brief(value)} is not {what}" + (f" of at most {MAX_DIGITS} characters" if text else ""))
    return text


def parse_whole(value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` (a command-line string) as an int within the bounds, or ValueError saying why."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = _text(value, "a whole number")
        try:
            number = int(text)
        except ValueError:
            raise ValueError(f"{brief(value)} is not a whole number") from None
    _check(number, str(number), minimum, maximum)
    return number


def parse_number(value: object, minimum: float | None = None, maximum: float | None = None) -> float:
    """``value`` as a finite float within the bounds, or ValueError saying why."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        text = _text(value, "a number")
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{brief(value)} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{brief(value)} is not a finite number")
    _check(number, f"{number:g}", minimum, maximum)
    return number


def _typer_parser(parse: Callable[..., Any], minimum: Any, maximum: Any) -> Callable[[str], Any]:
    def parser(value: str) -> Any:
        try:
            return parse(value, minimum, maximum)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    return parser


def _help(text: str, minimum: float | None, maximum: float | None) -> str:
    bounds = _range(minimum, maximum)
    if not bounds:
        return text
    return f"{text[:-1]} ({bounds})." if text.endswith(".") else f"{text} ({bounds})"


def whole_option(*decls: str, help: str, minimum: int | None = None, maximum: int | None = None) -> Any:
    """A typer option holding a whole number within the bounds (they are added to the help)."""
    return typer.Option(*decls, help=_help(help, minimum, maximum), metavar="INTEGER",
                        parser=_typer_parser(parse_whole, minimum, maximum))


def number_option(*decls: str, help: str, minimum: float | None = None, maximum: float | None = None) -> Any:
    """A typer option holding a finite number within the bounds (they are added to the help)."""
    return typer.Option(*decls, help=_help(help, minimum, maximum), metavar="NUMBER",
                        parser=_typer_parser(parse_number, minimum, maximum))


class WholeNumber(click.ParamType):  # type: ignore[type-arg]
    """The same whole numbers for commands built with click directly (``qipan play GAME``)."""

    name = "integer"

    def __init__(self, minimum: int | None = None, maximum: int | None = None):
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            return parse_whole(value, self.minimum, self.maximum)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
