"""``qipan analyse``: a position, a record's position, a whole-record review; one-line errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import qipan
from qipan.cli.main import app
from qipan.core import Match
from qipan.core.game import CHANCE


def run(*args: str) -> tuple[int, str]:
    """Exit code and output (rich's boxes drawn away, lines joined)."""
    result = CliRunner().invoke(app, ["analyse", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    text = re.sub(r"[│╭╮╰╯─┃┏┓┗┛━┡┩┠┨╇┳┻╋┼┬┴├┤└┘┌┐]", " ", result.output)
    return result.exit_code, " ".join(text.split())


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(app, ["analyse", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def recorded(path: Path, name: str, seed: int, decisions: int, **options: Any) -> Match:
    game = qipan.load(name, **options)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not match.over and done < decisions:
        done += match.to_move != CHANCE
        match.play(rng.choice(match.legal_texts()))
    match.record().save(path)
    return match


def test_a_position_from_moves() -> None:
    data = run_json("abalone", "--moves", "a1b2 i5h5", "--lines", "2", "--time", "0.1", "--level", "hard")
    assert data["to_move"] == 0 and data["player"] == 0 and data["method"] == "search"
    assert len(data["lines"]) == 2 and data["evaluation"] == data["lines"][0]["evaluation"]
    assert data["lines"][0]["evaluation"]["unit"] == "marbles"
    state = qipan.load("abalone").initial_state()
    game = qipan.load("abalone")
    for move in ("a1b2", "i5h5"):
        state = game.play(state, move)
    assert all(line["move"] in game.legal_texts(state) for line in data["lines"])
    code, text = run("abalone", "--moves", "a1b2 i5h5", "--lines", "2", "--time", "0.1")
    assert code == 0 and "black to move" in text and "marbles" in text and "search, depth" in text


def test_options_and_a_state_file(tmp_path: Path) -> None:
    game = qipan.load("chinese-checkers", players=3)
    state = game.play(game.initial_state(), game.legal_texts(game.initial_state())[0])
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.state_to_json(state)))
    data = run_json("chinese-checkers", "-o", "players=3", "--state", str(path), "--time", "0.1", "--lines", "1")
    assert data["to_move"] == 1 and len(data["lines"]) == 1
    assert data["lines"][0]["evaluation"]["unit"] == "moves"


def test_a_records_position_marks_the_played_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    match = recorded(path, "kelighine", 3, 12)
    ply = next(p for p, s in enumerate(match.states[:-1]) if match.game.to_move(s) not in (None, CHANCE))
    data = run_json("kelighine", "--record", str(path), "--ply", str(ply), "--lines", "1")
    assert data["method"] == "exact"
    played = match.moves[ply].text
    assert played in [line["move"] for line in data["lines"]]
    code, text = run("kelighine", "--record", str(path), "--ply", str(ply), "--lines", "1")
    assert code == 0 and "(played)" in text and "to win (exact)" in text


def test_a_whole_record_review_with_a_summary(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    match = recorded(path, "kelighine", 5, 10)
    data = run_json("kelighine", "--record", str(path))
    decisions = [p for p, s in enumerate(match.states[:-1]) if match.game.to_move(s) not in (None, CHANCE)]
    assert [m["ply"] for m in data["moves"]] == decisions
    assert set(data["moves"][0]) == {"ply", "player", "move", "best", "played", "verdict", "evaluation"}
    summary = data["summary"]
    assert sum(c["decisions"] for c in summary.values()) == len(decisions)
    assert all(set(c) == {"decisions", "inaccuracy", "mistake", "blunder"} for c in summary.values())
    for player, counts in summary.items():
        marks = [m["verdict"] for m in data["moves"] if m["player"] == int(player)]
        assert counts["blunder"] == marks.count("blunder") and counts["mistake"] == marks.count("mistake")
    code, text = run("kelighine", "--record", str(path), "--seat", "2")
    assert code == 0 and "summary" in text and "player 2" in text and "decisions" in text


def test_hidden_information_review_needs_a_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    recorded(path, "tellstones", 2, 4)
    code, text = run("tellstones", "--record", str(path))
    assert code == 2 and "choose a seat" in text
    data = run_json("tellstones", "--record", str(path), "--seat", "1", "--time", "0.01", "--level", "easy")
    assert data["moves"] and all(m["player"] == 0 for m in data["moves"])


@pytest.mark.parametrize(("args", "message"), [
    (["abalone", "--moves", "a1b2 zz"], "move 2: cannot read move 'zz'"),
    (["abalone", "--moves", "a1a2"], "move 1:"),
    (["nogame"], "unknown game 'nogame'"),
    (["abalone", "--lines", "11"], "must be from 1 to 10, not 11"),
    (["abalone", "--time", "0"], "must be from 0.01 to 60"),
    (["abalone", "--time", "soon"], "'soon' is not a number"),
    (["abalone", "--level", "easy"], "cannot be analysed at level 'easy'"),
    (["abalone", "--seat", "2"], "white is not to move here; black is"),
    (["abalone", "--seat", "3"], "--seat must be from 1 to 2 here, not 3"),
    (["abalone", "--ply", "3"], "--ply needs --record"),
    (["abalone", "-o", "players"], "must be written KEY=VALUE"),
])
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    code, text = run(*args)
    assert code == 2 and message in text, text
    assert "Traceback" not in text and len(text) < 400


def test_bad_files_are_one_line_errors(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    recorded(record, "kelighine", 1, 4)
    junk = tmp_path / "junk.json"
    junk.write_text("{" * 5000)
    abalone = qipan.load("abalone")
    won = abalone.state_from_json({
        "black": ["g5", "h5", "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c3"],
        "white": ["i5", "e5", "e6", "e4", "d4", "d5", "f5", "f6", "f4"],
        "turn": "black", "quiet": 0, "history": [], "outcome": "ongoing"})
    over = tmp_path / "over.json"
    over.write_text(json.dumps(abalone.state_to_json(abalone.play(won, "g5h5"))))
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (2 << 20))
    cases = [
        (["abalone", "--state", str(junk)], "junk.json"),
        (["abalone", "--state", str(huge)], "larger than 1 MiB"),
        (["abalone", "--state", str(over)], "the game is over here"),
        (["abalone", "--state", str(over), "--moves", "a1b2"], "move 1 ('a1b2'): the game is already over"),
        (["abalone", "--state", str(tmp_path / "missing.json")], "cannot read"),
        (["abalone", "--record", str(record)], "is a record of kelighine, not abalone"),
        (["kelighine", "--record", str(record), "--ply", "999"], "--ply must be at most"),
        (["kelighine", "--record", str(record), "--moves", "roll:3"], "not both"),
        (["kelighine", "--record", str(junk)], "junk.json"),
        (["kelighine", "--record", str(record), "-o", "die=4"], "a record names its own variant and options"),
    ]
    for args, message in cases:
        code, text = run(*args)
        assert code == 2 and message in text, (args, text)
        assert "Traceback" not in text and "{{{{{{" not in text and len(text) < 400
