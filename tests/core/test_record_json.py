"""Record files are untrusted: every field is checked, and a bad one is a short GameError."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import qipan
from qipan.cli.main import app
from qipan.core import GameError, Match, Record

INTERNALS = ("Traceback", "object is not", "NoneType", "string indices", "index out of", "Error:")


def _record() -> dict[str, Any]:
    match = Match(qipan.load("abalone"), seed=1)
    match.play("a1b2")
    match.play("i5h5")
    data: dict[str, Any] = match.record().to_json()
    return data


def _with(**changes: Any) -> dict[str, Any]:
    data = _record()
    data.update(changes)
    return data


@pytest.mark.parametrize("data", [
    _with(moves="abc"),  # TypeError: string indices must be integers
    _with(moves=[{"player": 0, "move": "a1b2", "time": "x"}]),  # replayed, then a clock did arithmetic on "x"
    _with(moves=[{"player": [1], "move": "a1b2"}]),
    _with(moves=[{"player": 0, "move": "x" * 10_000}]),
    _with(moves=[["a1b2"]]),
    _with(format="x" * 100_000),
    _with(game=None),
    _with(game="abalone" * 1000),
    _with(players=[["black"]]),
    _with(players="black"),
    _with(result=[1]),
    _with(started=float("inf")),
    _with(started="yesterday"),
    [1, 2],
])
def test_a_malformed_record_is_a_short_game_error(data: Any) -> None:
    with pytest.raises(GameError) as caught:
        Record.from_json(data)
    message = str(caught.value)
    assert len(message) < 200 and "x" * 81 not in message, message
    assert not any(internal in message for internal in INTERNALS), message


def test_a_real_record_still_reads_and_replays(tmp_path: Path) -> None:
    data = _record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    record = Record.load(path)
    assert record.to_json() == data and len(record.replay()) == 3


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"]" * 100_000, b'{"game": "abalone", "started": 1e999}',
                                     b"\xff not utf-8"])
def test_an_unreadable_record_file_is_a_game_error(tmp_path: Path, content: bytes) -> None:
    """A deeply nested file raised RecursionError out of ``qipan replay``."""
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(GameError, match=r"game\.json': ") as caught:
        Record.load(path)
    assert len(str(caught.value)) < 300


def test_replay_shows_a_record_without_players_and_with_markup_in_its_labels(tmp_path: Path) -> None:
    """A record with no player labels raised IndexError in ``qipan replay``; a label such as
    ``[/bold]`` raised rich's MarkupError."""
    data = _record()
    del data["players"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--to", "2"])
    assert result.exit_code == 0 and "move 2/2 — black" in result.output, result.output
    data["players"] = ["[/bold]", "[red]"]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--list"])
    assert result.exit_code == 0 and "1. [/bold]: a1b2" in result.output, result.output
    data["players"] = ["one"]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "names 1 players; abalone here has 2" in result.output, result.output
