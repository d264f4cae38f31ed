"""Kelighine heuristics and AI levels.

The evaluation counts each piece's progress in "cells": 25 for each completed lap, the part of
the lap under way, a little for being in the tier above its last completed lap (it promoted), and
100 for a finished piece. A state is worth its player's total minus the best opponent's. A piece
waiting for its owner's push choice is valued as placed where its owner likes it best, so the
greedy agent prefers moves that push opponents out of their laps.

>>> import qipan
>>> game = qipan.load("kelighine")
>>> evaluate(game, game.initial_state(), 0)
0.0

The race search (hard wherever the exact table does not apply) uses :func:`evaluate_race`:
progress counted as cells moved (a step on ring A is worth a step on ring B) and promotions made,
less what each piece stands to lose to the player about to roll: a direct push, by the chance that
one of that player's pieces is the right distance behind it, and for the roller's own pieces the
indirect-push cells they must land on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from qipan.ai.agent import Agent, Blend, GreedyAgent, RandomAgent
from qipan.ai.search import ExpectimaxAgent
from qipan.core.game import Game
from qipan.games.kelighine import board, exact
from qipan.games.kelighine.board import GAP, INDIRECT, J, tier
from qipan.games.kelighine.state import ACT, ONES, OVER, PUSH, RESERVE, ROLL, Action, Piece, State

WIN = 1000.0


def piece_value(game: Any, owner: int, piece: Piece) -> float:
    """Progress of one piece, 0 (reserve) to 100 (at J)."""
    c = piece.cell
    if c == J:
        return 100.0
    if c == RESERVE:
        return 0.0
    done = piece.done
    if done == 0:
        start = GAP[game.start_of(owner)]
        return 1.0 + 22.0 * min(1.0, max(0.0, (piece.a - start) / 33.0))
    base = 25.0 * done
    if piece.entry >= 0:
        steps = (board.number(c) - board.number(piece.entry)) % 8
        return base + 4.0 + 20.0 * steps / 8.0
    here = tier(c)
    # lap complete but not promoted yet: each promotion still to make costs a die
    return base - 4.0 * (done - max(here, 1)) - (2.0 if here == 0 else 0.0)


def _static(game: Any, state: State, player: int) -> float:
    totals = [sum(piece_value(game, o, p) for p in ps) for o, ps in enumerate(state.pieces)]
    pend = state.pending
    if pend is not None:
        totals[pend.owner] += piece_value(game, pend.owner, pend.piece)
    if state.phase in (ACT, ONES) or (state.phase == ROLL and state.rolled == () and state.log
                                      and state.log[-1][0] == "ones"):
        # unused dice of the player whose turn it is are worth about their pips
        pips = sum(state.dice) if state.phase == ACT else 5.0
        totals[state.turn] += 1.5 * pips
    mine = totals[player]
    others = max(t for o, t in enumerate(totals) if o != player)
    return mine - others


def _settled(game: Game[Any, Any], state: State, player: int,
             static: Callable[[Game[Any, Any], State, int], float]) -> float:
    """``static`` of ``state`` for ``player``, after a pending push has gone where the pushed
    piece's owner likes best (by the same ``static``); won and lost games score ±WIN."""
    if state.phase == OVER:
        return WIN if state.winner == player else -WIN
    if state.phase == PUSH:
        pend = state.pending
        assert pend is not None
        outcomes = [game.next_state(state, Action("push", target=c)) for c in pend.options]
        best = max(outcomes, key=lambda s: _settled(game, s, pend.owner, static))
        return _settled(game, best, player, static)
    return static(game, state, player)


def evaluate(game: Game[Any, Any], state: State, player: int) -> float:
    """How good ``state`` is for ``player`` (higher is better)."""
    return _settled(game, state, player, _static)


class Weights(NamedTuple):
    """The terms of :func:`evaluate_race` (experiments vary them)."""

    cell: float = 2.0
    """Progress per cell moved, on every ring (the first lap is 16 cells, B and C laps 8)."""
    promote: float = 6.0
    """Each promotion made (it costs a whole die)."""
    risk: float = 1.0
    """Multiplies the expected loss of a piece to the next player's pushes."""
    dice: float = 2.0
    """Per pip of the mover's unused dice."""
    hazard: float = 1.0
    """Multiplies the expected loss of the next player's pieces that must land on an
    indirect-push cell."""


WEIGHTS = Weights()

_LAP = 16.0  # cells of the first lap, from the start cell round to the reference cell


def race_value(game: Any, owner: int, piece: Piece, w: Weights = WEIGHTS) -> float:
    """Progress of one piece in cells moved and promotions made (weighted); a piece at J counts
    every cell and promotion of the race."""
    c = piece.cell
    done = piece.done
    if c == J:
        return (_LAP + 16.0) * w.cell + 3 * w.promote
    if c == RESERVE:
        return 0.0
    if done == 0:
        start = GAP[game.start_of(owner)]
        return w.cell * min(_LAP, max(0.0, (piece.a - start) / 2.0))
    here = tier(c)
    laps = _LAP + 8.0 * (done - 1)
    if piece.entry >= 0:
        steps = (board.number(c) - board.number(piece.entry)) % 8
        return w.cell * (laps + steps) + done * w.promote
    # a completed lap waiting for its promotion; a piece pushed below its tier must climb back
    return w.cell * laps + w.promote * (max(here, 1) - 1) - (0.5 * w.promote if here == 0 else 0.0)


_HITS: dict[tuple[int, int], tuple[float, ...]] = {}


def hit_chances(game: Any) -> tuple[float, ...]:
    """``hit_chances(game)[d]``: the chance that the next roll lets a piece reach a cell ``d``
    steps ahead (one die, or in version 2 either die or both on the same piece)."""
    key = (game.version, game.die)
    if key not in _HITS:
        chances = [0.0] * 17
        for action, p in game.chance_outcomes(game.initial_state()) or []:
            if game.version == 1:
                reach = {action.value}
            elif action.value == action.target == 1:
                reach = {1, 2, 3, 4}  # four 1s
            else:
                reach = {action.value, action.target, action.value + action.target}
            for d in reach:
                chances[d] += p
        _HITS[key] = tuple(chances)
    return _HITS[key]


def _distances(attacker: Piece, target: int, backwards: bool) -> list[int]:
    """Die values that take ``attacker`` onto tier cell ``target`` (counter-clockwise, and
    clockwise when allowed)."""
    a = attacker.cell
    t = tier(target)
    ta = tier(a)
    out = []
    if ta == t:
        size = 16 if t == 1 else 8
        forward = (board.number(target) - board.number(a)) % size
        out.append(forward)
        if backwards and attacker.done >= t:
            out.append(size - forward)
    elif ta == 0 and t == 1 and a < J:
        k = (GAP[a] - 1) // 2 or 16
        out.append((board.number(target) - k - 1) % 16 + 1)
        if backwards and attacker.done >= 1:
            out.append((k - board.number(target)) % 16 + 1)
    return out


def push_loss(game: Any, owner: int, piece: Piece, w: Weights = WEIGHTS) -> float:
    """What ``piece`` loses when it is pushed off its cell (down a ring, or to a corner)."""
    c = piece.cell
    t = tier(c)
    if t == 0:
        return 0.0
    if t == 1:
        return w.cell  # to a corner: about a cell back, and a die to get on the ring again
    down = board.lower_cells(c)[0]
    return race_value(game, owner, piece, w) - race_value(game, owner, Piece(down, piece.a, piece.done, -1), w)


def _exposure(game: Any, state: State, attacker: int, w: Weights) -> list[float]:
    """Each player's expected loss to ``attacker``'s next turn of direct pushes."""
    chances = hit_chances(game)
    backwards = game.version == 2
    hunters = [p for p in state.pieces[attacker] if p.cell < J]
    loss = [0.0] * len(state.pieces)
    for owner, ps in enumerate(state.pieces):
        if owner == attacker:
            continue
        for piece in ps:
            if not tier(piece.cell):
                continue
            miss = 1.0
            for h in hunters:
                for d in _distances(h, piece.cell, backwards):
                    if d < len(chances):
                        miss *= 1.0 - chances[d]
            if miss < 1.0:
                loss[owner] += (1.0 - miss) * push_loss(game, owner, piece, w)
    if w.hazard:
        source = state.last if state.phase == ROLL else state.moved
        if source >= 0:
            loss[attacker] += w.hazard * _hazard(game, state.pieces[attacker], attacker, INDIRECT[source], w)
    return loss


def _hazard(game: Any, pieces: tuple[Piece, ...], owner: int, indirect: frozenset[int], w: Weights) -> float:
    """The expected loss of ``owner``'s pieces that the coming roll sends onto an indirect-push
    cell, for pieces that cannot promote instead."""
    chances = hit_chances(game)
    top = game.die if game.version == 1 else 4
    total = 0.0
    for piece in pieces:
        c = piece.cell
        t = tier(c)
        if c >= J or (t and piece.done >= t):
            continue
        for r in range(1, top + 1):
            if t:
                x = board.step(c, r)
            elif c in GAP:
                k = (GAP[c] - 1) // 2 or 16
                x = board.A(k + r)
            else:
                continue
            if x in indirect:
                total += chances[r] * push_loss(game, owner, Piece(x, piece.a, piece.done, piece.entry), w)
    return total


def evaluate_race(game: Game[Any, Any], state: State, player: int, w: Weights = WEIGHTS) -> float:
    """Race progress (:func:`race_value`) less each piece's expected loss to the next player's
    pushes, as ``player``'s total minus the best opponent's; terminal and push states as in
    :func:`evaluate`."""

    def race(game: Game[Any, Any], state: State, player: int) -> float:
        totals = _totals(game, state, w)
        return totals[player] - max(t for o, t in enumerate(totals) if o != player)

    return _settled(game, state, player, race)


_TOTALS: dict[tuple[Any, ...], list[float]] = {}


def _totals(game: Any, state: State, w: Weights) -> list[float]:
    # Searches evaluate every leaf once per player, and many leaves share their pieces.
    key = (state.pieces, state.phase == ROLL, state.turn, state.last, state.moved, sum(state.dice),
           game.version, game.die, w)
    totals = _TOTALS.get(key)
    if totals is None:
        totals = [sum(race_value(game, o, p, w) for p in ps) for o, ps in enumerate(state.pieces)]
        if state.phase == ROLL:
            attacker = state.turn
        else:
            totals[state.turn] += w.dice * sum(state.dice)
            attacker = (state.turn + 1) % len(totals)
        if w.risk:
            for o, lost in enumerate(_exposure(game, state, attacker, w)):
                totals[o] -= w.risk * lost
        if len(_TOTALS) > 200_000:
            _TOTALS.clear()
        _TOTALS[key] = totals
    return totals


def greedy(game: Game[Any, Any]) -> Agent:
    """One decision at a time, the action :func:`evaluate` likes best (easy and medium slip from it)."""
    return GreedyAgent(evaluate, name="greedy")


def race_search(game: Game[Any, Any]) -> Agent:
    """The best whole turn by :func:`evaluate_race` (hard wherever the exact table does not apply)."""
    return ExpectimaxAgent(evaluate_race, depth=1, horizon_chance=False, name="hard")


EASY_SLIPS = 0.5
"""The share of easy's decisions that are a random legal action instead of greedy's."""
MEDIUM_SLIPS = 0.1
"""The same for medium with two players."""
MEDIUM_SLIPS_MULTI = 0.2
"""Medium's share with three or four players. There the race search (hard) is hardly stronger than
greedy itself (50.7% in 1000 three-player games), so medium, slipping at one decision in ten, played
as well as hard; slipping at one in five puts it between easy and hard."""


def medium_slips(game: Game[Any, Any]) -> float:
    """How often medium slips in ``game`` (:data:`MEDIUM_SLIPS` or, with more players,
    :data:`MEDIUM_SLIPS_MULTI`)."""
    return MEDIUM_SLIPS if game.num_players == 2 else MEDIUM_SLIPS_MULTI


def _easy(game: Game[Any, Any]) -> Agent:
    return Blend(greedy(game), RandomAgent(), 1.0 - EASY_SLIPS, name="easy")


def _medium(game: Game[Any, Any]) -> Agent:
    return Blend(greedy(game), RandomAgent(), 1.0 - medium_slips(game), name="medium")


def _hard(game: Game[Any, Any]) -> Agent:
    if exact.applies(game):
        return exact.ExactAgent(race_search(game), name="hard")
    return race_search(game)


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": _easy,
    "medium": _medium,
    "hard": _hard,
}
"""easy: :func:`greedy`, but a random legal action at half its decisions. medium: greedy, a
random action at one decision in ten (one in five with three or four players). hard: two-player
version 1 (either die): perfect play from the exact table (:mod:`qipan.games.kelighine.exact`);
elsewhere :func:`race_search`, the best whole turn (both dice of version 2 together, and the push
choices within the turn) on :func:`evaluate_race`, the turn's end evaluated as it stands (the next
roll is not expanded)."""


def analysis_lines(position: Any, agent: Agent) -> Any:
    """For :mod:`qipan.ai.analysis`: where the exact table applies (``agent`` plays from it), every
    move's exact winning chance (the rest of the turn searched, the next roll looked up); None
    elsewhere, or for a position the table lacks (the analysis then asks the agent's fallback)."""
    from qipan.ai.analysis import Evaluation, Found, Line

    game, state, player = position.game, position.state, position.player
    if not isinstance(agent, exact.ExactAgent) or not exact.applies(game):
        return None
    try:
        scored = [(exact.value(game, game.next_state(state, a), player), a) for a in game.legal_actions(state)]
    except KeyError:
        return None
    ranked = sorted(scored, key=lambda va: -va[0])
    chosen = ranked[: position.lines] + [va for va in ranked[position.lines:] if va[1] in position.include]
    lines = [Line(position.text(a), Evaluation(v, v, exact=True), (position.text(a),)) for v, a in chosen]
    return Found(lines, "exact", None, len(scored))


def analysis_policy(game: Game[Any, Any]) -> Callable[[Game[Any, Any], Any, Any], Any]:
    """For :mod:`qipan.ai.analysis`: the playout policy that estimates winning chances (the best
    of 8 random actions by :func:`evaluate`)."""
    from qipan.ai.search import greedy_policy

    return greedy_policy(evaluate, 8)
