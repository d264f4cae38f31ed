"""Sheng-Ke heuristics and AI levels. Agents see views only and rebuild states with
``game.sample_state``.

``easy`` plans its whole turn: every order of its two placements is played out through the
resolution phase on a state sampled from its view and scored by :func:`evaluate`; an element for
a 6 is chosen by the average, over a few sampled deck orders, of a greedy turn after the pick.

>>> import qipan, random
>>> from qipan.core import Match
>>> game = qipan.load("shengke", turns=4)
>>> match = Match(game, seed=3)
>>> agent = LEVELS["easy"](game)
>>> while not match.over:
...     match.play(agent.choose(game, game.view(match.state, match.to_move), random.Random(0)))
>>> match.over, len(match.record().moves) > 8
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from qipan.ai.agent import Agent
from qipan.ai.search import ISMCTSAgent, greedy_policy
from qipan.core.game import Game
from qipan.games.shengke.game import ShengKe
from qipan.games.shengke.state import OVER, PICK, PLACE, Action, State

HAND_WEIGHT = 0.2
DECK_WEIGHT = 0.02


def evaluate(game: Game[Any, Any], state: Any, player: int) -> float:
    """Field lead (bonus included), plus a little for cards in hand and in the decks.

    A finished game scores ±100 (0 for a draw) plus the final lead, so a lost game is still
    played for the margin."""
    assert isinstance(game, ShengKe)
    scores = game.scores(state)
    other = 1 - player
    lead = scores[player] - scores[other]
    if state.phase == OVER:
        return 100.0 * game.returns(state)[player] + lead
    hands = len(state.hands[player]) - len(state.hands[other])
    decks = sum(map(len, state.decks[player])) - sum(map(len, state.decks[other]))
    return lead + HAND_WEIGHT * hands + DECK_WEIGHT * decks


class TurnPlanner:
    """Plans the rest of its turn on states sampled from its view."""

    def __init__(self, name: str = "easy", pick_samples: int = 4):
        self.name = name
        self.pick_samples = pick_samples

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Action:
        assert isinstance(game, ShengKe)
        player: int = view["player"]
        state = game.sample_state(view, rng)
        actions = list(game.legal_actions(state))
        if len(actions) == 1:
            return actions[0]
        if state.phase == PICK:
            samples = [state] + [game.sample_state(view, rng) for _ in range(self.pick_samples - 1)]
            scored = [(sum(self._greedy(game, game.next_state(s, a), player) for s in samples), a)
                      for a in actions]
        else:
            scored = [(self._best(game, game.next_state(state, a), player), a) for a in actions]
        top = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score >= top - 1e-9])

    def _mine(self, state: State, turn: int, player: int) -> bool:
        return state.turn == turn and state.phase in (PICK, PLACE) and state.current == player

    def _best(self, game: ShengKe, state: State, player: int) -> float:
        """Exhaustive over this player's remaining placements of the turn."""
        if not self._mine(state, state.turn, player):
            return evaluate(game, state, player)
        return max(self._best(game, game.next_state(state, a), player) for a in game.legal_actions(state))

    def _greedy(self, game: ShengKe, state: State, player: int) -> float:
        """One decision at a time, each by the evaluation right after it."""
        turn = state.turn
        while self._mine(state, turn, player):
            state = max((game.next_state(state, a) for a in game.legal_actions(state)),
                        key=lambda s: evaluate(game, s, player))
        return evaluate(game, state, player)

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


def planner_candidates(count: int) -> Callable[[Game[Any, Any], Any, list[Any]], list[Any]]:
    """The ``count`` actions the turn planner rates best on one sampled state (ISMCTS's root)."""
    planner = TurnPlanner()

    def prune(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
        assert isinstance(game, ShengKe)
        player = game.to_move(state)
        assert player is not None
        rate = planner._greedy if state.phase == PICK else planner._best
        scored = sorted(((rate(game, game.next_state(state, a), player), i) for i, a in enumerate(actions)),
                        reverse=True)
        return [actions[i] for _, i in scored[:count]]

    return prune


def _ismcts(name: str, candidates: int, iterations: int) -> Callable[[Game[Any, Any]], Agent]:
    def make(game: Game[Any, Any]) -> Agent:
        return ISMCTSAgent(evaluate, iterations=iterations, rollout_depth=6, scale=3.0, exploration=0.7,
                           policy=greedy_policy(evaluate, 8), prune=planner_candidates(candidates), name=name)

    return make


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": lambda game: TurnPlanner("easy"),
    "medium": _ismcts("medium", 4, 150),
    "hard": _ismcts("hard", 4, 450),
}
"""easy: the turn planner. medium/hard: information-set MCTS (150/450 iterations) over the
planner's best 4 moves; each iteration samples the hidden cards and decks from the view and
plays on greedily (best of 8 random moves) to the end of the opponent's next turn."""
