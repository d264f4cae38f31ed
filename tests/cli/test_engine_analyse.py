"""The engine protocol's ``analyse`` command: the analysis of the player to move, bounded fields."""

from __future__ import annotations

import json

import pytest

from qipan.cli import engine
from qipan.cli.engine import MAX_ERROR_CHARS, EngineSession
from tests.ai.test_analysis import recorded_histories
from tests.cli.test_engine_hostile import ask, refused


def session_with(game: str, **fields: object) -> EngineSession:
    session = EngineSession()
    assert ask(session, {"cmd": "new", "game": game, "seed": 1, **fields})["ok"]
    return session


def test_analyse_answers_the_lines_and_changes_nothing() -> None:
    session = session_with("abalone")
    ask(session, {"cmd": "play", "move": "a1b2"})
    before = ask(session, {"cmd": "state"})
    answer = ask(session, {"cmd": "analyse", "lines": 2, "time": 0.1, "level": "hard", "include": ["i9h8"]})
    assert answer["ok"] and answer["to_move"] == 1 and answer["player"] == 1
    assert list(answer) == ["ok", "to_move", "player", "lines", "evaluation", "method", "depth", "nodes", "seconds"]
    moves = [line["move"] for line in answer["lines"]]
    assert 2 <= len(moves) <= 3 and "i9h8" in moves
    assert answer["evaluation"] == answer["lines"][0]["evaluation"]
    assert set(answer["evaluation"]) == {"value", "win", "balance", "unit", "mate", "exact"}
    legal = ask(session, {"cmd": "legal"})["moves"]
    assert all(m in legal for m in moves)
    assert ask(session, {"cmd": "state"}) == before
    json.dumps(answer)  # JSON all the way (no infinities)


@pytest.mark.parametrize("game", ["kelighine", "shengke", "tellstones"])
def test_analyse_every_kind_of_game(game: str) -> None:
    session = session_with(game)
    answer = ask(session, {"cmd": "analyse", "lines": 1, "time": 0.05, "seed": "abc"})
    assert answer["ok"], answer
    assert answer["lines"] and answer["method"] in ("exact", "search", "playouts")


def test_analyse_is_refused_without_a_decision() -> None:
    session = EngineSession()
    assert "no game yet" in ask(session, {"cmd": "analyse"})["error"]
    session = session_with("kelighine", chance="manual")
    refused(session, {"cmd": "analyse"}, "analyse needs a player to move")


@pytest.mark.parametrize(("fields", "fragment"), [
    ({"lines": 0}, "lines must be a whole number from 1 to 10, not 0"),
    ({"lines": 11}, "lines must be"),
    ({"lines": True}, "lines must be"),
    ({"lines": "3"}, "lines must be"),
    ({"lines": 2.5}, "lines must be"),
    ({"lines": 10**30}, "lines must be"),
    ({"time": 0}, "time must be a number of seconds above 0 and at most 60"),
    ({"time": -1}, "time must be"),
    ({"time": 61}, "time must be"),
    ({"time": "1"}, "time must be"),
    ({"time": False}, "time must be"),
    ({"time": None}, "time must be"),
    ({"include": "a1b2"}, "include must be a list of at most 10 moves"),
    ({"include": ["a1b2"] * 11}, "include must be a list"),
    ({"include": [1]}, "include must be a list"),
    ({"include": ["x" * 600]}, "include must be a list"),
    ({"include": ["a1a2"]}, "cannot include 'a1a2'"),
    ({"include": ["zz" * 200]}, "cannot include"),
    ({"level": "easy"}, "cannot be analysed at level 'easy'"),
    ({"level": "y" * 1000}, "level must be a name of at most 40 characters"),
    ({"level": 3}, "level must be a name"),
    ({"seed": 1.5}, "seed must be a whole number or a string"),
    ({"seed": [1]}, "seed must be"),
    ({"depth": 3}, "analyse takes lines, time, level, include, seed; not 'depth'"),
])
def test_hostile_analyse_fields_are_refused(fields: dict[str, object], fragment: str) -> None:
    session = session_with("abalone")
    error = refused(session, {"cmd": "analyse", **fields}, fragment)
    assert len(error) <= MAX_ERROR_CHARS and "x" * 100 not in error and "zz" * 50 not in error


def test_the_command_list_names_analyse() -> None:
    session = EngineSession()
    assert "ai, analyse, undo" in ask(session, {"cmd": "nothing"})["error"]


def test_analyses_build_each_earlier_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    histories = recorded_histories(monkeypatch, engine)
    session = session_with("tellstones")
    assert session.match is not None
    for _ in range(3):
        for _ in range(4):
            assert ask(session, {"cmd": "ai", "level": "random", "play": True})["ok"]
        assert ask(session, {"cmd": "analyse", "lines": 1, "time": 0.05})["ok"]
    mover = session.match.to_move
    assert isinstance(mover, int)
    first, _, last = histories
    assert last == [session.match.game.view(s, mover) for s in session.match.states[:-1]]
    # the views of the earlier analysis are given again, not built again (every analysis built
    # the views of the whole game so far)
    assert len(first) < len(last) and all(a is b for a, b in zip(first, last, strict=False))
    assert ask(session, {"cmd": "undo"})["ok"]  # back a move: the views kept still match the positions
    assert ask(session, {"cmd": "analyse", "lines": 1, "time": 0.05})["ok"]
    mover = session.match.to_move
    assert isinstance(mover, int)
    assert histories[-1] == [session.match.game.view(s, mover) for s in session.match.states[:-1]]
