"""Sheng-Ke heuristics and AI levels. Agents see views only and rebuild states with
``game.sample_state``.

``easy`` plans its whole turn: every order of its two placements is played out through the
resolution phase on a state sampled from its view and scored by :func:`evaluate`; an element for
a 6 is chosen by the average, over a few sampled deck orders, of a greedy turn after the pick.
``medium`` and ``hard`` (:class:`TurnSearch`) also play the opponent's reply: each of the best
few turns is tried on many sampled deals with the same dice, the opponent answering greedily.

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

import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from qipan.ai.agent import Agent
from qipan.ai.search import SearchStats
from qipan.core.game import Game
from qipan.games.shengke.cards import DECK_SIZE
from qipan.games.shengke.elements import OVERCOMES, SIZE, range_table
from qipan.games.shengke.game import ShengKe
from qipan.games.shengke.state import EMPTY, OVER, PICK, PLACE, ROLL, Action, Place, State

HAND_WEIGHT = 0.2
DECK_WEIGHT = 0.02
EXPOSED_WEIGHT = 0.3


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


@functools.lru_cache(maxsize=64)
def reach(ranges: str) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """``reach(ranges)[player][number][cell]``: the cells from which a card of ``player`` with
    out-range ``number`` covers ``cell``, under the range table ``ranges`` (the game option)."""
    table = []
    for p in (0, 1):
        by_number: list[tuple[tuple[int, ...], ...]] = [()] * 9
        for n, cells in range_table(ranges)[p].items():
            by_number[n] = tuple(tuple(c for c in range(SIZE * SIZE) if x in cells[c]) for x in range(SIZE * SIZE))
        table.append(tuple(by_number))
    return tuple(table)


OVERCOME_BY: tuple[int, ...] = tuple(OVERCOMES.index(e) for e in range(5))
"""``OVERCOME_BY[e]``: the element that overcomes ``e``."""


def exposed(game: ShengKe, state: State, player: int) -> int:
    """How many of ``player``'s cards on the field the opponent could destroy with one placement:
    a card of the overcoming element that is still in the opponent's hand or decks, whose
    out-range covers it from an empty cell."""
    opponent = 1 - player
    field = state.field
    base = opponent * DECK_SIZE
    gone = set(state.discards[opponent])
    outs: list[set[int]] = [set() for _ in range(5)]
    for i in range(DECK_SIZE):
        if field.count(base + i) == 0 and i not in gone:
            outs[game.card_elements[base + i]].add(game.card(base + i).range_out)
    covers = reach(game.config["ranges"])[opponent]
    count = 0
    low, high = player * DECK_SIZE, (player + 1) * DECK_SIZE
    for x, key in enumerate(field):
        if low <= key < high:
            numbers = outs[OVERCOME_BY[game.card_elements[key]]]
            if any(field[c] == EMPTY for n in numbers for c in covers[n][x]):
                count += 1
    return count


def deep_evaluate(game: Game[Any, Any], state: Any, player: int) -> float:
    """:func:`evaluate` minus ``EXPOSED_WEIGHT`` per own card the opponent could destroy with one
    placement, plus as much per such card of the opponent."""
    assert isinstance(game, ShengKe)
    value = evaluate(game, state, player)
    if state.phase == OVER:
        return value
    return value + EXPOSED_WEIGHT * (exposed(game, state, 1 - player) - exposed(game, state, player))


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

    def _best(self, game: ShengKe, state: State, player: int) -> float:
        """Exhaustive over this player's remaining placements of the turn."""
        if not _mine(state, state.turn, player):
            return evaluate(game, state, player)
        return max(self._best(game, game.next_state(state, a), player) for a in game.legal_actions(state))

    def _greedy(self, game: ShengKe, state: State, player: int) -> float:
        """One decision at a time, each by the evaluation right after it."""
        turn = state.turn
        while _mine(state, turn, player):
            state = max((game.next_state(state, a) for a in game.legal_actions(state)),
                        key=lambda s: evaluate(game, s, player))
        return evaluate(game, state, player)

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


class TurnSearch:
    """Chooses among whole turns by playing each against the opponent's reply on sampled deals.

    The candidates are the ``plans`` best sequences of this player's remaining placements by
    ``leaf`` right after the turn (one per distinct result), or each element for a 6. Every
    candidate is played on the same ``samples`` states drawn from the view with the same dice:
    the rest of this turn greedily, then the opponent's turn greedily (each placement by the
    evaluation of its resolution), then ``leaf`` scores the result. The best mean wins, and the
    rest of the chosen plan is played on the next decisions of the turn. With ``time_limit``
    (seconds), deals are added one round at a time (one more deal for every candidate) until the
    time runs out, in place of the fixed ``samples``. ``stats``: nodes are playouts, depth the
    number of candidates.
    """

    analysed = True
    """:func:`qipan.ai.analysis.analyse` can analyse with it (see ``analysis_lines``)."""

    def __init__(self, name: str = "turns", plans: int = 6, samples: int = 16,
                 leaf: Callable[[Game[Any, Any], Any, int], float] = evaluate, time_limit: float | None = None):
        self.name = name
        self.plans = plans
        self.samples = samples
        self.time_limit = time_limit
        """With a time limit, deals are added round by round until it runs out (at least one)."""
        self.leaf = leaf
        self.stats = SearchStats()
        self._rest: list[Action] = []
        self._rest_at: tuple[int, tuple[int, ...]] | None = None

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Action:
        assert isinstance(game, ShengKe)
        start = time.perf_counter()
        self.stats = SearchStats()
        player: int = view["player"]
        state = game.sample_state(view, rng)
        actions = list(game.legal_actions(state))
        if self._rest and self._rest_at == (state.turn, state.placed) and self._rest[0] in actions:
            return self._play(state, self._rest)
        if len(actions) == 1:
            return actions[0]
        candidates = [[a] for a in actions] if state.phase == PICK else self._plans(game, state, player, rng)
        if len(candidates) > 1:
            totals = [0.0] * len(candidates)
            deals = 0
            deadline = start + self.time_limit if self.time_limit else math.inf
            for deal, seed in self._deals(game, view, state, rng):
                # one more deal for every candidate, with the same dice for all of them
                began = time.perf_counter()
                totals = [t + self._simulate(game, deal, plan, player, random.Random(seed))
                          for t, plan in zip(totals, candidates, strict=True)]
                deals += 1
                now = time.perf_counter()
                if now + (now - began) > deadline:
                    break  # the next round would end after the deadline
            means = [t / deals for t in totals]
            value = max(means)
            self.stats = SearchStats(len(candidates) * deals, len(candidates), time.perf_counter() - start, value)
            candidates = [plan for v, plan in zip(means, candidates, strict=True) if v >= value - 1e-9]
        return self._play(state, list(rng.choice(candidates)))

    def _deals(self, game: ShengKe, view: Mapping[str, Any], state: State,
               rng: random.Random) -> Iterator[tuple[State, float]]:
        """The deals to play every candidate on (``state`` first), each with a seed for its dice:
        ``samples`` of them, or endless under a time limit."""
        if self.time_limit:
            yield state, rng.random()
            while True:
                deal = game.sample_state(view, rng)
                yield deal, rng.random()
        deals = [state] + [game.sample_state(view, rng) for _ in range(self.samples - 1)]
        yield from zip(deals, [rng.random() for _ in deals], strict=True)

    def _play(self, state: State, plan: list[Action]) -> Action:
        action = plan[0]
        self._rest = plan[1:]
        self._rest_at = (state.turn, (*state.placed, action.cell)) if isinstance(action, Place) else None
        return action

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None

    def _plans(self, game: ShengKe, state: State, player: int, rng: random.Random) -> list[list[Action]]:
        """The best ``plans`` placement sequences for the rest of the turn, one per result."""
        found: dict[Any, tuple[float, list[Action]]] = {}

        def walk(s: State, plan: list[Action]) -> None:
            if not _mine(s, state.turn, player):
                key = (s.field, s.hands[player], s.discards)
                if key not in found:
                    found[key] = (self.leaf(game, s, player) + rng.random() * 1e-6, plan)
                return
            for a in game.legal_actions(s):
                walk(game.next_state(s, a), [*plan, a])

        walk(state, [])
        ranked = sorted(found.values(), key=lambda vp: vp[0], reverse=True)
        return [plan for _, plan in ranked[: self.plans]]

    def _simulate(self, game: ShengKe, state: State, plan: list[Action], player: int, rng: random.Random) -> float:
        return self.leaf(game, exchange(game, state, plan, player, rng), player)


def exchange(game: ShengKe, state: State, plan: list[Action], player: int, rng: random.Random) -> State:
    """``plan`` played on a deal, the rest of ``player``'s turn greedily, the dice rolled with
    ``rng``, then the opponent's turn greedily: the position :class:`TurnSearch` scores."""
    turn = state.turn
    for action in plan:
        state = game.next_state(state, action)
    state = _greedy_turn(game, state, turn, player)
    while state.phase == ROLL:
        state = game.next_state(state, game.sample_chance(state, rng))
    if state.phase != OVER:
        state = _greedy_turn(game, state, state.turn, 1 - player)
    return state


def _mine(state: State, turn: int, player: int) -> bool:
    return state.turn == turn and state.phase in (PICK, PLACE) and state.current == player


def _greedy_turn(game: ShengKe, state: State, turn: int, player: int) -> State:
    """Play ``player``'s decisions of ``turn`` one at a time, each by the evaluation right after
    it; a placement that does not end the turn is rated as if it were resolved at once."""

    def rate(s: State) -> float:
        return evaluate(game, game.resolve(s) if _mine(s, turn, player) else s, player)

    while _mine(state, turn, player):
        if state.phase == PICK:  # what a pick draws shows only in the placements after it
            state = max((_greedy_turn(game, game.next_state(state, a), turn, player)
                         for a in game.legal_actions(state)), key=lambda s: evaluate(game, s, player))
        else:
            state = max((game.next_state(state, a) for a in game.legal_actions(state)), key=rate)
    return state


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": lambda game: TurnPlanner("easy"),
    "medium": lambda game: TurnSearch("medium", plans=4, samples=8),
    "hard": lambda game: TurnSearch("hard", plans=10, samples=12, leaf=deep_evaluate),
}
"""easy: the turn planner. medium: the turn search over the planner's 4 best turns, 8 sampled
deals each. hard: 10 turns, 12 deals, ranked and scored by :func:`deep_evaluate`."""


def analysis_lines(position: Any, agent: Agent) -> Any:
    """For :mod:`qipan.ai.analysis`, with the turn search (medium, hard): its candidate turns,
    each played on the same deals sampled from the view (the level's own number of deals at a
    fixed ``depth``, else deal by deal for 60% of the time, at least one) against the opponent's
    greedy reply. A line's value is the search's mean score and its balance the mean card lead
    after the reply (bonus included). Its ``win``: the shown lines are played on to the end from
    those deals by greedy turns on both sides, one round of deals after another in the time left
    (``depth`` rounds at a fixed depth), the rate with one won and one lost game added (so a few
    playouts do not read as certainty); a round the time cuts short is dropped, and with no
    round done in time ``win`` is None. A deal the time cuts short is dropped too. So the
    analysis ends within an exchange of its budget, or after its first deal when that alone takes
    longer. An included first placement not among the
    candidates is played with its best continuation. None for the other levels."""
    from qipan.ai.analysis import Evaluation, Found, Line, smoothed_rate

    if not isinstance(agent, TurnSearch):
        return None
    game, view, state, player, rng = position.game, position.view, position.state, position.player, position.rng
    assert isinstance(game, ShengKe)
    start = time.perf_counter()
    actions = list(game.legal_actions(state))
    candidates = [[a] for a in actions] if state.phase == PICK else agent._plans(game, state, player, rng)
    own = len(candidates)  # the level's own candidates; the included moves' plans come after
    for action in position.include:
        if not any(plan[0] == action for plan in candidates):
            after = game.next_state(state, action)
            rest = agent._plans(game, after, player, random.Random(0)) if _mine(after, state.turn, player) else [[]]
            candidates.append([action, *rest[0]])
    totals, leads = [0.0] * len(candidates), [0.0] * len(candidates)
    fixed = position.depth is not None
    source = TurnSearch(plans=agent.plans, samples=agent.samples, time_limit=None if fixed else position.time)
    deals: list[tuple[State, float]] = []
    deadline = None if fixed else start + position.time
    for deal, seed in source._deals(game, view, state, rng):
        ends = []
        for plan in candidates:
            if deals and deadline is not None and time.perf_counter() >= deadline:
                break  # (a deal the time cuts short is dropped: every candidate keeps the same deals)
            ends.append(exchange(game, deal, plan, player, random.Random(seed)))
        if len(ends) < len(candidates):
            break
        for i, end in enumerate(ends):
            totals[i] += agent.leaf(game, end, player)
            leads[i] += _lead(game, end, player)
        deals.append((deal, seed))
        if deadline is not None and time.perf_counter() > start + 0.6 * position.time:
            break
    top = max(totals[:own])
    pick = candidates.index(rng.choice([c for t, c in zip(totals[:own], candidates, strict=False) if t >= top - 1e-9]))
    best_first: dict[Action, int] = {}
    for i, plan in enumerate(candidates):  # one line per first placement: its best plan (the level's pick)
        j = best_first.get(plan[0])
        if j is None or totals[i] > totals[j] or i == pick:
            best_first[plan[0]] = i
    ranked = sorted(best_first.values(), key=lambda i: (-totals[i], i != pick))
    chosen = ranked[: position.lines] + [i for i in ranked[position.lines:] if candidates[i][0] in position.include]
    wins, played = [0.0] * len(chosen), 0
    rounds = min(position.depth, len(deals)) if fixed else len(deals)
    while played < rounds and (deadline is None or time.perf_counter() < deadline):
        deal, seed = deals[played]
        finals: list[State] = []
        for i in chosen:
            dice = random.Random(seed)
            final = _finish(game, exchange(game, deal, candidates[i], player, dice), dice, deadline)
            if final is None:
                break
            finals.append(final)
        else:
            for k, final in enumerate(finals):
                wins[k] += (game.returns(final)[player] + 1.0) / 2.0
            played += 1
            continue
        break  # out of time within the round: every line keeps the same deals
    lines = []
    for k, i in enumerate(chosen):
        pv, s = [], state
        for action in candidates[i]:
            pv.append(game.action_text(s, action))
            s = game.next_state(s, action)
        n = len(deals)
        win = smoothed_rate(wins[k], played) if played else None
        evaluation = Evaluation(totals[i] / n, win, leads[i] / n, "cards", playouts=played or None)
        lines.append(Line(pv[0], evaluation, tuple(pv)))
    return Found(lines, "playouts", len(candidates), len(deals) * len(candidates) + played * len(chosen))


def _lead(game: ShengKe, state: State, player: int) -> float:
    """``player``'s card lead (bonus included)."""
    a, b = game.scores(state)
    return float(a - b if player == 0 else b - a)


def _finish(game: ShengKe, state: State, rng: random.Random, deadline: float | None = None) -> State | None:
    """The game played to its end by greedy turns on both sides (dice rolled with ``rng``);
    None once ``time.perf_counter()`` passes ``deadline`` (checked between turns)."""
    while state.phase != OVER:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        if state.phase == ROLL:
            state = game.next_state(state, game.sample_chance(state, rng))
        else:
            state = _greedy_turn(game, state, state.turn, state.current)
    return state
