"""Position analysis and game review: the best moves of a position with an evaluation each.

:func:`analyse` looks at one decision from the deciding player's view (hidden information enters
only through ``game.sample_state``, as for the agents) and answers the best moves, each with an
:class:`Evaluation` and a principal variation; :func:`review` does that for every decision of a
recorded game and :func:`verdict` grades each move against the best one. How each game is
analysed depends on the searcher of the level asked for (by default the strongest):

- a searcher with multi-PV (alpha-beta: Abalone, two-player Chinese Checkers) scores the best
  ``lines`` root moves exactly, and every included one, reading each line's continuation
  from its table;
- best-reply search (Chinese Checkers with three or more players) scores the root moves the same
  way (no table, so a line is its first move);
- the exact table of two-player Kelighine version 1 gives every move's winning chance;
- expectimax (other Kelighine) scores every move and estimates each line's winning chance by
  playouts;
- Sheng-Ke's turn search scores its candidate turns on sampled deals, and playouts on them
  estimate their winning chances;
- Tellstones (memory agents) and any other agent: playouts from states sampled from the view
  with the level's agents (winning rate per move).

A game makes the numbers readable with an optional ``analysis_balance(game, state, player,
value)`` in its ``ai`` module: the balance and its unit ("marbles", "moves", ...) at the end of a
line. See docs/analysis.md.

>>> import qipan
>>> game = qipan.load("abalone")
>>> view = game.view(game.initial_state(), 0)
>>> result = analyse(game, view, lines=2, depth=2)
>>> len(result.lines), result.method, result.lines[0].move in game.legal_texts(game.initial_state())
(2, 'search', True)
"""

from __future__ import annotations

import copy
import importlib
import math
import random
import time as clock
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipan.ai.agent import Agent, Blend, agent_levels, make_agent
from qipan.ai.search import WIN, ExpectimaxAgent, RootLine
from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import CHANCE, Game
from qipan.core.record import Record

MAX_LINES = 10
"""The most lines one analysis answers (besides the included moves)."""

MAX_INCLUDE = 10
"""The most moves one analysis may be asked to include."""


@dataclass(frozen=True)
class Evaluation:
    """How good a move or position is, always for the player deciding.

    ``value``: the engine's own number; ``win``: winning probability (0..1) where known or
    estimated; ``balance`` in ``unit``: a readable balance (marbles, moves in the race, ...);
    ``mate``: a forced result found (+n wins in n own moves, -n loses in n); ``exact``: from a
    solved table or a proven forced result. ``playouts``: how many playouts ``win`` rests on
    when it is a playout estimate (None otherwise; not in the JSON): :func:`verdict` allows for
    their noise."""

    value: float
    win: float | None = None
    balance: float | None = None
    unit: str | None = None
    mate: int | None = None
    exact: bool = False
    playouts: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "value": _round(self.value),
            "win": None if self.win is None else round(self.win, 4),
            "balance": None if self.balance is None else round(self.balance, 2),
            "unit": self.unit,
            "mate": self.mate,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Line:
    """A move (in notation), its evaluation and the principal variation starting with it."""

    move: str
    evaluation: Evaluation
    pv: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "evaluation": self.evaluation.to_json(), "pv": list(self.pv)}


@dataclass(frozen=True)
class Analysis:
    """The analysis of one decision: ``lines`` best first (then the included moves not among
    them), the position's ``evaluation`` (the best line's), how it was found."""

    player: int
    lines: tuple[Line, ...]
    evaluation: Evaluation
    method: str
    depth: int | None
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "lines": [line.to_json() for line in self.lines],
            "evaluation": self.evaluation.to_json(),
            "method": self.method,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }

    def line(self, move: str) -> Line | None:
        """The line of ``move`` (in notation), if the analysis has one."""
        return next((line for line in self.lines if line.move == move), None)


def _round(value: float) -> float | None:
    return round(value, 4) if math.isfinite(value) else None


def analysable(agent: Any) -> bool:
    """Whether :func:`analyse` can analyse with ``agent``: a searcher with ``multipv``, expectimax,
    an agent that says so (``analysed = True``: Sheng-Ke's turn search, Tellstones' memory), a
    table player whose fallback is one of those, or a blend whose stronger agent is."""
    if isinstance(agent, Blend):
        return analysable(agent.strong)
    fallback = getattr(agent, "fallback", None)
    if fallback is not None:
        return analysable(fallback)
    return hasattr(agent, "multipv") or isinstance(agent, ExpectimaxAgent) or getattr(agent, "analysed", False)


def analysis_levels(game: Game[Any, Any]) -> list[str]:
    """The levels of ``game``'s configuration that :func:`analyse` can analyse with, weakest first
    (random, greedy and planning levels cannot: they have no view of the moves they do not play)."""
    return [level for level in agent_levels(game) if analysable(make_agent(game, level))]


def strongest_level(game: Game[Any, Any]) -> str:
    """The strongest level of ``game``'s configuration that can analyse (the last one listed)."""
    return analysis_levels(game)[-1]


@dataclass
class Position:
    """What an analyser (a game's ``analysis_lines`` too) works with: the game, the deciding
    player's view, a state sampled from it (exact for perfect information), the moves to include
    (actions), the rng, the time budget or fixed depth, the player's earlier views, the level."""

    game: Game[Any, Any]
    view: Mapping[str, Any]
    state: Any
    player: int
    lines: int
    include: list[Any]
    rng: random.Random
    time: float
    depth: int | None
    history: Sequence[Mapping[str, Any]]
    level: str

    def text(self, action: Any) -> str:
        return self.game.action_text(self.state, action)


def analyse(game: Game[Any, Any], view: Mapping[str, Any], *, lines: int = 3, time: float = 1.0,
            level: str | None = None, include: Iterable[str] = (), seed: int | str = 0, depth: int | None = None,
            history: Sequence[Mapping[str, Any]] = ()) -> Analysis:
    """The best moves of the player whose ``view`` this is (that player must be to move).

    ``lines``: how many best moves; ``time``: the budget in seconds (about); ``level``: whose
    search (None: :func:`strongest_level`); ``include``: moves (notation) whose lines are always
    answered, e.g. the move actually played; ``depth``: a searching level searches exactly this
    deep instead (no time limit; for tests); ``history``: the player's own earlier views, oldest
    first (a memory agent learns from them; other games ignore them). GameError (one line) for a
    finished game, chance to move, another player to move, or a bad included move."""
    if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
        raise GameError(f"lines must be a whole number from 1 to {MAX_LINES}, not {brief(lines, 20)}")
    if isinstance(time, bool) or not isinstance(time, int | float) or not 0 < time <= 3600:
        raise GameError(f"time must be a positive number of seconds, not {brief(time, 20)}")
    player = view.get("player") if isinstance(view, Mapping) else None
    if isinstance(player, bool) or not isinstance(player, int):
        raise GameError("analyse a player's view (a seat's), not a spectator's")
    rng = random.Random(seed)
    state = game.sample_state(view, rng)
    mover = game.to_move(state)
    if mover is None:
        raise GameError("the game is over: there is no decision to analyse")
    if mover == CHANCE:
        raise GameError("chance is to move here, not a player: there is no decision to analyse")
    if mover != player:
        raise GameError(f"{game.player_name(player)} is not to move; {game.player_name(mover)} is")
    texts = list(include)
    if len(texts) > MAX_INCLUDE:
        raise GameError(f"include at most {MAX_INCLUDE} moves, not {len(texts)}")
    wanted = [_legal(game, state, text) for text in texts]
    levels = analysis_levels(game)
    if level is None:
        level = levels[-1]
    elif level not in levels:
        raise GameError(f"{game.name} cannot be analysed at level {brief(level, 40)}; "
                        f"choose one of {choices_text(levels)}")
    agent = make_agent(game, level)
    position = Position(game, view, state, player, lines, wanted, rng, float(time), depth, history, level)
    start = clock.perf_counter()
    found = _find(position, agent)
    lines_found = tuple(found.lines)
    return Analysis(player, lines_found, lines_found[0].evaluation, found.method, found.depth, found.nodes,
                    clock.perf_counter() - start)


def _legal(game: Game[Any, Any], state: Any, text: Any) -> Any:
    if not isinstance(text, str) or len(text) > 500:
        raise GameError(f"an included move must be a move in notation, not {brief(text, 40)}")
    try:
        action = game.parse_action(state, text)
    except GameError as exc:
        raise GameError(f"cannot include {brief(text, 40)}: {exc}") from None
    if not game.is_legal(state, action):
        raise GameError(f"cannot include {brief(text, 40)}: {game.explain_illegal(state, action)}")
    return action


@dataclass
class Found:
    """What an analyser found: the lines (best first, then the included moves), the method
    ("search", "exact", "playouts"), the depth reached (None if it does not search) and nodes."""

    lines: list[Line]
    method: str
    depth: int | None
    nodes: int


Analyser = Callable[["Position", Any], Found]


def _find(position: Position, agent: Agent) -> Found:
    """The game's own analyser (``analysis_lines(position, agent)`` in its ``ai`` module) if it
    has one for this agent, else the one for ``agent``'s kind of search (a blend: its stronger
    agent)."""
    hook = getattr(_ai_module(position.game), "analysis_lines", None)
    found: Found | None = hook(position, agent) if hook is not None else None
    if found is not None:
        return found
    fallback = getattr(agent, "fallback", None)  # an agent that plays from a table where it can
    if fallback is not None:
        return _find(position, fallback)
    if isinstance(agent, Blend):
        return _find(position, agent.strong)
    if hasattr(agent, "multipv"):
        return _multipv(position, agent)
    if isinstance(agent, ExpectimaxAgent):
        return _expectimax(position, agent)
    return _playouts(position, agent)


def _ai_module(game: Game[Any, Any]) -> Any:
    try:
        return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".ai")
    except ModuleNotFoundError:
        return None


# -- readable evaluations --------------------------------------------------------------------------

def _balance(game: Game[Any, Any], state: Any, player: int, value: float) -> tuple[float | None, str | None]:
    """The game's readable balance at ``state`` (the end of a line), from its ``ai`` module's
    ``analysis_balance``, or (None, None)."""
    hook = getattr(_ai_module(game), "analysis_balance", None)
    found = hook(game, state, player, value) if hook is not None else None
    return (None, None) if found is None else found


def search_evaluation(game: Game[Any, Any], end: Any, player: int, value: float) -> Evaluation:
    """The evaluation of a searched line worth ``value`` (search units, :data:`WIN` for a won
    game) whose continuation ends at ``end``: a forced result as ``mate`` (moves of ``player``
    until the end), else the game's balance."""
    if abs(value) > WIN / 2:
        plies = round(WIN - abs(value))
        mate = (plies + 1) // 2 if value > 0 else -max(1, plies // 2)
        return Evaluation(value, 1.0 if value > 0 else 0.0, None, None, mate, True)
    balance, unit = _balance(game, end, player, value)
    return Evaluation(value, None, balance, unit)


def _line_end(game: Game[Any, Any], state: Any, pv: Sequence[Any], player: int) -> Any:
    """Where a line's balance is read: the last position of the principal variation ``pv`` with
    ``player`` to move again (the end itself when there is none), so that every line is read
    after as many moves of the others as of ``player``'s: read just after ``player``'s own move,
    a race game counts that move's gain as a lead (two-player Chinese Checkers' start read +8
    moves)."""
    end = None
    for action in pv:
        state = game.next_state(state, action)
        if game.to_move(state) == player:
            end = state
    return state if end is None else end


def _pv_texts(game: Game[Any, Any], state: Any, pv: Sequence[Any]) -> tuple[str, ...]:
    texts = []
    for action in pv:
        texts.append(game.action_text(state, action))
        state = game.next_state(state, action)
    return tuple(texts)


# -- analysers -------------------------------------------------------------------------------------

def _budget(position: Position, agent: Any) -> Any:
    """A copy of ``agent`` searching to ``position.depth`` without a time limit, or deepening
    for ``position.time``."""
    agent = copy.copy(agent)
    if position.depth is not None:
        agent.depth = position.depth
        agent.time_limit = None
    else:
        agent.depth = max(getattr(agent, "depth", 1), 64)
        agent.time_limit = position.time
    return agent


def _searched(position: Position, found: list[RootLine], method: str, depth: int, nodes: int) -> Found:
    game, state, player = position.game, position.state, position.player
    lines = [Line(position.text(r.move),
                  search_evaluation(game, _line_end(game, state, r.pv, player), player, r.value),
                  _pv_texts(game, state, r.pv)) for r in found]
    return Found(lines, method, depth, nodes)


def _multipv(position: Position, agent: Any) -> Found:
    agent = _budget(position, agent)
    for seen in position.history:  # a repetition penalty knows the positions of the game
        agent.observe(position.game, seen)
    found = agent.multipv(position.game, position.state, lines=position.lines, include=position.include,
                          rng=position.rng)
    return _searched(position, found, "search", agent.stats.depth, agent.stats.nodes)


def _top(scored: Sequence[tuple[Any, float]], lines: int, include: Sequence[Any]) -> list[tuple[Any, float]]:
    """The ``lines`` best of (move, value) pairs (stable for ties), then the included others."""
    ranked = sorted(scored, key=lambda mv: -mv[1])
    return ranked[:lines] + [mv for mv in ranked[lines:] if mv[0] in include]


def _expectimax(position: Position, agent: Any) -> Found:
    """Expectimax root values (the level's own search, so its choice leads), each line's winning
    chance estimated by playouts with the game's greedy policy, in the time left."""
    game, state, player = position.game, position.state, position.player
    agent = copy.copy(agent)
    if position.depth is not None:
        agent.depth, agent.time_limit = position.depth, None
    start = clock.perf_counter()
    scored = agent.root_values(game, state, position.rng)
    top = _top(scored, position.lines, position.include)
    ends = [game.next_state(state, move) for move, _ in top]
    wins, playouts = _win_rates(game, ends, player, position.rng, start + position.time, _policy(game),
                                position.depth)
    lines = []
    for (move, value), end, win in zip(top, ends, wins, strict=True):
        balance, unit = _balance(game, end, player, value)
        lines.append(Line(position.text(move), Evaluation(value, win, balance, unit), (position.text(move),)))
    return Found(lines, "search", agent.stats.depth, agent.stats.nodes + playouts)


def _policy(game: Game[Any, Any]) -> Callable[[Game[Any, Any], Any, random.Random], Any] | None:
    """The game's playout policy (``analysis_policy(game)`` in its ``ai`` module), None: random."""
    make = getattr(_ai_module(game), "analysis_policy", None)
    return make(game) if make is not None else None


MAX_PLAYOUT_PLIES = 2000
"""A playout longer than this counts as a draw (no real game here comes near)."""


def playout_result(game: Game[Any, Any], state: Any, player: int, rng: random.Random,
                   policy: Callable[[Game[Any, Any], Any, random.Random], Any] | None) -> float:
    """Play ``state`` to the end (chance drawn with ``rng``, decisions by ``policy`` or at random):
    1 if ``player`` won, 0 if they lost, 0.5 for a draw (or a tie of returns)."""
    for _ in range(MAX_PLAYOUT_PLIES):
        mover = game.to_move(state)
        if mover is None:
            returns = game.returns(state)
            best = max(returns)
            if returns[player] < best:
                return 0.0
            return 1.0 if list(returns).count(best) == 1 else 0.5
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        elif policy is not None:
            action = policy(game, state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state = game.next_state(state, action)
    return 0.5


def smoothed_rate(wins: float, playouts: int) -> float:
    """A winning rate from ``playouts`` with one won and one lost game added (Laplace's rule), so
    that a handful of playouts does not read as certainty.

    >>> smoothed_rate(3, 3), smoothed_rate(0, 0)
    (0.8, 0.5)
    """
    return (wins + 1.0) / (playouts + 2.0)


MIN_PLAYOUTS = 2
"""Playouts per line at least, whatever the time."""


def _win_rates(game: Game[Any, Any], starts: Sequence[Any], player: int, rng: random.Random, deadline: float,
               policy: Callable[[Game[Any, Any], Any, random.Random], Any] | None,
               fixed: int | None = None) -> tuple[list[float], int]:
    """Winning rates of ``player`` from each of ``starts`` by playouts (:func:`smoothed_rate`),
    round by round (one more playout from each) until ``deadline`` (at least
    :data:`MIN_PLAYOUTS` rounds), or exactly ``fixed`` rounds."""
    totals = [0.0] * len(starts)
    rounds = 0
    while rounds < fixed if fixed is not None else rounds < MIN_PLAYOUTS or clock.perf_counter() < deadline:
        for i, start in enumerate(starts):
            totals[i] += playout_result(game, start, player, rng, policy)
        rounds += 1
        if rounds >= 10_000:
            break
    return [smoothed_rate(t, rounds) for t in totals], rounds * len(starts)


def _playouts(position: Position, agent: Any) -> Found:
    """Every legal move played out from states sampled from the view (as the player believes it,
    with the game's ``analysis_sample``) by the level's agents for every seat (copies of agents
    that have watched the game so far: the game's ``analysis_agents``).

    Two phases: for 60% of the time (at least one round) every move gets one playout a round,
    the worse half of the moves dropped after rounds 1, 2, 4, 8, ... (successive halving,
    keeping the included moves); then the moves shown are played out afresh in the time left
    (at least one round), and those fresh playouts alone give their winning rates
    (:func:`smoothed_rate`): the best of many noisy rates is too high, a fresh sample of the
    chosen move is not. Every move of a round starts from the same sampled state and seed; a
    round beyond the first that the time cuts short is dropped, so the analysis ends within a
    playout of its time (or after the two first rounds, when they alone take longer). At a
    fixed ``depth``: ``depth`` rounds of each."""
    game, view, player, rng = position.game, position.view, position.player, position.rng
    moves = list(game.legal_actions(position.state))
    views = [*position.history, view]
    make = getattr(_ai_module(game), "analysis_agents", None)  # agents that watched the game so far
    if make is not None:
        players = make(game, position.level, player, views)
    else:
        players = [make_agent(game, position.level) for _ in range(game.num_players)]
        for seen in views:
            players[player].observe(game, seen)
    sample = getattr(_ai_module(game), "analysis_sample", None)  # the player's beliefs, if the game has them

    def deal() -> tuple[Any, float]:
        """A state as the player believes it, and a seed for the rest of the game: every move of
        a round is played from the same ones (common random numbers: the moves' rates then differ
        by what the moves do much more than by the luck of their samples)."""
        state = sample(game, players[player], view, rng) if sample is not None else game.sample_state(view, rng)
        return state, rng.random()

    def playout(i: int, state: Any, seed: float) -> float:
        return _agent_playout(game, game.next_state(state, moves[i]), player, copy.deepcopy(players),
                              random.Random(seed))

    def round_of(indices: Sequence[int], deadline: float | None) -> list[float] | None:
        """One playout of each move of ``indices`` from one sampled state, or None when the clock
        passes ``deadline`` first."""
        state, seed = deal()
        results = []
        for i in indices:
            if deadline is not None and clock.perf_counter() >= deadline:
                return None
            results.append(playout(i, state, seed))
        return results

    start = clock.perf_counter()
    fixed = position.depth
    first, end = (None, None) if fixed is not None else (start + 0.6 * position.time, start + position.time)
    totals, counts = [0.0] * len(moves), [0] * len(moves)
    active = list(range(len(moves)))
    keep = max(position.lines, 2)
    rounds = 0
    while rounds < fixed if fixed is not None else rounds < 1 or clock.perf_counter() < (first or 0.0):
        results = round_of(active, first if rounds else None)
        if results is None:
            break
        for i, result in zip(active, results, strict=True):
            totals[i] += result
            counts[i] += 1
        rounds += 1
        if rounds & (rounds - 1) == 0 and len(active) > keep:
            ranked = sorted(active, key=lambda i: -totals[i] / counts[i])
            kept = set(ranked[: max(keep, len(active) // 2)])
            active = sorted(kept | {i for i in active if moves[i] in position.include})
    # the moves still played out first (more playouts, surer rates), then the ones dropped
    ranked = sorted(range(len(moves)), key=lambda i: (i not in active, -totals[i] / counts[i]))
    chosen = ranked[: position.lines] + [i for i in ranked[position.lines:] if moves[i] in position.include]
    fresh, again = [0.0] * len(chosen), 0
    while again < fixed if fixed is not None else again < 1 or clock.perf_counter() < (end or 0.0):
        results = round_of(chosen, end if again else None)
        if results is None:
            break
        for k, result in enumerate(results):
            fresh[k] += result
        again += 1
    rates = [smoothed_rate(fresh[k], again) for k in range(len(chosen))]
    lines = []
    for k in sorted(range(len(chosen)), key=lambda k: (k >= position.lines, -rates[k])):
        i = chosen[k]
        balance, unit = _balance(game, game.next_state(position.state, moves[i]), player, rates[k])
        text = position.text(moves[i])
        lines.append(Line(text, Evaluation(rates[k], rates[k], balance, unit, playouts=again), (text,)))
    return Found(lines, "playouts", None, sum(counts) + again * len(chosen))


MAX_AGENT_PLAYOUT_PLIES = 200
"""An agents' playout still going after this many plies counts as a draw: Tellstones' memory
agents, started in a world that is not quite the one they remember, sometimes circle for ever
with neither side daring to challenge (a real game takes 10-50 plies)."""


def _agent_playout(game: Game[Any, Any], state: Any, player: int, agents: Sequence[Agent],
                   rng: random.Random) -> float:
    """:func:`playout_result` with ``agents[p]`` deciding for seat ``p`` from its views."""
    for _ in range(MAX_AGENT_PLAYOUT_PLIES):
        for seat, agent in enumerate(agents):
            agent.observe(game, game.view(state, seat))
        mover = game.to_move(state)
        if mover is None:
            return playout_result(game, state, player, rng, None)
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = agents[mover].choose(game, game.view(state, mover), rng)
        state = game.next_state(state, action)
    return 0.5


# -- verdicts --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Thresholds:
    """The drops from the best move's evaluation to the played one's that make the played move
    an inaccuracy, a mistake, a blunder, in ``measure``: "win" (winning chance), "balance" or
    "value" (the engine's own number)."""

    measure: str
    inaccuracy: float
    mistake: float
    blunder: float


THRESHOLDS: dict[str, Thresholds] = {
    "abalone": Thresholds("balance", 0.3, 0.6, 1.0),
    "chinese-checkers": Thresholds("value", 10.0, 20.0, 35.0),
    "kelighine": Thresholds("value", 6.0, 12.0, 24.0),
    "shengke": Thresholds("balance", 0.5, 1.0, 2.0),
    "tellstones": Thresholds("win", 0.15, 0.25, 0.40),
}
"""Per game (see docs/analysis.md): Abalone in marbles; Chinese Checkers in race cost (a hole
nearer the target is worth about 1 + 0.3 × its distance, so 10 is about three holes); Kelighine
beyond the exact table in race points (2 a cell); Sheng-Ke in cards after the reply; Tellstones
in winning rate from playouts, which are noisy, hence the wide steps."""

EXACT_WIN = Thresholds("win", 0.04, 0.10, 0.20)
"""Where both winning chances are exact (the Kelighine table): drops in winning chance."""

DEFAULT_THRESHOLDS = Thresholds("win", 0.10, 0.20, 0.35)
"""For another game: winning chance where both moves have one, else balance, else value."""


def thresholds(game: Game[Any, Any], best: Evaluation, played: Evaluation) -> Thresholds:
    """The thresholds :func:`verdict` applies to these two evaluations."""
    if best.exact and played.exact and best.win is not None and played.win is not None:
        return EXACT_WIN
    return THRESHOLDS.get(game.name, DEFAULT_THRESHOLDS)


def _measure(evaluation: Evaluation, measure: str) -> float | None:
    if measure == "win":
        return evaluation.win
    if measure == "balance":
        return evaluation.balance
    return evaluation.value if math.isfinite(evaluation.value) else None


def _noise(evaluation: Evaluation) -> float:
    """The standard error of a winning rate estimated by ``evaluation.playouts`` playouts (0 for
    one that is not an estimate)."""
    if evaluation.playouts is None or evaluation.win is None:
        return 0.0
    return math.sqrt(evaluation.win * (1.0 - evaluation.win) / max(1, evaluation.playouts))


def verdict(game: Game[Any, Any], best: Evaluation, played: Evaluation) -> str | None:
    """None, "inaccuracy", "mistake" or "blunder": how much worse ``played`` is than ``best`` by
    the game's :func:`thresholds`. Throwing away a forced win, or walking into a forced loss the
    best move avoids, is a blunder; between two forced wins (or losses) there is no verdict. A
    drop in winning rates estimated by playouts counts less two standard errors: only what the
    playouts show at about 95% confidence (few playouts, no verdict)."""
    if best.mate is not None or played.mate is not None:
        best_sign = 0 if best.mate is None else (1 if best.mate > 0 else -1)
        played_sign = 0 if played.mate is None else (1 if played.mate > 0 else -1)
        if played_sign < best_sign:
            return "blunder"
        if played_sign == best_sign:
            return None
    limits = thresholds(game, best, played)
    measures = [limits.measure, "win", "balance", "value"] if limits is DEFAULT_THRESHOLDS else [limits.measure]
    for measure in measures:
        high, low = _measure(best, measure), _measure(played, measure)
        if high is not None and low is not None:
            break
    else:
        return None
    drop = high - low + 1e-9  # 0.6 - 0.4 is a drop of 0.2, not 0.19999999999999998
    if measure == "win":
        drop -= 2.0 * (_noise(best) ** 2 + _noise(played) ** 2) ** 0.5
    if drop >= limits.blunder:
        return "blunder"
    if drop >= limits.mistake:
        return "mistake"
    if drop >= limits.inaccuracy:
        return "inaccuracy"
    return None


# -- review ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewedMove:
    """One decision of a recorded game: the best line, the played move's line and the verdict."""

    ply: int
    player: int
    move: str
    best: Line
    played: Line
    verdict: str | None
    evaluation: Evaluation

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "player": self.player, "move": self.move, "best": self.best.to_json(),
                "played": self.played.to_json(), "verdict": self.verdict, "evaluation": self.evaluation.to_json()}


def review_move(game: Game[Any, Any], states: Sequence[Any], texts: Sequence[str], ply: int, *,
                seat: int | None = None, time: float = 0.3, lines: int = 1, level: str | None = None,
                seed: int = 0, depth: int | None = None) -> ReviewedMove:
    """The decision at ``ply`` (the position after ``ply`` recorded actions, ``states[ply]``;
    ``texts[ply]`` is the move played there), analysed from the mover's view (its earlier views
    as history). GameError for a chance ply or a finished position; with ``seat``, for another
    seat's decision."""
    if not 0 <= ply < len(texts):
        raise GameError(f"ply must be from 0 to {len(texts) - 1}, not {brief(ply, 20)}")
    state = states[ply]
    mover = game.to_move(state)
    if mover == CHANCE:
        raise GameError(f"ply {ply} is a chance outcome, not a decision")
    if mover is None:
        raise GameError(f"the game is over at ply {ply}")
    if seat is not None and mover != seat:
        raise GameError(f"ply {ply} is {game.player_name(mover)}'s decision, not {game.player_name(seat)}'s")
    history = [game.view(s, mover) for s in states[:ply]]
    view = game.view(state, mover)
    played_text = game.action_text(state, game.parse_action(state, texts[ply]))
    result = analyse(game, view, lines=lines, time=time, level=level, include=[played_text], seed=seed,
                     depth=depth, history=history)
    best = result.lines[0]
    played = result.line(played_text)
    assert played is not None
    return ReviewedMove(ply, mover, played_text, best, played, verdict(game, best.evaluation, played.evaluation),
                        result.evaluation)


def review(game: Game[Any, Any] | None, record: Record, *, seat: int | None = None, time: float = 0.3,
           lines: int = 1, level: str | None = None, seed: int = 0, depth: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> list[ReviewedMove]:
    """Every decision of ``record`` (``seat``'s only, if given), in order. Hidden-information
    games need a ``seat``: each of its decisions is analysed from its own views. ``progress(done,
    total)`` is called after each decision. ``game``: the record's game (None: made from it)."""
    game = game or record.make_game()
    if not game.perfect_information and seat is None:
        raise GameError(f"{game.name} hides information: review one seat's decisions (choose a seat)")
    if seat is not None:
        game.check_player(seat)
    states = record.replay()
    texts = [m.text for m in record.moves]
    plies = [ply for ply in range(len(texts))
             if (mover := game.to_move(states[ply])) is not None and mover != CHANCE
             and (seat is None or mover == seat)]
    reviewed = []
    for done, ply in enumerate(plies, 1):
        reviewed.append(review_move(game, states, texts, ply, seat=seat, time=time, lines=lines, level=level,
                                    seed=seed + ply, depth=depth))
        if progress is not None:
            progress(done, len(plies))
    return reviewed
