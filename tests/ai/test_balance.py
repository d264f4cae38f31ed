"""The balance lab: seat shares and their intervals, sweeps, starter rotation, the JSON report,
hostile options and the plot's missing dependency."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qipan.ai.arena import deal_interval, play_unsaved, wilson
from qipan.ai.balance import (
    SCHEMA,
    BalanceSpec,
    SeatGame,
    chi_square_sf,
    fairest,
    make_plan,
    margin_report,
    parse_sweep,
    practical_level,
    run,
    seat_report,
    shares,
    starter_option,
)
from qipan.cli.balance import pyplot, write_plot
from qipan.cli.main import app
from qipan.core.errors import GameError
from qipan.core.registry import load


def cli(*args: str) -> tuple[int, str]:
    """Exit code and output, rich's boxes drawn away and lines joined."""
    result = CliRunner().invoke(app, ["balance", *args])
    text = re.sub(r"[│╭╮╰╯─┃┏┓┗┛━┳┻╇┡┩└┘┴┬├┤┼]", " ", result.output)
    return result.exit_code, " ".join(text.split())


def game(index: int, order: list[int], returns: list[float], margin: float | None = None) -> SeatGame:
    return SeatGame(index, 0, order, returns, "rules", 10, 10, 0.0, f"g{index}", margin)


# -- the maths ----------------------------------------------------------------------------------


def test_shares_split_a_tied_best_payoff() -> None:
    assert shares([0, 1], [1.0, -1.0]) == [1.0, 0.0]
    assert shares([1, 0], [1.0, -1.0]) == [0.0, 1.0]  # seat 0 won, moving second
    assert shares([0, 1, 2], [0.0, 0.0, 0.0]) == pytest.approx([1 / 3] * 3)
    assert shares([0, 1, 2, 3], [1.0, -1.0, 1.0, -1.0]) == [0.5, 0.0, 0.5, 0.0]


def test_two_seats_without_a_starter_use_wilson_on_known_counts() -> None:
    spec = BalanceSpec("kelighine", "hard")
    results = [game(i, [0, 1], [1.0, -1.0] if i < 8 else [-1.0, 1.0]) for i in range(10)]
    report = seat_report(spec, results)
    first, second = report["positions"]
    assert (first["wins"], first["share"], second["wins"], second["share"]) == (8, 0.8, 2, 0.2)
    assert first["interval"] == pytest.approx([0.4902, 0.9433], abs=1e-4)  # Wilson 8 of 10 (Newcombe 1998)
    assert second["interval"] == pytest.approx([0.0567, 0.5098], abs=1e-4)
    assert report["first"]["score"] == 0.8 and report["first"]["paired"] is False


def test_alternating_starter_gives_an_interval_over_deals() -> None:
    spec = BalanceSpec("shengke", "easy", starter="first")
    # deal k = games 2k (seat 0 first) and 2k+1 (seat 1 first); the first player's outcomes per deal:
    # (1, 0), (1, 1), (1, 0), (1, 1) -> deal scores 0.5, 1, 0.5, 1
    wins_first = [1, 0, 1, 1, 1, 0, 1, 1]
    results = []
    for i, won in enumerate(wins_first):
        order = spec.order(i, 2)
        winner = order[0] if won else order[1]
        results.append(game(i, order, [1.0 if s == winner else -1.0 for s in (0, 1)]))
    report = seat_report(spec, results)
    assert [r.order for r in results[:2]] == [[0, 1], [1, 0]]
    assert report["first"]["paired"] is True
    expected = deal_interval([0.5, 1.0, 0.5, 1.0])
    assert report["positions"][0]["interval"] == pytest.approx(list(expected), abs=1e-4)
    # mean 0.75 over 4 deals, 3.41 effective deals (Korn-Graubard; worked out in test_arena)
    assert report["positions"][0]["interval"] == pytest.approx([0.276, 0.959], abs=1e-3)
    assert report["positions"][1]["interval"] == pytest.approx([0.041, 0.724], abs=1e-3)
    assert report["positions"][0]["share"] == 0.75


def test_three_positions_count_fractional_shares_with_wilson() -> None:
    spec = BalanceSpec("chinese-checkers", "easy", options=(("players", 3),))
    results = [game(0, [0, 1, 2], [1.0, -0.5, -0.5]), game(1, [0, 1, 2], [-0.5, 1.0, -0.5]),
               game(2, [0, 1, 2], [0.0, 0.0, 0.0]), game(3, [0, 1, 2], [1.0, -0.5, -0.5])]
    report = seat_report(spec, results)
    assert report["first"] is None
    first = report["positions"][0]
    assert first["wins"] == 2 and first["share"] == pytest.approx((2 + 1 / 3) / 4, abs=1e-4)
    assert first["interval"] == pytest.approx(list(wilson(2 + 1 / 3, 4)), abs=1e-4)
    assert sum(p["share"] for p in report["positions"]) == pytest.approx(1.0, abs=1e-3)
    # shares 7/3, 4/3, 1/3 of 4 games against 4/3 each: chi-square (1 + 0 + 1) / (4/3) = 1.5, p = e^-0.75
    assert report["uniformity"] == {"chi2": 1.5, "df": 2, "p": pytest.approx(0.4724, abs=1e-4)}


def test_chi_square_tail_on_known_values() -> None:
    # the 1% and 5% critical values of the chi-square table
    for x, df, p in ((6.635, 1, 0.01), (9.210, 2, 0.01), (11.345, 3, 0.01), (15.086, 5, 0.01), (11.070, 5, 0.05),
                     (12.592, 6, 0.05)):
        assert chi_square_sf(x, df) == pytest.approx(p, abs=2e-4)
    assert chi_square_sf(0.0, 3) == 1.0


def test_margin_interval_over_deals() -> None:
    results = [game(i, [0, 1], [0.0, 0.0], m) for i, m in enumerate([2.0, 0.0, 4.0, -2.0, 1.0, 1.0])]
    report = margin_report(results, paired=True)
    assert report is not None
    # deal means 1, 1, 1: no spread, so the interval is the mean itself
    assert report["mean"] == 1.0 and report["interval"] == [1.0, 1.0]
    assert report["counts"] == {"-2": 1, "0": 1, "1": 2, "2": 1, "4": 1}
    unpaired = margin_report(results, paired=False)  # sd 2 over 6 games: 1 -+ t(0.975, 5 df) 2.571 * 2 / sqrt(6)
    assert unpaired is not None and unpaired["interval"] == pytest.approx([-1.099, 3.099], abs=1e-3)
    assert margin_report([game(0, [0, 1], [0.0, 0.0])], paired=False) is None


def test_fairest_value_and_where_the_score_crosses_half() -> None:
    def point(value: str, score: float) -> dict[str, Any]:
        return {"value": value, "first": {"score": score, "interval": [score - 0.1, score + 0.1]},
                "positions": [{"share": score}, {"share": 1 - score}]}

    points = [point("0", 0.7), point("1", 0.6), point("2", 0.45), point("3", 0.3)]
    best = fairest(points)
    assert best is not None
    assert best["value"] == "2" and best["score"] == 0.45 and best["crossing"] == pytest.approx(1.67)
    assert fairest(points[:1]) is None
    assert fairest([point("a", 0.6), point("b", 0.4)])["crossing"] is None  # type: ignore[index]


def test_parse_sweep_forms_and_refusals() -> None:
    assert parse_sweep(" first_bonus = 0..4 ") == ("first_bonus", ["0", "1", "2", "3", "4"])
    assert parse_sweep("version=1,2") == ("version", ["1", "2"])
    for bad in ("first_bonus", "=1..2", "x=", "x=4..1", "x=a..b", "x=1,,2", "x=1,1", "x=0..1000000000000",
                "x=" + ",".join(map(str, range(30))), "x=" + "9" * 500):
        with pytest.raises(GameError) as info:
            parse_sweep(bad)
        assert len(str(info.value)) < 200


def test_sweep_takes_the_hyphen_spelling_like_option() -> None:
    plan = make_plan("shengke", None, {}, sweep="first-bonus=1..2", games=2)
    assert plan.sweep == ("first_bonus", ["1", "2"])
    assert [dict(spec.options)["first_bonus"] for _, spec in plan.points] == ["1", "2"]
    with pytest.raises(GameError, match="leave it out of --option"):
        make_plan("shengke", None, {"first-bonus": "2"}, sweep="first-bonus=1..2", games=2)
    with pytest.raises(GameError, match="leave it out of --option"):
        make_plan("shengke", None, {"first_bonus": "2"}, sweep="first-bonus=1..2", games=2)


def test_practical_levels_and_the_starter_option() -> None:
    assert practical_level(load("shengke")) == "medium"
    assert practical_level(load("kelighine", None, {"version": 2})) == "hard"
    assert practical_level(load("chinese-checkers", None, {"players": 6})) == "medium"
    assert starter_option(load("shengke")) == "first"
    assert starter_option(load("kelighine")) is None


# -- tiny runs ----------------------------------------------------------------------------------


def test_sweep_plays_the_same_deals_with_each_player_starting() -> None:
    plan = make_plan("shengke", None, {}, level="random", sweep="first_bonus=0..1", games=4, seed=7)
    assert [value for value, _ in plan.points] == ["0", "1"]
    digests = []
    for value, spec in plan.points:
        assert dict(spec.options)["first_bonus"] == value and spec.starter == "first"
        results = sorted(run(spec, 4), key=lambda r: r.index)
        assert [r.order for r in results] == [[0, 1], [1, 0], [0, 1], [1, 0]]
        assert [r.seed for r in results] == [7, 7, 8, 8]  # one deal, each player starting once
        assert [dict(spec.arena_spec(i).options)["first"] for i in range(4)] == ["0", "1", "0", "1"]
        bonus = int(value)  # type: ignore[arg-type]
        for r in results:
            assert r.margin is not None
            # the first player's result follows from their margin and the bonus
            expected = 1.0 if r.margin + bonus > 0 else 0.5 if r.margin + bonus == 0 else 0.0
            assert shares(r.order, r.returns)[0] == expected
        report = seat_report(spec, results)
        assert report["games"] == 4 and report["first"]["games"] == 4
        assert report["positions"][0]["share"] + report["positions"][1]["share"] == pytest.approx(1.0)
        digests.append(report["play_digest"])
    # random play ignores the bonus: every value plays the same deals, so the very same games
    assert digests[0] == digests[1]
    # both games of a deal shuffle the decks alike: the luck of the cards stays with the seat
    spec = plan.points[0][1]
    deal = [play_unsaved(spec.arena_spec(i), i)[1] for i in (0, 1)]
    assert deal[0].moves[0].player == "chance" and deal[0].moves[0].text.startswith("shuffle")
    assert deal[0].moves[0].text == deal[1].moves[0].text


def test_three_player_seats_stay_in_order() -> None:
    plan = make_plan("chinese-checkers", None, {"players": 3}, level="easy", games=3, seed=3)
    assert plan.points[0][1].level == "easy" and plan.points[0][1].starter is None
    results = sorted(run(plan.points[0][1], 3), key=lambda r: r.index)
    assert [r.order for r in results] == [[0, 1, 2]] * 3 and [r.seed for r in results] == [3, 4, 5]
    report = seat_report(plan.points[0][1], results)
    assert sum(p["wins"] for p in report["positions"]) == 3  # easy always finishes a race alone
    assert report["reasons"] == {"rules": 3}
    assert report["uniformity"]["df"] == 2 and 0 <= report["uniformity"]["p"] <= 1


def test_json_report_schema(tmp_path: Path) -> None:
    out = tmp_path / "k.json"
    code, text = cli("kelighine", "--level", "easy", "--games", "4", "--sweep", "version=1,2", "--skill",
                     "--seed", "11", "--json", str(out))
    assert code == 0, text
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report) == {"schema", "game", "variant", "options", "level", "time_per_move", "max_moves",
                           "random_opening", "seed", "starter_option", "sweep", "points", "fairest"}
    assert report["schema"] == SCHEMA and report["game"] == "kelighine" and report["level"] == "easy"
    assert report["sweep"] == {"option": "version", "values": ["1", "2"]} and report["starter_option"] is None
    assert [p["value"] for p in report["points"]] == ["1", "2"]
    for point in report["points"]:
        assert set(point) == {"value", "options", "games", "positions", "first", "uniformity", "margin",
                              "distinct_games", "play_digest", "reasons", "mean_moves", "seconds_per_move", "skill"}
        assert point["uniformity"] is None  # two players: position 1's interval says it
        assert point["games"] == 4 and len(point["positions"]) == 2
        assert set(point["positions"][0]) == {"position", "wins", "share", "interval"}
        assert point["first"]["games"] == 4 and point["margin"] is None
        assert [s["b"] for s in point["skill"]] == ["random"]
        skill = point["skill"][0]
        assert skill["a"] == "easy" and skill["games"] == 4 and skill["duplicate"] is True
        assert skill["wins"] + skill["draws"] + skill["losses"] == 4 and len(skill["interval"]) == 2
    assert report["fairest"]["value"] in ("1", "2")
    assert report["points"][0]["play_digest"] != report["points"][1]["play_digest"]  # other rules, other games
    assert "fairest: version=" in text


def test_plot_is_drawn(tmp_path: Path) -> None:
    code, text = cli("shengke", "--level", "random", "--games", "2", "--sweep", "first_bonus=1,2",
                     "--plot", str(tmp_path / "s.png"))
    assert code == 0, text
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchgame"], "unknown game"),
    (["shengke", "--option", "first_bonus=99"], "above the maximum 25"),
    (["shengke", "--option", "bogus=1"], "bogus"),
    (["shengke", "--option", "first=1"], "leave out the option first"),
    (["shengke", "--sweep", "first_bonus"], "KEY=LOW..HIGH"),
    (["shengke", "--sweep", "first_bonus=0..99999999999999"], "at most 21 values"),
    (["shengke", "--sweep", "first_bonus=0..30"], "at most 21 values"),
    (["shengke", "--sweep", "first_bonus=20..30"], "above the maximum 25"),
    (["shengke", "--sweep", "nope=1,2"], "no option 'nope' to sweep"),
    (["shengke", "--sweep", "first_bonus=1,2", "--option", "first_bonus=2"], "leave it out of --option"),
    (["shengke", "--sweep", "first=0,1"], "the option first cannot be swept"),
    (["shengke", "--games", "3"], "games must be even"),
    (["shengke", "--level", "grandmaster" * 50], "has no AI level"),
    (["kelighine", "--level", "random", "--skill"], "--skill needs a level below random"),
    (["kelighine", "--plot", "out.gif"], "--plot writes .png, .svg, .pdf files"),
    (["kelighine", "--json", "/no/such/folder/x.json"], "no folder"),
    (["kelighine", "--json", "/no" + "/grandmaster" * 300 + "/x.json"], "no folder '/no/grandmaster/"),
    (["kelighine", "--games", "ten"], "'ten' is not a whole number"),
    (["kelighine", "--games", "1000001"], "must be from 1 to 100000"),
    (["kelighine", "-t", "nan"], "'nan' is not a finite number"),
    (["kelighine", "--level", "random", "--games", "2", "-t", "1e300"], "at most 60 seconds, not 1e+300"),
])
def test_hostile_options_are_refused_in_one_line(args: list[str], message: str) -> None:
    code, text = cli(*args)
    assert code == 2
    assert message in text, text
    assert "Traceback" not in text and "grandmaster" * 3 not in text and len(text) < 400


def test_missing_matplotlib_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(GameError, match=r"pip install 'qipan\[plot\]'"):
        pyplot()
    code, text = cli("kelighine", "--games", "2", "--plot", str(tmp_path / "k.png"))
    assert code == 2 and "--plot needs matplotlib: pip install 'qipan[plot]'" in text
    assert not (tmp_path / "k.png").exists()
    with pytest.raises(GameError):
        write_plot({}, tmp_path / "k.png")


def test_plot_of_a_sweep_over_the_number_of_players(tmp_path: Path) -> None:
    def point(value: str, players: int) -> dict[str, Any]:
        positions = [{"position": k + 1, "wins": 1, "share": 1 / players, "interval": [0.0, 0.6]}
                     for k in range(players)]
        return {"value": value, "games": 4, "positions": positions, "skill": []}

    report = {"game": "chinese-checkers", "options": {}, "level": "easy",
              "sweep": {"option": "players", "values": ["4", "3"]}, "points": [point("4", 4), point("3", 3)]}
    write_plot(report, tmp_path / "p.svg")
    assert "<svg" in (tmp_path / "p.svg").read_text(encoding="utf-8")


# -- review fixes -------------------------------------------------------------------------------


def test_fairest_of_a_sweep_over_the_number_of_players_and_unsorted_values() -> None:
    # a sweep of players=2,3: only the two-player point has a first player's score; the crossing
    # is then not defined (it used to end the whole run in a TypeError, the report unwritten)
    two = {"value": "2", "first": {"score": 0.5, "interval": [0.4, 0.6]},
           "positions": [{"share": 0.5}, {"share": 0.5}]}
    three = {"value": "3", "first": None, "positions": [{"share": 0.5}, {"share": 0.25}, {"share": 0.25}]}
    best = fairest([two, three])
    assert best is not None and best["value"] == "2" and best["crossing"] is None

    def point(value: str, score: float) -> dict[str, Any]:
        return {"value": value, "first": {"score": score, "interval": [score - 0.1, score + 0.1]},
                "positions": [{"share": score}, {"share": 1 - score}]}

    # values given out of order: the crossing is between numeric neighbours (0 and 2), not 4 and 0
    unsorted = fairest([point("4", 0.8), point("0", 0.3), point("2", 0.6)])
    assert unsorted is not None and unsorted["crossing"] == pytest.approx(1.33)


def test_margin_of_a_single_deal_has_no_interval_and_the_json_is_strict() -> None:
    results = [game(0, [0, 1], [1.0, -1.0], 2.0), game(1, [1, 0], [1.0, -1.0], -1.0)]
    report = margin_report(results, paired=True)
    assert report is not None and report["mean"] == 0.5 and report["interval"] is None
    json.dumps(report, allow_nan=False)  # no Infinity, which is not JSON
    seats = seat_report(BalanceSpec("shengke", "easy", starter="first"), results)
    json.dumps(seats, allow_nan=False)


def test_single_deal_prints_no_infinite_interval(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    code, text = cli("shengke", "--level", "random", "--games", "2", "--json", str(out))
    assert code == 0, text
    assert "-inf" not in text and "+inf" not in text
    json.loads(out.read_text(encoding="utf-8"), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_output_that_is_no_regular_file_is_refused_before_any_game(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "out.png"
    if kind == "folder":
        target.mkdir()
    else:
        os.mkfifo(target)  # writing would block until someone reads it
    for option in ("--json", "--plot"):
        code, text = cli("shengke", "--level", "random", "--games", "2", option, str(target))
        assert code == 2, text
        assert "is not a file" in text and "in every seat" not in text, text  # no game was played


def test_a_folder_that_takes_no_file_is_refused_before_any_game(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*args: Any, **kwargs: Any) -> Any:  # what a read-only folder or /proc answers
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    for option, name in (("--json", "r.json"), ("--plot", "r.png")):
        code, text = cli("kelighine", "--level", "random", "--games", "2", option, str(tmp_path / name))
        assert code == 2, text
        assert f"cannot write '{name}' in" in text and "Permission denied" in text, text
        assert "in every seat" not in text, text  # no game was played
    assert list(tmp_path.iterdir()) == []


def test_a_report_stopped_mid_write_leaves_the_earlier_one_whole(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.json"
    out.write_text('{"earlier": true}\n', encoding="utf-8")
    write_text = Path.write_text

    def disk_full(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        write_text(self, text[:100], *args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", disk_full)
    code, text = cli("kelighine", "--level", "random", "--games", "2", "--json", str(out))
    assert code == 2 and "No space left on device" in text, text
    assert json.loads(out.read_text(encoding="utf-8")) == {"earlier": True}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # and no temporary file is left behind


def test_a_report_written_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    link = tmp_path / "latest.json"
    link.symlink_to(tmp_path / "reports" / "r.json")
    code, text = cli("kelighine", "--level", "random", "--games", "2", "--json", str(link))
    assert code == 0, text
    assert link.is_symlink() and json.loads(link.read_text(encoding="utf-8"))["game"] == "kelighine"
