"""Chinese Checkers heuristics and AI levels.

The race is measured by each piece's distance to the far tip of its target point: a full target
is exactly the set of holes closest to that tip, so the sum of distances is smallest when the
target is full. Squared distances are added so that the pieces at the back weigh more: the
player brings up stragglers instead of racing a few pieces ahead and leaving one piece behind
that has nothing left to jump over.

>>> import qipan, random
>>> game = qipan.load("chinese-checkers")
>>> agent = LEVELS["easy"](game)
>>> state = game.initial_state()
>>> move = agent.choose(game, game.view(state, 0), random.Random(1))
>>> game.action_text(state, move) in game.legal_texts(state)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qipan.ai.agent import Agent, GreedyAgent
from qipan.ai.search import AlphaBetaAgent, BestReplyAgent
from qipan.core.game import Game
from qipan.games.chinese_checkers.game import ChineseCheckers, ChineseCheckersState

STRAGGLER_WEIGHT = 0.15
WIN = 10000.0
_MARGIN = 1000.0  # more than any race-cost difference, less than the gap between two places


def race_cost(game: ChineseCheckers, state: ChineseCheckersState, player: int) -> float:
    """How far ``player`` still has to go: sum of d + w * d² over their pieces (0 when home)."""
    return race_costs(game, state)[player]


def race_costs(game: ChineseCheckers, state: ChineseCheckersState) -> list[float]:
    """:func:`race_cost` of every player, in one pass over the board."""
    tables = _cost_tables(game)
    costs = [0.0] * game.num_players
    for hole, owner in enumerate(state.board):
        if owner:
            costs[owner - 1] += tables[owner - 1][hole]
    return costs


_TABLES: dict[tuple[int, int], tuple[tuple[float, ...], ...]] = {}


def _cost_tables(game: ChineseCheckers) -> tuple[tuple[float, ...], ...]:
    key = (game.num_players, game.config["pieces"])
    if key not in _TABLES:
        _TABLES[key] = tuple(
            tuple(d + STRAGGLER_WEIGHT * d * d for d in game.distance_table(p)) for p in range(game.num_players)
        )
    return _TABLES[key]


def evaluate(game: Game[Any, Any], state: Any, player: int) -> float:
    """Higher is better for ``player``: the opponents' mean race cost minus their own, kept
    below the payoff of the best place still open (finished players and games score their
    payoff times a large constant). In the capture variant: own
    captures minus the best opponent's (solitaire: fewer pieces left is better)."""
    assert isinstance(game, ChineseCheckers)
    n = game.num_players
    if state.turn is None:
        return WIN * game.returns(state)[player]
    if game.capture:
        if n == 1:
            return -float(game.pieces_left(state))
        others = max(s for p, s in enumerate(state.scores) if p != player)
        return float(state.scores[player] - others)
    if player in state.finished:
        return WIN * _place_value(state.finished.index(player), n)
    # Below the payoff of the best place still open, so finishing now always looks better.
    costs = race_costs(game, state)
    own = costs[player]
    others = [costs[p] for p in range(n) if p != player and p not in state.finished]
    lead = (sum(others) / len(others) if others else 0.0) - own
    return WIN * _place_value(len(state.finished), n) - _MARGIN + lead


def _place_value(place: int, players: int) -> float:
    return 1 - 2 * place / (players - 1)


def lead(game: Game[Any, Any], state: Any, player: int) -> float:
    """The race lead alone (centred, no place offset): for MCTS, which squashes it with tanh."""
    assert isinstance(game, ChineseCheckers)
    if state.turn is None:
        return WIN * game.returns(state)[player]
    if game.capture:
        return evaluate(game, state, player)
    costs = race_costs(game, state)
    others = [costs[p] for p in range(game.num_players) if p != player]
    return sum(others) / len(others) - costs[player]


def order(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
    """Moves that gain the most distance towards the mover's target first."""
    assert isinstance(game, ChineseCheckers)
    if state.turn is None or game.capture:
        return actions
    table = game.distance_table(state.turn)
    return sorted(actions, key=lambda m: table[m.end] - table[m.start] if m.start >= 0 else 0)


def with_turn(state: Any, player: int) -> Any:
    """The position with ``player`` to move (for best-reply search), None if they finished."""
    if player in state.finished:
        return None
    return state._replace(turn=player)


def _beam(width: int) -> Callable[[Game[Any, Any], Any, list[Any]], list[Any]]:
    return lambda game, state, actions: order(game, state, actions)[:width]


def _search_level(name: str, depth: int, brs_depth: int, time_limit: float) -> Callable[[Game[Any, Any]], Agent]:
    """Two players: alpha-beta to ``depth``. More: best-reply search to ``brs_depth`` (own move,
    the strongest reply of any opponent, own move, ...) over the 6 most advancing moves."""

    def make(game: Game[Any, Any]) -> Agent:
        if game.num_players == 2:
            return AlphaBetaAgent(evaluate, depth=depth, time_limit=time_limit, order=order, name=name)
        return BestReplyAgent(lead, with_turn, depth=brs_depth, time_limit=time_limit, order=_beam(6), name=name)

    return make


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": lambda game: GreedyAgent(evaluate, name="easy"),
    "medium": _search_level("medium", 2, 3, 2.0),
    "hard": _search_level("hard", 3, 5, 3.0),
}
"""easy: greedy one ply. Two players: alpha-beta to depth 2 (medium) or 3 (hard), capped at 2/3 s.
More players: best-reply search over the 6 most advancing moves to depth 3 (medium) or 5
(hard). Measured in three-player games: best-reply to depth 2 lost to easy (5-7), as a reply
alone only adds pessimism (the second own move finds the jump ladders); depth 3 over all moves
lost to depth 3 over the best 6 (4-8)."""
