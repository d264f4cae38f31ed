"""Chess clocks for every game: a time control (base time plus increment) and the clocks it
gives, derived from the recorded move times.

Each player's clock starts with their own first move: the time before and during a player's
first decision is not charged. After that, every decision is charged the time since the previous
recorded action (or since the turn was handed back by a takeback), and a decision that hands
the turn to someone else earns the increment. A player whose running clock reaches 0 loses.

>>> control = TimeControl.parse("5+3")
>>> control, control.to_json()
(TimeControl(base=300.0, increment=3.0), {'base': 300, 'increment': 3})
>>> str(TimeControl.parse("90s+0")), str(TimeControl(0.5 * 60))
('90s+0', '30s+0')
>>> think_time(300.0, 3.0)
18.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from qipan.core.errors import GameError, brief

MIN_BASE = 1.0
"""The shortest base time (seconds)."""
MAX_BASE = 604800.0
"""The longest base time: a week."""
MAX_INCREMENT = 3600.0
"""The largest increment: an hour a move."""

FIRST_MOVE_WINDOW = 60.0
"""Seconds a player of a timed game has for their first move once their turn has started (every
seat taken, the previous move made) before the server aborts the game; games with a base time
over ten minutes allow a tenth of it instead (:meth:`TimeControl.first_move_window`)."""


def _seconds(value: object, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        raise GameError(f"the clock's {name} must be {low:g}..{high:g} seconds, not {brief(value, 40)}")
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds on each clock, plus ``increment`` seconds after each charged move that
    ends the mover's turn."""

    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _seconds(self.base, "base time", MIN_BASE, MAX_BASE))
        object.__setattr__(self, "increment", _seconds(self.increment, "increment", 0.0, MAX_INCREMENT))

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+3"``: 5 minutes and 3 seconds a move; the base in minutes (``"0.5+0"``) or, with
        ``s``, in seconds (``"90s+2"``); the increment always in seconds; ``"10"`` = ``"10+0"``."""
        shown = brief(text, 40)
        if not isinstance(text, str) or len(text) > 40:
            raise GameError(f"a clock is written like 5+3 (minutes + seconds a move), not {shown}")
        base, _, increment = text.strip().lower().partition("+")
        seconds = base.strip().endswith("s")
        try:
            value = float(base.strip().removesuffix("s"))
            extra = float(increment.strip().removesuffix("s")) if increment.strip() else 0.0
        except ValueError:
            raise GameError(f"a clock is written like 5+3 (minutes + seconds a move), not {shown}") from None
        if not math.isfinite(value):
            raise GameError(f"a clock is written like 5+3 (minutes + seconds a move), not {shown}")
        return cls(value if seconds else value * 60, extra)

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """From ``{"base": seconds, "increment": seconds}`` (GameError saying what is wrong)."""
        if not isinstance(data, dict) or "base" not in data or set(data) - {"base", "increment"}:
            raise GameError('a clock must be {"base": seconds, "increment": seconds}')
        return cls(data["base"], data.get("increment", 0))

    def to_json(self) -> dict[str, float | int]:
        return {"base": _number(self.base), "increment": _number(self.increment)}

    def first_move_window(self) -> float:
        """Seconds a player has for their first move once their turn started (then: abort)."""
        return max(FIRST_MOVE_WINDOW, self.base / 10)

    def __str__(self) -> str:
        base = f"{int(self.base // 60)}" if self.base % 60 == 0 else f"{_number(self.base)}s"
        return f"{base}+{_number(self.increment)}"


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


QUICK_THINK = 0.25
"""Below this many seconds of thought (:func:`think_time`) an AI plays at once instead of
searching: a search, its worker round trip and its pause cost tens of milliseconds whatever its
budget, so in a game without increment a geometric budget alone would still flag (a 1+0 game of
hard Abalone AIs flagged at move 72). Playing at once costs a few milliseconds a move."""


def think_time(left: float, increment: float) -> float:
    """Seconds an AI may think with ``left`` seconds on its running clock: a twentieth of it
    plus the increment, never more than half of it (so it never flags by thinking)."""
    return max(0.0, min(left / 20 + increment, left / 2))


@dataclass(frozen=True)
class Reset:
    """The clocks as a takeback left them: after the first ``ply`` recorded actions, at ``time``,
    with ``left`` seconds on each clock. Time spent on the moves taken back stays spent; the
    player to move after the takeback starts their turn at ``time``."""

    ply: int
    time: float
    left: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "time": round(self.time, 3), "left": [round(t, 3) for t in self.left]}

    @classmethod
    def from_json(cls, data: Any) -> Reset:
        if not isinstance(data, dict) or set(data) != {"ply", "time", "left"}:
            raise GameError('a clock reset must be {"ply": n, "time": seconds, "left": [seconds, ...]}')
        ply, when, left = data["ply"], data["time"], data["left"]
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise GameError(f"a clock reset's ply must be a whole number, not {brief(ply, 40)}")
        if not isinstance(left, list) or not 1 <= len(left) <= 99:
            raise GameError("a clock reset needs a list of the time left on each clock")
        return cls(ply, _seconds(when, "reset time", 0.0, 1e12),
                   tuple(_seconds(t, "time left", -MAX_BASE * 1e3, MAX_BASE * 1e3) for t in left))


@dataclass(frozen=True)
class Action:
    """What the clocks need of one recorded action: who took it (None: chance), when, and
    whether it handed the turn to someone else."""

    player: int | None
    time: float | None
    ends_turn: bool


@dataclass
class Clocks:
    """The clocks after some recorded actions: ``left`` seconds on each clock when the current
    turn began (``since``), and whether each clock runs (its player has moved)."""

    left: list[float]
    running: list[bool]
    since: float

    @classmethod
    def start(cls, control: TimeControl, players: int, started: float) -> Clocks:
        return cls([control.base] * players, [False] * players, started)

    def after(self, action: Action, control: TimeControl) -> None:
        """Charge one recorded action (in place)."""
        stamp = self.since if action.time is None else max(action.time, self.since)
        player = action.player
        if player is not None:
            if self.running[player]:
                self.left[player] -= stamp - self.since
                if action.ends_turn:
                    self.left[player] += control.increment
            else:
                self.running[player] = True
        self.since = stamp

    def now(self, mover: int | None, now: float) -> list[float]:
        """Seconds left on each clock at ``now``, counting the turn of ``mover`` (None: nobody)."""
        left = list(self.left)
        if mover is not None and mover >= 0 and self.running[mover]:
            left[mover] -= max(0.0, now - self.since)
        return left


def count(control: TimeControl, players: int, started: float, actions: Sequence[Action],
          reset: Reset | None = None) -> Clocks:
    """The clocks after ``actions`` (all recorded actions), starting from ``reset`` if given."""
    clocks = Clocks.start(control, players, started)
    first = 0
    if reset is not None and reset.ply <= len(actions):
        for action in actions[:reset.ply]:
            if action.player is not None:
                clocks.running[action.player] = True
        clocks.left, clocks.since, first = list(reset.left), reset.time, reset.ply
    for action in actions[first:]:
        clocks.after(action, control)
    return clocks
