"""Game-agnostic search agents: alpha-beta, expectimax, MCTS and information-set MCTS.

Every agent sees only the view it is given. Perfect-information agents rebuild the position
with ``game.sample_state(view, rng)`` (exact for those games); :class:`ISMCTSAgent` draws a new
full state from the view on every iteration, so hidden information only ever enters through the
game's own sampler.

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
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import Any

from qipan.ai.agent import Evaluation
from qipan.core.game import CHANCE, Game

WIN = 1_000_000.0
"""Score of a won terminal position (minus the plies it takes, so faster wins score higher)."""

Ordering = Callable[[Game[Any, Any], Any, list[Any]], list[Any]]
"""Static move ordering: (game, state, actions) -> the same actions, most promising first."""

KeyFunction = Callable[[Any], Hashable]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_PLY = 200  # safety net for games where one player may decide many times in a row
_EPS = 1e-6  # null-window width: evaluations are expected to differ by more than this
# What one search may keep, in entries. Chinese Checkers' states (121-hole boards, about 1 KB)
# and move lists (about 80 moves) are the heaviest: at these caps one search holds at most about
# 60 MB of table, 55 MB of evaluations and 50 MB of move lists. Neither cache made a measurable
# difference to the speed of depth-4 searches at larger sizes (Abalone hard, Chinese Checkers max).
_MOVE_CACHE = 10_000  # states whose ordered moves one search keeps
_EVALUATION_CACHE = 50_000  # leaf evaluations one search keeps


@dataclass(frozen=True)
class RootLine:
    """One root move of a multi-PV search: its value for the player to move and its principal
    variation (starting with the move itself)."""

    move: Any
    value: float
    pv: tuple[Any, ...]


@dataclass
class SearchStats:
    """What the last ``choose`` did: nodes visited, depth completed (or iterations), seconds."""

    nodes: int = 0
    depth: int = 0
    seconds: float = 0.0
    value: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class _Timeout(Exception):
    pass


def _terminal_value(game: Game[Any, Any], state: Any, player: int, ply: int) -> float:
    """A terminal payoff scaled so wins dominate every heuristic and faster wins score higher."""
    r = game.returns(state)[player]
    if r > 0:
        return r * (WIN - ply)
    if r < 0:
        return r * (WIN - ply)
    return 0.0


class _MemorylessAgent:
    """An agent that keeps nothing between moves: it ignores the views it is shown."""

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        return None


class _StateSearchAgent(_MemorylessAgent, ABC):
    """Searches a state drawn from the view (the exact state for perfect information)."""

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        return self.search(game, game.sample_state(view, rng), rng)[0]

    @abstractmethod
    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        """The best action at ``state`` and its value for the player to move."""


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


def _exact_values(actions: list[Any], lines: int, wanted: set[Any], child: Callable[[Any, float], float],
                  pv: Callable[[Any], tuple[Any, ...]]) -> dict[Any, RootLine]:
    """One multi-PV iteration: ``child(action, floor)`` searches a root move with the window
    (floor, +inf). The moves that reach the best ``lines`` so far, and the ``wanted`` ones
    (searched with no floor), get their exact values and their line ``pv(action)``, read right
    after their search (before other searches overwrite the table); the others are only proven
    no better than the ``lines``-th best (a fail-low) and left out."""
    exact: dict[Any, RootLine] = {}
    top: list[float] = []  # the best exact values so far, best first, at most `lines`
    for action in actions:
        floor = -math.inf if action in wanted or len(top) < lines else top[-1]
        value = child(action, floor)
        if value > floor or action in wanted:
            exact[action] = RootLine(action, value, pv(action))
            top = sorted([*top, value], reverse=True)[:lines]
    return exact


def _deepen_lines(agent: Any, actions: list[Any], lines: int, wanted: set[Any],
                  iterate: Callable[[int], dict[Any, RootLine]]) -> tuple[list[Any], dict[Any, RootLine], int]:
    """Iterative deepening for multi-PV to ``agent.depth`` within its deadline (the first
    iteration always completes), the root moves reordered best first after each: the moves to
    answer (the best ``lines``, then the ``wanted`` others), their lines from the deepest
    iteration completed (an iteration cut short changes none), the depth completed."""
    found: dict[Any, RootLine] = {}
    done = 0
    for depth in range(1, agent.depth + 1):
        try:
            values = iterate(depth)
        except _Timeout:
            if done:
                break
            agent._deadline = math.inf  # one iteration at least, whatever the time limit
            values = iterate(depth)
        found, done = values, depth
        actions.sort(key=lambda a: -found[a].value if a in found else math.inf)  # stable: ties keep their order
        if all(abs(line.value) > WIN / 2 for line in found.values()):
            break  # every line is a forced result
    ranked = [a for a in actions if a in found]
    return ranked[:lines] + [a for a in ranked[lines:] if a in wanted], found, done


def _to_table(value: float, ply: int) -> float:
    # Store wins relative to this node, so a table hit at another ply scores the right distance.
    if value > WIN / 2:
        return value + ply
    if value < -WIN / 2:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value > WIN / 2:
        return value - ply
    if value < -WIN / 2:
        return value + ply
    return value


Policy = Callable[[Game[Any, Any], Any, random.Random], Any]
"""A playout policy: (game, full state, rng) -> an action for the player to move."""

def greedy_policy(evaluate: Evaluation, candidates: int = 8) -> Policy:
    """A playout policy: of up to ``candidates`` random legal actions, the one whose result the
    mover evaluates best, game-ending moves by their payoff (ties at random, so uninformative
    steps stay random)."""

    def policy(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
        actions = list(game.legal_actions(state))
        if len(actions) > candidates:
            actions = rng.sample(actions, candidates)
        else:
            rng.shuffle(actions)
        mover = game.to_move(state)
        assert mover is not None

        def value(action: Any) -> float:
            after = game.next_state(state, action)
            if game.to_move(after) is None:
                return WIN * game.returns(after)[mover]
            return evaluate(game, after, mover)

        return max(actions, key=value)

    return policy


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

    def search(self, game: Game[Any, Any], state: Any, rng: random.Random | None = None) -> tuple[Any, float]:
        rng = rng or random.Random(0)
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
        rng = rng or random.Random(0)
        start = time.perf_counter()
        self._deadline = start + self.time_limit if self.time_limit else math.inf
        self._nodes = 0
        self._game = game
        root = game.to_move(state)
        assert root is not None and root >= 0, "best-reply search chooses for a deciding player"
        self._root = root
        actions = list(game.legal_actions(state))
        rng.shuffle(actions)
        if self.order is not None:
            actions = self.order(game, state, actions)
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


def _squash(value: float, scale: float) -> float:
    """Map a heuristic or terminal score into [-1, 1]."""
    if value >= WIN / 2:
        return 1.0
    if value <= -WIN / 2:
        return -1.0
    return math.tanh(value / scale)


class _Node:
    __slots__ = ("avail", "children", "mover", "untried", "visits", "wins")

    def __init__(self, mover: int | None, n: int):
        self.mover = mover
        self.children: dict[Any, _Node] = {}
        self.untried: list[Any] | None = None
        self.visits = 0
        self.avail = 0
        self.wins = [0.0] * n


class MCTSAgent(_MemorylessAgent):
    """UCT Monte-Carlo tree search with per-player returns (any number of players).

    Each iteration selects by UCB1 on the mover's own average return, expands one action,
    plays ``rollout_depth`` random plies (or, with ``greedy`` > 0, picks the heuristically best
    of ``greedy`` random candidates each ply) and scores the end position by its payoffs or, if
    not over, by ``tanh(evaluate / scale)`` per player. Chance nodes are sampled: each drawn
    outcome gets its own child. Stops after ``iterations`` or ``time_limit`` seconds, whichever
    comes first, and plays the most visited move.
    """

    def __init__(self, evaluate: Evaluation | None = None, *, iterations: int = 1000,
                 time_limit: float | None = None, exploration: float = 1.0, rollout_depth: int = 10,
                 scale: float = 1.0, greedy: int = 0, name: str = "mcts"):
        self.evaluate = evaluate
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.scale = scale
        self.greedy = greedy
        self.policy: Policy | None = greedy_policy(evaluate, greedy) if greedy > 0 and evaluate is not None else None
        self.name = name
        self.stats = SearchStats()

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        state = game.sample_state(view, rng)
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit else math.inf
        n = game.num_players
        root = _Node(game.to_move(state), n)
        self._nodes = 0
        done = 0
        while done < self.iterations and (done % 16 or time.perf_counter() < deadline):
            self._iterate(game, state, root, rng)
            done += 1
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start,
                                 best[1].wins[root.mover or 0] / max(1, best[1].visits))
        return best[0]

    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        path = [root]
        node = root
        n = game.num_players
        while True:
            mover = node.mover
            if mover is None:
                break
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
                state = game.next_state(state, action)
                self._nodes += 1
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(game.to_move(state), n)
                    path.append(child)
                    node = child
                    break
                path.append(child)
                node = child
                continue
            if node.untried is None:
                node.untried = list(game.legal_actions(state))
                rng.shuffle(node.untried)
            if node.untried:
                action = node.untried.pop()
                state = game.next_state(state, action)
                self._nodes += 1
                child = node.children[action] = _Node(game.to_move(state), n)
                path.append(child)
                node = child
                break
            log_n = math.log(node.visits)
            c = self.exploration
            action, node = max(
                node.children.items(),
                key=lambda kv: kv[1].wins[mover] / kv[1].visits + c * math.sqrt(log_n / kv[1].visits),
            )
            state = game.next_state(state, action)
            self._nodes += 1
            path.append(node)
        _backpropagate(path, self._rollout(game, state, rng))

    def _rollout(self, game: Game[Any, Any], state: Any, rng: random.Random) -> list[float]:
        state, plies = _playout(game, state, rng, self.rollout_depth, self.policy)
        self._nodes += plies
        return _score(game, state, self.evaluate, self.scale)


def _playout(game: Game[Any, Any], state: Any, rng: random.Random, depth: int,
             policy: Policy | None) -> tuple[Any, int]:
    """Play up to ``depth`` plies (chance sampled, decisions by ``policy`` or at random)."""
    plies = 0
    for plies in range(1, depth + 1):
        mover = game.to_move(state)
        if mover is None:
            return state, plies - 1
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        elif policy is not None:
            action = policy(game, state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.next_state(state, action)
    return state, plies


def _backpropagate(path: list[_Node], result: list[float]) -> None:
    for visited in path:
        visited.visits += 1
        wins = visited.wins
        for i, value in enumerate(result):
            wins[i] += value


def _score(game: Game[Any, Any], state: Any, evaluate: Evaluation | None, scale: float) -> list[float]:
    n = game.num_players
    if game.to_move(state) is None:
        return [float(r) for r in game.returns(state)]
    if evaluate is None:
        return [0.0] * n
    return [_squash(evaluate(game, state, p), scale) for p in range(n)]


class ISMCTSAgent(_MemorylessAgent):
    """Single-observer information-set MCTS.

    Every iteration draws a full state consistent with the agent's view
    (``game.sample_state(view, rng)`` — the only way hidden information enters) and walks one
    tree of action sequences with it: UCB1 over the children legal in that sample, counting each
    child's availability. Chance events are sampled along the way without tree nodes (open loop).
    Rollouts play ``rollout_depth`` actions (chance included) by ``policy`` (default: uniformly
    random) and score as :class:`MCTSAgent` does. ``prune`` (game, state, actions) -> actions may
    narrow the root to a game planner's candidates. Plays the most visited legal move.
    """

    def __init__(self, evaluate: Evaluation | None = None, *, iterations: int = 1000,
                 time_limit: float | None = None, exploration: float = 0.7, rollout_depth: int = 10,
                 scale: float = 1.0, policy: Policy | None = None, prune: Ordering | None = None,
                 name: str = "ismcts"):
        self.evaluate = evaluate
        self.policy = policy
        self.prune = prune
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.scale = scale
        self.name = name
        self.stats = SearchStats()

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit else math.inf
        n = game.num_players
        me = view["player"]
        root = _Node(me, n)
        first = game.sample_state(view, rng)
        legal_now = list(game.legal_actions(first))
        if len(legal_now) == 1:
            self.stats = SearchStats(0, 0, time.perf_counter() - start, 0.0)
            return legal_now[0]
        if self.prune is not None:
            legal_now = self.prune(game, first, legal_now)
        self._allowed = set(legal_now)
        self._nodes = 0
        done = 0
        while done < self.iterations and (done % 16 or time.perf_counter() < deadline):
            self._iterate(game, game.sample_state(view, rng), root, rng)
            done += 1
        candidates = [(root.children[a].visits, i) for i, a in enumerate(legal_now) if a in root.children]
        if not candidates:
            return rng.choice(legal_now)
        best = legal_now[max(candidates)[1]]
        child = root.children[best]
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start,
                                 child.wins[me] / max(1, child.visits))
        return best

    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        path = [root]
        node = root
        n = game.num_players
        c = self.exploration
        while True:
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                state = game.next_state(state, game.sample_chance(state, rng))
                self._nodes += 1
                continue
            actions: Sequence[Any] = game.legal_actions(state)
            if node is root:
                actions = [a for a in actions if a in self._allowed] or actions
            children = node.children
            untried = [a for a in actions if a not in children]
            for a in actions:
                if a in children:
                    children[a].avail += 1
            if untried:
                action = rng.choice(untried)
                state = game.next_state(state, action)
                self._nodes += 1
                child = children[action] = _Node(mover, n)
                child.avail = 1
                path.append(child)
                break
            action = max(
                actions,
                key=lambda a: children[a].wins[mover] / children[a].visits
                + c * math.sqrt(math.log(children[a].avail) / children[a].visits),
            )
            node = children[action]
            state = game.next_state(state, action)
            self._nodes += 1
            path.append(node)
        _backpropagate(path, self._rollout(game, state, rng))

    def _rollout(self, game: Game[Any, Any], state: Any, rng: random.Random) -> list[float]:
        state, plies = _playout(game, state, rng, self.rollout_depth, self.policy)
        self._nodes += plies
        return _score(game, state, self.evaluate, self.scale)
