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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qipan.ai.agent import Agent, GreedyAgent
from qipan.ai.search import ExpectimaxAgent
from qipan.core.game import Game
from qipan.games.kelighine import board
from qipan.games.kelighine.board import GAP, J, tier
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


def evaluate(game: Game[Any, Any], state: State, player: int) -> float:
    """How good ``state`` is for ``player`` (higher is better)."""
    if state.phase == OVER:
        return WIN if state.winner == player else -WIN
    if state.phase == PUSH:
        pend = state.pending
        assert pend is not None
        # the pushed piece's owner picks the destination that suits them best
        outcomes = [game.next_state(state, Action("push", target=c)) for c in pend.options]
        best = max(outcomes, key=lambda s: evaluate(game, s, pend.owner))
        return evaluate(game, best, player)
    return _static(game, state, player)


def _easy(game: Game[Any, Any]) -> Agent:
    return GreedyAgent(evaluate, name="easy")


def _expectimax(name: str, depth: int, time_limit: float) -> Callable[[Game[Any, Any]], Agent]:
    def make(game: Game[Any, Any]) -> Agent:
        return ExpectimaxAgent(evaluate, depth=depth, time_limit=time_limit, name=name)

    return make


LEVELS: dict[str, Callable[[Game[Any, Any]], Agent]] = {
    "easy": _easy,
    "medium": _expectimax("medium", 2, 2.0),
    "hard": _expectimax("hard", 3, 2.0),
}
"""easy: greedy one ply. medium/hard: expectimax over the dice (each player maximises their own
evaluation, every roll weighted by its probability), 2/3 turns deep (a turn: one player's consecutive decisions),
deepening within 2 s."""
