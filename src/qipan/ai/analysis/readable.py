"""Readable evaluations: a game's balance at the end of a line, forced results as mates."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from qipan.ai.analysis.types import Evaluation
from qipan.ai.search import WIN
from qipan.core.game import Game


def _ai_module(game: Game[Any, Any]) -> Any:
    try:
        return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".ai")
    except ModuleNotFoundError:
        return None


def _balance(game: Game[Any, Any], state: Any, player: int, value: float) -> tuple[float | None, str | None]:
    """The game's readable balance at ``state`` (the end of a line), from its ``ai`` module's
    ``analysis_balance``, or (None, None)."""
    hook = getattr(_ai_module(game), "analysis_balance", None)
    found = hook(game, state, player, value) if hook is not None else None
    return (None, None) if found is None else found


def search_evaluation(game: Game[Any, Any], end: Any, player: int, value: float) -> Evaluation:
    """The evaluation of a searched line worth ``value`` (search units, :data:`WIN` for a won
    game) whose continuation ends at ``end``: a forced result as ``mate`` (moves of ``player``
    until the end), else the game's balance (and its ``analysis_material``, if it has one)."""
    if abs(value) > WIN / 2:
        plies = round(WIN - abs(value))
        mate = (plies + 1) // 2 if value > 0 else -max(1, plies // 2)
        return Evaluation(value, 1.0 if value > 0 else 0.0, None, None, mate, True)
    balance, unit = _balance(game, end, player, value)
    hook = getattr(_ai_module(game), "analysis_material", None)
    material = hook(game, end, player, value) if hook is not None else None
    return Evaluation(value, None, balance, unit, material=material)


def _line_end(game: Game[Any, Any], state: Any, pv: Sequence[Any], player: int) -> Any:
    """Where a line's balance is read: the last position of the principal variation ``pv`` with
    ``player`` to move again (the end itself when there is none), so that every line is read
    after as many moves of the others as of ``player``'s: read just after ``player``'s own move,
    a race game counts that move's gain as a lead (two-player Chinese Checkers' start read +8
    moves)."""
    end = None
    for action in pv:
        state = game.next_state(state, action)
        if game.to_move(state) == player:
            end = state
    return state if end is None else end


def _pv_texts(game: Game[Any, Any], state: Any, pv: Sequence[Any]) -> tuple[str, ...]:
    texts = []
    for action in pv:
        texts.append(game.action_text(state, action))
        state = game.next_state(state, action)
    return tuple(texts)
