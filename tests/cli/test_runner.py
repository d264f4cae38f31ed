"""Where games are played, without Ray: the runner's checks, chunks and addresses, the records
the arena's workers leave to the driver, and ``--jobs`` in ``qipan simulate``."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipan.ai.arena import ArenaSpec, play_unsaved
from qipan.ai.runner import RayCluster, check, check_address, chunks, max_jobs, play_all
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


def test_jobs_are_bounded_by_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert max_jobs() == 8
    check(8)
    with pytest.raises(GameError, match=r"^jobs must be at most 8 \(4 per CPU of this machine\), not 9$"):
        check(9)
    with pytest.raises(GameError, match="at most 8"):
        list(play_all(pow, 2, 3, jobs=10**6))  # refused before a single worker starts


@pytest.mark.parametrize("command", [["arena", "kelighine", "--a", "easy", "--b", "random", "--no-records"],
                                     ["simulate", "kelighine"], ["balance", "kelighine"]])
def test_cli_refuses_too_many_jobs_in_one_line(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--games", "2", "--jobs", "100000"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"must be from 1 to {max_jobs()}, not 100000" in " ".join(result.output.split())


BATCH = """
import os, sys, time
from pathlib import Path
from qipan.ai.runner import play_all

def play(folder, index):
    Path(folder, f"{os.getpid()}-{index}").touch()
    time.sleep(300)
    return index

if __name__ == "__main__":
    try:
        for _ in play_all(play, sys.argv[1], 4, jobs=2):
            pass
    except KeyboardInterrupt:
        sys.exit(130)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.is_dir() and Path("/proc/self").exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (FileNotFoundError, ProcessLookupError):
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within ``seconds`` (a deadline for a slow machine, not a speed test)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL", "SIGINT", "Ctrl-C"])
def test_workers_end_with_their_parent(tmp_path: Path, how: str) -> None:
    script = tmp_path / "batch.py"
    script.write_text(BATCH)
    started = tmp_path / "started"
    started.mkdir()
    parent = subprocess.Popen([sys.executable, str(script), str(started)], stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    workers: set[int] = set()
    try:
        assert _within(120, lambda: len(list(started.iterdir())) >= 2), "the workers never started a game"
        workers = {int(p.name.split("-")[0]) for p in started.iterdir()}
        assert len(workers) == 2 and parent.pid not in workers
        if how == "Ctrl-C":  # the terminal signals the whole foreground group, workers included
            os.killpg(parent.pid, signal.SIGINT)
        else:
            parent.send_signal(getattr(signal, how))
        parent.wait(timeout=60)
        assert _within(30, lambda: not any(_alive(pid) for pid in workers)), "a worker outlived its parent"
        assert parent.stderr is not None
        assert "Traceback" not in parent.stderr.read()  # no worker reports its own KeyboardInterrupt
    finally:
        parent.kill()
        parent.wait()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_ray_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(GameError, match=r"pip install 'qipan\[ray\]'"):
        list(play_all(pow, 2, 3, ray=RayCluster()))
    for command in (["simulate", "kelighine"], ["arena", "kelighine", "--a", "easy", "--b", "random", "--no-records"]):
        result = CliRunner().invoke(app, [*command, "--games", "2", "--ray"])
        assert result.exit_code == 2 and "pip install 'qipan[ray]'" in result.output  # [ray] is not markup
        assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_help_shows_the_ray_extra(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "(pip install 'qipan[ray]')" in text  # rich markup took [ray] for a style and dropped it
    assert "\\[" not in text  # and the escape does not show


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
