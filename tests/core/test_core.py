"""The core protocol: options, registry, checked play, matches, chance, clocks, records."""

from __future__ import annotations

import json

import pytest

import qipan
from qipan.core import CHANCE, GameError, Match, Record
from qipan.core.options import Option, parse_option_assignments
from qipan.core.registry import register
from tests.core.toy import DiceRace

register(DiceRace)


def test_options_parse_and_validate() -> None:
    game = DiceRace(options={"target": "7"})
    assert game.config["target"] == 7
    assert DiceRace(variant="short").config["target"] == 3
    with pytest.raises(GameError, match="has no option 'goal'; its options are: target"):
        DiceRace(options={"goal": 3})
    with pytest.raises(GameError, match="above the maximum 20"):
        DiceRace(options={"target": 50})
    with pytest.raises(GameError, match="is not a whole number"):
        DiceRace(options={"target": "many"})
    with pytest.raises(GameError, match="no variant 'long'; choose one of standard, short"):
        DiceRace(variant="long")


def test_option_kinds() -> None:
    flag = Option("chain", True, "chained jumps")
    assert flag.parse("no") is False and flag.parse(True) is True
    with pytest.raises(GameError):
        flag.parse("maybe")
    choice = Option("jump", "long", "jump rule", choices=("long", "adjacent"))
    with pytest.raises(GameError, match="choose one of long, adjacent"):
        choice.parse("far")
    with pytest.raises(GameError, match="KEY=VALUE"):
        parse_option_assignments(["players"])


def test_registry_errors_and_lookup() -> None:
    with pytest.raises(GameError, match="unknown game 'go'; choose one of abalone"):
        qipan.load("go")
    assert qipan.load("ABALONE").name == "abalone"
    assert "abalone" in qipan.game_names()


def test_apply_checks_and_never_mutates() -> None:
    game = DiceRace()
    state = game.next_state(game.initial_state(), "roll:2")
    with pytest.raises(GameError, match="illegal move roll:1"):
        game.apply(state, "roll:1")
    after = game.apply(state, "take")
    assert state == ((0, 0), 0, 2) and after.scores == (2, 0)


def test_match_auto_chance_is_reproducible() -> None:
    runs = []
    for _ in range(2):
        match = Match(DiceRace(), seed=42)
        while not match.over:
            match.play("take")
        runs.append([m.text for m in match.moves])
    assert runs[0] == runs[1]
    assert any(t.startswith("roll:") for t in runs[0])


def test_match_manual_chance_and_turn_checks() -> None:
    match = Match(DiceRace(), seed=1, chance="manual")
    assert match.to_move == CHANCE
    with pytest.raises(GameError, match="not your turn"):
        match.play("take", player=0)
    match.play("roll:3")
    with pytest.raises(GameError, match="not your turn: player 1 is to move"):
        match.play("take", player=1)
    match.play("take", player=0)
    assert match.state.scores == (3, 0)
    match.undo()
    assert match.state.scores == (0, 0) and match.to_move == 0
    with pytest.raises(GameError, match="cannot read 'jump'"):
        match.play("jump")
    assert len(match.moves) == 1


def test_record_round_trip_and_replay() -> None:
    match = Match(DiceRace(variant="short"), seed=7)
    while not match.over:
        match.play("take")
    record = match.record()
    again = Record.from_json(json.loads(record.dumps()))
    assert again.replay()[-1] == match.state
    resumed = Match.from_record(again)
    assert resumed.state == match.state and resumed.result() == match.result()
    bad = record.to_json()
    bad["moves"][1]["move"] = "skip" if bad["moves"][1]["move"] == "take" else "take"
    bad["moves"][0]["move"] = "roll:9"
    with pytest.raises(GameError, match="record move 1"):
        Record.from_json(bad).replay()


def test_forfeit_and_clocks() -> None:
    now = [1000.0]
    game = qipan.load("abalone", time_limit=60)
    match = Match(game, seed=1, clock=lambda: now[0])
    now[0] += 10
    match.play("a1b2")  # each player's first move is free: their clock starts with it
    now[0] += 5
    match.play("i5h5")
    assert match.clocks() == pytest.approx([60.0, 60.0])
    now[0] += 20
    match.play("b2c3")
    clocks = match.clocks()
    assert clocks is not None and clocks[0] == pytest.approx(40.0) and clocks[1] == pytest.approx(60.0)
    flag = now[0] + 60
    now[0] += 61
    with pytest.raises(GameError, match="white ran out of time"):
        match.play("h5g5")
    assert match.over and match.result() == {
        "returns": [1.0, -1.0], "text": "white lost (time)", "reason": "time", "loser": 1, "time": flag}
    assert match.clocks() == pytest.approx([40.0, 0.0])  # stopped when the flag fell
    now[0] += 100
    assert match.clocks() == pytest.approx([40.0, 0.0])
    resumed = Match.from_record(match.record(), clock=lambda: now[0])
    assert resumed.over and resumed.result() == match.result()
    assert resumed.clocks() == pytest.approx([40.0, 0.0])


@pytest.mark.parametrize("bad", [True, "0", 2, -1, 0.5])
def test_views_refuse_bad_seats(bad: object) -> None:
    game = qipan.load("abalone")
    with pytest.raises(GameError, match=r"player must be 0\.\.1 or None"):
        game.view(game.initial_state(), bad)  # type: ignore[arg-type]
