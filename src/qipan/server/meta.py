"""What the lobby needs to know about every game: variants, options, player counts, AI levels.

>>> info = game_info("abalone")
>>> info["players"], [v["name"] for v in info["variants"]][:1]
(2, ['standard'])
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from qipan.ai.agent import agent_levels
from qipan.core import GameError, load, registry
from qipan.core.game import Game
from qipan.core.options import is_inline


def available_games() -> list[str]:
    """Registered games that import cleanly (a game still being built is left out)."""
    names = []
    for name in registry.game_names():
        try:
            registry.game_class(name)
        except (GameError, ImportError, AttributeError):
            continue
        names.append(name)
    return names


def _json_value(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def game_info(name: str) -> dict[str, Any]:
    cls = registry.game_class(name)
    counts: set[int] = set()
    for variant in cls.variants:
        counts.add(load(name, variant.name).num_players)
    players_option = next((o for o in cls.options if o.name == "players"), None)
    if players_option is not None:
        if players_option.choices:
            counts.update(int(c) for c in players_option.choices)
        else:
            for bound in (players_option.minimum, players_option.maximum):
                if bound is not None:
                    counts.add(int(bound))
    players: int | dict[str, int] = (
        counts.pop() if len(counts) == 1 else {"min": min(counts), "max": max(counts)}
    )
    default = load(name)
    return {
        "name": cls.name,
        "title": cls.title,
        "perfect_information": cls.perfect_information,
        "variants": [
            {"name": v.name, "help": v.help, "defaults": {k: _json_value(x) for k, x in v.defaults.items()}}
            for v in cls.variants
        ],
        "options": [
            {
                "name": o.name,
                "type": o.kind.__name__,
                "default": _json_value(o.default),
                "help": o.help,
                "choices": [_json_value(c) for c in o.choices] if o.choices is not None else None,
                "minimum": o.minimum,
                "maximum": o.maximum,
                "local_file": o.local_file,
                "seat": o.seat,
            }
            for o in cls.options
        ],
        "players": players,
        "levels": agent_levels(default),
        "seat_options": sorted(cls.seat_options),
    }


@functools.cache
def _meta_json() -> str:
    return json.dumps({"games": [game_info(name) for name in available_games()]})


def meta() -> dict[str, Any]:
    """Every available game's description (computed once per process)."""
    data: dict[str, Any] = json.loads(_meta_json())
    return data


def build_game(body: Mapping[str, Any]) -> Game[Any, Any]:
    """The game a request asks for: ``{"game", "variant"?, "options"?}`` (GameError if bad)."""
    name = body.get("game")
    if not isinstance(name, str):
        raise GameError(f'"game" must be one of {", ".join(available_games())}')
    variant = body.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise GameError('"variant" must be a string (a variant name) or left out')
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError('"options" must be an object like {"time_limit": 600}')
    refuse_paths(registry.game_class(name), options)
    return load(name, variant or None, options)


def refuse_paths(cls: type[Game[Any, Any]], options: Mapping[str, Any]) -> None:
    """GameError if a client's ``options`` name a file: the server never opens one (a
    ``local_file`` option takes its default or the file's content, inline)."""
    files = {option.name: option for option in cls.options if option.local_file}
    for key, given in options.items():
        # Every spelling the game reads (deck_0 and deck-0 both): a check of one alone let the
        # other name a path.
        option = files.get(str(key).replace("-", "_"))
        if option is not None and given is not None and given != option.default and not is_inline(given):
            raise GameError(
                f"option {option.name} names a file, and the server never opens files a client names; "
                f"send {option.default!r} or the file's content itself as JSON text (qipan deck json FILE "
                "prints it)"
            )


def allowed_choices(game: Game[Any, Any], given: Mapping[str, Any] | None = None) -> dict[str, list[Any]]:
    """For each option with a list of choices, the choices this configuration accepts with the
    options the client ``given`` unchanged (Tellstones' ``first_player`` offers only the seats of
    the chosen variant, Chinese Checkers' ``players`` only the counts the variant seats).

    Only the given options are carried over, not the resolved ones: a default that follows from
    another option (Kelighine's die is 6 in version 1, 4 in version 2) must follow it here too."""
    chosen = {str(key).replace("-", "_"): value for key, value in (given or {}).items()}
    allowed: dict[str, list[Any]] = {}
    for option in registry.game_class(game.name).options:
        if option.choices is None or option.local_file:
            continue
        keep = []
        for choice in option.choices:
            try:
                load(game.name, game.variant, {**chosen, option.name: choice})
            except GameError:
                continue
            keep.append(_json_value(choice))
        allowed[option.name] = keep
    return allowed


def describe(game: Game[Any, Any], given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``game`` as /api/describe answers it; ``given``: the options the client set."""
    return {
        "game": game.name,
        "variant": game.variant,
        "options": {k: _json_value(v) for k, v in game.config.items()},
        "num_players": game.num_players,
        "player_names": [game.player_name(p) for p in range(game.num_players)],
        "levels": agent_levels(game),
        "time_limit": game.time_limit(),
        "choices": allowed_choices(game, given),
    }
