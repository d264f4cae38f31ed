"""Verdicts: how much worse a played move is than the best one, per game."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from qipan.ai.analysis.types import Evaluation
from qipan.core.game import Game


@dataclass(frozen=True)
class Thresholds:
    """The drops from the best move's evaluation to the played one's that make the played move
    an inaccuracy, a mistake, a blunder, in ``measure``: "win" (winning chance), "balance" or
    "value" (the engine's own number)."""

    measure: str
    inaccuracy: float
    mistake: float
    blunder: float


THRESHOLDS: dict[str, Thresholds] = {
    "abalone": Thresholds("balance", 0.3, 0.6, 1.0),
    "chinese-checkers": Thresholds("value", 10.0, 20.0, 35.0),
    "kelighine": Thresholds("value", 6.0, 12.0, 24.0),
    "shengke": Thresholds("balance", 0.5, 1.0, 2.0),
    "tellstones": Thresholds("win", 0.15, 0.25, 0.40),
}
"""Per game (see docs/analysis.md): Abalone in marbles; Chinese Checkers in race cost (a hole
nearer the target is worth about 1 + 0.3 × its distance, so 10 is about three holes); Kelighine
beyond the exact table in race points (2 a cell); Sheng-Ke in cards after the reply; Tellstones
in winning rate from playouts, which are noisy, hence the wide steps."""

EXACT_WIN = Thresholds("win", 0.04, 0.10, 0.20)
"""Where both winning chances are exact (the Kelighine table): drops in winning chance."""

DEFAULT_THRESHOLDS = Thresholds("win", 0.10, 0.20, 0.35)
"""For another game: winning chance where both moves have one, else balance, else value."""


def thresholds(game: Game[Any, Any], best: Evaluation, played: Evaluation) -> Thresholds:
    """The thresholds :func:`verdict` applies to these two evaluations."""
    if best.exact and played.exact and best.win is not None and played.win is not None:
        return EXACT_WIN
    return THRESHOLDS.get(game.name, DEFAULT_THRESHOLDS)


def _measure(evaluation: Evaluation, measure: str) -> float | None:
    if measure == "win":
        return evaluation.win
    if measure == "balance":
        return evaluation.balance if evaluation.material is None else evaluation.material
    return evaluation.value if math.isfinite(evaluation.value) else None


def _noise(evaluation: Evaluation) -> float:
    """The standard error of a winning rate estimated by ``evaluation.playouts`` playouts (0 for
    one that is not an estimate)."""
    if evaluation.playouts is None or evaluation.win is None:
        return 0.0
    return math.sqrt(evaluation.win * (1.0 - evaluation.win) / max(1, evaluation.playouts))


def verdict(game: Game[Any, Any], best: Evaluation, played: Evaluation) -> str | None:
    """None, "inaccuracy", "mistake" or "blunder": how much worse ``played`` is than ``best`` by
    the game's :func:`thresholds`. Throwing away a forced win, or walking into a forced loss the
    best move avoids, is a blunder; between two forced wins (or losses) there is no verdict. A
    drop in winning rates estimated by playouts counts less two standard errors: only what the
    playouts show at about 95% confidence (few playouts, no verdict). A balance is judged by its
    ``material`` where the game sets one."""
    if best.mate is not None or played.mate is not None:
        best_sign = 0 if best.mate is None else (1 if best.mate > 0 else -1)
        played_sign = 0 if played.mate is None else (1 if played.mate > 0 else -1)
        if played_sign < best_sign:
            return "blunder"
        if played_sign == best_sign:
            return None
    limits = thresholds(game, best, played)
    measures = [limits.measure, "win", "balance", "value"] if limits is DEFAULT_THRESHOLDS else [limits.measure]
    for measure in measures:
        high, low = _measure(best, measure), _measure(played, measure)
        if high is not None and low is not None:
            break
    else:
        return None
    drop = high - low + 1e-9  # 0.6 - 0.4 is a drop of 0.2, not 0.19999999999999998
    if measure == "win":
        drop -= 2.0 * (_noise(best) ** 2 + _noise(played) ** 2) ** 0.5
    if drop >= limits.blunder:
        return "blunder"
    if drop >= limits.mistake:
        return "mistake"
    if drop >= limits.inaccuracy:
        return "inaccuracy"
    return None
