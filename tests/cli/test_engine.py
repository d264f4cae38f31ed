"""The engine protocol end to end, through a real ``qipan engine`` subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest


class Engine:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "qipan", "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, encoding="utf-8",
        )

    def send_raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def send(self, **request: Any) -> dict[str, Any]:
        return self.send_raw(json.dumps(request))

    def close(self) -> int:
        assert self.send(cmd="quit") == {"ok": True, "bye": True}
        return self.proc.wait(timeout=10)


@pytest.fixture
def engine() -> Any:
    e = Engine()
    yield e
    if e.proc.poll() is None:
        e.proc.kill()


def test_a_whole_session(engine: Engine) -> None:
    assert engine.send(cmd="legal")["error"].startswith("no game yet")
    new = engine.send(cmd="new", game="abalone", variant="belgian-daisy", seed=5)
    assert new["ok"] and new["to_move"] == 0 and new["players"] == ["black", "white"]
    legal = engine.send(cmd="legal")
    assert len(legal["moves"]) == 52 and legal["to_move"] == 0
    before = engine.send(cmd="state")["state"]
    # Errors of every kind answer ok=false and leave the state alone.
    bad = [
        "this is not json",
        "[1, 2]",
        json.dumps({"cmd": "fly"}),
        json.dumps({"cmd": "play"}),
        json.dumps({"cmd": "play", "move": "zz99"}),
        json.dumps({"cmd": "play", "move": "e5e6"}),
        json.dumps({"cmd": "play", "move": legal["moves"][0], "player": 1}),
        json.dumps({"cmd": "new", "game": "chess"}),
        json.dumps({"cmd": "new", "game": "abalone", "options": {"colour": "red"}}),
        json.dumps({"cmd": "view", "player": 7}),
        json.dumps({"cmd": "load", "state": {"black": ["a1"], "white": ["a1"], "turn": "black"}}),
    ]
    errors = [engine.send_raw(line) for line in bad]
    assert all(e["ok"] is False and e["error"] for e in errors)
    assert "malformed JSON" in errors[0]["error"]
    assert "unknown command 'fly'" in errors[2]["error"]
    assert "illegal move e5e6" in errors[5]["error"]
    assert "not your turn" in errors[6]["error"]
    assert "unknown game 'chess'" in errors[7]["error"]
    assert engine.send(cmd="state")["state"] == before
    played = engine.send(cmd="play", move=legal["moves"][0], player=0)
    assert played == {"ok": True, "move": legal["moves"][0], "to_move": 1}
    view = engine.send(cmd="view", player=None)["view"]
    assert view["player"] is None and view["to_move"] == 1
    assert engine.send(cmd="undo")["to_move"] == 0
    assert engine.send(cmd="state")["state"] == before
    ai = engine.send(cmd="ai", level="random", seed=3)
    assert ai["ok"] and ai["move"] in legal["moves"]
    assert engine.send(cmd="ai", level="random", seed=3, play=True)["to_move"] == 1
    record = engine.send(cmd="record")["record"]
    assert record["game"] == "abalone" and len(record["moves"]) == 1
    assert engine.close() == 0


def test_load_and_finish(engine: Engine) -> None:
    engine.send(cmd="new", game="abalone")
    state = {"black": ["g5", "h5", "a1", "a2", "a3", "a4", "a5", "b1", "b2"],
             "white": ["i5", "c5", "c6", "c7", "d5", "d6", "d7", "e6", "e7"], "turn": "black"}
    assert engine.send(cmd="load", state=state) == {"ok": True, "to_move": 0}
    end = engine.send(cmd="play", move="g5h5")
    assert end["to_move"] is None and end["result"]["returns"] == [1.0, -1.0]
    assert engine.send(cmd="legal")["moves"] == []
    assert "game is over" in engine.send(cmd="play", move="a1b1")["error"]
    assert "only when a player is to move" in engine.send(cmd="ai")["error"]
    engine.close()


def test_manual_chance_waits_for_outcomes(engine: Engine) -> None:
    """With "chance": "manual", dice are played like moves and listed with probabilities."""
    new = engine.send(cmd="new", game="kelighine", seed=1, chance="manual")
    if not new["ok"]:
        pytest.fail(new["error"])
    assert new["to_move"] == "chance"
    legal = engine.send(cmd="legal")
    assert legal["moves"] == [f"roll:{n}" for n in range(1, 7)]
    assert legal["probabilities"] == pytest.approx([1 / 6] * 6)
    assert engine.send(cmd="play", move="roll:7")["ok"] is False
    assert engine.send(cmd="play", move="roll:4")["to_move"] == 0
    engine.close()


def test_ai_agents_keep_their_memory_across_requests() -> None:
    """The engine keeps one agent per level and seat and shows it every view."""
    from qipan.cli.engine import EngineSession

    session = EngineSession()
    assert session.handle('{"cmd": "new", "game": "tellstones", "seed": 3}')["ok"]
    first = session.handle('{"cmd": "ai", "level": "easy", "play": true}')
    assert first["ok"], first
    agent = session.agents[("easy", None, 0)]
    seen: list[Any] = []
    original = agent.observe
    agent.observe = lambda game, view: (seen.append(view), original(game, view))  # type: ignore[method-assign]
    assert session.handle('{"cmd": "ai", "level": "easy", "play": true}')["ok"]
    assert session.handle('{"cmd": "ai", "level": "easy", "play": true}')["ok"]
    assert session.agents[("easy", None, 0)] is agent and ("easy", None, 1) in session.agents
    # it saw the opponent's move too (and may look again itself when choosing)
    assert len(seen) >= 2 and all(view["player"] == 0 for view in seen)
    session.handle('{"cmd": "undo"}')
    assert session.agents == {}


def test_ai_thinks_for_the_time_asked_and_reports_its_search() -> None:
    """``time`` replaces the level's own budget; ``info`` says what the search did (like UCI)."""
    from qipan.cli.engine import EngineSession

    session = EngineSession()
    session.handle('{"cmd": "new", "game": "abalone", "seed": 2}')
    fixed = session.handle('{"cmd": "ai", "level": "hard"}')
    assert fixed["info"]["depth"] == 4 and fixed["info"]["nodes"] > 0 and fixed["to_move"] == 0
    timed = session.handle('{"cmd": "ai", "level": "medium", "time": 0.2}')
    assert timed["ok"] and 0.1 < timed["info"]["seconds"] < 2.0
    assert timed["info"]["depth"] >= 2  # medium alone stops at depth 2; the time lets it go on
    assert session.agents[("medium", 0.2, 0)] is not session.agents.get(("medium", None, 0))
    before = session.handle('{"cmd": "state"}')
    for bad in ('0', '-1', '"fast"', 'true', '601'):
        answer = session.handle(f'{{"cmd": "ai", "level": "hard", "time": {bad}}}')
        assert not answer["ok"] and "time must be a number of seconds above 0" in answer["error"]
    assert session.handle('{"cmd": "state"}') == before
    easy = session.handle('{"cmd": "ai", "level": "easy", "time": 0.2, "play": true}')
    assert easy["ok"] and "info" not in easy and easy["to_move"] == 1  # greedy does not search
