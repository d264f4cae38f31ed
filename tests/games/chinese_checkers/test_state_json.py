"""Chinese Checkers states from JSON: every field is checked, so a loaded state never breaks later."""

from __future__ import annotations

import math
from typing import Any

import pytest

import qipan
from qipan.cli.engine import EngineSession
from qipan.core import GameError


def refuse(game: Any, data: Any, message: str) -> None:
    with pytest.raises(GameError, match=message) as caught:
        game.state_from_json(data)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("finished", [[[1]], [{}], [True], [1.0], [None], [0, 0], [0, 1, 0], "0", 0])
def test_finished_must_list_distinct_players(finished: object) -> None:
    # [[1]] used to raise "TypeError: unhashable type: 'list'"
    game = qipan.load("chinese-checkers", players=3)
    refuse(game, {**game.state_to_json(game.initial_state()), "finished": finished}, "finished")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("to_move", [0] * 300, r"to_move \(a player or null\) must be an integer 0\.\.1, not \[0, 0,"),
    ("to_move", "x" * 10_000, "to_move"),
    ("to_move", 1.0, "to_move"),
    ("passes", math.nan, r"passes must be an integer 0\.\.2"),
    ("passes", 3, r"passes must be an integer 0\.\.2"),
    ("ply", 10**30, r"ply must be an integer 0\.\.1000,"),
    ("ply", math.inf, "ply"),
    ("rows", ["1"] * 17, "row b must be a string of 2 holes"),
    ("rows", [None] * 17, "row a must be a string of 1 holes, not None"),
    ("rows", "1" * 121, "rows"),
])
def test_fields_are_bounded_and_messages_short(key: str, value: object, message: str) -> None:
    game = qipan.load("chinese-checkers")
    refuse(game, {**game.state_to_json(game.initial_state()), key: value}, message)


def test_ply_is_bounded_without_a_move_limit_too() -> None:
    game = qipan.load("chinese-checkers", max_moves=0)
    data = game.state_to_json(game.initial_state())
    assert game.state_from_json({**data, "ply": 10**9}).ply == 10**9
    refuse(game, {**data, "ply": 10**9 + 1}, r"ply must be an integer 0\.\.1000000000")


def test_a_required_field_is_named_when_missing() -> None:
    game = qipan.load("chinese-checkers")
    data = game.state_to_json(game.initial_state())
    del data["to_move"]
    refuse(game, data, "missing field 'to_move'")


@pytest.mark.parametrize("scores", [[60.0, 0], [True, 0], [None, 0], [-1, 1], [10**30, 0], [[0], 0], [0]])
def test_capture_scores_are_small_counts(scores: object) -> None:
    game = qipan.load("chinese-checkers", "capture", players=2)
    refuse(game, {**game.state_to_json(game.initial_state()), "scores": scores}, "scores|capture count")


def test_engine_load_of_finished_holding_a_list_answers_an_error() -> None:
    session = EngineSession()
    session.handle('{"cmd": "new", "game": "chinese-checkers"}')
    state = session.handle('{"cmd": "state"}')["state"]
    rows = str(state["rows"]).replace("'", '"')
    answer = session.handle(f'{{"cmd": "load", "state": {{"rows": {rows}, "to_move": 0, "finished": [[1]]}}}}')
    assert answer["ok"] is False and "finished" in answer["error"]
    assert session.handle('{"cmd": "view"}')["ok"] is True
