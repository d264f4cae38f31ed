"""The Sheng-Ke state and action values.

Cards are small integers: a card's *index* is its position in its owner's deck file (0..24) and
its *key* on the field is ``owner * 25 + index`` (0..49).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from qipan.games.shengke.elements import ELEMENTS, FILES, SIZE

COIN, SHUFFLE, ROLL, PICK, PLACE, OVER = range(6)
PHASES: tuple[str, ...] = ("coin", "shuffle", "roll", "pick", "place", "over")
EMPTY = -1
PLAYER_NAMES: tuple[str, str] = ("甲", "乙")
PLAYER_ASCII: tuple[str, str] = ("jia", "yi")

DESTROYS, DESTROYED, RECYCLES, DRAWS = range(4)
EVENT_KINDS: tuple[str, ...] = ("行剋", "剋行", "行生", "生行")
Event = tuple[int, int, int, int, int, int]
"""A resolution event: (kind, cell, card key, other cell, other card key, extra) where extra is
the recycled card's key or EMPTY (行生), 1 or 0 for a card drawn or not (生行), else EMPTY."""


class State(NamedTuple):
    """An immutable Sheng-Ke position (hidden parts included).

    ``decks[p][e]`` lists player ``p``'s element-``e`` deck top first; its last ``known[p][e]``
    cards are public (returned there face down by 行生 in view of both players). ``shown[p]`` is
    the part of ``hands[p]`` both players know (drawn from that public bottom)."""

    phase: int
    first: int  # EMPTY until the coin toss
    turn: int  # turns completed
    dice: tuple[int, ...]  # this turn's faces 1..6, sorted
    picks: tuple[int, ...]  # elements chosen for "any" faces
    todo: tuple[int, ...]  # elements still to place this turn, sorted
    placed: tuple[int, ...]  # cells placed this turn, in order
    field: tuple[int, ...]  # SIZE*SIZE card keys or EMPTY
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    shown: tuple[tuple[int, ...], tuple[int, ...]]
    decks: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    known: tuple[tuple[int, ...], tuple[int, ...]]
    discards: tuple[tuple[int, ...], tuple[int, ...]]
    events: tuple[Event, ...] = ()  # what the last resolution did (public)

    @property
    def current(self) -> int:
        """Whose turn it is (meaningful from the first roll on)."""
        return (self.first + self.turn) % 2


@dataclass(frozen=True, slots=True)
class Coin:
    """Chance: the coin toss decides who goes first."""

    first: int

    def __str__(self) -> str:
        return f"coin {PLAYER_ASCII[self.first]}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the setup shuffle. ``orders[p][e]`` is the new order (top first) of player ``p``'s
    element-``e`` pile, as positions 0..4 of that element's cards in the deck file."""

    orders: tuple[tuple[tuple[int, ...], ...], ...]

    def __str__(self) -> str:
        return "shuffle " + "/".join(
            ".".join("".join(str(i + 1) for i in order) for order in player) for player in self.orders
        )


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: two dice, ``low <= high``."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"roll {self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class Pick:
    """The roller names the element of a 6."""

    element: int

    def __str__(self) -> str:
        return f"pick {ELEMENTS[self.element]}"


@dataclass(frozen=True, slots=True)
class Place:
    """召喚: put card ``card`` (an index into the mover's deck) on ``cell``."""

    card: int
    cell: int

    def __str__(self) -> str:
        return f"#{self.card}@{FILES[self.cell % SIZE]}{self.cell // SIZE + 1}"


Action = Coin | Shuffle | Roll | Pick | Place
