"""A record as people read it: a few header lines, then the moves.

Two-player games pair their moves under one number, as chess scores do (``1. a1b2  i9h8``); a
player who acts several times in a turn has those actions joined by commas. Other games number
one line per move, with the mover's name. Chance outcomes (rolls, deals) stand in brackets before
the move they precede.

>>> from qipan.core.record import Move, Record
>>> record = Record("abalone", "standard", {}, players=["Mei", "white"],
...                 moves=[Move(0, "a1b2"), Move(1, "i5h5"), Move(0, "a2b3")],
...                 result={"text": "white lost (resignation)"})
>>> print(record_text(record), end="")
Abalone (standard)
Black: Mei
White: white
Result: white lost (resignation)
<BLANKLINE>
1. a1b2  i5h5
2. a2b3
"""

from __future__ import annotations

import datetime
import unicodedata
from typing import Any

from qipan.core.record import Record

PAIR = "  "
"""Between the two moves of a numbered pair."""


def record_text(record: Record) -> str:
    """The readable text of ``record`` (GameError if its game cannot be loaded)."""
    game = record.make_game()
    sides = [game.player_name(p) for p in range(game.num_players)]
    names = [_clean(n) for n in record.players] if len(record.players) == len(sides) else sides
    lines = [f"{game.title} ({record.variant})"]
    lines += [f"{side[:1].upper()}{side[1:]}: {name}" for side, name in zip(sides, names, strict=True)]
    options = ", ".join(f"{k}={_clean(str(v))}" for k, v in sorted(record.options.items()))
    if options:
        lines.append(f"Options: {options}")
    clock = record.to_json().get("clock")
    if isinstance(clock, dict) and isinstance(clock.get("base"), int | float):
        lines.append(f"Clock: {clock_text(clock['base'], clock.get('increment') or 0)}")
    if record.started is not None:
        when = datetime.datetime.fromtimestamp(record.started, datetime.UTC)
        lines.append(f"Started: {when:%Y-%m-%d %H:%M} UTC")
    result = (record.result or {}).get("text")
    lines.append(f"Result: {_clean(result) if isinstance(result, str) else 'unfinished'}")
    turns = _turns(record)
    lines.append("")
    if game.num_players == 2:
        lines += _paired(turns)
    else:
        lines += [f"{n}. {names[player]}: {text}" for n, (player, text) in enumerate(turns, 1)]
    return "\n".join(lines) + "\n"


def clock_text(base: float, increment: float) -> str:
    """A time control for people.

    >>> clock_text(300, 3), clock_text(90, 0)
    ('5 min + 3 s', '90 s + 0 s')
    """
    start = f"{base / 60:g} min" if base >= 60 and base % 60 == 0 else f"{base:g} s"
    return f"{start} + {increment:g} s"


def _turns(record: Record) -> list[tuple[int, str]]:
    """Each turn: its player and what they did (consecutive actions of one player joined, chance
    outcomes in brackets before a move)."""
    turns: list[tuple[int, str]] = []
    pending: list[str] = []
    for move in record.moves:
        text = _clean(move.text)
        if not isinstance(move.player, int):
            pending.append(f"[{text}]")
            continue
        text = " ".join([*pending, text])
        pending = []
        if turns and turns[-1][0] == move.player:
            turns[-1] = (move.player, f"{turns[-1][1]}, {text}")
        else:
            turns.append((move.player, text))
    if pending and turns:  # chance after the last move
        turns[-1] = (turns[-1][0], " ".join([turns[-1][1], *pending]))
    return turns


def _paired(turns: list[tuple[int, str]]) -> list[str]:
    """``1. first  second`` lines: a number for each turn of whoever moved first."""
    lines: list[str] = []
    if not turns:
        return lines
    first = turns[0][0]
    row: list[str] = []
    for player, text in turns:
        if player == first and row:
            lines.append(f"{len(lines) + 1}. {PAIR.join(row)}")
            row = []
        row.append(text)
    lines.append(f"{len(lines) + 1}. {PAIR.join(row)}")
    return lines


def _clean(text: Any) -> str:
    """``text`` with invisible and control characters replaced (a record file may hold any)."""
    return "".join("\ufffd" if unicodedata.category(c)[0] == "C" else c for c in str(text))
