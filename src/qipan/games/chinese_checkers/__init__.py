"""Chinese Checkers (跳棋, Sternhalma) for 2, 3, 4 or 6 players, and the 食棋 capture variant.

>>> from qipan.games.chinese_checkers import ChineseCheckers
>>> game = ChineseCheckers(options={"players": 6})
>>> state = game.initial_state()
>>> [game.action_text(state, m) for m in game.legal_actions(state)][:4]
['c1-e5', 'c1-e7', 'c2-e6', 'c2-e8']
>>> game.move_path(state, game.parse_action(state, "c1-e5"))
['c1', 'e5']
"""

from qipan.games.chinese_checkers.board import hole_index, hole_name
from qipan.games.chinese_checkers.game import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.moves import PASS, Move

__all__ = ["PASS", "ChineseCheckers", "ChineseCheckersState", "Move", "hole_index", "hole_name"]
