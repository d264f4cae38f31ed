"""Abalone: push six of the opponent's marbles off the board.

>>> from qipan.games.abalone import Abalone
>>> game = Abalone(variant="german-daisy")
>>> len(game.legal_actions(game.initial_state()))
80
"""

from qipan.games.abalone.game import Abalone, AbaloneState
from qipan.games.abalone.moves import AbaloneMove

__all__ = ["Abalone", "AbaloneMove", "AbaloneState"]
