"""``qipan arena`` and ``qipan simulate`` on Ray give what they give here and with ``--jobs``.

One local Ray instance (two CPUs) serves the module; commands run in this process play on it
(``--ray``), and commands in a fresh process connect to it by address, as on a real cluster.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from typer.testing import CliRunner

from qipan.ai.arena import ArenaSpec, play_unsaved
from qipan.ai.runner import RayCluster, play_all
from qipan.cli.main import app
from qipan.core.errors import GameError

# Games with chance (Sheng-Ke deals its cards, Kelighine rolls its die); Kelighine's twenty games
# put several games in each Ray task (two CPUs: eight tasks).
ARENAS = {
    "shengke": ["shengke", "--a", "easy", "--b", "random", "--games", "6", "--seed", "21"],
    "kelighine": ["kelighine", "--a", "easy", "--b", "random", "--games", "20", "--seed", "4", "--option", "version=2"],
}
SIMULATIONS = {
    "kelighine": ["kelighine", "--players", "3", "--level", "easy,random,easy", "--games", "20", "--seed", "9"],
    "shengke": ["shengke", "--level", "easy,random", "--games", "6", "--seed", "30"],
    "tellstones": ["tellstones", "--level", "easy", "--games", "8", "--seed", "5"],  # agents that remember
}


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray instance for the module; its address."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def run_here(*args: str | Path) -> str:
    """Run a command in this process; its output (it must succeed)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def run_fresh(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command in a new Python process."""
    return subprocess.run([sys.executable, "-m", "qipan", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env=env)


def arena_report(path: Path) -> dict[str, Any]:
    """An arena's JSON without what the clock decides (seconds, speeds) or where the records went."""
    report = json.loads(path.read_text())
    for game in report["games"]:
        del game["seconds"], game["think"]
        game["record"] = Path(game["record"]).name
    for costs in report["agents"].values():
        del costs["seconds_per_move"], costs["nodes_per_second"]
    return report


def records(folder: Path) -> dict[str, Any]:
    """The saved records by file name, without their times of day."""
    saved = {}
    for path in sorted(folder.iterdir()):
        record = json.loads(path.read_text())
        del record["started"]
        for move in record["moves"]:
            move.pop("time", None)
        saved[path.name] = record
    return saved


@pytest.mark.parametrize("name", ARENAS)
def test_arena_gives_the_same_games_here_with_jobs_and_on_ray(name: str, cluster: str, tmp_path: Path) -> None:
    runs = {"here": [], "jobs": ["--jobs", "2"], "ray": ["--ray"]}
    reports, saved = {}, {}
    for run, extra in runs.items():
        out, folder = tmp_path / f"{run}.json", tmp_path / run
        output = run_here("arena", *ARENAS[name], *extra, "--json", out, "--records", folder)
        assert "A easy" in output and f"{len(list(folder.iterdir()))} records saved in" in output
        reports[run], saved[run] = arena_report(out), records(folder)
    assert reports["ray"] == reports["here"] == reports["jobs"]
    assert saved["ray"] == saved["here"] == saved["jobs"]
    games = len(reports["here"]["games"])
    assert [g["index"] for g in reports["ray"]["games"]] == list(range(games))
    assert len(saved["ray"]) == games and len({json.dumps(r["moves"]) for r in saved["ray"].values()}) == games


@pytest.mark.parametrize("name", SIMULATIONS)
def test_simulate_gives_the_same_statistics_here_with_jobs_and_on_ray(name: str, cluster: str, tmp_path: Path) -> None:
    reports = {}
    for run, extra in {"here": [], "jobs": ["--jobs", "2"], "ray": ["--ray"]}.items():
        out = tmp_path / f"{run}.json"
        output = run_here("simulate", *SIMULATIONS[name], *extra, "--json", out)
        assert "win rate by seat" in output
        reports[run] = json.loads(out.read_text())
    assert reports["ray"] == reports["here"] == reports["jobs"]
    assert len(set(reports["ray"]["lengths"])) > 1  # the games differ from one another


def test_a_game_error_on_a_worker_comes_back_as_itself(cluster: str) -> None:
    spec = ArenaSpec("no-such-game", "easy", "random")  # fails in the workers: play_all checks no spec
    with pytest.raises(GameError, match="unknown game 'no-such-game'") as info:
        list(play_all(play_unsaved, spec, 4, ray=RayCluster()))
    assert type(info.value) is GameError and "Traceback" not in str(info.value)
    assert list(play_all(pow, 2, 5, ray=RayCluster())) != []  # the cluster still works afterwards


def test_an_address_while_connected_is_refused(cluster: str) -> None:
    with pytest.raises(GameError, match="already connected to Ray"):
        list(play_all(pow, 2, 2, ray=RayCluster(cluster)))


def test_a_fresh_process_connects_by_address_and_says_nothing_of_ray(cluster: str, tmp_path: Path) -> None:
    args = ["simulate", *SIMULATIONS["kelighine"], "--json"]
    run_here(*args, tmp_path / "here.json")
    done = run_fresh(*args, tmp_path / "ray.json", "--ray-address", "localhost:" + cluster.rsplit(":", 1)[1])
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads((tmp_path / "ray.json").read_text()) == json.loads((tmp_path / "here.json").read_text())


def test_ray_without_an_address_starts_a_local_instance(cluster: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    args = ["arena", *ARENAS["shengke"], "--records", tmp_path / "records", "--json"]
    run_here(*args, tmp_path / "here.json")
    done = run_fresh(*args, tmp_path / "ray.json", "--ray", env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert arena_report(tmp_path / "ray.json") == arena_report(tmp_path / "here.json")
    assert "A easy" in done.stdout and "records saved" in done.stdout


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command, address, says", [
    (["arena", *ARENAS["kelighine"]], f"127.0.0.1:{closed_port()}", "cannot reach a Ray cluster at 127.0.0.1:"),
    (["simulate", *SIMULATIONS["kelighine"]], f"127.0.0.1:{closed_port()}", "cannot reach a Ray cluster at"),
    (["simulate", *SIMULATIONS["kelighine"]], "no-such-host.invalid:6379",
     "cannot reach a Ray cluster at no-such-host.invalid:6379"),
    (["arena", *ARENAS["kelighine"]], "head;rm -rf ~:6379", "is not a Ray address"),
])
def test_a_bad_address_is_one_clear_line(command: list[str], address: str, says: str, tmp_path: Path) -> None:
    records = ["--records", tmp_path / "records"] if command[0] == "arena" else []
    done = run_fresh(*command, *records, "--ray-address", address)
    output = " ".join((done.stdout + done.stderr).replace("│", " ").split())
    assert done.returncode == 2 and says in output, output
    assert "Traceback" not in output and len(output) < 500
    assert not (tmp_path / "records").exists()  # nothing played, nothing saved


def test_ray_address_from_the_environment_is_checked_too(tmp_path: Path) -> None:
    env = {**os.environ, "RAY_ADDRESS": f"127.0.0.1:{closed_port()}"}
    done = run_fresh("simulate", *SIMULATIONS["shengke"], "--ray", env=env)
    assert done.returncode == 2 and "cannot reach a Ray cluster at 127.0.0.1:" in done.stdout, done.stdout
    done = run_fresh("simulate", *SIMULATIONS["shengke"], "--ray", env={**env, "RAY_ADDRESS": "x" * 1000})
    assert done.returncode == 2 and "RAY_ADDRESS: " in done.stdout and len(done.stdout) < 500, done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_workers_without_qipan_say_so_in_a_line(cluster: str, tmp_path: Path) -> None:
    shadow = tmp_path / "job"  # the job's working folder comes first on the workers' path
    (shadow / "qipan").mkdir(parents=True)
    (shadow / "qipan" / "__init__.py").write_text("")  # a qipan without qipan.ai
    script = textwrap.dedent(f"""
        import logging, ray
        from qipan.ai.runner import RayCluster, play_all
        from qipan.core.errors import GameError
        ray.init(address={cluster!r}, log_to_driver=False, logging_level=logging.ERROR,
                 runtime_env={{"working_dir": {str(shadow)!r}}})
        try:
            list(play_all(pow, 2, 3, ray=RayCluster()))
        except GameError as exc:
            print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    assert lines[0].startswith("the Ray workers cannot import qipan: install the same qipan on every node")


def test_a_huge_address_is_not_echoed() -> None:
    result = CliRunner().invoke(app, ["simulate", "kelighine", "--ray-address", "h" * 100_000 + ":6379"])
    assert result.exit_code == 2 and "is not a Ray address" in result.output and len(result.output) < 1000
