"""Abalone states from JSON: every field is checked, so a loaded state never breaks later."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from qipan.cli.engine import EngineSession
from qipan.core import GameError
from qipan.games.abalone import Abalone

NINE = {"black": ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c7", "b6"],
        "white": ["a5", "i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6"], "turn": "black"}


def refuse(game: Abalone, data: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message) as caught:
        game.state_from_json(data)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("quiet", [math.inf, -math.inf, math.nan, 1e308, 10**400, -1, 2.0, "3", True, None, [1]])
def test_quiet_must_be_a_small_whole_number(quiet: object) -> None:
    # Infinity used to raise OverflowError, and 10**400 loaded and broke the result text
    refuse(Abalone(), {**NINE, "quiet": quiet}, "quiet must be an integer 0..1000000000")


def test_quiet_stays_within_the_quiet_move_limit() -> None:
    game = Abalone(options={"quiet_move_limit": 10})
    assert game.to_move(game.state_from_json({**NINE, "quiet": 10})) is None  # drawn at the limit
    refuse(game, {**NINE, "quiet": 11}, r"quiet must be an integer 0\.\.10")


@pytest.mark.parametrize("history", [[math.inf], ["x"], [1.5], [2**63], [[1]], None, "12"])
def test_history_holds_hash_keys(history: object) -> None:
    game = Abalone(options={"repetition_draw": True})
    refuse(game, {**NINE, "quiet": 5, "history": history}, "history")


def test_history_agrees_with_quiet_and_the_options() -> None:
    game = Abalone(options={"repetition_draw": True})
    assert game.state_from_json({**NINE, "quiet": 2, "history": [1, 2]}).history == (1, 2)
    long = list(range(12_000))  # no quiet_move_limit: a long game keeps a long history
    assert len(game.state_from_json({**NINE, "quiet": 12_000, "history": long}).history) == 12_000
    refuse(game, {**NINE, "quiet": 1, "history": [1, 2]}, r"at most quiet \(1\)")
    refuse(Abalone(), {**NINE, "quiet": 2, "history": [1, 2]}, "only under the repetition_draw option")


@pytest.mark.parametrize(("change", "message"), [
    ({"black": NINE["black"] + ["a1"]}, "black lists a1 twice"),
    ({"white": NINE["white"][:7]}, "each side has 8..14 marbles"),
    ({"black": NINE["black"][:8], "white": NINE["white"][:8]}, "each side has 8..14 marbles"),
    ({"white": [*NINE["white"][:8], "a1"]}, "a1 hold two marbles"),
    ({"black": None}, "black must be a list"),
    ({"black": [None] * 9}, "a black cell must be a string"),
    ({"black": ["z9"] * 9}, "'z9' is not a cell"),
    ({"black": ["x" * 500]}, "a black cell must be a string of at most 4"),
    ({"turn": 0}, "turn must be one of black, white"),
    ({"turn": None}, "turn must be one of black, white"),
    ({"outcome": "white"}, "outcome is ongoing in this position"),
])
def test_marbles_turn_and_outcome_are_checked(change: dict[str, Any], message: str) -> None:
    refuse(Abalone(), {**NINE, **change}, message)


def test_missing_fields_and_non_objects_are_named() -> None:
    refuse(Abalone(), {"black": NINE["black"], "turn": "black"}, "missing field 'white'")
    refuse(Abalone(), [1, 2], "the state must be a JSON object")  # type: ignore[arg-type]


def test_engine_load_of_a_bad_quiet_answers_an_error_and_keeps_the_game() -> None:
    session = EngineSession()
    session.handle('{"cmd": "new", "game": "abalone"}')
    for quiet in ("1e308", "-5", '"7"'):
        state = json.dumps({**NINE, "quiet": 0}).replace('"quiet": 0', f'"quiet": {quiet}')
        answer = session.handle(f'{{"cmd": "load", "state": {state}}}')
        assert answer["ok"] is False and "quiet must be an integer" in answer["error"]
    assert session.handle('{"cmd": "view"}')["view"]["marbles"]["black"][0] == "a1"
    assert len(session.handle('{"cmd": "legal"}')["moves"]) == 44  # still the starting position
