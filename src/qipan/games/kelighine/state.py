"""Kelighine states, pieces, actions and turn-log events (immutable, hashable values)."""

from __future__ import annotations

from typing import NamedTuple

from qipan.games.kelighine.board import name

RESERVE = 41
"""The "cell" of a version-2 piece waiting off the board."""

# Phases of a turn.
ROLL, ONES, ACT, PUSH, OVER = range(5)
PHASES = ("roll", "ones", "act", "push", "over")

# Why a piece is pushed, and which destination rule placed it (rules contract, section 4).
DIRECT, INDIRECT, PERSIST = range(3)
CAUSES = ("direct", "indirect", "persistence")
CORNER, DOWN, FALLBACK, BACK = range(4)
RULES = ("corner", "down", "fallback", "start")

# The double-1 choice, by the value of Action.value.
ONES_FOUR, ONES_REROLL, ONES_TWO = 4, 0, 2
ONES_NAMES = {ONES_FOUR: "four", ONES_REROLL: "reroll", ONES_TWO: "two"}

START = -2
"""Action.target of ``push:start``."""


class Piece(NamedTuple):
    """One piece: where it is and how far it got.

    ``a`` is the A-lap position in half-steps (0 once the A lap is complete), ``done`` the number
    of completed laps (0 none, 1 A, 2 B, 3 C), ``entry`` the cell of its coin (-1: no coin).
    """

    cell: int
    a: int
    done: int
    entry: int

    @property
    def face(self) -> int:
        """The face of the die used as this piece: 6 with no lap done, else the last tier done."""
        return self.done or 6


class Pending(NamedTuple):
    """A pushed piece waiting for its owner to choose where it goes."""

    owner: int
    piece: Piece
    origin: int
    cause: int
    rule: int
    options: tuple[int, ...]
    pusher: int


class State(NamedTuple):
    """A whole Kelighine position. ``pieces[p]`` is sorted, so equal positions compare equal."""

    pieces: tuple[tuple[Piece, ...], ...]
    turn: int
    phase: int
    rolled: tuple[int, ...]
    dice: tuple[int, ...]
    one_die: bool
    last: int
    moved: int
    pending: Pending | None
    after: int
    log: tuple[tuple[object, ...], ...]
    prev_log: tuple[tuple[object, ...], ...]
    number: int
    winner: int


class Action(NamedTuple):
    """A Kelighine action; ``str(action)`` is its notation.

    kind is ``roll``, ``ones``, ``move``, ``promote``, ``push`` or ``pass``. ``cell`` is the
    moving piece's cell, ``value`` the signed steps of a move, the forgone die of a promotion
    (0: no suffix), the first die of a roll or the double-1 choice; ``target`` the promotion
    target, the push destination, or the second die of a version-2 roll.

    >>> str(Action("move", 2, 4))
    'A3+4'
    >>> str(Action("promote", 3, 3, 17))
    'A4^B2/3'
    """

    kind: str
    cell: int = -1
    value: int = 0
    target: int = -1

    def __str__(self) -> str:
        kind = self.kind
        if kind == "move":
            sign = "+" if self.value > 0 else "-"
            return f"{name(self.cell)}{sign}{abs(self.value)}"
        if kind == "promote":
            suffix = f"/{self.value}" if self.value else ""
            return f"{name(self.cell)}^{name(self.target)}{suffix}"
        if kind == "push":
            return "push:start" if self.target == START else f"push:{name(self.target)}"
        if kind == "roll":
            return f"roll:{self.value}" if self.target < 0 else f"roll:{self.value},{self.target}"
        if kind == "ones":
            return f"ones:{ONES_NAMES[self.value]}"
        return "pass"


PASS = Action("pass")
