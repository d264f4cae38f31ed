"""Game-agnostic search agents: alpha-beta, best-reply, expectimax, MCTS and information-set MCTS.

Every agent sees only the view it is given. Perfect-information agents rebuild the position
with ``game.sample_state(view, rng)`` (exact for those games); :class:`ISMCTSAgent` draws a new
full state from the view on every iteration, so hidden information only ever enters through the
game's own sampler.

This module gathers them; each lives in its own: :mod:`qipan.ai.alphabeta`,
:mod:`qipan.ai.bestreply`, :mod:`qipan.ai.expectimax`, :mod:`qipan.ai.mcts`, and what they share
in :mod:`qipan.ai.searchbase`.
"""

from qipan.ai.alphabeta import AlphaBetaAgent
from qipan.ai.bestreply import BestReplyAgent, WithTurn
from qipan.ai.expectimax import ExpectimaxAgent
from qipan.ai.mcts import ISMCTSAgent, MCTSAgent, Policy, greedy_policy
from qipan.ai.searchbase import WIN, KeyFunction, Ordering, RootLine, SearchStats
from qipan.ai.searchbase import _from_table as _from_table
from qipan.ai.searchbase import _terminal_value as _terminal_value
from qipan.ai.searchbase import _Timeout as _Timeout
from qipan.ai.searchbase import _to_table as _to_table

__all__ = [
    "WIN", "AlphaBetaAgent", "BestReplyAgent", "ExpectimaxAgent", "ISMCTSAgent", "KeyFunction", "MCTSAgent",
    "Ordering", "Policy", "RootLine", "SearchStats", "WithTurn", "greedy_policy",
]
