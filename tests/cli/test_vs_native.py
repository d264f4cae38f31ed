"""benchmarks/vs_native.py: protocol handling and scoring against small fake programs.

The fakes are a script written here (one behaviour per argument) and qipan's own engine
session, which speaks the whole protocol. Games are capped at a few plies, so the tests stay fast.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest

from qipan.ai.arena import wilson

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vs_native", ROOT / "benchmarks" / "vs_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_native"] = module  # worker processes (--jobs) find it by name
    spec.loader.exec_module(module)
    return module


vs_native = _load()

FAKE = '''
import json, sys, time
mode = sys.argv[1]
for line in sys.stdin:
    request = json.loads(line)
    cmd = request["cmd"]
    if cmd == "quit":
        print(json.dumps({"ok": True, "bye": True}), flush=True)
        break
    if cmd == "new" and mode == "no-new":
        print(json.dumps({"ok": False, "error": "I play only chess"}), flush=True)
    elif cmd == "play" and mode == "refuse":
        print(json.dumps({"ok": False, "error": "cannot parse " + request["move"]}), flush=True)
    elif cmd != "ai":
        print(json.dumps({"ok": True}), flush=True)
    elif mode == "illegal":
        print(json.dumps({"ok": True, "move": "a1a1", "info": {"depth": 3, "nodes": 1000, "seconds": 0.01}}),
              flush=True)
    elif mode == "garbage":
        print("thinking...", flush=True)
    elif mode == "exit":
        print("out of memory", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "silent":
        time.sleep(30)
'''


@pytest.fixture
def fake(tmp_path: Path) -> str:
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def run(tmp_path: Path, program: str, *extra: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "out.json"
    code = vs_native.main(["--program", program, "--level", "random", "--time", "0.05", "--games", "2",
                           "--max-plies", "6", "--json", str(out), *extra])
    return code, json.loads(out.read_text()) if out.exists() else {}


def test_a_real_engine_plays_whole_games_with_colours_alternating(tmp_path: Path) -> None:
    # qipan's own engine (its session alone: `qipan engine` would also import the server)
    engine = "from qipan.cli.engine import engine_command; engine_command()"
    program = f"{shlex.quote(sys.executable)} -c {shlex.quote(engine)}"
    code, data = run(tmp_path, program, "--jobs", "2", "--random-opening", "2", "--games", "4")
    assert code == 0
    summary, games = data["summary"], data["games"]
    assert isinstance(summary, dict) and isinstance(games, list)
    assert summary["games"] == 4 and summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert [g["qipan_seat"] for g in games] == [0, 1, 0, 1]
    assert all(g["plies"] == 6 and g["reason"] == "max plies" and g["score"] == 0.5 for g in games)
    assert summary["failures"] == [] and summary["pushed_out"] == {"by_qipan": 0, "by_program": 0}
    # both saw the same random opening: every move of the record is legal in qipan's replay
    import qipan
    from qipan.core import Match

    for g in games:
        match = Match(qipan.load("abalone"), seed=1)
        for move in g["moves"]:
            match.play(move)
        # the program moved half of the plies after the opening
        assert g["program"]["moves"] == 2


@pytest.mark.parametrize(("mode", "reason", "words"), [
    ("illegal", "illegal move", "illegal move 'a1a1'"),
    ("garbage", "malformed answer", "thinking..."),
    ("exit", "program exited", "out of memory"),
    ("silent", "timeout", "no answer to ai within 0.25 s"),
    ("refuse", "error answer", "cannot parse"),  # refuses the opening move sent to it
])
def test_a_broken_answer_is_the_programs_loss_and_reported(tmp_path: Path, fake: str, mode: str, reason: str,
                                                           words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run(tmp_path, f"{fake} {mode}", "--grace", "0.2", "--random-opening", "1")
    assert code == 0
    summary = data["summary"]
    assert isinstance(summary, dict)
    assert (summary["wins"], summary["draws"], summary["losses"]) == (2, 0, 0)
    assert summary["endings"] == {reason: 2}
    assert all(words in f["error"] for f in summary["failures"])
    printed = capsys.readouterr().out
    assert "qipan W-D-L 2-0-0 in 2 games" in printed and "program failure in game 1: " in printed


def test_a_program_that_cannot_start_or_open_the_game_is_one_line(tmp_path: Path, fake: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, str(tmp_path / "no-such-engine"))[0] == 2
    assert run(tmp_path, f"{fake} no-new")[0] == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("vs_native: cannot start") and "No such file" in lines[0]
    assert lines[1] == "vs_native: error answer to new: I play only chess"


def test_bad_arguments_are_refused_before_anything_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert vs_native.main(["--program", "x", "--game", "tellstones"]) == 2
    assert vs_native.main(["--program", "x", "--level", "grandmaster"]) == 2
    assert vs_native.main(["--program", "x", "--time", "0"]) == 2
    err = capsys.readouterr().err
    assert "tellstones is not a two-player game of perfect information" in err
    assert "no AI level 'grandmaster'" in err
    assert err.count("vs_native:") == 3


def test_scoring_counts_qipan_side_and_pushed_out_marbles_per_side() -> None:
    spec = vs_native.Spec(("x",), "abalone", None, {}, "hard", 0.3, 0, 300, 2.0, 1)
    results = [
        vs_native.GameResult(0, 1, 0, 1.0, "rules", "", 120, [], [1, 6]),  # qipan black wins 6-1
        vs_native.GameResult(1, 2, 1, 0.0, "rules", "", 90, [], [2, 6]),  # qipan white loses 2-6
        vs_native.GameResult(2, 3, 0, 0.5, "max plies", "", 300, [], [0, 0]),
        vs_native.GameResult(3, 4, 1, 1.0, "illegal move", "", 10, [], [0, 0], error="illegal move 'a1a1'"),
    ]
    results[0].qipan.add(0.3, 30_000, 0.3, 4)
    results[1].qipan.add(0.3, 0, None, None)
    results[0].program.add(0.5, 500_000, 0.25, 7)
    summary = vs_native.summarise(spec, results)
    assert (summary["wins"], summary["draws"], summary["losses"]) == (2, 1, 1)
    assert summary["score"] == 0.625
    assert summary["interval"] == list(wilson(2.5, 4))
    assert summary["pushed_out"] == {"by_qipan": 6 + 2, "by_program": 1 + 6}
    assert summary["endings"] == {"rules": 2, "max plies": 1, "illegal move": 1}
    assert summary["qipan"]["nodes_per_second"] == 100_000 and summary["qipan"]["depth"] == 4
    assert summary["qipan"]["moves"] == 2 and summary["qipan"]["seconds_per_move"] == pytest.approx(0.3)
    assert summary["program_stats"]["nodes_per_second"] == 2_000_000
    assert summary["failures"] == [{"game": 3, "error": "illegal move 'a1a1'"}]


def test_a_game_the_rules_end_is_scored_by_them(tmp_path: Path) -> None:
    engine = "from qipan.cli.engine import engine_command; engine_command()"
    program = f"{shlex.quote(sys.executable)} -c {shlex.quote(engine)}"
    code, data = run(tmp_path, program, "--option", "quiet_move_limit=3")
    assert code == 0
    summary, games = data["summary"], data["games"]
    assert isinstance(summary, dict) and isinstance(games, list)
    assert summary["endings"] == {"drawn by the rules": 2}
    assert [g["plies"] for g in games] == [3, 3] and summary["options"] == {"quiet_move_limit": "3"}


def test_an_interrupted_run_reports_the_games_finished(tmp_path: Path, fake: str,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    play_game = vs_native.play_game

    def stop_at_the_third(spec: object, index: int) -> object:
        if index == 2:
            raise KeyboardInterrupt
        return play_game(spec, index)

    monkeypatch.setattr(vs_native, "play_game", stop_at_the_third)
    code, data = run(tmp_path, f"{fake} illegal", "--games", "5")
    assert code == 0
    summary = data["summary"]
    assert isinstance(summary, dict) and summary["games"] == 2 and summary["wins"] == 2
    assert "vs_native: interrupted after 2 games" in capsys.readouterr().err
