"""Best-reply search for games of three or more players."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from qipan.ai.agent import Evaluation
from qipan.ai.searchbase import (
    WIN,
    Ordering,
    RootLine,
    SearchStats,
    _deepen_lines,
    _exact_values,
    _StateSearchAgent,
    _terminal_value,
    _Timeout,
)
from qipan.core.game import Game

WithTurn = Callable[[Any, int], Any]
"""(state, player) -> the same position with ``player`` to move, or None if that player cannot move."""


class BestReplyAgent(_StateSearchAgent):
    """Best-reply search for games of three or more players (Schadd & Winands, 2011).

    The searching player's moves alternate with one merged layer in which only the strongest
    single reply of *any* opponent is considered, the others passing. That keeps the search
    as deep for the searcher as in a two-player game, and opponents minimise the searcher's
    evaluation. The game must be able to hand the move to any player: ``with_turn(state, p)``.
    Iterative deepening to ``depth`` (plies of the alternation), stopped by ``time_limit``.
    """

    def __init__(self, evaluate: Evaluation, with_turn: WithTurn, *, depth: int = 3,
                 time_limit: float | None = None, order: Ordering | None = None, name: str = "best-reply"):
        self.evaluate = evaluate
        self.with_turn = with_turn
        self.depth = depth
        self.time_limit = time_limit
        self.order = order
        self.name = name
        self.stats = SearchStats()

    def _begin(self, game: Game[Any, Any], state: Any, rng: random.Random) -> tuple[float, list[Any]]:
        """Start a search at ``state``: its clock, and the root moves shuffled, then ordered."""
        start = time.perf_counter()
        self._deadline = start + self.time_limit if self.time_limit else math.inf
        self._nodes = 0
        self._game = game
        root = game.to_move(state)
        assert root is not None and root >= 0, "best-reply search chooses for a deciding player"
        self._root: int = root
        actions = list(game.legal_actions(state))
        rng.shuffle(actions)
        if self.order is not None:
            actions = self.order(game, state, actions)
        return start, actions

    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        start, actions = self._begin(game, state, rng or random.Random(0))
        best, value, done = actions[0], -math.inf, 0
        for depth in range(1, self.depth + 1):
            try:
                alpha, here, here_value = -math.inf, actions[0], -math.inf
                for action in actions:
                    v = self._search(game.next_state(state, action), depth - 1, alpha, math.inf, False, 1)
                    if v > here_value:
                        here, here_value, alpha = action, v, max(alpha, v)
            except _Timeout:
                break
            best, value, done = here, here_value, depth
            actions.remove(best)
            actions.insert(0, best)
            if abs(value) > WIN / 2:
                break
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, value)
        return best, value

    def multipv(self, game: Game[Any, Any], state: Any, *, lines: int = 1, include: Iterable[Any] = (),
                rng: random.Random | None = None) -> list[RootLine]:
        """The exact values of the best ``lines`` root moves and of every included one, best first,
        deepening like :meth:`search` (the line of a move is the move alone: no table)."""
        start, actions = self._begin(game, state, rng or random.Random(0))
        wanted = set(include)
        actions += [a for a in game.legal_actions(state) if a in wanted and a not in actions]  # beyond a beam

        def iterate(depth: int) -> dict[Any, RootLine]:
            return _exact_values(actions, lines, wanted, lambda action, floor: self._search(
                game.next_state(state, action), depth - 1, floor, math.inf, False, 1), lambda action: (action,))

        ranked, found, done = _deepen_lines(self, actions, lines, wanted, iterate)
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, found[ranked[0]].value)
        return [found[a] for a in ranked]

    def _search(self, state: Any, depth: int, alpha: float, beta: float, mine: bool, ply: int) -> float:
        self._nodes += 1
        if not self._nodes & 255 and time.perf_counter() > self._deadline:
            raise _Timeout
        game = self._game
        if game.to_move(state) is None:
            return _terminal_value(game, state, self._root, ply)
        if depth <= 0:
            return self.evaluate(game, state, self._root)
        if mine:
            here = self.with_turn(state, self._root)
            if here is None:
                return self.evaluate(game, state, self._root)
            value = -math.inf
            for action in self._moves(here):
                value = max(value, self._search(game.next_state(here, action), depth - 1, alpha, beta, False, ply + 1))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = math.inf
        for player in range(game.num_players):
            if player == self._root:
                continue
            here = self.with_turn(state, player)
            if here is None:
                continue
            for action in self._moves(here):
                value = min(value, self._search(game.next_state(here, action), depth - 1, alpha, beta, True, ply + 1))
                beta = min(beta, value)
                if alpha >= beta:
                    return value
        return value if value < math.inf else self.evaluate(game, state, self._root)

    def _moves(self, state: Any) -> list[Any]:
        actions = list(self._game.legal_actions(state))
        if self.order is not None:
            actions = self.order(self._game, state, actions)
        return actions


