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

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from qipan.ai.agent import Agent, Blend, GreedyAgent
from qipan.ai.search import AlphaBetaAgent, BestReplyAgent, SearchStats
from qipan.core.game import Game
from qipan.games.chinese_checkers.game import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.stragglers import cost as straggler_cost

STRAGGLER_WEIGHT = 0.15
OUTSIDE_COST = 3.0
"""What four-player hard adds to the race cost of each piece still outside its target: every such
piece needs at least one more move, and four-player races are won or lost by a move or two."""
WIN = 10000.0
_MARGIN = 1000.0  # more than any race-cost difference, less than the gap between two places


def race_cost(game: ChineseCheckers, state: ChineseCheckersState, player: int) -> float:
    """How far ``player`` still has to go: sum of d + w * d² over their pieces (0 when home)."""
    return race_costs(game, state)[player]


def race_costs(game: ChineseCheckers, state: ChineseCheckersState, outside: float = 0.0) -> list[float]:
    """:func:`race_cost` of every player, in one pass over the board (each piece outside its
    target costing ``outside`` more)."""
    tables = _cost_tables(game, outside)
    costs = [0.0] * game.num_players
    for hole, owner in enumerate(state.board):
        if owner:
            costs[owner - 1] += tables[owner - 1][hole]
    return costs


def own_cost(game: ChineseCheckers, state: ChineseCheckersState, player: int, costs: list[float]) -> float:
    """``player``'s race cost as they see it: plus, without ``blocked_target``, what the foreign
    pieces in their target cost them (:func:`qipan.games.chinese_checkers.stragglers.cost`: their
    own pieces walling such a piece in, and how far their nearest piece waits to fill its hole)."""
    return costs[player] + straggler_cost(game, state.board, player)


_TABLES: dict[tuple[int, int, float], tuple[tuple[float, ...], ...]] = {}


def _cost_tables(game: ChineseCheckers, outside: float = 0.0) -> tuple[tuple[float, ...], ...]:
    key = (game.num_players, game.config["pieces"], outside)
    if key not in _TABLES:
        tables = []
        for p in range(game.num_players):
            target = frozenset(game.target_holes(p))
            tables.append(tuple(d + STRAGGLER_WEIGHT * d * d + (0.0 if h in target else outside)
                                for h, d in enumerate(game.distance_table(p))))
        _TABLES[key] = tuple(tables)
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
    own = own_cost(game, state, player, costs)
    others = [costs[p] for p in range(n) if p != player and p not in state.finished]
    lead = (sum(others) / len(others) if others else 0.0) - own
    return WIN * _place_value(len(state.finished), n) - _MARGIN + lead


def _place_value(place: int, players: int) -> float:
    return 1 - 2 * place / (players - 1)


def _race_lead(game: Game[Any, Any], state: Any, player: int, closest: bool, outside: float = 0.0) -> float:
    """``player``'s race cost ahead of the others: of their mean, or of the closest one still
    racing (each piece outside its target costing ``outside`` more); finished games score their
    payoff times a large constant, the capture variant :func:`evaluate`."""
    assert isinstance(game, ChineseCheckers)
    if state.turn is None:
        return WIN * game.returns(state)[player]
    if game.capture:
        return evaluate(game, state, player)
    costs = race_costs(game, state, outside)
    own = own_cost(game, state, player, costs)
    if not closest:
        others = [costs[p] for p in range(game.num_players) if p != player]
        return sum(others) / len(others) - own
    racing = [costs[p] for p in range(game.num_players) if p != player and p not in state.finished]
    return (min(racing) if racing else 0.0) - own


def lead(game: Game[Any, Any], state: Any, player: int) -> float:
    """The race lead alone (centred, no place offset): for MCTS, which squashes it with tanh."""
    return _race_lead(game, state, player, closest=False)


def lead_over_leader(game: Game[Any, Any], state: Any, player: int) -> float:
    """The race lead over the closest opponent still racing (for best-reply search with three or
    more players): what decides a race is whether one finishes before the fastest opponent, so
    slowing a trailing opponent is worth nothing."""
    return _race_lead(game, state, player, closest=True)


def lead_counting_entries(game: Game[Any, Any], state: Any, player: int) -> float:
    """:func:`lead_over_leader` with every piece outside its target costing :data:`OUTSIDE_COST`
    more (four-player hard's evaluation): a move into the target is worth more than the holes it
    covers, so hard brings its last pieces in rather than stepping a piece far behind, whose
    squared distance falls more."""
    return _race_lead(game, state, player, closest=True, outside=OUTSIDE_COST)


def order(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
    """Moves that gain the most distance towards the mover's target first."""
    assert isinstance(game, ChineseCheckers)
    if state.turn is None or game.capture:
        return actions
    return _by_fall(actions, game.distance_table(state.turn))


def _by_fall(actions: list[Any], table: Sequence[float]) -> list[Any]:
    """``actions`` by how much each lowers ``table`` (per hole) for its piece, most first (a
    pass counts as no change)."""
    return sorted(actions, key=lambda m: table[m.end] - table[m.start] if m.start >= 0 else 0)


def order_by_cost(outside: float) -> Callable[[Game[Any, Any], Any, list[Any]], list[Any]]:
    """An ordering by the mover's own race cost instead of distance: the moves that lower it most
    first, each piece outside its target costing ``outside`` more (so a short step into the
    target ranks with the long jumps of the pieces behind, as the evaluation values it)."""

    def by_cost(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
        assert isinstance(game, ChineseCheckers)
        if state.turn is None or game.capture:
            return actions
        return _by_fall(actions, _cost_tables(game, outside)[state.turn])

    return by_cost


def with_turn(state: Any, player: int) -> Any:
    """The position with ``player`` to move (for best-reply search), None if they finished."""
    if player in state.finished:
        return None
    return state._replace(turn=player)


class RacePlanAgent:
    """Plans two of its own moves ahead as if the other pieces stood still: of its ``width``
    first moves that lower its race cost most, the one after which its best second move leaves
    the lowest cost (a move that fills the target wins at once). Ignores what the opponents
    may do, so it neither blocks them nor fears being blocked."""

    def __init__(self, width: int = 8, name: str = "race-plan"):
        self.width = width
        self.name = name
        self.stats = SearchStats()

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        assert isinstance(game, ChineseCheckers)
        start = time.perf_counter()
        state = game.sample_state(view, rng)
        me = state.turn
        assert me is not None
        actions = list(game.legal_actions(state))
        if game.capture or len(actions) == 1:
            return GreedyAgent(evaluate).choose(game, view, rng)
        rng.shuffle(actions)  # random tie-breaks
        table = _cost_tables(game)[me]
        actions.sort(key=lambda m: table[m.end] - table[m.start])
        best, best_value, nodes = actions[0], -math.inf, 0
        for first in actions[: self.width]:
            after = game.next_state(state, first)
            nodes += 1
            if after.turn is None or me in after.finished:
                value = WIN * game.returns(after)[me] if after.turn is None else WIN
            else:
                second, examined = self._second(game, after, me, table)
                value = -own_cost(game, after, me, race_costs(game, after)) - second
                nodes += examined
            if value > best_value:
                best, best_value = first, value
        self.stats = SearchStats(nodes, 2, time.perf_counter() - start, best_value)
        return best

    def _second(self, game: ChineseCheckers, state: ChineseCheckersState, me: int,
                table: tuple[float, ...]) -> tuple[float, int]:
        """The cost change of ``me``'s best next move, others frozen (−WIN if it finishes), and
        how many moves it looked at."""
        here = state._replace(turn=me)
        target = game.target_holes(me)
        best = 0.0
        examined = 0
        for move in game.legal_actions(here):
            if move.start < 0:
                continue
            examined += 1
            if move.end in target and me in game.next_state(here, move).finished:
                return -WIN, examined
            best = min(best, table[move.end] - table[move.start])
        return best, examined


def position_key(state: ChineseCheckersState) -> tuple[tuple[int, ...], int | None]:
    """The position without the move counters (for the searchers' repetition penalty)."""
    return state.board, state.turn


REPETITION_PENALTY = 50.0
"""What a two-player searcher's move back to a position already seen costs it: two searchers
otherwise each wait, shuffling inside their targets, for the other to move a straggler that
would give a ladder, until the move limit draws the game (a quarter of hard-against-hard games)."""


def table_key(state: ChineseCheckersState) -> tuple[Any, ...]:
    """The searchers' table key: the whole state, its board as bytes (a tenth of a tuple's memory:
    a 3-second search then holds about 55 MB instead of 110)."""
    return (bytes(state.board), *state[1:])


def _alphabeta(depth: int, time_limit: float, name: str) -> AlphaBetaAgent:
    return AlphaBetaAgent(evaluate, depth=depth, time_limit=time_limit, order=order, name=name, key=table_key,
                          repetition_penalty=REPETITION_PENALTY, position_key=position_key)


def _beam(width: int, by: Callable[[Game[Any, Any], Any, list[Any]], list[Any]] = order,
          ) -> Callable[[Game[Any, Any], Any, list[Any]], list[Any]]:
    return lambda game, state, actions: by(game, state, actions)[:width]


MEDIUM_WIDTH = 8
CROWDED = 5
"""From this many players on, medium answers the opponents instead of planning two own moves
(with six players the planner lost to easy, 41%, 33-50%, in 120 games)."""
CROWDED_SEARCHES = 0.5
"""The share of six-player medium's moves that are searched; the rest are easy's. Searching
every move, it was about as far below hard (hard won 10 of 16) as above easy (62%)."""


def _easy(game: Game[Any, Any]) -> Agent:
    """Greedy one ply on :func:`evaluate`."""
    return GreedyAgent(evaluate, name="easy")


def _medium(game: Game[Any, Any]) -> Agent:
    """Two players: alpha-beta to depth 2. Three or four: two own moves ahead, the others frozen.
    Six: at half its moves its own move against the strongest reply of any opponent
    (best-reply search to depth 2), at the others easy's, since with five others moving in
    between, two-move plans rarely survive (the capture game: best-reply search to depth 3)."""
    if game.num_players == 2:
        return _alphabeta(2, 2.0, "medium")
    if isinstance(game, ChineseCheckers) and game.capture:
        return BestReplyAgent(evaluate, with_turn, depth=3, time_limit=2.0, order=_beam(6), name="medium")
    if game.num_players >= CROWDED:
        reply = BestReplyAgent(lead_over_leader, with_turn, depth=2, time_limit=2.0, order=_beam(6), name="medium")
        return Blend(reply, _easy(game), CROWDED_SEARCHES, name="medium")
    return RacePlanAgent(width=MEDIUM_WIDTH, name="medium")


def _hard(game: Game[Any, Any]) -> Agent:
    """Two players: alpha-beta to depth 3. More: best-reply search to depth 5 (own move, the
    strongest reply of any opponent, own move, ...) over the 6 most advancing moves, valuing
    the race against the closest opponent (with four players, counting the pieces still outside
    each target, :func:`lead_counting_entries`, and, with ``blocked_target``, taking the 6 moves
    that lower that cost most, :func:`order_by_cost`)."""
    if game.num_players == 2:
        return _alphabeta(3, 3.0, "hard")
    value = lead_counting_entries if game.num_players == 4 else lead_over_leader
    # (without blocked_target the straggler plan was tuned on the distance order)
    by = order_by_cost(OUTSIDE_COST) if game.num_players == 4 and game.config["blocked_target"] else order
    return BestReplyAgent(value, with_turn, depth=5, time_limit=3.0, order=_beam(6, by), name="hard")


MAX_SECONDS = 3.0
"""The time per move of the ``max`` level."""


def _max(game: Game[Any, Any]) -> Agent:
    """Two players: hard's search, deepened for as long as :data:`MAX_SECONDS` allow (depth 4 in
    about 0.2-0.9 s, and part of depth 5)."""
    return _alphabeta(64, MAX_SECONDS, "max")


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": _easy,
    "medium": _medium,
    "hard": _hard,
    "max": _max,
}
"""easy: greedy one ply. Two players: alpha-beta to depth 2 (medium) or 3 (hard), capped at 2/3 s,
and max: the same deepened for 3 s a move. Three or four players: medium plans two of its own
moves with the others frozen (:class:`RacePlanAgent`); six: medium searches half its moves
(best-reply search to depth 2) and plays easy's at the others. Three or more: hard is best-reply
search to depth 5 over the 6 most advancing moves by the lead over the closest opponent (3 s
cap; with four players counting the pieces outside each target, :func:`lead_counting_entries`,
and its beam the 6 moves that lower that cost most); there is no max."""


def offered_levels(game: Game[Any, Any]) -> list[str]:
    """The levels of ``game``'s configuration: ``max`` only with two players.

    >>> import qipan
    >>> offered_levels(qipan.load("chinese-checkers", players=3))
    ['easy', 'medium', 'hard']
    """
    return [name for name in LEVELS if name != "max" or game.num_players == 2]


def analysis_balance(game: Game[Any, Any], state: Any, player: int, value: float) -> tuple[float, str] | None:
    """For :mod:`qipan.ai.analysis`: ``player``'s lead in the race, in moves of one hole: how many
    holes the others (the closest one still racing, with three or more players) have left to go
    beyond ``player``'s own. None in the capture game."""
    assert isinstance(game, ChineseCheckers)
    if game.capture:
        return None
    left = []
    for p in range(game.num_players):
        table = game.distance_table(p)
        left.append(sum(table[h] for h, owner in enumerate(state.board) if owner == p + 1)
                    - sum(table[h] for h in game.target_holes(p)))
    others = [left[p] for p in range(game.num_players) if p != player and p not in state.finished]
    return float((min(others) if others else 0) - left[player]), "moves"
