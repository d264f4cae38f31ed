"""Game records: JSON documents that replay a game exactly.

A record holds the game id, variant, options, seed, player labels, every action (chance outcomes
included) with its notation and time, and the result. Replaying parses and applies each action
in turn, so a record never depends on the random generator that produced it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qipan.core.chance import check_seed
from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.registry import load

FORMAT = "qipan-record/1"


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
    """A whole game. ``result`` is None while the game is under way."""

    game: str
    variant: str
    options: dict[str, Any]
    seed: int | str | None = None
    players: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    result: dict[str, Any] | None = None
    started: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
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

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        try:
            if data.get("format", FORMAT) != FORMAT:
                raise GameError(f"unsupported record format {data.get('format')!r}; expected {FORMAT}")
            moves = [Move(m["player"], str(m["move"]), m.get("time")) for m in data["moves"]]
            return cls(
                game=str(data["game"]),
                variant=str(data["variant"]),
                options=dict(data.get("options") or {}),
                seed=None if data.get("seed") is None else check_seed(data["seed"]),
                players=list(data.get("players") or []),
                moves=moves,
                result=data.get("result"),
                started=data.get("started"),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise GameError(f"malformed record: missing or bad field {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except json.JSONDecodeError as exc:
            raise GameError(f"{path} is not valid JSON: {exc}") from None

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
