"""Game-agnostic agents. Agents see views only, never a hidden-information game's full state.

>>> import qipan, random
>>> from qipan.ai import make_agent
>>> game = qipan.load("abalone")
>>> agent = make_agent(game, "random")
>>> view = game.view(game.initial_state(), 0)
>>> game.action_text(game.initial_state(), agent.choose(game, view, random.Random(1)))
'c3d4'
"""

from qipan.ai.agent import Agent, GreedyAgent, RandomAgent, agent_levels, make_agent

__all__ = ["Agent", "GreedyAgent", "RandomAgent", "agent_levels", "make_agent"]
