"""Kelighine, the dice race game of 陳捷's rulebook (versions 1 and 2).

>>> import qipan
>>> game = qipan.load("kelighine", version=2)
>>> game.num_players, game.pieces_per_player
(2, 3)
"""

from qipan.games.kelighine.game import Kelighine
from qipan.games.kelighine.log import explain_push
from qipan.games.kelighine.state import Action, Piece, State

__all__ = ["Action", "Kelighine", "Piece", "State", "explain_push"]
