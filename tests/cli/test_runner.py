"""Where games are played, without Ray: the runner's checks, chunks and addresses, the records
the arena's workers leave to the driver, and ``--jobs`` in ``qipan simulate``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipan.ai.arena import ArenaSpec, play_unsaved
from qipan.ai.runner import RayCluster, check, check_address, chunks, play_all
from qipan.cli.main import app
from qipan.core.errors import GameError


@pytest.mark.parametrize("games, parts", [(1, 8), (7, 2), (10, 3), (100, 8), (9, 9)])
def test_chunks_cover_every_game_once_in_order(games: int, parts: int) -> None:
    ranges = chunks(games, parts)
    assert [i for r in ranges for i in r] == list(range(games))
    assert len(ranges) == min(games, parts)
    assert max(map(len, ranges)) - min(map(len, ranges)) <= 1


@pytest.mark.parametrize("address", ["127.0.0.1:6379", "head-1.example.org:10001", "ray://10.0.0.5:10001",
                                     "[::1]:6379", "auto", "local", " node:1 "])
def test_ray_addresses_that_are_accepted(address: str) -> None:
    assert check_address(address) == address.strip()


@pytest.mark.parametrize("address", ["", "head", "head:", ":6379", "head:0", "head:65536", "head:123456",
                                     "http://head:8265", "head:6379/x", "he ad:6379", "head;ls:6379",
                                     "-head:6379", "x" * 400 + ":6379", "ray://", "AUTO:"])
def test_ray_addresses_that_are_refused(address: str) -> None:
    with pytest.raises(GameError, match="is not a Ray address") as info:
        RayCluster(address)
    assert len(str(info.value)) < 250  # a huge address is not echoed


def test_jobs_and_ray_do_not_mix() -> None:
    check(2)
    check(1, RayCluster())
    with pytest.raises(GameError, match="do not mix"):
        check(2, RayCluster())
    with pytest.raises(GameError, match="at least 1"):
        check(0)


def test_ray_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(GameError, match=r"pip install 'qipan\[ray\]'"):
        list(play_all(pow, 2, 3, ray=RayCluster()))
    for command in (["simulate", "kelighine"], ["arena", "kelighine", "--a", "easy", "--b", "random", "--no-records"]):
        result = CliRunner().invoke(app, [*command, "--games", "2", "--ray"])
        assert result.exit_code == 2 and "pip install 'qipan[ray]'" in result.output  # [ray] is not markup
        assert "Traceback" not in result.output


def test_play_all_gives_every_game_once_with_jobs() -> None:
    assert sorted(play_all(pow, 3, 7, jobs=2)) == [3**i for i in range(7)]


def test_workers_leave_the_records_to_the_driver(tmp_path: Path) -> None:
    spec = ArenaSpec("kelighine", "easy", "random", seed=2, records_dir=str(tmp_path / "records"))
    result, record = play_unsaved(spec, 1)
    assert not (tmp_path / "records").exists() and result.record is None
    assert record.seed == 3 and record.result is not None


def test_simulate_with_jobs_gives_the_same_report(tmp_path: Path) -> None:
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        result = CliRunner().invoke(app, ["simulate", "shengke", "--games", "4", "--level", "easy,random",
                                          "--seed", "11", "--jobs", jobs, "--json", str(out)])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text()))
    assert reports[0] == reports[1]
    assert reports[0]["games"] == 4 and len(set(reports[0]["lengths"])) > 1  # four different games
