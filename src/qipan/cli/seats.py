"""Seat numbers on the command line count from 1, as people count them.

The rules core, the server API and the engine protocol count seats from 0. An option marked
``seat`` (Tellstones' ``first_player``, Sheng-Ke's ``first``) holds such a number; ``qipan play``,
``arena``, ``simulate``, ``perft`` and ``qipan games`` show and read it counted from 1, like
``--seat 2=ai`` and every board's "player 1".

>>> import qipan
>>> option = qipan.load("tellstones").options[1]
>>> describe(option)
"first_player='1' (one of 1, 2, 3, 4, random): the seat that starts, or random (a chance event); seats count from 1"
>>> rules_options("tellstones", None, {"first-player": "2"})
{'first_player': '1'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipan.core.errors import GameError, brief
from qipan.core.game import Game
from qipan.core.options import Option
from qipan.core.registry import game_class, load


def shown(option: Option, value: object) -> str:
    """``value`` as the command line writes it: a seat option's seat counted from 1."""
    text = str(value)
    return str(int(text) + 1) if option.seat and text.isdigit() else text


def describe(option: Option) -> str:
    """:meth:`Option.describe`, with a seat option's seats counted from 1."""
    if not option.seat:
        return option.describe()
    choices = ", ".join(shown(option, c) for c in option.choices or ())
    return f"{option.name}={shown(option, option.default)!r} (one of {choices}): {option.help}; seats count from 1"


def seats_of(option: Option, game: Game[Any, Any]) -> list[int]:
    """The seats (counted from 1) ``option`` may name in ``game``."""
    return [int(c) + 1 for c in option.choices or () if str(c).isdigit() and int(c) < game.num_players]


def _from_people(option: Option, value: object, game: Game[Any, Any]) -> object:
    seats = seats_of(option, game)
    text = str(value).strip().lower()
    if text.isdigit() and len(text) <= 3 and int(text) in seats:
        return str(int(text) - 1)
    words = [str(c) for c in option.choices or () if not str(c).isdigit()]
    if not text.isdigit() and text in words:
        return text
    allowed = ", ".join(map(str, seats)) + "".join(f" or {w}" for w in words)
    raise GameError(f"option {option.name.replace('_', '-')}: {brief(value, 40)} is not a seat of this game; "
                    f"choose {allowed} (seats count from 1)")


def rules_options(name: str, variant: str | None, given: Mapping[str, object]) -> dict[str, object]:
    """The options as the rules take them, from options typed on the command line: a seat
    option's seat counted from 1 becomes the rules' seat counted from 0. Checked (GameError)."""
    seat_options = {o.name: o for o in game_class(name).options if o.seat}
    plain: dict[str, object] = {}
    seats: dict[str, object] = {}
    for key, value in given.items():
        canonical = key.replace("-", "_")
        if canonical in seat_options:
            seats[canonical] = value
        else:
            plain[key] = value
    game = load(name, variant, plain)  # the other options decide how many seats there are
    return {**plain, **{key: _from_people(seat_options[key], value, game) for key, value in seats.items()}}


def load_game(name: str, variant: str | None, given: Mapping[str, object]) -> Game[Any, Any]:
    """The game built from options typed on the command line (see :func:`rules_options`)."""
    return load(name, variant, rules_options(name, variant, given))
