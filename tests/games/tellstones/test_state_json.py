"""Tellstones states from JSON: the last peek must point at a real face-down stone (a view shows it
to the looker), and every field is checked with short messages free of Python internals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from qipan.cli.engine import EngineSession
from qipan.core import GameError
from qipan.games.tellstones import Tellstones

GAME = Tellstones()


def play(game: Tellstones, *moves: str) -> dict[str, Any]:
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    return data


# crown on 3 face down, scale on 4 face up; player 1 peeked at 3 and player 2 is to act
PEEKED = play(GAME, "place crown 3", "hide 3", "peek 3")


def refuse(game: Tellstones, data: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message) as caught:
        game.state_from_json(data)
    text = str(caught.value)
    assert len(text) < 220 and "Error" not in text and "NoneType" not in text


def test_a_real_peek_is_revealed_to_the_looker_only() -> None:
    state = GAME.state_from_json(PEEKED)
    assert GAME.view(state, 0)["revealed"] == {"slot": "3", "stone": "crown"}
    assert GAME.view(state, 1)["revealed"] is None


@pytest.mark.parametrize(("action", "message"), [
    ("peek 4", "peeks at 4, which holds no face-down stone"),  # face up: used to reveal a made-up stone
    ("peek 1", "peeks at 1, which holds no face-down stone"),  # empty: used to reveal a made-up stone
    ("peek 9", "not a slot"),
    ("peek 3 partner", "only the round-table variant lets a teammate look"),
    ("first 1", "chance draws the first player"),
    ("x" * 1000, "last action must be a string of at most 40 characters"),
])
def test_the_last_action_must_fit_the_state(action: str, message: str) -> None:
    refuse(GAME, {**PEEKED, "last": {"player": 0, "action": action}}, message)


def test_the_last_peek_belongs_to_the_last_turn() -> None:
    refuse(GAME, {**PEEKED, "last": {"player": 1, "action": "peek 3"}}, "player 0's .*, not player 1's")
    refuse(GAME, {**PEEKED, "last": {"player": "chance", "action": "peek 3"}}, "chance draws the first player")
    refuse(GAME, {**PEEKED, "last": {"player": 5, "action": "peek 3"}}, "last player")
    refuse(GAME, {**PEEKED, "last": ["peek 3"]}, "last must be a JSON object")


def test_engine_load_of_a_peek_at_a_face_up_stone_answers_an_error() -> None:
    session = EngineSession()
    session.handle('{"cmd": "new", "game": "tellstones"}')
    bad = {**PEEKED, "last": {"player": 0, "action": "peek 4"}}
    answer = session.handle(json.dumps({"cmd": "load", "state": bad}))
    assert answer["ok"] is False and "no face-down stone" in answer["error"]
    assert session.handle('{"cmd": "view", "player": 0}')["view"]["revealed"] is None


@pytest.mark.parametrize(("change", "message"), [
    ({"lines": [[None, None, "--crown", "scale", None, None, None]]}, "slot value '--crown' is not null"),
    ({"lines": None}, "lines must be a list, not None"),
    ({"lines": [["x" * 1000] * 7]}, "slot value 'xxx"),
    ({"peek_allowance": True}, "peek_allowance must be one of 1, 3, not True"),
    ({"peek_allowance": 1.0}, "peek_allowance must be one of 1, 3"),
    ({"scores": [1.0, 0]}, r"scores must be an integer 0\.\.3"),
    ({"turn": 10**400}, "turn must be an integer 0..1000000000, not a number of about 401 digits"),
    ({"ply": 1}, r"ply \(1\) is at least turn \(3\)"),
    ({"peeked": ["3"] * 50}, "peeked must list at most 3 items"),
    ({"challenged": "3" * 100}, "challenged must be a string of at most 4 characters"),
    ({"catch_up": [0, 1]}, "catch_up must be true or false, not 0"),
    ({"boaster": "0"}, "boaster must be an integer"),
    ({"phase": "over", "winner": True, "end": "proof"}, "winner must be an integer 0..2, not True"),
    ({"phase": "over", "winner": 0, "end": 0}, "end must be one of score, proof, turn-limit, not 0"),
    ({"phase": "over", "winner": 0, "end": "score"}, "a game won by scoring has a winner with 3 points"),
])
def test_fields_are_checked(change: dict[str, Any], message: str) -> None:
    refuse(GAME, {**PEEKED, **change}, message)


def test_a_field_left_out_is_named() -> None:
    data = dict(PEEKED)
    del data["catch_up"]
    refuse(GAME, data, "missing field 'catch_up'")


def test_the_turn_limit_ends_the_game_for_the_higher_score() -> None:
    game = Tellstones(options={"turn_limit": 3})
    data = play(game, "place crown 3", "hide 3")
    refuse(game, {**data, "turn": 3, "ply": 3}, r"the turn limit \(3\) is reached")
    refuse(game, {**data, "turn": 4}, r"turn must be an integer 0\.\.3")
    ended = play(game, "place crown 3", "hide 3", "hide 4")
    assert ended["winner"] == 2 and ended["end"] == "turn-limit"
    refuse(game, {**ended, "winner": 0}, "goes to the higher score")


def test_the_start_phase_is_the_untouched_table() -> None:
    game = Tellstones(options={"first_player": "random"})
    start = play(game)
    assert start["phase"] == "start"
    refuse(game, {**start, "lines": [[None, None, "crown", "scale", None, None, None]]}, "comes before anything")
    refuse(game, {**start, "last": {"player": 0, "action": "hide 4"}}, "last must be null")
    refuse(GAME, {**play(GAME), "phase": "start"}, "only with first_player random")
