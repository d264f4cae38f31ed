"""qipan.openspiel.dumps/loads: a saved state is plain JSON, read back without pickle."""

from __future__ import annotations

import base64
import json
import pickle
import random
from typing import Any

import pyspiel
import pytest

import qipan.openspiel
from tests.openspiel.cases import CASES
from tests.openspiel.test_games import play_randomly

RAN: list[str] = []
"""What the hostile pickle below appends to when it is unpickled."""


def mark(text: str) -> None:
    RAN.append(text)


class Payload:
    """Unpickling this calls ``mark("payload ran")``: any code could run instead."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (mark, ("payload ran",))


@pytest.mark.parametrize("name", CASES)
def test_a_saved_state_reads_back_as_the_same_state(name: str) -> None:
    game = pyspiel.load_game(name)
    state = play_randomly(game.new_initial_state(), random.Random(name), 60)
    text = qipan.openspiel.dumps(state)
    assert json.loads(text) == {"game": str(game), "history": state.history()}
    game2, state2 = qipan.openspiel.loads(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history() and state2.qipan_state == state.qipan_state
    assert state2.pending == state.pending and state2.is_terminal() == state.is_terminal()
    if not state.is_terminal():
        for player in range(game.num_players()):
            assert state2.information_state_string(player) == state.information_state_string(player)


def test_pyspiels_own_deserialisation_runs_a_pickle_and_loads_refuses_it() -> None:
    """Why loads exists: OpenSpiel reads a Python state's ``__dict__`` with ``pickle.loads``."""
    game = pyspiel.load_game("qipan_tellstones")
    state = game.new_initial_state()
    honest = pyspiel.serialize_game_and_state(game, state)
    head, _, _ = honest.rpartition("__dict__=")
    hostile = head + "__dict__=" + base64.b64encode(pickle.dumps(Payload())).decode()
    RAN.clear()
    with pytest.raises(Exception):  # noqa: B017 - the payload is not a dict: OpenSpiel fails after running it
        pyspiel.deserialize_game_and_state(hostile)
    assert RAN == ["payload ran"]
    RAN.clear()
    with pytest.raises(ValueError, match="is JSON"):
        qipan.openspiel.loads(hostile)
    assert RAN == []


def test_a_game_naming_a_deck_file_is_read_only_with_the_game_given() -> None:
    game = pyspiel.load_game("qipan_shengke(turns=4)")
    state = play_randomly(game.new_initial_state(), random.Random(2), 20)
    text = qipan.openspiel.dumps(state).replace("deck_0=default", "deck_0=/etc/passwd")
    assert "deck_0=/etc/passwd" in text
    with pytest.raises(ValueError, match=r"names a deck file \(deck_0\): load the game yourself and pass it"):
        qipan.openspiel.loads(text)
    with pytest.raises(ValueError, match="the saved state is of"):
        qipan.openspiel.loads(text, pyspiel.load_game("qipan_shengke(turns=6)"))
    same_game, same = qipan.openspiel.loads(qipan.openspiel.dumps(state), game)
    assert same_game is game and same.qipan_state == state.qipan_state


def hostile_texts() -> list[tuple[str, str]]:
    good = {"game": "qipan_tellstones(turn_limit=2)", "history": []}

    def text(**changes: Any) -> str:
        return json.dumps({**good, **changes})

    return [
        ("x" * (qipan.openspiel.record.MAX_TEXT + 1), "at most 2000000 characters"),
        ("{not json", "is JSON"),
        (json.dumps([1, 2]), "exactly the keys game and history"),
        (json.dumps({**good, "extra": 1}), "exactly the keys game and history"),
        (text(history=[True]), "a list of whole numbers"),
        (text(history="0,1"), "a list of whole numbers"),
        (text(game=7), "a list of whole numbers"),
        (text(game="tic_tac_toe"), "names a qipan game (qipan_abalone, "),
        (text(game="qipan_tellstones(turn_limit=2"), "cannot read the game string"),
        (text(game="qipan_tellstones(turn_limit=-1)"), "qipan_tellstones: option turn_limit"),
        (text(game="qipan_tellstones(colour=red)"), "Unknown parameter 'colour'"),
        (text(game="qipan_abalone(max_game_length=3)", history=[0] * 4), "4 actions, more than the game's 3"),
        (text(history=[10**30]), "action 1 of the saved history (100000000000… (31 characters)) is not legal"),
        (text(history=[999]), "action 1 of the saved history (999) is not legal there"),
    ]


@pytest.mark.parametrize(("text", "message"), hostile_texts(), ids=range(len(hostile_texts())))
def test_hostile_text_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        qipan.openspiel.loads(text)
    shown = str(caught.value)
    assert message in shown
    assert "\n" not in shown and len(shown) < 300


def test_an_action_after_the_end_is_refused() -> None:
    game = pyspiel.load_game("qipan_tellstones(turn_limit=2)")
    state = play_randomly(game.new_initial_state(), random.Random(1), 1000)
    assert state.is_terminal() and len(state.history()) < game.max_game_length()
    data = json.loads(qipan.openspiel.dumps(state))
    data["history"].append(0)
    with pytest.raises(ValueError, match=f"action {len(data['history'])} of the saved history comes after the end"):
        qipan.openspiel.loads(json.dumps(data))
