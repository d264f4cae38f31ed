"""Expectimax (max^n with chance nodes) for games of any number of players."""

from __future__ import annotations

import math
import random
import time
from typing import Any

from qipan.ai.agent import Evaluation
from qipan.ai.searchbase import SearchStats, _StateSearchAgent, _terminal_value, _Timeout
from qipan.core.game import CHANCE, Game

_MAX_PLY = 200  # safety net for games where one player may decide many times in a row


class ExpectimaxAgent(_StateSearchAgent):
    """Depth-limited expectimax: each decider maximises its own value, chance nodes average.

    Values are vectors (one entry per player: ``evaluate(game, state, p)``, terminal payoffs
    scaled by :data:`WIN`), so it plays games of any number of players (max^n). Chance nodes
    with unlistable outcomes average ``chance_samples`` draws. ``depth`` counts turns: a
    player's consecutive decisions make one, chance none. A chance node at the horizon is
    expanded (every outcome evaluated) unless ``horizon_chance`` is False: then it is
    evaluated itself, for evaluations that already average over the coming roll.
    """

    def __init__(self, evaluate: Evaluation, *, depth: int = 2, name: str = "expectimax",
                 chance_samples: int = 6, time_limit: float | None = None, horizon_chance: bool = True):
        self.evaluate = evaluate
        self.horizon_chance = horizon_chance
        self.depth = depth
        self.name = name
        self.chance_samples = chance_samples
        self.time_limit = time_limit
        self.stats = SearchStats()
        self._last: list[tuple[Any, float]] = []  # the root moves' values of the last search

    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        """The best action for the player to move and its expected value for that player.

        With a ``time_limit``, depths 1, 2, ... are searched until time runs out."""
        rng = rng or random.Random(0)
        start = time.perf_counter()
        self._nodes = 0
        self._rng = rng
        self._deadline = start + self.time_limit if self.time_limit else math.inf
        mover = game.to_move(state)
        assert mover is not None and mover >= 0, "expectimax chooses for a deciding player"
        actions = list(game.legal_actions(state))
        rng.shuffle(actions)
        best, best_value, done = actions[0], -math.inf, 0
        if len(actions) == 1:  # nothing to think about
            self.stats = SearchStats(0, 0, time.perf_counter() - start, 0.0)
            return best, best_value
        for depth in range(1, self.depth + 1) if self.time_limit else (self.depth,):
            try:
                values = [self._child(game, game.next_state(state, a), mover, depth, 1)[mover] for a in actions]
            except _Timeout:
                break
            best_value = max(values)
            best, done = actions[values.index(best_value)], depth
            self._last = list(zip(actions, values, strict=True))
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, best_value)
        return best, best_value

    def root_values(self, game: Game[Any, Any], state: Any,
                    rng: random.Random | None = None) -> list[tuple[Any, float]]:
        """Every root move with its value for the player to move, as :meth:`search` finds them (the
        deepest finished iteration; its best move first among equals), in its order."""
        self._last = []
        self.search(game, state, rng)
        if not self._last:  # one legal move, or not even depth 1 in time: search it without a limit
            limit, self.time_limit, self._deadline = self.time_limit, None, math.inf
            try:
                actions = list(game.legal_actions(state))
                mover = game.to_move(state)
                assert mover is not None
                self._last = [(a, self._child(game, game.next_state(state, a), mover, 1, 1)[mover]) for a in actions]
            finally:
                self.time_limit = limit
        return self._last

    def _value(self, game: Game[Any, Any], state: Any, depth: int, ply: int) -> tuple[float, ...]:
        self._nodes += 1
        if not self._nodes & 255 and time.perf_counter() > self._deadline:
            raise _Timeout
        mover = game.to_move(state)
        n = game.num_players
        if mover is None:
            return tuple(_terminal_value(game, state, p, ply) for p in range(n))
        if mover == CHANCE and (depth > 0 or self.horizon_chance):
            outcomes = game.chance_outcomes(state)
            if not outcomes:
                draws = [game.sample_chance(state, self._rng) for _ in range(self.chance_samples)]
                outcomes = [(a, 1.0 / len(draws)) for a in draws]
            total = [0.0] * n
            for action, p in outcomes:
                child = self._value(game, game.next_state(state, action), depth, ply + 1)
                for i in range(n):
                    total[i] += p * child[i]
            return tuple(total)
        if depth <= 0 or ply > _MAX_PLY:
            return tuple(self.evaluate(game, state, p) for p in range(n))
        best: tuple[float, ...] | None = None
        for action in game.legal_actions(state):
            child = self._child(game, game.next_state(state, action), mover, depth, ply + 1)
            if best is None or child[mover] > best[mover]:
                best = child
        assert best is not None
        return best

    def _child(self, game: Game[Any, Any], child: Any, mover: int, depth: int, ply: int) -> tuple[float, ...]:
        # A player's consecutive decisions form one ply, so every leaf is evaluated at the same
        # kind of moment (another player about to decide), not half-way through a turn.
        return self._value(game, child, depth if game.to_move(child) == mover else depth - 1, ply)

