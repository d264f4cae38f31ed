"""Statistics of finished Kelighine games, for ``qipan simulate kelighine``.

The simulate command calls :func:`turns` and :func:`collect` on the list of states of each game
it plays, and averages the counts over the games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from qipan.games.kelighine.state import CAUSES, ONES_NAMES, RULES, State

KEYS: tuple[str, ...] = (
    *(f"push {c}" for c in CAUSES),
    "push to corner (from A)",
    "push down a tier",
    "push to corner (fallback)",
    "push back to start",
    "promotions",
    "laps completed",
    *(f"double-1 {w}" for w in ONES_NAMES.values()),
    "reserve entries",
    "passes",
)
"""Every counter :func:`collect` reports, in display order."""

_RULE_KEYS = dict(zip(RULES, KEYS[3:7], strict=True))


def turns(game: Any, states: Sequence[State]) -> int:
    """Number of turns the game lasted (the winner's last turn included)."""
    return states[-1].number


def collect(game: Any, states: Sequence[State]) -> dict[str, int]:
    """How often each rule fired in the game whose states are ``states``."""
    counts: Counter[str] = Counter({key: 0 for key in KEYS})
    for before, after in pairwise(states):
        for event in game.events(before, after):
            kind = event[0]
            if kind == "push":
                counts[f"push {CAUSES[event[4]]}"] += 1
                counts[_RULE_KEYS[RULES[event[5]]]] += 1
            elif kind == "promote":
                counts["promotions"] += 1
            elif kind == "lap":
                counts["laps completed"] += 1
            elif kind == "ones":
                counts[f"double-1 {ONES_NAMES[event[2]]}"] += 1
            elif kind == "enter":
                counts["reserve entries"] += 1
            elif kind == "pass":
                counts["passes"] += 1
    return dict(counts)
