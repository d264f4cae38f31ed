"""Arena statistics, seating, game running, records and the command line."""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from qipan.ai import arena
from qipan.ai.agent import Agent, make_agent
from qipan.ai.arena import ArenaSpec, Summary, elo, outcome_for_a, play_game, run, seating, summarise, wilson
from qipan.ai.search import MCTSAgent
from qipan.cli import simulate
from qipan.cli.arena import arena_command
from qipan.core.errors import GameError
from qipan.core.record import Record
from qipan.games.abalone.ai import evaluate


def test_wilson_interval_known_values() -> None:
    # Wilson 95% intervals (z = 1.96) as tabulated e.g. by Newcombe (1998)
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_known_values() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(10 / 11) == pytest.approx(400.0)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_summary_counts_draws_as_half() -> None:
    s = Summary("x", "y")
    for outcome in (1.0, 1.0, 1.0, 0.5, 0.0):
        s.add(outcome)
    assert (s.wins, s.draws, s.losses, s.games) == (3, 1, 1, 5)
    assert s.score == 0.7
    assert s.interval == wilson(3.5, 5)
    assert s.elo == pytest.approx(elo(0.7))
    data = s.to_json()
    assert data["elo_interval"][0] < data["elo"] < data["elo_interval"][1]


def test_seating_alternates_and_rotates() -> None:
    assert [seating(i, 2) for i in range(4)] == [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    for players in (3, 4, 6):
        cycle = [seating(i, players) for i in range(2 * players)]
        for seat in range(players):
            column = [seats[seat] for seats in cycle]
            assert column.count("a") == column.count("b") == players  # every seat equally often


def test_outcome_for_a() -> None:
    assert outcome_for_a(["a", "b"], [1.0, -1.0]) == 1.0
    assert outcome_for_a(["b", "a"], [1.0, -1.0]) == 0.0
    assert outcome_for_a(["a", "b"], [0.0, 0.0]) == 0.5
    assert outcome_for_a(["a", "b", "a"], [-1.0, -1.0, 1.0]) == 1.0


def test_play_game_saves_a_replayable_record(tmp_path: Path) -> None:
    spec = ArenaSpec("abalone", "easy", "random", seed=5, records_dir=str(tmp_path))
    result = play_game(spec, 1)
    assert result.seats == ["B:random", "A:easy"]
    assert result.reason == "rules" and result.outcome == 1.0  # greedy pushes random off
    record = Record.load(result.record or "")
    assert record.seed == 6 and record.players == ["B:random", "A:easy"]
    assert len(record.replay()) == result.moves + 1
    assert record.result is not None and record.result["returns"] == result.returns


def test_move_limit_is_a_recorded_draw(tmp_path: Path) -> None:
    spec = ArenaSpec("abalone", "random", "random", seed=1, max_moves=6, random_opening=2, records_dir=str(tmp_path))
    results = list(run(spec, 2))
    assert [r.reason for r in results] == ["move limit", "move limit"]
    assert all(r.outcome == 0.5 and r.moves == 6 for r in results)
    report = summarise(spec, results)
    assert report["summary"]["draws"] == 2
    record = Record.load(results[0].record or "")
    assert record.result is not None and record.result["reason"] == "move limit"


class Watching:
    """An agent that notes the ply of every view it is shown, and otherwise plays as ``agent``."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name
        self.seen: list[int] = []

    def observe(self, game: Any, view: Any) -> None:
        self.seen.append(view["ply"])
        self.agent.observe(game, view)

    def choose(self, game: Any, view: Any, rng: Any) -> Any:
        return self.agent.choose(game, view, rng)


@pytest.mark.parametrize("runner", ["arena", "simulate"])
def test_arena_and_simulate_show_every_agent_every_position(runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tellstones' AI remembers what it sees: an agent told only of the positions it moves in
    # (simulate did that) plays blind, and simulate's games lasted thousands of decisions.
    made: list[Watching] = []

    def watched(game: Any, level: str, time_per_move: float | None = None) -> Watching:
        made.append(Watching(make_agent(game, level, time_per_move)))
        return made[-1]

    monkeypatch.setattr(arena, "make_agent", watched)
    monkeypatch.setattr(simulate, "make_agent", watched)
    if runner == "arena":
        decisions = arena.play_unsaved(ArenaSpec("tellstones", "easy", "easy", seed=3), 0)[0].moves
    else:
        spec = simulate.SimulationSpec("tellstones", "standard", (), ("easy", "easy"), seed=3)
        decisions = simulate.play_one(spec, 0).decisions
    assert len(made) == 2 and 0 < decisions < 1000
    for agent in made:  # the start, and the position after every action (Tellstones has no chance after it)
        assert agent.seen == list(range(decisions + 1))


def test_same_seed_same_games() -> None:
    spec = ArenaSpec("abalone", "medium", "random", seed=3, max_moves=20)
    first = [r.returns for r in run(spec, 2)]
    assert first == [r.returns for r in run(spec, 2)]


def test_bad_agent_or_option_fails_before_playing() -> None:
    with pytest.raises(GameError, match="no AI level 'genius'"):
        list(run(ArenaSpec("abalone", "genius", "random"), 2))
    with pytest.raises(GameError, match="no option"):
        list(run(ArenaSpec("abalone", "easy", "random", options=(("nope", 1),)), 2))


def test_cli_arena_with_two_jobs(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("arena")(arena_command)
    app.command("other")(lambda: None)
    out = tmp_path / "report.json"
    records = tmp_path / "records"
    result = CliRunner().invoke(app, [
        "arena", "abalone", "--a", "easy", "--b", "random", "--games", "2", "--jobs", "2", "--seed", "7",
        "--option", "quiet_move_limit=50", "--json", str(out), "--records", str(records),
    ])
    assert result.exit_code == 0, result.output
    assert "W" in result.output and "Elo" in result.output
    report = json.loads(out.read_text())
    assert report["summary"]["games"] == 2 and report["options"] == {"quiet_move_limit": "50"}
    assert sorted(p.name for p in records.iterdir()) == ["abalone-0001.json", "abalone-0002.json"]
    bad = CliRunner().invoke(app, ["arena", "abalone", "--a", "easy", "--b", "nobody"])
    assert bad.exit_code == 2 and "no AI level" in bad.output


def test_cli_arena_saves_records_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = typer.Typer()
    app.command("arena")(arena_command)
    app.command("other")(lambda: None)
    monkeypatch.chdir(tmp_path)
    args = ["arena", "tellstones", "--a", "easy", "--b", "random", "--games", "2", "--seed", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "arena-records" / "tellstones-easy-vs-random-seed3"
    saved = sorted(folder.iterdir())
    assert [p.name for p in saved] == ["tellstones-0001.json", "tellstones-0002.json"]
    assert json.loads(saved[0].read_text())["game"] == "tellstones"
    shutil.rmtree(tmp_path / "arena-records")
    result = CliRunner().invoke(app, [*args, "--no-records"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "arena-records").exists() and "records saved" not in result.output
    bad = CliRunner().invoke(app, ["arena", "tellstones", "--a", "easy", "--b", "nobody"])
    assert bad.exit_code == 2 and not (tmp_path / "arena-records").exists()


def test_time_per_move_replaces_search_budgets() -> None:
    import qipan
    from qipan.ai import make_agent
    from qipan.ai.agent import budget

    game = qipan.load("abalone")
    hard = budget(make_agent(game, "hard"), 0.5)
    assert hard.time_limit == 0.5 and hard.depth == 64  # type: ignore[attr-defined]
    mcts = budget(MCTSAgent(evaluate, iterations=50), 0.2)
    assert mcts.time_limit == 0.2 and mcts.iterations == 10**9  # type: ignore[attr-defined]
    easy = make_agent(game, "easy")
    assert budget(easy, 0.5) is easy and not hasattr(easy, "time_limit")
    medium = budget(make_agent(game, "medium"), 0.3)  # a Blend: its search gets the budget
    assert medium.strong.time_limit == 0.3 and medium.strong.depth == 64  # type: ignore[attr-defined]
    assert make_agent(game, "hard", time_per_move=0.4).time_limit == 0.4  # type: ignore[attr-defined]
    assert make_agent(qipan.load("shengke"), "hard", 0.4).time_limit == 0.4  # type: ignore[attr-defined]
    for bad in (0, -1.0, "1", True, float("nan")):
        with pytest.raises(GameError, match="time per move must be a positive number"):
            make_agent(game, "hard", bad)  # type: ignore[arg-type]


def test_check_refuses_a_time_per_move_that_would_keep_a_game_going_for_days() -> None:
    arena.check(ArenaSpec("kelighine", "hard", "random", time_per_move=arena.MAX_TIME_PER_MOVE))
    with pytest.raises(GameError, match="at most 60 seconds, not 61"):
        arena.check(ArenaSpec("kelighine", "hard", "random", time_per_move=61.0))


def _chance_moves(path: str | None) -> list[str]:
    return [m["move"] for m in json.loads(Path(path or "").read_text())["moves"] if m["player"] == "chance"]


def test_duplicate_deals_give_both_seatings_the_same_dice(tmp_path: Path) -> None:
    spec = ArenaSpec("kelighine", "easy", "random", seed=40, records_dir=str(tmp_path), duplicate=True)
    results = sorted(run(spec, 4), key=lambda r: r.index)
    assert [r.seed for r in results] == [40, 40, 41, 41]
    assert results[0].seats == ["A:easy", "B:random"] and results[1].seats == ["B:random", "A:easy"]
    first, second, third = (_chance_moves(r.record) for r in results[:3])
    shared = min(len(first), len(second))
    assert shared > 5 and first[:shared] == second[:shared]  # the same roll sequence, whoever sits where
    assert first[:10] != third[:10]  # the next deal is a new one


def test_duplicate_deals_share_the_random_opening(tmp_path: Path) -> None:
    spec = ArenaSpec("abalone", "easy", "easy", seed=2, random_opening=3, max_moves=3, records_dir=str(tmp_path),
                     duplicate=True)
    openings = [[m["move"] for m in json.loads(Path(play_game(spec, i).record or "").read_text())["moves"]]
                for i in range(3)]
    assert len(openings[0]) == 3 and openings[0] == openings[1] != openings[2]


def test_duplicate_games_must_fill_whole_deals() -> None:
    with pytest.raises(GameError, match="multiple of 2"):
        list(run(ArenaSpec("abalone", "easy", "random", duplicate=True), 3))
    with pytest.raises(GameError, match="multiple of 6"):
        list(run(ArenaSpec("kelighine", "easy", "random", options=(("players", 3),), duplicate=True), 4))


def test_t_quantile_known_values() -> None:
    # Student's t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), three decimals
    table = {(0.975, 1): 12.706, (0.975, 2): 4.303, (0.975, 3): 3.182, (0.975, 7): 2.365, (0.975, 10): 2.228,
             (0.975, 19): 2.093, (0.975, 30): 2.042, (0.975, 49): 2.010, (0.975, 100): 1.984,
             (0.975, 120): 1.980, (0.95, 9): 1.833, (0.995, 5): 4.032, (0.99, 60): 2.390, (0.9995, 200): 3.340}
    for (p, df), value in table.items():
        assert arena.t_quantile(p, df) == pytest.approx(value, abs=6e-4), (p, df)
        assert arena.t_quantile(1 - p, df) == pytest.approx(-value, abs=6e-4)
    assert arena.t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-9)
    assert arena.t_quantile(0.975, 100_000) == pytest.approx(1.95998, abs=1e-5)  # the normal's 1.95996
    with pytest.raises(ValueError):
        arena.t_quantile(0.975, 0)


def duplicate(deal_scores: list[float]) -> Summary:
    """A duplicate-mode summary whose deals (two games each) scored ``deal_scores``."""
    s = Summary("a", "b", deal=2)
    games = {0.0: (0.0, 0.0), 0.5: (1.0, 0.0), 1.0: (1.0, 1.0)}
    for k, score in enumerate(deal_scores):
        for j, outcome in enumerate(games[score]):
            s.add(outcome, 2 * k + j)
    return s


def test_interval_over_deals_by_hand() -> None:
    # deals 0.5, 1, 0.5, 1: mean 0.75, variance 1/12, se^2 = 1/48; effective deals
    # 0.75 * 0.25 * 48 = 9 times (1.959964 / t(0.975, 3 df) 3.182446)^2 = 0.379292: 3.413625
    s = duplicate([0.5, 1.0, 0.5, 1.0])
    assert arena.effective_deals(0.75, 1 / 12, 4) == pytest.approx(3.413625, abs=1e-5)
    # Wilson with n = 3.413625: centre (0.75 + 1.920730 / n) / (1 + 3.841459 / n) = 0.617628,
    # half 1.959964 * sqrt(0.1875 / n + 3.841459 / (4 n^2)) / 2.125334 = 0.341760
    assert s.paired and s.interval == pytest.approx((0.275868, 0.959388), abs=1e-5)
    assert s.score == 0.75 and s.to_json()["interval"] == [0.2759, 0.9594]


def test_effective_deals_never_exceed_the_deals() -> None:
    # 8 deals, mean 0.625, variance 0.125: 0.234375 * 64 = 15 effective deals times
    # (1.959964 / 2.364624)^2 = 10.3 before the cap: the interval is Wilson's over the 8 deals
    scores = [0.5, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 0.5]
    assert arena.effective_deals(0.625, 0.125, 8) == 8
    assert duplicate(scores).interval == pytest.approx(wilson(5, 8))


def test_a_worse_result_never_gets_a_narrower_interval() -> None:
    # The reviewer's cases: Student's t gave 99-0-1 over 50 deals 97.0-100 where 100-0 gave
    # Wilson's 92.9-100, and 19 split deals + 1 won 47.3-57.7 where 20 split gave 29.9-70.1
    swept = duplicate([1.0] * 50).interval
    dropped = duplicate([1.0] * 49 + [0.5]).interval
    assert swept == pytest.approx((0.9287, 1.0), abs=1e-4)
    assert dropped[0] <= swept[0] and dropped == pytest.approx(wilson(49.5, 50))
    split = duplicate([0.5] * 20).interval
    one_won = duplicate([0.5] * 19 + [1.0]).interval
    assert split == pytest.approx((0.2993, 0.7007), abs=1e-4)
    assert one_won[1] - one_won[0] >= split[1] - split[0] - 1e-3  # was 0.104 against 0.401
    assert one_won == pytest.approx(wilson(10.5, 20))


def test_interval_over_deals_is_never_narrower_than_wilson_over_deals() -> None:
    rng = random.Random(22)
    for _ in range(2000):
        k = rng.randint(1, 40)
        scores = [rng.choice([0.0, 0.25, 0.5, 0.75, 1.0]) if rng.random() < 0.5 else rng.random()
                  for _ in range(k)]
        low, high = arena.deal_interval(scores)
        w_low, w_high = wilson(sum(scores), k)
        assert low <= w_low + 1e-12 and high >= w_high - 1e-12, scores


def test_interval_over_deals_is_continuous_as_the_spread_vanishes() -> None:
    same = arena.deal_interval([0.5] * 20)
    for eps in (1e-3, 1e-6, 1e-9):
        assert arena.deal_interval([0.5] * 19 + [0.5 + eps]) == pytest.approx(same, abs=2 * eps)


def test_deals_that_all_scored_the_same_give_wilson_over_deals() -> None:
    # 100 games = 50 deals, all won (Kelighine version 2's hard against random): Wilson over 50 deals
    swept = Summary("a", "b", deal=2)
    for index in range(100):
        swept.add(1.0, index)
    assert swept.paired and swept.interval == pytest.approx((0.9287, 1.0), abs=1e-4)
    assert swept.interval == wilson(50, 50)  # not wilson(100, 100): the deals are the unit
    # every deal split 1-1: each deal scores 0.5, so Wilson over 4 deals, not over 8 games
    split = Summary("a", "b", deal=2)
    for index in range(8):
        split.add(index % 2, index)
    assert split.paired and split.interval == pytest.approx(wilson(2, 4))
    # one deal: Wilson over one deal; two opposite deals: next to no information (t with 1 df)
    assert duplicate([1.0]).interval == wilson(1, 1)
    low, high = duplicate([0.0, 1.0]).interval
    assert arena.effective_deals(0.5, 0.5, 2) == pytest.approx(0.0237, abs=1e-4)
    assert low < 0.01 and high > 0.99


def test_cli_arena_duplicate(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("arena")(arena_command)
    app.command("other")(lambda: None)
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["arena", "kelighine", "--a", "easy", "--b", "random", "--games", "8",
                                      "--duplicate", "--seed", "3", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["duplicate"] is True
    assert [g["seed"] for g in report["games"]] == [3, 3, 4, 4, 5, 5, 6, 6]
    bad = CliRunner().invoke(app, ["arena", "kelighine", "--a", "easy", "--b", "random", "--games", "3",
                                   "--duplicate"])
    assert bad.exit_code == 2 and "multiple of 2" in bad.output
