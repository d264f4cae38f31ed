"""qipan (棋盤): play, study and automate Abalone, Chinese Checkers, Kelighine, Sheng-Ke and
Tellstones with one rules engine.

>>> import qipan
>>> game = qipan.load("abalone")
>>> state = game.play(game.initial_state(), "a1b2")
>>> game.to_move(state)
1
"""

from qipan.core import (
    CHANCE,
    Game,
    GameError,
    Match,
    Option,
    Record,
    Variant,
    game_class,
    game_names,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "Game",
    "GameError",
    "Match",
    "Option",
    "Record",
    "Variant",
    "__version__",
    "game_class",
    "game_names",
    "load",
]
