"""Alpha-beta search with iterative deepening, a transposition table and multi-PV.

>>> import qipan, random
>>> from qipan.games.abalone.ai import evaluate
>>> game = qipan.load("abalone")
>>> agent = AlphaBetaAgent(evaluate, depth=2)
>>> move = agent.choose(game, game.view(game.initial_state(), 0), random.Random(0))
>>> move in game.legal_actions(game.initial_state())
True
>>> agent.stats.depth
2
"""

from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import suppress
from functools import partial
from itertools import chain
from typing import Any

from qipan.ai.agent import Evaluation
from qipan.ai.searchbase import (
    WIN,
    KeyFunction,
    Ordering,
    RootLine,
    SearchStats,
    _deepen_lines,
    _exact_values,
    _from_table,
    _StateSearchAgent,
    _terminal_value,
    _Timeout,
    _to_table,
)
from qipan.core.game import CHANCE, Game

_EXACT, _LOWER, _UPPER = 0, 1, 2
_EPS = 1e-6  # null-window width: evaluations are expected to differ by more than this
# What one search may keep, in entries. Chinese Checkers' states (121-hole boards, about 1 KB)
# and move lists (about 80 moves) are the heaviest: at these caps one search holds at most about
# 60 MB of table, 55 MB of evaluations and 50 MB of move lists. Neither cache made a measurable
# difference to the speed of depth-4 searches at larger sizes (Abalone hard, Chinese Checkers max).
_MOVE_CACHE = 10_000  # states whose ordered moves one search keeps
_EVALUATION_CACHE = 50_000  # leaf evaluations one search keeps


class AlphaBetaAgent(_StateSearchAgent):
    """Alpha-beta search with iterative deepening, a transposition table and move ordering.

    Values are those of the searching player: it maximises, every other player minimises
    (the *paranoid* assumption, which is exact minimax in two-player zero-sum games and copes
    with turn orders that do not alternate). Chance nodes take the expectation of their listed
    outcomes (``chance_samples`` draws when they cannot be listed).

    ``depth`` bounds the iterative deepening; ``time_limit`` (seconds) stops it early, keeping
    the best move of the deepest search that finished (or the current one's best so far). With a
    ``repetition_penalty``, a move that returns to a position seen earlier in the game (compared
    by ``position_key``, from the views the agent is shown) loses that many points, so the
    searcher varies its play instead of shuffling into a draw (perfect-information games). Move
    ordering: the transposition-table move, then two killer moves per ply, then the history
    heuristic, falling back on the game's static ``order``; with ``pvs`` every move after the
    first is first tried with a null window (principal variation search). Transposition-table
    keys are ``key(state)`` (default: the state itself, compared in full on a hash match; a bare
    ``hash(state)`` can collide, e.g. Python hashes ints modulo 2**61 - 1, so bitboards whose
    marbles sit 61 bits apart hash alike). A custom key must tell apart states with different
    moves: the table's move is tried before the moves are listed. The table lives for one search
    and holds at most ``table_size`` entries (then only the entries it has are updated), so an
    agent between moves holds nothing that grows; keeping it for the next move made Abalone's
    hard level no faster. One search also remembers (boundedly) each state's evaluation and
    statically ordered moves. A game whose ``is_legal`` is much
    cheaper than listing the moves can say so with a true class attribute ``quick_legality``:
    the killer moves are then tried before the other moves are even generated.
    """

    def __init__(
        self,
        evaluate: Evaluation,
        *,
        depth: int = 4,
        time_limit: float | None = None,
        order: Ordering | None = None,
        key: KeyFunction | None = None,
        name: str = "alphabeta",
        table_size: int = 50_000,
        chance_samples: int = 6,
        pvs: bool = False,
        repetition_penalty: float = 0.0,
        position_key: KeyFunction | None = None,
    ):
        self.evaluate = evaluate
        self.pvs = pvs
        self.depth = depth
        self.time_limit = time_limit
        self.order = order
        self.key: KeyFunction | None = key
        """Transposition-table key of a state; None: the state itself (exact, unlike its hash)."""
        self.name = name
        self.table_size = table_size
        self.chance_samples = chance_samples
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.history: dict[Any, int] = defaultdict(int)
        self.killers: list[list[Any]] = []
        # Per search: leaf evaluations and statically ordered moves, by key (both pure functions of
        # the state, and a search revisits many states through transpositions and deepening).
        self._evaluations: dict[Hashable, float] = {}
        self._moves: dict[Hashable, list[Any]] = {}
        self.stats = SearchStats()
        self._deadline = math.inf
        self._nodes = 0
        self._quick_legality = False
        self.repetition_penalty = repetition_penalty
        self.position_key: KeyFunction = position_key or key or _itself
        self.seen: set[Hashable] = set()
        """Positions of the game so far (kept only with a repetition penalty)."""

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        if self.repetition_penalty:
            self.seen.add(self.position_key(game.sample_state(view, random.Random(0))))

    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        """The best action at ``state`` for the player to move and its value (that player's view)."""
        rng = rng or random.Random(0)
        start = time.perf_counter()
        actions = self._begin(game, state, rng)
        best, value, done = actions[0], -math.inf, 0
        if len(actions) == 1:
            self.stats = SearchStats(0, 0, time.perf_counter() - start, value)
            return best, value
        for depth in range(1, self.depth + 1):
            try:
                best_here, value_here = self._root_search(state, actions, depth)
            except _Timeout as partial:
                if partial.args and partial.args[0] is not None:
                    best, value = partial.args[0], partial.args[1]
                break
            best, value, done = best_here, value_here, depth
            actions.remove(best)
            actions.insert(0, best)
            if abs(value) > WIN / 2:
                break  # a forced result: deeper search cannot change it
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, value)
        self._forget()  # tens of megabytes after a deep search
        return best, value

    def multipv(self, game: Game[Any, Any], state: Any, *, lines: int = 1, include: Iterable[Any] = (),
                rng: random.Random | None = None) -> list[RootLine]:
        """Multi-PV: the exact values of the best ``lines`` root moves and of every ``include``d
        one, best first, each with its principal variation read from the table right after the
        move's search (as far as the table holds it), so a later iteration cut short changes
        nothing. Deepens like :meth:`search` (same depth, time limit and move
        order, so at a fixed depth the first line is worth what :meth:`search` finds); the other
        moves are only proven worse than the ``lines``-th best and left out. ``stats`` as for
        :meth:`search`, ``depth`` being the deepest iteration whose lines are returned."""
        rng = rng or random.Random(0)
        start = time.perf_counter()
        actions = self._begin(game, state, rng)
        wanted = set(include)

        def iterate(depth: int) -> dict[Any, RootLine]:
            def child(action: Any, floor: float) -> float:
                after = game.next_state(state, action)
                repeats = self.repetition_penalty and self.position_key(after) in self.seen
                penalty = self.repetition_penalty if repeats else 0.0
                return self._search(after, depth - 1, floor + penalty, math.inf, 1) - penalty
            return _exact_values(actions, lines, wanted, child, lambda action: self._pv(state, action, depth))

        ranked, found, done = _deepen_lines(self, actions, lines, wanted, iterate)
        result = [found[a] for a in ranked]
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, result[0].value if result else 0.0)
        self._forget()
        return result

    def _begin(self, game: Game[Any, Any], state: Any, rng: random.Random) -> list[Any]:
        """Set up a search from ``state``: the root moves, shuffled (random tie-breaks) and ordered."""
        self._deadline = time.perf_counter() + self.time_limit if self.time_limit else math.inf
        self._nodes = 0
        self._game = game
        root = game.to_move(state)
        assert root is not None and root >= 0, "alpha-beta chooses for a deciding player"
        self._root: int = root
        self._rng = rng
        self._quick_legality = bool(getattr(game, "quick_legality", False))
        if self.repetition_penalty:
            self.seen.add(self.position_key(state))
        self._forget()
        self.killers = [[None, None] for _ in range(self.depth + 2)]
        actions = list(game.legal_actions(state))
        rng.shuffle(actions)  # random tie-breaks between equally good moves
        if self.order is not None:
            actions = self.order(game, state, actions)
        return actions

    def _pv(self, state: Any, move: Any, depth: int) -> tuple[Any, ...]:
        """``move`` and the table's best moves after it (at most ``depth`` moves in all)."""
        game = self._game
        pv = [move]
        state = game.next_state(state, move)
        seen = {self.key(state) if self.key else state}
        while len(pv) < depth:
            mover = game.to_move(state)
            if mover is None or mover == CHANCE:
                break
            entry = self.table.get(state if self.key is None else self.key(state))
            if entry is None or entry[3] is None or not game.is_legal(state, entry[3]):
                break
            pv.append(entry[3])
            state = game.next_state(state, entry[3])
            key = self.key(state) if self.key else state
            if key in seen:
                break
            seen.add(key)
        return tuple(pv)

    def _forget(self) -> None:
        """Empty what one search builds up (the table, evaluations, ordered moves, history)."""
        self.table.clear()
        self.history.clear()
        self._evaluations.clear()
        self._moves.clear()

    def _root_search(self, state: Any, actions: list[Any], depth: int) -> tuple[Any, float]:
        game = self._game
        alpha, beta = -math.inf, math.inf
        best, best_value = actions[0], -math.inf
        for action in actions:
            after = game.next_state(state, action)
            try:
                value = self._search(after, depth - 1, alpha, beta, 1)
            except _Timeout:
                # The first move searched is the previous best: anything that beat it is better.
                raise _Timeout(best if best_value > -math.inf else None, best_value) from None
            if self.repetition_penalty and self.position_key(after) in self.seen:
                value -= self.repetition_penalty
            if value > best_value:
                best, best_value = action, value
                alpha = max(alpha, value)
        return best, best_value

    def _search(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if not self._nodes & 511 and time.perf_counter() > self._deadline:
            raise _Timeout
        game = self._game
        mover = game.to_move(state)
        if mover is None:
            return _terminal_value(game, state, self._root, ply)
        if mover == CHANCE:  # chance does not use up depth: the roll and the decision go together
            return self._chance(state, depth, ply)
        key = state if self.key is None else self.key(state)
        if depth <= 0:
            value = self._evaluations.get(key)
            if value is None:
                value = self.evaluate(game, state, self._root)
                if len(self._evaluations) < _EVALUATION_CACHE:
                    self._evaluations[key] = value
            return value

        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                e_value = _from_table(e_value, ply)
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value

        actions = self._ordered(state, key, depth, ply, tt_move)
        maximising = mover == self._root
        alpha0, beta0 = alpha, beta
        best_move = None
        if maximising:
            value = -math.inf
            for i, action in enumerate(actions):
                after = game.next_state(state, action)
                if i and self.pvs:
                    # principal variation search: prove with a null window that this move is no
                    # better than the best so far; search it fully only when it is
                    child = self._search(after, depth - 1, alpha, alpha + _EPS, ply + 1)
                    if alpha < child < beta:
                        child = self._search(after, depth - 1, alpha, beta, ply + 1)
                else:
                    child = self._search(after, depth - 1, alpha, beta, ply + 1)
                if child > value:
                    value, best_move = child, action
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            self._cutoff(action, depth, ply)
                            break
        else:
            value = math.inf
            for i, action in enumerate(actions):
                after = game.next_state(state, action)
                if i and self.pvs:
                    child = self._search(after, depth - 1, beta - _EPS, beta, ply + 1)
                    if alpha < child < beta:
                        child = self._search(after, depth - 1, alpha, beta, ply + 1)
                else:
                    child = self._search(after, depth - 1, alpha, beta, ply + 1)
                if child < value:
                    value, best_move = child, action
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            self._cutoff(action, depth, ply)
                            break
        flag = _UPPER if value <= alpha0 else _LOWER if value >= beta0 else _EXACT
        table = self.table
        if entry is not None or len(table) < self.table_size:
            table[key] = (depth, _to_table(value, ply), flag, best_move)
        return value

    def _chance(self, state: Any, depth: int, ply: int) -> float:
        game = self._game
        outcomes = game.chance_outcomes(state)
        if not outcomes:
            draws = [game.sample_chance(state, self._rng) for _ in range(self.chance_samples)]
            outcomes = [(a, 1.0 / len(draws)) for a in draws]
        total = 0.0
        for action, p in outcomes:
            total += p * self._search(game.next_state(state, action), depth, -math.inf, math.inf, ply + 1)
        return total

    def _ordered(self, state: Any, key: Hashable, depth: int, ply: int, tt_move: Any) -> Iterable[Any]:
        """The moves of an inner node, most promising first: the table move, the killer moves,
        then the rest by history and static order. The rest is only generated (and ordered) when
        the first moves do not already cut off, which they mostly do."""
        front = [] if tt_move is None else [tt_move]  # legal: the table is keyed by the state
        killers = tuple(self.killers[ply]) if ply < len(self.killers) else ()
        if self._quick_legality:
            game = self._game
            front += [k for k in killers if k is not None and k != tt_move and game.is_legal(state, k)]
            killers = ()
        if not front:
            return self._rest(state, key, depth, front, killers)
        return chain(front, _Later(partial(self._rest, state, key, depth, front, killers)))

    def _rest(self, state: Any, key: Hashable, depth: int, front: list[Any], killers: Iterable[Any]) -> list[Any]:
        """The moves after ``front``: ``killers`` that are legal first, then by history and ``order``."""
        static = self._moves.get(key)
        if static is None:
            static = list(self._game.legal_actions(state))
            if self.order is not None:
                static = self.order(self._game, state, static)
            if len(self._moves) < _MOVE_CACHE:
                self._moves[key] = static
        actions = static[:]
        history = self.history
        if history and depth > 1:
            # stable, so equal scores keep the static order; reverse=True keeps stability too
            actions.sort(key=history.__getitem__, reverse=True)
        for move in front:
            with suppress(ValueError):  # (a table move is missing only if a custom key collided)
                actions.remove(move)  # identity first, then ==
        first = 0
        for move in killers:
            if move is None:
                continue
            try:
                i = actions.index(move, first)
            except ValueError:
                continue
            if i != first:
                actions.insert(first, actions.pop(i))
            first += 1
        return actions

    def _cutoff(self, action: Any, depth: int, ply: int) -> None:
        self.history[action] += depth * depth
        if ply < len(self.killers):
            killers = self.killers[ply]
            if killers[0] != action:
                killers[1] = killers[0]
                killers[0] = action


def _itself(state: Hashable) -> Hashable:
    return state


class _Later:
    """An iterable made when first iterated (in ``chain(first, _Later(make))``, only if needed)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], list[Any]]):
        self.make = make

    def __iter__(self) -> Iterator[Any]:
        return iter(self.make())

