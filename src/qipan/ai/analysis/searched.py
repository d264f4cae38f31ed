"""Analysers for searchers: multi-PV (alpha-beta, best-reply, Abalone's max) and expectimax."""

from __future__ import annotations

import copy
import random
import time as clock
from collections.abc import Callable, Sequence
from typing import Any

from qipan.ai.analysis.playouts import _win_rates
from qipan.ai.analysis.readable import _ai_module, _balance, _line_end, _pv_texts, search_evaluation
from qipan.ai.analysis.types import Evaluation, Found, Line, Position
from qipan.ai.search import RootLine
from qipan.core.game import Game


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


def _searched(position: Position, found: list[RootLine], method: str, depth: int, nodes: int,
              readable: Callable[[Game[Any, Any], Any, int, float], float] | None = None) -> Found:
    """The lines of ``found``, each evaluated at its end; ``readable`` (a searcher's
    ``analysis_value``) first takes out of a value what only steers that search, given the
    position where the line's moves end."""
    game, state, player = position.game, position.state, position.player
    lines = []
    for r in found:
        end = _line_end(game, state, r.pv, player)
        value = r.value
        if readable is not None:
            last = state
            for action in r.pv:
                last = game.next_state(last, action)
            value = readable(game, last, player, value)
        lines.append(Line(position.text(r.move), search_evaluation(game, end, player, value),
                          _pv_texts(game, state, r.pv)))
    return Found(lines, method, depth, nodes)


def _multipv(position: Position, agent: Any) -> Found:
    agent = _budget(position, agent)
    for seen in position.history:  # a repetition penalty knows the positions of the game
        agent.observe(position.game, seen)
    found = agent.multipv(position.game, position.state, lines=position.lines, include=position.include,
                          rng=position.rng)
    return _searched(position, found, "search", agent.stats.depth, agent.stats.nodes,
                     getattr(agent, "analysis_value", None))


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
