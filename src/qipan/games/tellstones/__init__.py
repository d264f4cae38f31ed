"""Tellstones: King's Gambit — a game of memory and bluff with seven stones.

>>> import qipan
>>> qipan.load("tellstones", variant="round-table").num_players
4
"""

from qipan.games.tellstones.game import State, Tellstones
from qipan.games.tellstones.stones import SYMBOLS, Action

__all__ = ["SYMBOLS", "Action", "State", "Tellstones"]
