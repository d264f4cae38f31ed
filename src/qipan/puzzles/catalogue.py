"""Every puzzle qipan ships, by id, and the puzzle of the day.

>>> [entry.id for entry in catalogue()][:3]
['crossing', 'crossing-long', 'shiqi']
>>> puzzle_of_the_day(datetime.date(2026, 11, 28)).id in {entry.id for entry in catalogue()}
True
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from qipan.core.errors import GameError, brief
from qipan.puzzles.data import load
from qipan.puzzles.eject import shipped


@dataclass(frozen=True)
class Entry:
    """A puzzle: ``kind`` is ``crossing`` (Chinese Checkers solitaire), ``shiqi`` (食棋) or
    ``eject`` (Abalone); ``par`` is the best known number of moves (crossing), N (eject) or the 59
    captures that leave one piece (shiqi); ``title`` in English and ``title_zh`` in 繁體中文."""

    id: str
    kind: str
    title: str
    title_zh: str
    rating: str
    par: int
    jump: str = "adjacent"


@cache
def catalogue() -> tuple[Entry, ...]:
    crossings = load("crossings.json")
    out = [
        Entry("crossing", "crossing", "Chinese Checkers solitaire: cross with ten pieces (adjacent jumps)",
              "跳棋單人挑戰：十顆棋子走到對角（只跳相鄰棋子）", "hard", len(crossings["adjacent"]["moves"])),
        Entry("crossing-long", "crossing", "Chinese Checkers solitaire: cross with ten pieces (long jumps)",
              "跳棋單人挑戰：十顆棋子走到對角（可遠跳）", "hard", len(crossings["long"]["moves"]), jump="long"),
        Entry("shiqi", "shiqi", "食棋 solitaire: capture until one piece is left",
              "單人食棋：一直吃子，直到只剩一顆", "medium", 59),
    ]
    sides = {"black": "黑方", "white": "白方"}
    out += [Entry(p.id, "eject", f"Abalone: {p.state['turn']} to move pushes a marble off in {p.n}",
                  f"角力棋：輪到{sides.get(p.state['turn'], p.state['turn'])}，{p.n} 步內逐出一顆棋子",
                  p.rating, p.n) for p in shipped()]
    return tuple(out)


def find(puzzle_id: str) -> Entry:
    """The puzzle called ``puzzle_id``; GameError naming the choices if there is none."""
    for entry in catalogue():
        if entry.id == puzzle_id.strip().lower():
            return entry
    raise GameError(f"there is no puzzle {brief(puzzle_id, 40)}; `qipan puzzle list` shows them "
                    f"({catalogue()[0].id}, {catalogue()[-1].id}, ...)")


def puzzle_of_the_day(day: datetime.date, entries: Sequence[Entry] | None = None) -> Entry:
    """The same puzzle for everyone on ``day``: of ``entries`` (the catalogue), the one with the
    largest :func:`score` for the day (rendezvous hashing). A puzzle added later takes only the
    days it wins; every other day keeps its puzzle (with ``date mod size``, every day would move)."""
    return max(catalogue() if entries is None else entries, key=lambda entry: score(day, entry.id))


def score(day: datetime.date, puzzle_id: str) -> int:
    """A stable pseudo-random number for a puzzle on a day (SHA-256, the same on every machine)."""
    digest = hashlib.sha256(f"{day.isoformat()}/{puzzle_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
