"""Game-agnostic agents. Agents see views only, never a hidden-information game's full state.

>>> import qipan, random
>>> from qipan.ai import make_agent
>>> game = qipan.load("abalone")
>>> agent = make_agent(game, "hard")
>>> view = game.view(game.initial_state(), 0)
>>> agent.choose(game, view, random.Random(1)) in game.legal_actions(game.initial_state())
True
"""

from qipan.ai.agent import Agent, Blend, GreedyAgent, RandomAgent, agent_levels, make_agent, play_out
from qipan.ai.search import AlphaBetaAgent, ExpectimaxAgent, ISMCTSAgent, MCTSAgent, SearchStats

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "Blend",
    "ExpectimaxAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "SearchStats",
    "agent_levels",
    "make_agent",
    "play_out",
]
