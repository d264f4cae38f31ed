"""Terminal play: the loop driven by scripted input, and the command line's flags."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rich.console import Console

import qipan
from qipan.cli.play import PlayLoop, Seat
from qipan.core import Match, Record


def scripted(lines: list[str]):  # type: ignore[no-untyped-def]
    feed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def test_human_game_with_undo_errors_and_resign() -> None:
    console = Console(record=True, width=100, color_system=None)
    match = Match(qipan.load("abalone"), seed=1)
    loop = PlayLoop(match, [Seat("human"), Seat("human")], console)
    result = loop.run(scripted(["help", "moves", "e5e6", "a1b2", "i5h5", "undo", "log", "resign"]))
    text = console.export_text()
    assert "illegal move e5e6: there is no black marble on e5" in text
    assert "a1b2" in text and "c3c4" in text  # the moves listing
    assert [m.text for m in match.moves] == ["a1b2"]
    assert result is not None and result["text"] == "white lost (resigned)"


def test_undo_refused_against_the_ai() -> None:
    console = Console(record=True, width=100, color_system=None)
    match = Match(qipan.load("abalone"), seed=2)
    loop = PlayLoop(match, [Seat("human"), Seat("ai", "random")], console)
    loop.run(scripted(["a1b2", "undo", "quit"]))
    assert "undo is for games between people only" in console.export_text()
    assert len(match.moves) == 2 and match.moves[1].player == 1


def test_ai_against_ai_to_the_end() -> None:
    console = Console(record=True, width=100, color_system=None)
    game = qipan.load("abalone", quiet_move_limit=40)
    match = Match(game, seed=3)
    result = PlayLoop(match, [Seat("ai", "random"), Seat("ai", "random")], console).run(scripted([]))
    assert result is not None and match.over
    assert "game over" in console.export_text()


def test_command_line_play_and_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    out = subprocess.run(
        [sys.executable, "-m", "qipan", "play", "abalone", "--white", "ai:random", "--seed", "4",
         "--record", str(record)],
        input="c3d4\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "white plays" in out.stdout
    saved = Record.load(record)
    assert saved.moves[0].text == "c3d4" and saved.seed == 4
    replay = subprocess.run([sys.executable, "-m", "qipan", "replay", str(record), "--list"],
                            capture_output=True, text=True, timeout=60)
    assert "1. black: c3d4" in replay.stdout


def test_command_line_rejects_bad_flags() -> None:
    for args, message in [
        (["play", "abalone", "--seat", "3=ai"], "no seat '3'"),
        (["play", "abalone", "--black", "robot"], "a seat is 'human', 'ai' or 'ai:LEVEL'"),
        (["play", "abalone", "--time-limit", "soon"], "is not a whole number"),
        (["play", "go"], "unknown game 'go'"),
        (["perft", "abalone", "--depth", "1", "--option", "speed=9"], "has no option 'speed'"),
    ]:
        out = subprocess.run([sys.executable, "-m", "qipan", *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert message in out.stdout + out.stderr, (args, out.stdout, out.stderr)


def test_perft_command() -> None:
    out = subprocess.run([sys.executable, "-m", "qipan", "perft", "abalone", "--depth", "2"],
                         capture_output=True, text=True, timeout=60)
    assert "perft(2) = 1936" in out.stdout


def test_hot_seat_hides_and_shows_a_peek_to_its_player_only() -> None:
    """Tellstones between two people: the peeker sees the stone right after peeking; the
    log (a memory aid) is refused outside practice mode."""
    console = Console(record=True, width=120, color_system=None)
    match = Match(qipan.load("tellstones"), seed=1)
    loop = PlayLoop(match, [Seat("human"), Seat("human")], console)
    prompts: list[str] = []
    lines = iter(["", "hide 4", "", "", "peek 4", "", "", "log", "quit"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines)

    loop.run(ask)
    text = console.export_text()
    assert any("Pass the device to" in p for p in prompts)
    assert any("Press Enter to hide your board" in p for p in prompts)
    assert "the move log is a memory aid in this game" in text
    # Shown once, to the peeker right after the peek; player 1's next board does not show it.
    assert text.count("the stone on 4 is the scale") == 1


def test_level_help_names_the_games_levels() -> None:
    from typer.testing import CliRunner

    from qipan.cli.main import app

    result = CliRunner().invoke(app, ["play", "tellstones", "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # help lines are wrapped
    assert "AI level for seats given as 'ai': random, easy, medium, hard, perfect" in text
