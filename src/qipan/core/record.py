"""Game records: JSON documents that replay a game exactly.

A record holds the game id, variant, options, seed, player labels, the clock (timed games), every
action (chance outcomes included) with its notation and time, and the result. Replaying parses and applies each action
in turn, so a record never depends on the random generator that produced it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qipan.core import jsonsafe
from qipan.core.chance import check_seed
from qipan.core.clock import Reset, TimeControl
from qipan.core.errors import GameError, brief
from qipan.core.game import CHANCE, Game
from qipan.core.registry import load
from qipan.core.validate import MAX_COUNT, Reader

FORMAT = "qipan-record/1"

MAX_RECORD_BYTES = 64 << 20
"""The largest record file read (64 MiB): a game of a million moves fits."""

MAX_MOVE_TEXT = 500
"""The longest move text a record may hold (as the engine protocol's moves)."""


@dataclass
class Move:
    """One recorded action: who took it ("chance" for chance outcomes), its notation, when."""

    player: int | str
    text: str
    time: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "move": self.text}
        if self.time is not None:
            data["time"] = round(self.time, 3)
        return data


@dataclass
class Record:
    """A whole game. ``result`` is None while the game is under way. ``clock``: the time
    control (None: untimed, or the game's own ``time_limit`` option); ``clock_reset``: the clocks
    as the last takeback left them."""

    game: str
    variant: str
    options: dict[str, Any]
    seed: int | str | None = None
    players: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    result: dict[str, Any] | None = None
    started: float | None = None
    clock: TimeControl | None = None
    clock_reset: Reset | None = None
    hints: bool = False
    """Whether its player could ask the engine for hints (a game against the AI created with
    hints on); written only when true, so other records are unchanged."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "started": self.started,
            "moves": [m.to_json() for m in self.moves],
            "result": self.result,
        }
        if self.clock is not None:
            data["clock"] = self.clock.to_json()
        if self.clock_reset is not None:
            data["clock_reset"] = self.clock_reset.to_json()
        if self.hints:
            data["hints"] = True
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """A record from its JSON, every field checked (GameError naming the field, briefly)."""
        read = Reader("record")
        data = read.mapping(data, "a record")
        if data.get("format", FORMAT) != FORMAT:
            raise read.fail(f"unsupported format {brief(data.get('format'), 40)}; expected {FORMAT}")
        options = read.mapping(data.get("options") or {}, "options")
        players = [read.text(p, "a player label") for p in read.array(data.get("players") or [], "players", longest=8)]
        result = data.get("result")
        if result is not None:
            result = dict(read.mapping(result, "result"))
        try:
            clock = None if data.get("clock") is None else TimeControl.from_json(data["clock"])
            reset = None if data.get("clock_reset") is None else Reset.from_json(data["clock_reset"])
        except GameError as exc:
            raise read.fail(str(exc)) from None
        hints = data.get("hints", False)
        if not isinstance(hints, bool):
            raise read.fail(f"hints must be true or false, not {brief(hints, 40)}")
        return cls(
            game=read.text(read.field(data, "game"), "game", 40),
            variant=read.text(read.field(data, "variant"), "variant", 40),
            options=dict(options),
            seed=None if data.get("seed") is None else check_seed(data["seed"]),
            players=players,
            moves=[_move(read, m) for m in read.array(read.field(data, "moves"), "moves", longest=MAX_COUNT)],
            result=result,
            started=_time(read, data.get("started"), "started"),
            clock=clock,
            clock_reset=reset,
            hints=hints,
        )

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file (at most :data:`MAX_RECORD_BYTES`); GameError if it is not one."""
        return jsonsafe.load_file(path, MAX_RECORD_BYTES, "a record", cls.from_json)

    def make_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, self.options)

    def replay(self) -> list[Any]:
        """Every state from the start to the last recorded move (checked at each step)."""
        game = self.make_game()
        state = game.initial_state()
        states = [state]
        for number, move in enumerate(self.moves, 1):
            mover = game.to_move(state)
            expected: int | str = "chance" if mover == CHANCE else (mover if mover is not None else "nobody")
            if move.player != expected:
                raise GameError(
                    f"record move {number} ({move.text}) is by {move.player!r}, but {expected!r} is to move"
                )
            try:
                state = game.play(state, move.text)
            except GameError as exc:
                raise GameError(f"record move {number}: {exc}") from None
            states.append(state)
        return states


def _time(read: Reader, value: Any, name: str) -> float | None:
    """A time in seconds since the epoch, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise read.fail(f"{name} must be a time in seconds (or null), not {brief(value, 40)}")
    return float(value)


def _move(read: Reader, data: Any) -> Move:
    """One recorded move: its player (a seat or "chance"), its notation and its time."""
    data = read.mapping(data, "a move")
    player = read.field(data, "player")
    if player != "chance":
        player = read.integer(player, "a move's player (a seat or \"chance\")", 0, 99)
    text = read.text(read.field(data, "move"), "a move", MAX_MOVE_TEXT)
    return Move(player, text, _time(read, data.get("time"), "time"))
