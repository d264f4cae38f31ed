"""Every qipan game as an OpenSpiel game (install with ``pip install 'qipan[openspiel]'``).

Importing this module registers ``qipan_abalone``, ``qipan_chinese_checkers``,
``qipan_kelighine``, ``qipan_shengke`` and ``qipan_tellstones`` with ``pyspiel``; the game
string's parameters are the variant, the game's options and ``max_game_length``.

>>> import pyspiel
>>> import qipan.openspiel
>>> game = pyspiel.load_game("qipan_tellstones(variant=round-table)")
>>> game.num_players(), game.num_distinct_actions()
(4, 110)
>>> state = game.new_initial_state()
>>> state.action_to_string(state.legal_actions()[0])
'place crown 3'

See docs/openspiel.md.
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
    import pyspiel  # type: ignore[import-not-found,unused-ignore]
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installation
    raise ModuleNotFoundError(
        f"qipan.openspiel needs {exc.name}, which is not installed: pip install 'qipan[openspiel]'", name=exc.name
    ) from exc

from qipan.core.registry import game_names
from qipan.openspiel.game import QipanGame, QipanState, game_type, short_name
from qipan.openspiel.record import dumps, loads
from qipan.rl.encoders import encoded_games

GAMES: dict[str, str] = {short_name(name): name for name in game_names() if name in encoded_games()}
"""OpenSpiel's name of each qipan game -> qipan's id (the games with an observation encoder: a game
another package registers has none, so it is not offered)."""


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for os_name, game_id in GAMES.items():
        if os_name in registered:
            continue
        cls = type(f"OpenSpiel{game_id.title().replace('-', '')}", (QipanGame,), {"game_id": game_id})
        pyspiel.register_game(game_type(game_id), cls)


_register()

__all__ = ["GAMES", "QipanGame", "QipanState", "dumps", "game_type", "loads", "short_name"]
