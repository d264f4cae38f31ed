"""``qipan simulate kelighine`` and the Kelighine statistics hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import qipan
from qipan.cli.simulate import simulate, simulate_command, stats_hook
from qipan.core import Match
from qipan.core.errors import GameError
from qipan.games.kelighine import stats


def app() -> typer.Typer:
    application = typer.Typer()
    application.command("simulate")(simulate_command)
    application.command("other")(lambda: None)  # keep "simulate" a subcommand
    return application


def test_hook_counts_every_rule() -> None:
    g = qipan.load("kelighine")
    match = Match(g, chance="manual")
    # player 1 to A5; player 2 from H lands on A13 (indirect: last piece on A5) -> G
    for move in ["roll:3", "I+3", "roll:3", "H+3"]:
        match.play(move)
    counts = stats.collect(g, match.states)
    assert counts["push indirect"] == 1 and counts["push to corner (from A)"] == 1
    assert counts["push direct"] == 0 and counts["promotions"] == 0
    assert set(counts) == set(stats.KEYS)
    assert stats.turns(g, match.states) == 3
    assert stats_hook(g) is stats


def test_simulate_report() -> None:
    g = qipan.load("kelighine", version=2)
    report = simulate(g, games=4, levels=["easy", "random"], seed=7)
    assert report["games"] == 4 and report["unfinished"] == 0
    assert sum(report["wins"]) == 4 and len(report["lengths"]) == 4
    assert report["length_unit"] == "turns"
    assert report["length"]["min"] <= report["length"]["mean"] <= report["length"]["max"]
    assert 0 < report["choice_rate"] <= 1
    assert report["rules"]["reserve entries"]["per_game"] >= 2
    assert report == simulate(g, games=4, levels=["easy", "random"], seed=7)  # reproducible
    with pytest.raises(GameError, match="one AI level for every seat"):
        simulate(g, games=1, levels=["easy", "easy", "easy"])


def test_simulate_command_prints_json_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "report.json", tmp_path / "plot.png"
    result = CliRunner().invoke(app(), [
        "simulate", "kelighine", "--games", "3", "--players", "3", "--level", "random",
        "--json", str(out), "--plot", str(png),
    ])
    assert result.exit_code == 0, result.output
    assert "win rate by seat" in result.output and "push indirect" in result.output
    report = json.loads(out.read_text())
    assert report["options"] == {"version": 1, "players": 3, "die": 6}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_command_reports_bad_options() -> None:
    result = CliRunner().invoke(app(), ["simulate", "kelighine", "--version", "2", "--players", "3"])
    assert result.exit_code == 2
    assert "version 2 is for exactly 2 players" in result.output
