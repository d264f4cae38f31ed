"""Abalone evaluation, move ordering and AI levels.

The evaluation works on the bitboards directly (a few shifts and popcounts per term):

- **material**: marbles pushed out, 1000 points each — it dominates everything else;
- **centre**: the sum of each marble's ring distance from e5 (0 at the centre, 4 on the edge),
  lower is better;
- **cohesion**: neighbouring pairs of own marbles along the three axes;
- **edge danger**: marbles on the edge ring, and those an opponent line could push off right
  now (two opponent marbles lined up behind one of ours, or three behind two).

Every term is "ours minus theirs", so ``evaluate(game, s, 0) == -evaluate(game, s, 1)``.

>>> import qipan
>>> game = qipan.load("abalone")
>>> evaluate(game, game.initial_state(), 0)
0.0
>>> sorted(LEVELS)
['easy', 'hard', 'max', 'medium']
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from qipan.ai.agent import Agent, Blend, GreedyAgent
from qipan.ai.search import WIN, AlphaBetaAgent
from qipan.core.game import Game
from qipan.games.abalone.board import AHEAD, CELLS, DELTAS, NAMES, UNIVERSE, VALID, ring
from qipan.games.abalone.game import BLACK_WON, DRAW, AbaloneState
from qipan.games.abalone.moves import ALL_MOVES, AbaloneMove
from qipan.games.abalone.search import EDGE, AbaloneSearch, _centre, _pairs
from qipan.games.abalone.search import Weights as Weights  # hard's evaluation weights

EDGE_CELLS = EDGE
_RING = {c: ring(c) for c in CELLS}


def _tactics(own: int, opp: int) -> tuple[int, int]:
    """(pushes, threats) of the side owning ``own``: its legal sumito pushes, and how many of them
    push a marble off the board (a cheap stand-in for attacking power and edge danger)."""
    free = UNIVERSE & ~(own | opp)
    pushes = threats = 0
    for op, k, off3, off4, off5 in _AHEAD:
        if not own & op(opp, k):
            continue  # no own marble has an opponent's just ahead: nothing to push this way
        own1 = op(own, k)
        two = own & own1
        own2 = op(own, 2 * k)
        pair = two & ~own2 & op(opp, 2 * k)
        if pair:
            pushes += (pair & op(free, 3 * k)).bit_count()
            threats += (pair & off3).bit_count()
        triple = two & own2 & op(opp, 3 * k)
        if triple:
            pushed_two = op(opp, 4 * k) & op(free, 5 * k)
            pushes += (triple & (op(free, 4 * k) | pushed_two)).bit_count()
            threats += (triple & (off4 | pushed_two & off5)).bit_count()
    return pushes, threats


_OFFBOARD = UNIVERSE & ~VALID
_AHEAD = [(op, k, op(_OFFBOARD, 3 * k), op(_OFFBOARD, 4 * k), op(_OFFBOARD, 5 * k)) for op, k in AHEAD]
"""Per direction: the shift to what lies ahead (see ``board.AHEAD``) and the off-board cells 3, 4
and 5 steps ahead."""


DEFAULT = Weights()


def score(own: int, opp: int, w: Weights = DEFAULT, material_share: float = 1.0) -> float:
    """The evaluation of a position for the side owning ``own`` (bitboards, no terminal check).
    ``material_share`` scales the marble difference (see :func:`evaluate`)."""
    my_pushes, my_threats = _tactics(own, opp)
    their_pushes, their_threats = _tactics(opp, own)
    return (
        w.material * material_share * (own.bit_count() - opp.bit_count())
        + w.centre * (_centre(opp) - _centre(own))
        + w.cohesion * (_pairs(own) - _pairs(opp))
        + w.edge * ((opp & EDGE_CELLS).bit_count() - (own & EDGE_CELLS).bit_count())
        + w.push * (my_pushes - their_pushes)
        + w.threat * (my_threats - their_threats)
    )


def evaluate(game: Game[Any, Any], state: AbaloneState, player: int) -> float:
    """How good ``state`` is for ``player`` (wins and losses score ±WIN).

    Under ``quiet_move_limit`` a lead in marbles is worth less the closer the game is to being
    drawn (nothing at the limit, like the draw itself), so the side ahead keeps pushing marbles
    out instead of sitting on its lead until the draw, and the side behind plays for time.
    """
    if state.outcome:
        if state.outcome == DRAW:
            return 0.0
        won = (state.outcome == BLACK_WON) == (player == 0)
        return WIN if won else -WIN
    limit = game.config.get("quiet_move_limit", 0)
    share = (limit - state.quiet) / limit if limit else 1.0
    if player == 0:
        return score(state.black, state.white, DEFAULT, share)
    return score(state.white, state.black, DEFAULT, share)


def order(game: Game[Any, Any], state: AbaloneState, actions: list[AbaloneMove]) -> list[AbaloneMove]:
    """Pushes that eject a marble first, then other pushes, then moves towards the centre."""
    own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
    keyed = []
    for action in actions:
        if action.inline:
            delta = DELTAS[action.direction]
            front = action.first + delta
            size = 1
            while size < 3 and own >> front & 1:
                front += delta
                size += 1
            rank = 0
            if opp >> front & 1:
                beyond = front + delta
                if opp >> beyond & 1:
                    beyond += delta
                rank = -20 if beyond not in NAMES else -10
            if front in _RING:
                rank += _RING[front] - _RING[action.first]
        else:
            rank = _BROADSIDE_RANK[action]
        keyed.append((rank, action))
    keyed.sort(key=itemgetter(0))
    return [action for _, action in keyed]


_BROADSIDE_RANK = {move: _RING[move.first + DELTAS[move.direction]] - _RING[move.first]
                   for move in ALL_MOVES if move is not None and not move.inline}
"""A broadside move's rank does not depend on the position: its first marble's ring change."""


def _alphabeta(depth: int, name: str, repetition_penalty: float = 0.0) -> Callable[[Game[Any, Any]], Agent]:
    def make(game: Game[Any, Any]) -> Agent:
        return AlphaBetaAgent(evaluate, depth=depth, order=order, name=name, repetition_penalty=repetition_penalty,
                              position_key=AbaloneState.key)

    return make


MEDIUM_SEARCHES = 2 / 3
"""The share of medium's moves that come from its depth-2 search (the rest are easy's)."""


def _greedy(game: Game[Any, Any]) -> Agent:
    return GreedyAgent(evaluate, name="easy")


def _medium(game: Game[Any, Any]) -> Agent:
    return Blend(_alphabeta(2, "medium")(game), _greedy(game), MEDIUM_SEARCHES, name="medium")


MAX_SECONDS = 1.0
"""The max level's default time per move (an arena's or engine's ``time`` replaces it)."""
MAX_MIN_DEPTH = 4
"""With its default time, max completes at least hard's depth however loaded the machine; a time
per move given to it (an arena's ``--time-per-move``, an engine's ``time``) is strict."""


def _max(game: Game[Any, Any]) -> Agent:
    return AbaloneSearch(time_limit=MAX_SECONDS, name="max", repetition_penalty=50.0, min_depth=MAX_MIN_DEPTH)


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": _greedy,
    "medium": _medium,
    "hard": _alphabeta(4, "hard", repetition_penalty=50.0),
    "max": _max,
}
"""easy: one ply greedy; medium: alpha-beta depth 2 at two moves in three, easy's move at the third;
hard: alpha-beta depth 4, and a move back to a position already seen in the game costs it 50 points
(so it does not shuffle into a draw); max: the specialised searcher (:mod:`.search`) deepening for
``MAX_SECONDS`` a move, with its own evaluation and a quiescence search on ejecting pushes."""


def analysis_balance(game: Game[Any, Any], state: AbaloneState, player: int, value: float) -> tuple[float, str]:
    """For :mod:`qipan.ai.analysis`: a search value read in marbles (one marble pushed out is
    worth ``DEFAULT.material``): marbles ahead, with a fraction for position."""
    return value / DEFAULT.material, "marbles"


def analysis_material(game: Game[Any, Any], state: AbaloneState, player: int, value: float) -> float:
    """For :mod:`qipan.ai.analysis`'s verdicts: :func:`analysis_balance` with the marbles at
    ``state`` (the end of a line) counted in full. Under ``quiet_move_limit`` the evaluation
    counts a lead less near the limit and in full again after a push resets the count, so a
    marble lost there could read as a gain."""
    limit = game.config.get("quiet_move_limit", 0)
    if not limit:
        return value / DEFAULT.material
    share = (limit - state.quiet) / limit
    lead = state.black.bit_count() - state.white.bit_count()
    return float(value / DEFAULT.material + (1.0 - share) * (lead if player == 0 else -lead))
