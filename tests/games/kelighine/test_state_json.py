"""Kelighine states from JSON: every log event and field is checked, so a loaded state never
breaks a view, a move or a description later."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import qipan
from qipan.cli.engine import EngineSession
from qipan.core.errors import GameError
from qipan.games.kelighine import Kelighine


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def after(g: Kelighine, *moves: str) -> dict[str, Any]:
    state = g.initial_state()
    for move in moves:
        state = g.play(state, move)
    return g.state_to_json(state)


def refuse(g: Kelighine, data: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message) as caught:
        g.state_from_json(data)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(("key", "event"), [
    ("log", ["roll", 0, 99, 0]),
    ("log", ["move", 0, 99, 4, 2]),
    ("log", ["move", 0, 36, 99, 2]),
    ("log", ["move", 0, 36, 4, 0]),
    ("log", ["lap", 0, 4, 7]),
    ("log", ["enter", 0, 4]),
    ("log", ["promote", 0, 4, 2, 0]),
    ("log", ["ones", 0, 3]),
    ("log", ["push", 1, 99, 4, 0, 0, -1, 0, 0]),
    ("log", ["push", 1, 4, 5, 7, 0, -1, 0, 0]),
    ("log", ["roll", 0, True, 0]),
    ("log", ["roll", 0, 3.0, 0]),
    ("log", ["roll", 0, 3]),
    ("log", "roll"),
    ("prev_log", ["win", 5]),
])
def test_log_events_name_real_cells_players_and_values(key: str, event: Any) -> None:
    # a move to cell 99 used to load, and then every view raised IndexError
    g = game()
    data = after(g, "roll:3", "I+3", "roll:2")
    refuse(g, {**data, key: [event]}, "malformed event")


def test_log_events_belong_to_the_turn_they_record() -> None:
    g = game()
    data = after(g, "roll:3", "I+3", "roll:2")  # player 2 rolled; player 1's turn is the previous one
    assert data["log"] == [["roll", 1, 2, 0]] and data["prev_log"][0] == ["roll", 0, 3, 0]
    refuse(g, {**data, "log": [["roll", 0, 2, 0]]}, "an event of player 1, not of player 2")
    refuse(g, {**data, "prev_log": [["pass", 1]]}, "an event of player 2, not of player 1")
    refuse(g, {**data, "log": [["roll", 1, 2, 0]] * 101}, "log must list at most 100 items")
    indirect, direct = ["push", 0, 4, 5, 1, 0, -1, 0, -1], ["push", 0, 4, 5, 0, 0, -1, 0, -1]
    for push in (indirect, direct):  # the log would name cell -1 or player 0
        refuse(g, {**data, "log": [["roll", 1, 2, 0], push]}, "a push without its cause")
    first = after(g, "roll:3")
    refuse(g, {**first, "prev_log": [["pass", 1]]}, "prev_log must be empty in the first turn")


def test_the_previous_turns_log_still_loads_and_describes() -> None:
    g = game(players=3)
    data = after(g, "roll:3", "I+3", "roll:4", "H+4")
    state = g.state_from_json(json.loads(json.dumps(data)))
    assert g.view(state, None)["previous_log"] == ["player 2 rolls 4", "player 2: H+4 → A14"]


@pytest.mark.parametrize(("change", "message"), [
    ({"last": "x" * 1000}, "last must be a cell name, not 'xxx"),
    ({"last": "Z9"}, "last: 'Z9' is not a cell"),
    ({"phase": {"a": 1}}, "phase must be one of roll, ones, act, push, over"),
    ({"rolled": [3]}, "rolled must be empty"),
    ({"one_die": 0}, "one_die must be true or false"),
    ({"number": 10**30}, r"number must be an integer 1\.\.1000000000,"),
    ({"turn": [0] * 500}, r"turn must be an integer 0\.\.1, not \[0, 0"),
])
def test_fields_are_checked_with_short_messages(change: dict[str, Any], message: str) -> None:
    g = game()
    refuse(g, {**after(g, "roll:3", "I+3"), **change}, message)


def test_a_pending_push_lists_two_to_four_options() -> None:
    g = game()
    data = after(g, "roll:3", "I+3", "roll:2")
    pending = copy.deepcopy(data)
    pending["pieces"][0] = []
    pending.update(phase="push", pending={"owner": 0, "piece": {"cell": "A5", "a": 9, "done": 0, "entry": None},
                                          "from": "A5", "cause": "direct", "rule": "corner",
                                          "options": ["D"] * 5000, "pusher": 1})
    refuse(g, pending, "two to four options")


def test_engine_load_of_a_log_naming_cell_99_answers_an_error_and_keeps_the_game() -> None:
    session = EngineSession()
    session.handle('{"cmd": "new", "game": "kelighine", "chance": "manual"}')
    session.handle('{"cmd": "play", "move": "roll:3"}')
    state = session.handle('{"cmd": "state"}')["state"]
    state["log"] = [["move", 0, 36, 99, 3]]
    answer = session.handle(json.dumps({"cmd": "load", "state": state}))
    assert answer["ok"] is False and "malformed event" in answer["error"]
    view = session.handle('{"cmd": "view"}')
    assert view["ok"] is True and view["view"]["log"] == ["player 1 rolls 3"]
