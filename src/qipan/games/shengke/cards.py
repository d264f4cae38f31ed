"""Spirit-beast cards (靈獸卡) and decks: the deck file format and its validation.

A deck file is TOML (``.toml``) or JSON (anything else) holding a ``name`` and a list ``cards``;
each card has ``id`` (letters, digits, ``-`` or ``_``; used in move notation), ``name``,
``element`` (wood/fire/earth/metal/water, or 木火土金水) and the range numbers ``in`` and
``out``::

    name = "my deck"
    [[cards]]
    id = "wood1"
    name = "青翼龍"
    element = "wood"
    in = 4
    out = 3

>>> deck = default_deck()
>>> len(deck.cards), deck.cards[0].name, deck.cards[0].range_in
(25, '青翼龍', 4)
>>> deck_problems({"cards": []})[0]
'the deck has 0 cards; it needs exactly 25 (5 of each element)'

A deck also travels inline, as one line of that JSON (:func:`deck_json`): the game options
``deck_0`` and ``deck_1`` take it (:func:`deck_from_option`), the server takes nothing else,
and records store it, so a record replays anywhere.

>>> deck_from_option(deck_json(deck)) == deck
True
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from qipan.core import jsonsafe
from qipan.core.errors import GameError, brief, brief_text
from qipan.core.options import MAX_TEXT, is_inline
from qipan.games.shengke.elements import ELEMENTS, GLYPHS, RANGES, parse_element

DECK_SIZE = 25
PER_ELEMENT = 5
RANGE_SUM = 100
_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")  # fullmatch: "$" would let a final newline in

MAX_DECK_BYTES = 64 * 1024
"""The largest deck file read (the built-in deck is about 2 KiB)."""

MAX_INLINE_DECK = MAX_TEXT
"""The longest inline deck, in characters (the built-in deck is about 1,600); with the name
bounds below, every legal deck's :func:`deck_json` fits, so every record replays."""

MAX_CARD_NAME = 24
MAX_DECK_NAME = 40

MAX_NAMED = 3
"""Unknown fields of a card named in its problem (the rest are counted: a message never echoes
a whole file back)."""

MAX_PROBLEMS_SHOWN = 8
"""Problems of an illegal deck named in the error of a game option (``qipan deck check`` lists all)."""


@dataclass(frozen=True)
class Card:
    """One card: ``range_in`` (bottom left) and ``range_out`` (bottom right) are 1..8."""

    id: str
    name: str
    element: int
    range_in: int
    range_out: int

    def label(self) -> str:
        """``"白牙龍 (metal 2/7)"``."""
        return f"{self.name} ({ELEMENTS[self.element]} {self.range_in}/{self.range_out})"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "element": ELEMENTS[self.element],
                "in": self.range_in, "out": self.range_out}


@dataclass(frozen=True)
class Deck:
    """A legal deck of 25 cards. ``piles[e]`` lists the card indices of element ``e`` in file
    order (the order a shuffle permutes)."""

    name: str
    cards: tuple[Card, ...]

    @property
    def piles(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(i for i, c in enumerate(self.cards) if c.element == e) for e in range(5))

    def index(self, text: str) -> int | None:
        """The index of the card whose id (case-insensitive) or name is ``text``, or None."""
        key = text.strip()
        for i, card in enumerate(self.cards):
            if card.id.lower() == key.lower():
                return i
        named = [i for i, card in enumerate(self.cards) if card.name == key]
        return named[0] if len(named) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cards": [c.to_json() for c in self.cards]}


def deck_problems(data: object) -> list[str]:
    """Every reason why ``data`` (a parsed deck file) is not a legal deck; empty if legal."""
    if not isinstance(data, Mapping):
        return ["a deck file must hold a table with a 'cards' list"]
    problems: list[str] = []
    name = data.get("name", "deck")
    if not _fine_text(name, MAX_DECK_NAME):
        problems.append(f"the deck's name must be a string of 1-{MAX_DECK_NAME} characters, none of them "
                        "control or invisible")
    cards = data.get("cards")
    if not isinstance(cards, list):
        return [*problems, "the deck has no 'cards' list"]
    if len(cards) != DECK_SIZE:
        problems.append(f"the deck has {len(cards)} cards; it needs exactly {DECK_SIZE} (5 of each element)")
    counts = [0] * 5
    sums = {"in": 0, "out": 0}
    seen: dict[str, int] = {}
    for number, raw in enumerate(cards, 1):
        where = f"card {number}"
        if not isinstance(raw, Mapping):
            problems.append(f"{where} must be a table with id, name, element, in, out")
            continue
        card_id = raw.get("id")
        if "id" in raw:
            if not isinstance(card_id, str) or not _ID.fullmatch(card_id):
                problems.append(f"{where}: id {brief(card_id, 40)} must be 1-24 letters, digits, '-' or '_'")
            else:
                where = f"card {number} ({card_id})"
                key = card_id.lower()
                if key in seen:
                    problems.append(f"{where}: duplicate id (card {seen[key]} has it too)")
                seen.setdefault(key, number)
        missing = [k for k in ("id", "name", "element", "in", "out") if k not in raw]
        if missing:
            problems.append(f"{where} lacks {', '.join(missing)}")
        unknown = sorted(set(raw) - {"id", "name", "element", "in", "out"})
        if unknown:
            named = ", ".join(brief(str(u), 40) for u in unknown[:MAX_NAMED])
            more = f" and {len(unknown) - MAX_NAMED} more" if len(unknown) > MAX_NAMED else ""
            problems.append(f"{where} has unknown field(s) {named}{more}")
        if "name" in raw and not _fine_text(raw["name"], MAX_CARD_NAME):
            problems.append(f"{where}: name must be a non-empty string of at most {MAX_CARD_NAME} characters, "
                            "none of them control or invisible")
        if "element" in raw:
            element = parse_element(raw["element"]) if isinstance(raw["element"], str) else None
            if element is None:
                problems.append(
                    f"{where}: element {brief(raw['element'], 40)} is not one of {', '.join(ELEMENTS)} "
                    f"(or {''.join(GLYPHS)})"
                )
            else:
                counts[element] += 1
        for field in ("in", "out"):
            if field not in raw:
                continue
            value = raw[field]
            if isinstance(value, bool) or not isinstance(value, int):
                problems.append(f"{where}: {field} number {brief(value, 40)} must be a whole number from 1 to 8")
            elif value not in RANGES:
                problems.append(f"{where}: {field} number {brief(value, 40)} is outside 1..8")
            else:
                sums[field] += value
    for element, count in enumerate(counts):
        if count != PER_ELEMENT:
            problems.append(f"the deck has {count} {ELEMENTS[element]} cards; it needs exactly {PER_ELEMENT}")
    for field in ("in", "out"):
        if sums[field] != RANGE_SUM:
            problems.append(f"the {field} numbers add up to {sums[field]}; they must add up to exactly {RANGE_SUM}")
    return problems


def _fine_text(value: object, longest: int) -> bool:
    """A name: a string, not blank, at most ``longest`` characters, none of them a control or
    invisible (format) character."""
    return (isinstance(value, str) and 0 < len(value) <= longest and bool(value.strip())
            and not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in value))


def deck_from_data(data: object) -> Deck:
    """Build a :class:`Deck` from parsed file data; GameError listing every problem if illegal."""
    problems = deck_problems(data)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        more = len(problems) - MAX_PROBLEMS_SHOWN
        problems = [*problems[:MAX_PROBLEMS_SHOWN], f"and {more} more ('qipan deck check FILE' lists them)"]
    if problems:
        raise GameError("illegal deck: " + "; ".join(problems))
    assert isinstance(data, Mapping)
    cards = tuple(
        Card(str(c["id"]), str(c["name"]).strip(), parse_element(c["element"]) or 0, c["in"], c["out"])
        for c in data["cards"]
    )
    return Deck(str(data.get("name", "deck")), cards)


def parse_deck_text(text: str, toml: bool, what: str = "the deck file") -> object:
    """Parse a deck file's text (TOML or JSON); GameError if it is not well-formed."""
    kind = "TOML" if toml else "JSON"
    try:
        return tomllib.loads(text) if toml else jsonsafe.loads(text, max_chars=MAX_DECK_BYTES)
    except GameError as exc:
        reason = str(exc)
        if reason.startswith("not valid JSON"):  # jsonsafe names the kind itself
            raise GameError(f"{what} is {reason}") from None
        raise GameError(f"{what} is not valid {kind}: {reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"{what} is not valid {kind}: {brief_text(str(exc), 120)}") from None
    except (ValueError, RecursionError):  # a 5,000-digit number, nesting thousands deep
        raise GameError(f"{what} is not valid {kind}: too deep or too large a value") from None


def deck_json(deck: Deck) -> str:
    """The deck as one line of JSON, as records store it and the server takes it (element names
    in English; every legal deck's fits :data:`MAX_INLINE_DECK`)."""
    return json.dumps(deck.to_json(), ensure_ascii=False, separators=(",", ":"))


def inline_deck(text: str) -> Deck:
    """The deck an inline JSON text describes; GameError (never quoting the text) if it is too
    long, not JSON, or not a legal deck (the problems :func:`deck_problems` names)."""
    if len(text) > MAX_INLINE_DECK:
        raise GameError(f"the inline deck is {len(text)} characters long; at most {MAX_INLINE_DECK} "
                        "(a deck is about 1,600)")
    return deck_from_data(parse_deck_text(text, toml=False, what="the inline deck"))


def deck_from_option(value: str) -> Deck:
    """The deck a ``deck_0``/``deck_1`` option names: ``default`` (or nothing) is the built-in
    deck, JSON text (starting with ``{``) an inline deck, anything else a deck file's path."""
    if value.strip() in ("", "default"):
        return default_deck()
    if is_inline(value):
        return inline_deck(value)
    return load_deck(value)


def read_deck_data(path: str | Path) -> object:
    """The parsed content of a deck file (TOML if it ends in .toml, else JSON).

    Only a regular file of at most :data:`MAX_DECK_BYTES` is read: a device, pipe or directory
    (``/dev/zero``, a FIFO nobody writes to) is refused before a byte is read from it."""
    shown = brief(str(path), 80)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except ValueError:  # a NUL character in the path
        raise GameError(f"cannot read deck file {shown}: a file path cannot hold a NUL character") from None
    except OSError as exc:
        raise GameError(f"cannot read deck file {shown}: {exc.strerror or 'not readable'}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GameError(f"cannot read deck file {shown}: it is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        raise GameError(f"cannot read deck file {shown}: {exc.strerror or 'not readable'}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_DECK_BYTES:
        raise GameError(f"cannot read deck file {shown}: it is larger than {MAX_DECK_BYTES // 1024} KiB "
                        "(a deck file is about 2 KiB)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"cannot read deck file {shown}: it is not UTF-8 text (a deck file is "
                        "TOML or JSON)") from None
    try:
        return parse_deck_text(text, Path(path).suffix.lower() == ".toml")
    except GameError as exc:
        raise GameError(f"{shown}: {exc}") from None


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file; GameError naming the file and its problems."""
    data = read_deck_data(path)
    try:
        return deck_from_data(data)
    except GameError as exc:
        raise GameError(f"{brief(str(path), 80)}: {exc}") from None


def default_deck_text() -> str:
    return resources.files("qipan.games.shengke").joinpath("default_deck.toml").read_text(encoding="utf-8")


_DEFAULT: list[Deck] = []


def default_deck() -> Deck:
    """The built-in legal deck (青翼龍, 白牙龍, 黃趾龍 and friends)."""
    if not _DEFAULT:
        _DEFAULT.append(deck_from_data(parse_deck_text(default_deck_text(), toml=True)))
    return _DEFAULT[0]
