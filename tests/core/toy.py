"""A tiny dice game for testing the core: roll a d3, then decide to add it or not; first to 5."""

from __future__ import annotations

from typing import Any, NamedTuple

from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.options import Option, Variant


class ToyState(NamedTuple):
    scores: tuple[int, int]
    turn: int
    roll: int  # 0 = chance to roll


class DiceRace(Game[ToyState, str]):
    name = "dice-race"
    title = "Dice race"
    variants = (Variant("standard", "first to the target"), Variant("short", "target 3", {"target": 3}))
    options = (Option("target", 5, "points to win", minimum=1, maximum=20),)

    @property
    def num_players(self) -> int:
        return 2

    def initial_state(self) -> ToyState:
        return ToyState((0, 0), 0, 0)

    def to_move(self, state: ToyState) -> int | None:
        if max(state.scores) >= self.config["target"]:
            return None
        return CHANCE if state.roll == 0 else state.turn

    def legal_actions(self, state: ToyState) -> list[str]:
        mover = self.to_move(state)
        if mover is None:
            return []
        return ["roll:1", "roll:2", "roll:3"] if mover == CHANCE else ["take", "skip"]

    def next_state(self, state: ToyState, action: str) -> ToyState:
        if action.startswith("roll:"):
            return state._replace(roll=int(action[5:]))
        scores = list(state.scores)
        if action == "take":
            scores[state.turn] += state.roll
        return ToyState((scores[0], scores[1]), 1 - state.turn, 0)

    def returns(self, state: ToyState) -> tuple[float, ...]:
        a, b = state.scores
        return (1.0, -1.0) if a > b else (-1.0, 1.0) if b > a else (0.0, 0.0)

    def parse_action(self, state: ToyState, text: str) -> str:
        text = text.strip().lower()
        if text not in ("take", "skip", "roll:1", "roll:2", "roll:3"):
            raise GameError(f"cannot read {text!r}: take, skip or roll:N")
        return text

    def state_to_json(self, state: ToyState) -> Any:
        return {"scores": list(state.scores), "turn": state.turn, "roll": state.roll}

    def state_from_json(self, data: Any) -> ToyState:
        return ToyState(tuple(data["scores"]), data["turn"], data["roll"])  # type: ignore[arg-type]

    def view(self, state: ToyState, player: int | None) -> dict[str, Any]:
        return {"player": player, "to_move": self.to_move(state), "state": self.state_to_json(state)}
