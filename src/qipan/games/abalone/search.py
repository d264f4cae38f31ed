"""A specialised alpha-beta searcher for Abalone (the ``max`` level).

The generic :class:`qipan.ai.search.AlphaBetaAgent` pays for its generality at every node: a
state object, ``game.to_move``, the outcome checks of ``next_state``, the evaluation through the
game. This searcher works on the two bitboards and the quiet-move count only (negamax: the side
to move owns ``own``), and adds what the generic search lacks for Abalone:

- a **quiescence search** on ejecting pushes: a leaf whose side to move can push a marble off
  is searched on (those pushes only, with a stand-pat), so a capture at the horizon is seen;
- moves generated **already ordered** on the bitboards: ejecting pushes, other pushes, then
  the rest by how far they bring the line towards the centre; the table move and two killer
  moves are tried before any generation, the history heuristic orders the rest;
- an evaluation (:func:`evaluate`) with what the hard level's lacks: the side to move, edge
  marbles an opponent line stands behind, double threats.

With ``Terms(extra=False)`` and no quiescence it computes exactly hard's evaluation and search
value at a fixed depth (``tests/games/abalone/test_ai_search.py`` checks it against the generic
search). The repetition rule is not searched (like hard, it only penalises a root move back to
a position already seen in the game).

The search loop also exists compiled (``_fast.c``, built by ``pip install`` when a C compiler is
there): the same moves, evaluation and tree, so the same move, value and node count at a fixed
depth, several times faster. :data:`NATIVE` says whether it is installed; ``AbaloneSearch(native=
False)`` or the environment variable ``QIPAN_PURE_PYTHON=1`` keeps the search in pure Python.

>>> import qipan, random
>>> game = qipan.load("abalone")
>>> agent = AbaloneSearch(depth=3, time_limit=None)
>>> move, value = agent.search(game, game.initial_state())
>>> move in game.legal_actions(game.initial_state()), agent.stats.depth
(True, 3)
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import time
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping
from operator import itemgetter
from typing import Any, NamedTuple

from qipan.ai.search import WIN, SearchStats, _from_table, _to_table
from qipan.core.game import Game
from qipan.games.abalone.board import CELLS, DELTAS, NAMES, UNIVERSE, VALID, ring
from qipan.games.abalone.game import MARBLES, TO_WIN, AbaloneState
from qipan.games.abalone.moves import (
    _BROADSIDE_TABLES,
    BROADSIDE,
    INLINE,
    AbaloneMove,
    _broadside_ok,
    is_legal,
    move_from_id,
    move_id,
    perform,
)

_fast: Any = None
if not os.environ.get("QIPAN_PURE_PYTHON"):
    with contextlib.suppress(ImportError):  # not compiled (no C compiler at install): pure Python below
        from qipan.games.abalone import _fast
NATIVE = _fast is not None
"""Whether the compiled search loop is installed."""


def native_move_ids(own: int, opp: int) -> list[int]:
    """The ids of every legal move of the side owning ``own`` (as :func:`ordered_moves`), from the
    compiled core: only when :data:`NATIVE` (the learning environments' action mask uses it)."""
    ids: list[int] = _fast.ordered_moves(own, opp)
    return ids

LOSING_COUNT = MARBLES - TO_WIN
"""A side left with this many marbles has lost."""

RINGS: tuple[int, ...] = tuple(sum(1 << c for c in CELLS if ring(c) == k) for k in range(5))
"""RINGS[k]: the cells at distance k from the centre."""
EDGE = RINGS[4]
_OFF = UNIVERSE & ~VALID
_STEPS = (1, 17, 16)
"""The three axes' bit steps: a direction and its opposite are ``+k`` and ``-k``."""
assert sorted(_STEPS) == sorted(d for d in DELTAS if d > 0)
_AHEAD_OFF = [(k, _OFF >> 3 * k, _OFF >> 4 * k, _OFF >> 5 * k) for k in _STEPS]
_BEHIND_OFF = [(k, _OFF << 3 * k, _OFF << 4 * k, _OFF << 5 * k) for k in _STEPS]
"""Per axis: the step and the cells 3, 4 and 5 steps before an off-board cell (ahead / behind)."""
_AXES = [(k, 2 * k, 3 * k, 4 * k, 5 * k, a3, a4, a5, b3, b4, b5, (EDGE & _OFF >> k) >> k, EDGE & _OFF << k)
         for (k, a3, a4, a5), (_, b3, b4, b5) in zip(_AHEAD_OFF, _BEHIND_OFF, strict=True)]
"""Per axis: the step and its multiples, the cells 3, 4 and 5 steps before an off-board cell ahead
and behind, and the cells whose next cell ahead is an edge cell with the board's end after it /
edge cells with the board's end behind them (for :func:`_targets`, from the contacts)."""
_INWARD = [(k, EDGE & _OFF >> k, EDGE & _OFF << k) for k in _STEPS]
"""Per axis: edge cells whose next cell ahead (``+k``) / behind (``-k``) is off the board."""


class Weights(NamedTuple):
    """Weights of the hard level's evaluation terms (points; one marble pushed out is
    ``material``); :class:`Terms` starts from them."""

    material: float = 1000.0
    centre: float = 20.0
    cohesion: float = 6.0
    edge: float = 15.0
    push: float = 10.0
    threat: float = 150.0


_HARDS = Weights()


class Terms(NamedTuple):
    """Weights of the evaluation (points; a marble pushed out is ``material``). The first six are
    hard's (:class:`Weights`); ``extra=False`` leaves out the rest."""

    material: float = _HARDS.material
    centre: float = _HARDS.centre
    cohesion: float = _HARDS.cohesion
    edge: float = _HARDS.edge
    push: float = _HARDS.push
    threat: float = _HARDS.threat
    extra: bool = True
    to_move_threat: float = 250.0
    """On top of ``threat``, per ejecting push the side to move has: it can play one now."""
    double_threat: float = 300.0
    """When the side not to move faces two or more ejecting pushes: one of them is likely lost."""
    target: float = 25.0
    """Per edge marble with an opponent marble right behind it on a line that leaves the board."""
    wedge: float = 0.0
    """Per marble wedged between two opponent marbles on a line (it splits their group)."""
    press: float = 30.0
    """Per marble ahead, per ring the opponent's marbles stand from the centre: a side ahead
    drives the other's group out of the centre towards the edge, where it can be pushed off (a
    group holding the centre cannot, and a lead alone does not make it leave)."""


HARD = Terms(extra=False)
MAX = Terms()


def tactics(own: int, opp: int) -> tuple[int, int, int, int, int]:
    """(own pushes, own ejecting pushes, opponent pushes, opponent ejecting pushes, targets): the
    legal sumito pushes of each side, how many of them push a marble off the board, and the
    opponent's edge marbles with an own marble right behind them on a line that leaves the board,
    minus the same for the opponent (see :func:`_targets`).

    Along each axis, a push needs an own marble with an opponent's right ahead, so one contact
    test covers the side pushing ahead (``+k``, shifts ``>>``) and the other pushing back (``-k``,
    ``<<``). The four cases are written out: a call per case took twice as long."""
    free = UNIVERSE & ~(own | opp)
    my_pushes = my_threats = their_pushes = their_threats = targets = 0
    for k, k2, k3, k4, k5, a3, a4, a5, b3, b4, b5, a1, b1 in _AXES:
        contact = own & opp >> k  # own marbles with an opponent's right ahead
        if contact:
            targets += (contact & a1).bit_count() - (contact & b1).bit_count()
            two = own & own >> k  # own pairs pointing ahead: own pushes ahead
            x = two & opp >> k2
            if x:
                my_pushes += (x & free >> k3).bit_count()
                my_threats += (x & a3).bit_count()
            x = two & own >> k2 & opp >> k3
            if x:
                y = opp >> k4 & free >> k5
                my_pushes += (x & (free >> k4 | y)).bit_count()
                my_threats += (x & (a4 | y & a5)).bit_count()
            two = opp & opp << k  # opponent pairs pointing back: the opponent pushes back
            x = two & own << k2
            if x:
                their_pushes += (x & free << k3).bit_count()
                their_threats += (x & b3).bit_count()
            x = two & opp << k2 & own << k3
            if x:
                y = own << k4 & free << k5
                their_pushes += (x & (free << k4 | y)).bit_count()
                their_threats += (x & (b4 | y & b5)).bit_count()
        contact = opp & own >> k
        if contact:
            targets += (contact & b1).bit_count() - (contact & a1).bit_count()
            two = opp & opp >> k
            x = two & own >> k2
            if x:
                their_pushes += (x & free >> k3).bit_count()
                their_threats += (x & a3).bit_count()
            x = two & opp >> k2 & own >> k3
            if x:
                y = own >> k4 & free >> k5
                their_pushes += (x & (free >> k4 | y)).bit_count()
                their_threats += (x & (a4 | y & a5)).bit_count()
            two = own & own << k
            x = two & opp << k2
            if x:
                my_pushes += (x & free << k3).bit_count()
                my_threats += (x & b3).bit_count()
            x = two & own << k2 & opp << k3
            if x:
                y = opp << k4 & free << k5
                my_pushes += (x & (free << k4 | y)).bit_count()
                my_threats += (x & (b4 | y & b5)).bit_count()
    return my_pushes, my_threats, their_pushes, their_threats, targets


def _centre(bits: int) -> int:
    return ((bits & RINGS[1]).bit_count() + 2 * (bits & RINGS[2]).bit_count()
            + 3 * (bits & RINGS[3]).bit_count() + 4 * (bits & RINGS[4]).bit_count())


def _pairs(bits: int) -> int:
    return (bits & bits >> 1).bit_count() + (bits & bits >> 17).bit_count() + (bits & bits >> 16).bit_count()


def _targets(own: int, opp: int) -> int:
    """Opponent edge marbles with an own marble right behind them on a line leaving the board
    (written plainly; :func:`tactics` counts them from the contacts it finds anyway)."""
    count = 0
    for k, off_ahead, off_behind in _INWARD:
        count += (opp & off_ahead & own << k).bit_count() + (opp & off_behind & own >> k).bit_count()
    return count


def _wedged(own: int, opp: int) -> int:
    """Own marbles with an opponent marble on both sides along a line."""
    return ((own & opp << 1 & opp >> 1).bit_count() + (own & opp << 17 & opp >> 17).bit_count()
            + (own & opp << 16 & opp >> 16).bit_count())


def evaluate(own: int, opp: int, terms: Terms = MAX) -> tuple[float, int]:
    """The positional value for the side to move (owning ``own``), without the marble count, and
    how many ejecting pushes it has (the quiescence search plays them)."""
    my_pushes, my_threats, their_pushes, their_threats, targets = tactics(own, opp)
    value = (
        terms.centre * (_centre(opp) - _centre(own))
        + terms.cohesion * (_pairs(own) - _pairs(opp))
        + terms.edge * ((opp & EDGE).bit_count() - (own & EDGE).bit_count())
        + terms.push * (my_pushes - their_pushes)
        + terms.threat * (my_threats - their_threats)
    )
    if terms.extra:
        value += terms.to_move_threat * my_threats + terms.target * targets
        if their_threats > 1:
            value -= terms.double_threat
        if terms.wedge:
            value += terms.wedge * (_wedged(own, opp) - _wedged(opp, own))
        if terms.press:
            lead = own.bit_count() - opp.bit_count()
            if lead > 0:
                value += terms.press * lead * _centre(opp)
            elif lead < 0:
                value += terms.press * lead * _centre(own)
    return value, my_threats


# --- move generation, already ordered ------------------------------------------------------------

_RANKED: list[list[dict[int, tuple[int, AbaloneMove]]]] = [
    [{cell: (ring(cell + size * DELTAS[d]) - ring(cell), move) for cell, move in INLINE[d].items()
      if cell + size * DELTAS[d] in NAMES} for size in (1, 2, 3)]
    for d in range(6)
]
"""_RANKED[d][size - 1][cell]: (centre gain rank, move) of the in-line move of ``size`` marbles
trailing at ``cell`` (lower ranks first: the line's head ends nearer the centre)."""
_BROADSIDE_RANKED = [
    tuple({cell: (ring(cell + DELTAS[d]) - ring(cell), move) for cell, move in BROADSIDE[key].items()}
          for key in ((axis, 2, d), (axis, 3, d)))
    for d, ka, _pairs_table, _triples_table in _BROADSIDE_TABLES
    for axis in [DELTAS.index(ka)]
]


def _cells(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def ordered_moves(own: int, opp: int) -> list[AbaloneMove]:
    """Every legal move of the side owning ``own``: ejecting pushes, other pushes, then the rest
    with the moves that bring their line nearest the centre first."""
    occupied = own | opp
    empty = VALID & ~occupied
    free = UNIVERSE & ~occupied
    ejections: list[AbaloneMove] = []
    pushes: list[AbaloneMove] = []
    quiet: list[tuple[int, AbaloneMove]] = []
    for d, delta in enumerate(DELTAS):
        if delta > 0:
            k = delta
            own1, own2, own3 = own >> k, own >> 2 * k, own >> 3 * k
            ahead_empty = (empty >> k, empty >> 2 * k, empty >> 3 * k)
            opp2, opp3, opp4 = opp >> 2 * k, opp >> 3 * k, opp >> 4 * k
            free3, free4, free5 = free >> 3 * k, free >> 4 * k, free >> 5 * k
            off3, off4, off5 = _OFF >> 3 * k, _OFF >> 4 * k, _OFF >> 5 * k
        else:
            k = -delta
            own1, own2, own3 = own << k, own << 2 * k, own << 3 * k
            ahead_empty = (empty << k, empty << 2 * k, empty << 3 * k)
            opp2, opp3, opp4 = opp << 2 * k, opp << 3 * k, opp << 4 * k
            free3, free4, free5 = free << 3 * k, free << 4 * k, free << 5 * k
            off3, off4, off5 = _OFF << 3 * k, _OFF << 4 * k, _OFF << 5 * k
        ranked = _RANKED[d]
        table = INLINE[d]
        lines = (own & ~own1, own & own1 & ~own2, own & own1 & own2 & ~own3)
        for size, line in enumerate(lines):
            if line:
                moving = line & ahead_empty[size]
                if moving:
                    sizes = ranked[size]
                    quiet.extend(sizes[c] for c in _cells(moving))
        pair, triple = lines[1], lines[2]
        pair_push = pair & opp2 & free3
        triple_push = triple & opp3 & (free4 | opp4 & free5)
        if pair_push or triple_push:
            eject = pair_push & off3 | triple_push & (off4 | opp4 & off5)
            ejections.extend(table[c] for c in _cells(eject))
            pushes.extend(table[c] for c in _cells((pair_push | triple_push) & ~eject))
    for (pairs, triples), (pairs_table, triples_table) in zip(_broadside_ok(own, empty), _BROADSIDE_RANKED,
                                                              strict=True):
        if pairs:
            quiet.extend(pairs_table[c] for c in _cells(pairs))
            if triples:
                quiet.extend(triples_table[c] for c in _cells(triples))
    quiet.sort(key=itemgetter(0))
    return ejections + pushes + [move for _, move in quiet]


def ejecting_moves(own: int, opp: int) -> list[AbaloneMove]:
    """The in-line pushes of the side owning ``own`` that push a marble off the board."""
    moves: list[AbaloneMove] = []
    for d, delta in enumerate(DELTAS):
        k = abs(delta)
        if delta > 0:
            two = own & own >> k
            pair = two & ~(own >> 2 * k) & opp >> 2 * k & _OFF >> 3 * k
            triple = two & own >> 2 * k & opp >> 3 * k & (_OFF >> 4 * k | opp >> 4 * k & _OFF >> 5 * k)
        else:
            two = own & own << k
            pair = two & ~(own << 2 * k) & opp << 2 * k & _OFF << 3 * k
            triple = two & own << 2 * k & opp << 3 * k & (_OFF << 4 * k | opp << 4 * k & _OFF << 5 * k)
        if pair | triple:
            moves.extend(INLINE[d][c] for c in _cells(pair | triple))
    return moves


# --- the search ---------------------------------------------------------------------------------

_EXACT, _LOWER, _UPPER = 0, 1, 2
QUIESCENCE_DEPTH = 6
"""How many ejecting pushes in a row the quiescence search follows."""
_CHECK_EVERY = 1023  # nodes between looks at the clock
NULL_REDUCTION = 2
"""How much shallower the null-move search looks."""
LATE_MOVES = 4
"""Moves searched at full depth before quiet moves are searched one ply shallower first."""
_EPS = 1e-3  # null-window width (evaluations differ by whole points or shares of 1000)


class _Timeout(Exception):
    pass


class RootLine(NamedTuple):
    """One root move of :meth:`AbaloneSearch.multipv`: its value for the side to move and its
    principal variation (starting with the move itself)."""

    move: AbaloneMove
    value: float
    pv: tuple[AbaloneMove, ...]


class _Root(NamedTuple):
    """What the deepening leaves: the root position, its moves (best first), the repetition
    penalties, the best move, its value, the depth completed and the line (move, value,
    principal variation) of the best move of the deepest iteration completed (``best`` may come
    from a later iteration cut short, once it beat that move)."""

    own: int
    opp: int
    quiet: int
    moves: list[AbaloneMove]
    penalty: dict[AbaloneMove, float]
    best: AbaloneMove
    value: float
    depth: int
    line: RootLine


class AbaloneSearch:
    """Negamax alpha-beta over Abalone bitboards with iterative deepening, a transposition table,
    killer moves, the history heuristic and (``quiescence``) a quiescence search on ejecting
    pushes. ``time_limit`` (seconds, None: none) stops the deepening; the best move of the deepest
    finished iteration is played, or of the unfinished one if it already beat that. A root move
    back to a position seen in the game costs ``repetition_penalty`` points (as for hard).
    Tables live for one search and hold at most ``table_size`` entries each. ``native``: search
    with the compiled core when it is installed (:data:`NATIVE`; the same results)."""

    def __init__(self, *, depth: int = 64, time_limit: float | None = 1.0, terms: Terms = MAX,
                 quiescence: bool = True, name: str = "max", repetition_penalty: float = 50.0,
                 table_size: int = 100_000, null_move: bool = True, reductions: bool = True, min_depth: int = 1,
                 native: bool = True):
        self.depth = depth
        self._time_limit = time_limit
        self.min_depth = min_depth
        """Depths completed whatever the time (only until a time limit is set from outside)."""
        self.null_move = null_move
        self.reductions = reductions
        self.terms = terms
        self.quiescence = quiescence
        self.name = name
        self.repetition_penalty = repetition_penalty
        self.table_size = table_size
        self.native = native
        self.stats = SearchStats()
        self.seen: set[Hashable] = set()
        """Keys (:meth:`AbaloneState.key`) of the positions of the game so far."""
        self._table: dict[tuple[int, int, int], tuple[int, float, int, AbaloneMove | None]] = {}
        self._evaluations: dict[tuple[int, int], tuple[float, int]] = {}
        self._moves: dict[tuple[int, int], list[AbaloneMove]] = {}
        self._history: defaultdict[AbaloneMove, int] = defaultdict(int)
        self._killers: list[list[AbaloneMove | None]] = []
        self._nodes = 0
        self._deadline = math.inf
        self._limit = 0
        self._core: Any = None  # the compiled searcher of the current search, if any

    @property
    def time_limit(self) -> float | None:
        return self._time_limit

    @time_limit.setter
    def time_limit(self, seconds: float | None) -> None:
        """A time limit set from outside (a time per move, a clock) is strict: no ``min_depth``."""
        self._time_limit = seconds
        self.min_depth = 1

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        if self.repetition_penalty:
            self.seen.add(game.sample_state(view, random.Random(0)).key())

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> AbaloneMove:
        return self.search(game, game.sample_state(view, rng), rng)[0]

    def search(self, game: Game[Any, Any], state: AbaloneState,
               rng: random.Random | None = None) -> tuple[AbaloneMove, float]:
        """The best move at ``state`` for the side to move, and its value for that side."""
        try:
            root = self._deepen(game, state, rng or random.Random(0))
        finally:
            self._forget(drop_core=True)
        return root.best, root.value

    def multipv(self, game: Game[Any, Any], state: AbaloneState, *, lines: int = 1, include: Iterable[Any] = (),
                rng: random.Random | None = None) -> list[RootLine]:
        """For :mod:`qipan.ai.analysis`: the ``lines`` best root moves and every ``include``d one,
        best first, with values and principal variations (each read from the table right after
        its move's search). The deepening runs as for :meth:`search` (in 60% of the time limit
        when more is asked) and gives the best move of the deepest iteration it completed with
        its value (at a fixed depth, :meth:`search`'s choice); the others are then searched to
        that depth (with tables emptied, as the deepening left them depending on where the clock
        stopped it), each with the window that proves it among the best ``lines`` or not, in the
        time left: the first ``lines`` moves and the included ones whatever the time, the rest
        (which could only displace them) while time remains. Every line is of the same depth and
        the lines are ordered by value (ties: the deepening's choice first), so an iteration cut
        short changes no line."""
        wanted = set(include)
        more = lines > 1 or bool(wanted)
        time_limit = self._time_limit
        start = time.perf_counter()
        if more and time_limit:
            self._time_limit = 0.6 * time_limit
        try:
            root = self._deepen(game, state, rng or random.Random(0))
            deadline = start + time_limit if time_limit else math.inf
            depth = max(root.depth, 1)
            # the lines are those of the deepest iteration completed, every one of the same depth
            values, pvs = {root.line.move: root.line.value}, {root.line.move: root.line.pv}
            if more:
                # A deeper iteration cut short left deeper entries, killers and history: searched
                # with them, the other lines would depend on where the clock stopped it.
                self._forget()
                self._new_killers()
                top = [root.line.value]  # exact values found, best first
                for move in root.moves:
                    if move in values:
                        continue
                    required = move in wanted or len(values.keys() - wanted) < lines or not root.depth
                    if not required and time.perf_counter() > deadline:
                        continue
                    self._deadline = math.inf if required else deadline
                    bound = top[lines - 1] if len(top) >= lines and move not in wanted else -math.inf
                    penalty = root.penalty.get(move, 0.0)
                    try:
                        value = self._child(root.own, root.opp, root.quiet, move, depth, -math.inf,
                                            -(bound + penalty), 0) - penalty
                    except _Timeout:
                        continue
                    if value > bound:
                        values[move] = value
                        pvs[move] = self._pv(root.own, root.opp, root.quiet, move, depth)  # before other searches
                        top.append(value)
                        top.sort(reverse=True)
            ranked = sorted(values, key=lambda m: -values[m])  # stable: the deepening's choice first among ties
            chosen = ranked[:lines] + [m for m in ranked[lines:] if m in wanted]
            found = [RootLine(move, values[move], pvs[move]) for move in chosen]
            self.stats = SearchStats(self._nodes, root.depth, time.perf_counter() - start, found[0].value)
            return found
        finally:
            self._time_limit = time_limit
            self._forget(drop_core=True)

    def analysis_value(self, game: Game[Any, Any], state: AbaloneState, player: int, value: float) -> float:
        """For :mod:`qipan.ai.analysis`: a line's ``value`` for ``player`` without the ``press``
        term, which steers the search but is no marbles a player has (a lead of one with the
        other group far from the centre would read three). ``state`` is where the line's moves
        end; the search scored the position its quiescence search reached from there, so the
        term is taken as the difference that quiescence search makes with and without it."""
        if not (self.terms.extra and self.terms.press) or abs(value) > WIN / 2 or game.to_move(state) is None:
            return value
        limit = int(game.config.get("quiet_move_limit", 0) or 0)
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        pressed = (_settled(own, opp, state.quiet, limit, self.terms)
                   - _settled(own, opp, state.quiet, limit, self.terms._replace(press=0.0)))
        return value - (pressed if state.turn == player else -pressed)

    def _pv(self, own: int, opp: int, quiet: int, move: AbaloneMove, depth: int) -> tuple[AbaloneMove, ...]:
        """``move`` and the table's best moves after it (at most ``depth`` moves in all), as far
        as the table holds them: read right after the move's search, before others overwrite it."""
        after_own, after_opp = perform(own, opp, move)
        quiet = 0 if after_opp.bit_count() < opp.bit_count() else quiet + 1
        own, opp = after_opp, after_own
        pv = [move]
        while len(pv) < depth:
            best = self._table_move(own, opp, quiet)
            if best is None or not is_legal(own, opp, best):
                break
            pv.append(best)
            after_own, after_opp = perform(own, opp, best)
            quiet = 0 if after_opp.bit_count() < opp.bit_count() else quiet + 1
            own, opp = after_opp, after_own
        return tuple(pv)

    def _table_move(self, own: int, opp: int, quiet: int) -> AbaloneMove | None:
        if self._core is not None:
            found = self._core.probe(own, opp, quiet)
            return None if found is None else move_from_id(found)
        entry = self._table.get((own, opp, quiet))
        return None if entry is None else entry[3]

    def _deepen(self, game: Game[Any, Any], state: AbaloneState, rng: random.Random) -> _Root:
        """Iterative deepening from ``state`` until the depth or the time limit (tables kept)."""
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit else math.inf
        self._nodes = 0
        self._limit = int(game.config.get("quiet_move_limit", 0) or 0)
        self._core = None
        if self.native and _fast is not None:
            self._core = _fast.Searcher(self.terms, self.quiescence, self.null_move, self.reductions, self.table_size)
            self._core.reset(self._limit, self.depth + 2)
        self._forget()
        self._new_killers()
        if self.repetition_penalty:
            self.seen.add(state.key())
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        moves = ordered_moves(own, opp)
        rng.shuffle(moves)  # random tie-breaks; depth 1 orders them
        penalty = {move: self.repetition_penalty for move in moves
                   if self.repetition_penalty and game.next_state(state, move).key() in self.seen}
        best, done = moves[0], 0
        self._deadline = math.inf
        value = self._child(own, opp, state.quiet, best, 1, -math.inf, math.inf, 0) - penalty.get(best, 0.0)
        line = RootLine(best, value, (best,))  # a single move is not searched deeper
        if len(moves) > 1:
            for depth in range(1, self.depth + 1):
                self._deadline = math.inf if depth <= self.min_depth else deadline
                try:
                    best_here, value_here = self._root(own, opp, state.quiet, moves, penalty, depth)
                except _Timeout as partial:
                    if partial.args:
                        best, value = partial.args
                    break
                best, value, done = best_here, value_here, depth
                line = RootLine(best, value, self._pv(own, opp, state.quiet, best, depth))
                moves.remove(best)
                moves.insert(0, best)
                if abs(value) > WIN / 2:
                    break  # a forced result: deeper search cannot change it
        self.stats = SearchStats(self._nodes, done, time.perf_counter() - start, value)
        return _Root(own, opp, state.quiet, moves, penalty, best, value, done, line)

    def _new_killers(self) -> None:
        self._killers = [[None, None] for _ in range(self.depth + 2)]
        if self._core is not None:
            self._core.new_killers(self.depth + 2)

    def _forget(self, drop_core: bool = False) -> None:
        if self._core is not None:
            self._core.forget()
            if drop_core:  # it lives for one search (and would not pickle: agents go to worker processes)
                self._core = None
        self._table.clear()
        self._evaluations.clear()
        self._moves.clear()
        self._history.clear()

    def _root(self, own: int, opp: int, quiet: int, moves: list[AbaloneMove], penalty: dict[AbaloneMove, float],
              depth: int) -> tuple[AbaloneMove, float]:
        alpha = -math.inf
        best, best_value = moves[0], -math.inf
        for move in moves:
            try:
                value = self._child(own, opp, quiet, move, depth, -math.inf, -alpha, 0)
            except _Timeout:
                # the first move searched is the previous best: anything that beat it is better
                if best_value > -math.inf:
                    raise _Timeout(best, best_value) from None
                raise
            value -= penalty.get(move, 0.0)
            if value > best_value:
                best, best_value = move, value
                alpha = max(alpha, value)
        return best, best_value

    def _child(self, own: int, opp: int, quiet: int, move: AbaloneMove, depth: int, alpha: float, beta: float,
               ply: int) -> float:
        """The value of ``move`` for the side playing it (``alpha``/``beta`` in the child's terms)."""
        if self._core is not None:
            timed_out, value = self._core.child(own, opp, quiet, move_id(move), depth, alpha, beta, ply,
                                                self._remaining())
            self._nodes = self._core.nodes
            if timed_out:
                raise _Timeout
            return float(value)
        after_own, after_opp = perform(own, opp, move)
        if after_opp.bit_count() < opp.bit_count():
            if after_opp.bit_count() <= LOSING_COUNT:
                return WIN - ply - 1
            return -self._negamax(after_opp, after_own, 0, depth - 1, alpha, beta, ply + 1)
        if self._limit and quiet + 1 >= self._limit:
            return 0.0
        return -self._negamax(after_opp, after_own, quiet + 1, depth - 1, alpha, beta, ply + 1)

    def _remaining(self) -> float:
        return self._deadline - time.perf_counter() if self._deadline < math.inf else math.inf

    def _negamax(self, own: int, opp: int, quiet: int, depth: int, alpha: float, beta: float, ply: int,
                 null: bool = True) -> float:
        if depth <= 0:
            return self._quiesce(own, opp, quiet, alpha, beta, ply, QUIESCENCE_DEPTH)
        self._nodes += 1
        if not self._nodes & _CHECK_EVERY and time.perf_counter() > self._deadline:
            raise _Timeout
        key = (own, opp, quiet)
        table = self._table
        entry = table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                e_value = _from_table(e_value, ply)
                if e_flag == _EXACT or (e_flag == _LOWER and e_value >= beta) or (
                        e_flag == _UPPER and e_value <= alpha):
                    return e_value
        limit = self._limit
        if null and self.null_move and depth >= 3 and beta < WIN / 2 and self._static(own, opp, quiet) >= beta:
            # null move: if passing still holds beta at a reduced depth, a move surely does
            value = -self._negamax(opp, own, quiet, depth - 1 - NULL_REDUCTION, -beta, -beta + _EPS, ply + 1, False)
            if value >= beta:
                return value
        alpha0 = alpha
        best_value, best_move = -math.inf, None
        n_opp = opp.bit_count()
        reduce = self.reductions and depth >= 3
        negamax = self._negamax
        for index, move in enumerate(self._ordered(own, opp, depth, ply, tt_move)):
            after_own, after_opp = perform(own, opp, move)
            if after_opp != opp and after_opp.bit_count() < n_opp:  # a marble pushed off
                if n_opp - 1 <= LOSING_COUNT:
                    value = WIN - ply - 1
                else:
                    value = -negamax(after_opp, after_own, 0, depth - 1, -beta, -alpha, ply + 1)
            elif limit and quiet + 1 >= limit:
                value = 0.0
            elif reduce and index >= LATE_MOVES and after_opp == opp:
                # a late quiet move: searched one ply shallower, again in full only if it looks good
                value = -negamax(after_opp, after_own, quiet + 1, depth - 2, -alpha - _EPS, -alpha, ply + 1)
                if value > alpha:
                    value = -negamax(after_opp, after_own, quiet + 1, depth - 1, -beta, -alpha, ply + 1)
            else:
                value = -negamax(after_opp, after_own, quiet + 1, depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._history[move] += depth * depth
                        killers = self._killers[ply]
                        if killers[0] is not move:
                            killers[1] = killers[0]
                            killers[0] = move
                        break
        if best_move is None:  # no legal move (never seen in play): the side to move loses
            return -(WIN - ply)
        flag = _UPPER if best_value <= alpha0 else _LOWER if best_value >= beta else _EXACT
        if entry is not None or len(table) < self.table_size:
            table[key] = (depth, _to_table(best_value, ply), flag, best_move)
        return best_value

    def _static(self, own: int, opp: int, quiet: int) -> float:
        """The evaluation for the side to move (cached per search)."""
        key = (own, opp)
        cached = self._evaluations.get(key)
        if cached is None:
            cached = evaluate(own, opp, self.terms)
            if len(self._evaluations) < self.table_size:
                self._evaluations[key] = cached
        return self._material(own, opp, quiet) + cached[0]

    def _material(self, own: int, opp: int, quiet: int) -> float:
        """The marble count's value for the side to move, scaled down as the quiet-move limit nears
        (a draw there keeps nothing of a lead)."""
        limit = self._limit
        share = (limit - quiet) / limit if limit else 1.0
        return self.terms.material * share * (own.bit_count() - opp.bit_count())

    def _ordered(self, own: int, opp: int, depth: int, ply: int, tt_move: AbaloneMove | None) -> Iterator[AbaloneMove]:
        """The table move, the legal killer moves, then the rest (generated only if needed)."""
        tried: list[AbaloneMove] = []
        if tt_move is not None:
            tried.append(tt_move)
            yield tt_move
        for killer in self._killers[ply]:
            if killer is not None and killer is not tt_move and is_legal(own, opp, killer):
                tried.append(killer)
                yield killer
        key = (own, opp)
        moves = self._moves.get(key)
        if moves is None:
            moves = ordered_moves(own, opp)
            if len(self._moves) < self.table_size:
                self._moves[key] = moves
        if depth > 1 and self._history:
            moves = sorted(moves, key=self._history.__getitem__, reverse=True)  # stable
        for move in moves:
            if move not in tried:
                yield move

    def _quiesce(self, own: int, opp: int, quiet: int, alpha: float, beta: float, ply: int, left: int) -> float:
        """The static value, or better for the side to move: ejecting pushes searched on."""
        self._nodes += 1
        if not self._nodes & _CHECK_EVERY and time.perf_counter() > self._deadline:
            raise _Timeout
        key = (own, opp)
        cached = self._evaluations.get(key)
        if cached is None:
            cached = evaluate(own, opp, self.terms)
            if len(self._evaluations) < self.table_size:
                self._evaluations[key] = cached
        positional, threats = cached
        value = self._material(own, opp, quiet) + positional
        if not threats or not self.quiescence or not left or value >= beta:
            return value
        if value > alpha:
            alpha = value
        losing = opp.bit_count() - 1 <= LOSING_COUNT
        for move in ejecting_moves(own, opp):
            if losing:
                return WIN - ply - 1
            after_own, after_opp = perform(own, opp, move)
            child = -self._quiesce(after_opp, after_own, 0, -beta, -alpha, ply + 1, left - 1)
            if child > value:
                value = child
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return value


def _settled(own: int, opp: int, quiet: int, limit: int, terms: Terms) -> float:
    """The quiescence value of a position for the side to move (owning ``own``) with ``terms``."""
    probe = AbaloneSearch(terms=terms, time_limit=None, native=False)
    probe._limit = limit
    return probe._quiesce(own, opp, quiet, -math.inf, math.inf, 0, QUIESCENCE_DEPTH)
