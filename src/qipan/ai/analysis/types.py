"""What an analysis answers (:class:`Evaluation`, :class:`Line`, :class:`Analysis`) and what
its analysers work with (:class:`Position`, :class:`Found`)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipan.core.game import Game

MAX_LINES = 10
"""The most lines one analysis answers (besides the included moves)."""

MAX_INCLUDE = 10
"""The most moves one analysis may be asked to include."""


@dataclass(frozen=True)
class Evaluation:
    """How good a move or position is, always for the player deciding.

    ``value``: the engine's own number; ``win``: winning probability (0..1) where known or
    estimated; ``balance`` in ``unit``: a readable balance (marbles, moves in the race, ...);
    ``mate``: a forced result found (+n wins in n own moves, -n loses in n); ``exact``: from a
    solved table or a proven forced result. ``playouts``: how many playouts ``win`` rests on
    when it is a playout estimate (None otherwise; not in the JSON): :func:`verdict` allows for
    their noise. ``material``: the balance without what only steers play (Abalone's lead read
    smaller near ``quiet_move_limit``), which :func:`verdict` judges where set (not in the JSON)."""

    value: float
    win: float | None = None
    balance: float | None = None
    unit: str | None = None
    mate: int | None = None
    exact: bool = False
    playouts: int | None = field(default=None, compare=False)
    material: float | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "value": _round(self.value),
            "win": None if self.win is None else round(self.win, 4),
            "balance": None if self.balance is None else round(self.balance, 2),
            "unit": self.unit,
            "mate": self.mate,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Line:
    """A move (in notation), its evaluation and the principal variation starting with it."""

    move: str
    evaluation: Evaluation
    pv: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "evaluation": self.evaluation.to_json(), "pv": list(self.pv)}


@dataclass(frozen=True)
class Analysis:
    """The analysis of one decision: ``lines`` best first (then the included moves not among
    them), the position's ``evaluation`` (the best line's), how it was found."""

    player: int
    lines: tuple[Line, ...]
    evaluation: Evaluation
    method: str
    depth: int | None
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "lines": [line.to_json() for line in self.lines],
            "evaluation": self.evaluation.to_json(),
            "method": self.method,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }

    def line(self, move: str) -> Line | None:
        """The line of ``move`` (in notation), if the analysis has one."""
        return next((line for line in self.lines if line.move == move), None)


def _round(value: float) -> float | None:
    return round(value, 4) if math.isfinite(value) else None


@dataclass
class Position:
    """What an analyser (a game's ``analysis_lines`` too) works with: the game, the deciding
    player's view, a state sampled from it (exact for perfect information), the moves to include
    (actions), the rng, the time budget or fixed depth, the player's earlier views, the level."""

    game: Game[Any, Any]
    view: Mapping[str, Any]
    state: Any
    player: int
    lines: int
    include: list[Any]
    rng: random.Random
    time: float
    depth: int | None
    history: Sequence[Mapping[str, Any]]
    level: str

    def text(self, action: Any) -> str:
        return self.game.action_text(self.state, action)


@dataclass
class Found:
    """What an analyser found: the lines (best first, then the included moves), the method
    ("search", "exact", "playouts"), the depth reached (None if it does not search) and nodes."""

    lines: list[Line]
    method: str
    depth: int | None
    nodes: int


Analyser = Callable[["Position", Any], Found]
