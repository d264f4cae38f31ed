"""``qipan puzzle``: listing, the puzzle of the day, solutions and the play loop, hostile input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipan.cli.main import app
from qipan.puzzles.attempt import Eject, solution, start
from qipan.puzzles.catalogue import find
from qipan.puzzles.eject import shipped

runner = CliRunner()


def test_list_and_today() -> None:
    listed = runner.invoke(app, ["puzzle", "list"])
    assert listed.exit_code == 0 and "crossing" in listed.output and "shiqi" in listed.output
    first = runner.invoke(app, ["puzzle", "today", "--date", "2026-11-28"])
    again = runner.invoke(app, ["puzzle", "today", "--date", "2026-11-28"])
    assert first.exit_code == 0 and first.output == again.output and "qipan puzzle play" in first.output


def test_bad_date_and_unknown_puzzle_give_one_clear_line() -> None:
    bad = runner.invoke(app, ["puzzle", "today", "--date", "yesterday" * 100])
    assert bad.exit_code == 1 and "YYYY-MM-DD" in bad.output and "Traceback" not in bad.output
    assert len(bad.output) < 200
    missing = runner.invoke(app, ["puzzle", "play", "nope"])
    assert missing.exit_code == 1 and "there is no puzzle 'nope'" in missing.output


def test_solution_prints_the_27_moves() -> None:
    result = runner.invoke(app, ["puzzle", "solution", "crossing"])
    assert result.exit_code == 0 and "crossing: 27 moves" in result.output
    assert result.output.split("\n")[1].split()[0] == "d1-e6"


def test_play_loop_reports_bad_moves_and_plays_good_ones() -> None:
    lines = ["d1-e6", "[red]x[/red]", "d1-d4", "status", "hint", "quit"]
    result = runner.invoke(app, ["puzzle", "play", "crossing"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "d1-e6 (step)" in result.output
    assert "cannot read move" in result.output
    assert "there is no piece on d1" in result.output
    assert "1 moves so far" in result.output
    assert "Traceback" not in result.output


def test_play_shiqi_to_the_end_of_input() -> None:
    result = runner.invoke(app, ["puzzle", "play", "shiqi"], input="i3-i5\nhint\n")
    assert result.exit_code == 0
    assert "i3-i5 captures i4" in result.output and "try " in result.output and "bye" in result.output


@pytest.mark.parametrize("where", ["missing/abalone.json", ".", "fifo"])
def test_generate_refuses_an_unwritable_out_before_playing(where: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing folder, a folder or a FIFO: one line at once, not a traceback after the games."""
    played: list[int] = []
    monkeypatch.setattr("qipan.puzzles.eject.generate_puzzles", lambda *a, **k: played.append(1) or [])
    if where == "fifo":
        os.mkfifo(tmp_path / "fifo")
    result = runner.invoke(app, ["puzzle", "generate", "--out", str(tmp_path / where), "--games", "1"])
    assert result.exit_code == 1 and "cannot write" in result.output
    assert "Traceback" not in result.output and len(result.output) < 300 and played == []


def test_solution_of_an_eject_in_3_is_the_whole_line_with_the_replies() -> None:
    """The line was only the first move: now every move, the defender's replies in between, and
    replaying it through an attempt pushes a marble off on the last move."""
    hard = next(p for p in shipped() if p.n == 3)
    result = runner.invoke(app, ["puzzle", "solution", hard.id])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith(f"1. {hard.solution}  (reply ")
    assert lines[3].startswith("3. ") and lines[3].endswith("pushes a marble off")
    line = solution(find(hard.id))
    attempt = start(find(hard.id))
    assert isinstance(attempt, Eject)
    for k in range(0, len(line), 2):
        attempt.play(line[k])
        assert not attempt.done or k == len(line) - 1
        if k + 1 < len(line):
            assert attempt.reply == line[k + 1]
    assert attempt.solved
