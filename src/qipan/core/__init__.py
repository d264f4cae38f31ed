"""The game protocol, registry, records and matches shared by every game and front end."""

from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.match import Match
from qipan.core.options import Option, Variant
from qipan.core.record import Move, Record
from qipan.core.registry import game_class, game_names, load, register

__all__ = [
    "CHANCE",
    "Game",
    "GameError",
    "Match",
    "Move",
    "Option",
    "Record",
    "Variant",
    "game_class",
    "game_names",
    "load",
    "register",
]
