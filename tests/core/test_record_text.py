"""The readable record text (``qipan.core.record_text``) and ``qipan replay --text``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import qipan
from qipan.cli.main import app as cli_app
from qipan.core import Match
from qipan.core.record import Move, Record
from qipan.core.record_text import clock_text, record_text


def played(game: str, plies: int, seed: int = 1, variant: str | None = None) -> Record:
    match = Match(qipan.load(game, variant), seed=seed)
    rng = random.Random(seed)
    while len(match.moves) < plies and not match.over:
        match.play(rng.choice(match.legal_texts()))
    return match.record()


def move_lines(text: str) -> list[str]:
    return text.split("\n\n", 1)[1].splitlines()


def test_two_player_moves_are_paired_under_one_number() -> None:
    record = played("abalone", 5)
    record.players = ["Mei", "Bo"]
    record.result = {"text": "black lost (resignation)", "returns": [-1, 1]}
    text = record_text(record)
    header = text.split("\n\n", 1)[0].splitlines()
    assert header[:3] == ["Abalone (standard)", "Black: Mei", "White: Bo"]
    assert "Result: black lost (resignation)" in header
    moves = [m.text for m in record.moves]
    assert move_lines(text) == [f"1. {moves[0]}  {moves[1]}", f"2. {moves[2]}  {moves[3]}", f"3. {moves[4]}"]


def test_chance_outcomes_stand_before_the_move_and_several_actions_share_a_turn() -> None:
    # Sheng-Ke: a coin, a shuffle and a roll before the first move, a roll before each turn, and
    # turns of several actions (pick, then cards).
    record = played("shengke", 14, seed=3)
    turns: list[str] = []
    chance: list[str] = []
    for move in record.moves:
        if move.player == "chance":
            chance.append(f"[{move.text}]")
        elif chance:
            turns.append(" ".join([*chance, move.text]))
            chance = []
        else:
            turns[-1] += f", {move.text}"
    assert len(turns) >= 4 and turns[0].startswith(f"[{record.moves[0].text}] [{record.moves[1].text}] [")
    assert move_lines(record_text(record))[:2] == [f"1. {turns[0]}  {turns[1]}", f"2. {turns[2]}  {turns[3]}"]


def test_multi_player_games_number_one_line_per_move_with_its_player() -> None:
    match = Match(qipan.load("chinese-checkers", None, {"players": 3}), seed=2)
    rng = random.Random(2)
    for _ in range(4):
        match.play(rng.choice(match.legal_texts()))
    record = match.record()
    record.players = ["Ann", "Bo", "Cy"]
    lines = move_lines(record_text(record))
    assert lines == [f"{n}. {name}: {move.text}" for n, (name, move) in
                     enumerate(zip(["Ann", "Bo", "Cy", "Ann"], record.moves, strict=True), 1)]


def test_the_clock_start_and_options_are_in_the_header() -> None:
    record = Record("abalone", "standard", {"time_limit": 600}, started=0.0, moves=[Move(0, "a1b2")])
    text = record_text(record)
    assert "Options: time_limit=600" in text and "Started: 1970-01-01 00:00 UTC" in text
    assert "Result: unfinished" in text and "Black: black" in text
    assert clock_text(300, 3) == "5 min + 3 s" and clock_text(45, 0) == "45 s + 0 s"


def test_control_characters_from_a_hostile_file_never_reach_the_terminal() -> None:
    record = Record("abalone", "standard", {}, players=["\x1b[2J\x1b]0;pwned\x07", "B\u202eob"],
                    moves=[Move(0, "a1b2")])
    text = record_text(record)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "Black: \ufffd[2J\ufffd]0;pwned\ufffd" in text


def test_replay_text_prints_the_record(tmp_path: Path) -> None:
    record = played("abalone", 3)
    path = tmp_path / "game.json"
    record.save(path)
    result = CliRunner().invoke(cli_app, ["replay", str(path), "--text"])
    assert result.exit_code == 0, result.output
    assert result.output == record_text(record)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record.to_json(), "moves": [{"player": 0, "move": "zz99"}]}))
    refused = CliRunner().invoke(cli_app, ["replay", str(bad), "--text"])
    assert refused.exit_code == 2 and "record move 1" in refused.output and "Traceback" not in refused.output


@pytest.mark.parametrize("game", ["abalone", "chinese-checkers", "kelighine", "shengke", "tellstones"])
def test_every_game_gives_a_text_numbering_every_turn(game: str) -> None:
    record = played(game, 30, seed=4)
    lines = move_lines(record_text(record))
    assert all(line.startswith(f"{n}. ") for n, line in enumerate(lines, 1))
    movers = [m.player for m in record.moves if m.player != "chance"]
    turns = sum(1 for n, player in enumerate(movers) if n == 0 or movers[n - 1] != player)
    assert len(lines) == (turns + 1) // 2  # two players: a number for every two turns
    for move in record.moves:
        assert move.text in record_text(record)
