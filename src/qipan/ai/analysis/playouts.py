"""Analysis by playouts: winning rates of moves played out to the end."""

from __future__ import annotations

import copy
import random
import time as clock
from collections.abc import Callable, Sequence
from typing import Any

from qipan.ai.agent import Agent, make_agent
from qipan.ai.analysis.readable import _ai_module, _balance
from qipan.ai.analysis.types import Evaluation, Found, Line, Position
from qipan.core.game import CHANCE, Game

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
