"""The game string's parameters: a qipan game's variant and options, plus the bridge's own cap.

``qipan_tellstones(variant=round-table,turn_limit=40)`` names the variant and options as
``qipan.load`` takes them; qipan's own option checks validate every value. OpenSpiel types a
parameter by its default, and reads ``0`` in a game string as a whole number, so a text option
whose value looks like a number is written quoted: ``qipan_shengke(first='1')`` (the dict form,
``pyspiel.load_game("qipan_shengke", {"first": "1"})``, needs no quotes).

>>> import qipan
>>> cls = qipan.core.registry.game_class("shengke")
>>> spec = specification(cls)
>>> spec["variant"], spec["first"], spec["max_game_length"]
('standard', 'random', 2000)
>>> read_parameters(cls, {**spec, "first": "'1'", "turns": 6})
('standard', {'turns': 6, 'first': '1'}, 2000)
>>> canonical(cls, {**spec, "first": "1"})["first"]
"'1'"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipan.core.errors import GameError, brief
from qipan.core.game import Game

VARIANT = "variant"
MAX_GAME_LENGTH = "max_game_length"
DEFAULT_MAX_GAME_LENGTH = 2000
"""OpenSpiel needs a finite game length: a game still running after this many actions (chance
included) ends level, every return 0. Abalone, Kelighine and Tellstones have no bound of their own."""
LONGEST_GAME = 1_000_000

Parameter = bool | int | float | str


def specification(cls: type[Game[Any, Any]]) -> dict[str, Parameter]:
    """Every parameter of the game string with its default (which also fixes its type)."""
    spec: dict[str, Parameter] = {VARIANT: cls.variants[0].name, MAX_GAME_LENGTH: DEFAULT_MAX_GAME_LENGTH}
    for option in cls.options:
        spec[option.name] = option.default
    return spec


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _looks_typed(text: str) -> bool:
    """Whether OpenSpiel's game-string reader would take ``text`` for a bool or a number."""
    if text in ("True", "False", "true", "false"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_parameters(cls: type[Game[Any, Any]], params: Mapping[str, Any]) -> tuple[str, dict[str, Any], int]:
    """The variant, the options to give ``qipan.load`` and the length cap named by ``params``.

    OpenSpiel fills in every parameter left out, so a value equal to its default counts as not
    given: the variant's (or a preset's) value then applies. Raises GameError for bad values."""
    spec = specification(cls)
    variant = _unquote(str(params.get(VARIANT, spec[VARIANT])))
    cap = params.get(MAX_GAME_LENGTH, DEFAULT_MAX_GAME_LENGTH)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= LONGEST_GAME:
        raise GameError(f"{MAX_GAME_LENGTH} must be a whole number in 1..{LONGEST_GAME}, not {brief(cap, 40)}")
    options: dict[str, Any] = {}
    for option in cls.options:
        if option.name not in params:
            continue
        value = params[option.name]
        if option.kind is str:
            value = _unquote(str(value))
        if value != option.default:
            options[option.name] = option.parse(value)
    return variant, options, cap


def canonical(cls: type[Game[Any, Any]], params: Mapping[str, Any]) -> dict[str, Parameter]:
    """``params`` as OpenSpiel keeps them, text that looks like a number quoted, so that the game's
    string (``str(game)``, serialised games) reads back as the same game."""
    out: dict[str, Parameter] = dict(params)
    text_names = {o.name for o in cls.options if o.kind is str} | {VARIANT}
    for name in text_names & out.keys():
        value = _unquote(str(out[name]))
        out[name] = f"'{value}'" if _looks_typed(value) else value
    return out
