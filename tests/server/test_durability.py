"""Kill the server with SIGKILL mid-game, start it again: every game continues exactly."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server_process import ServerProcess, play_alternately


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(str(tmp_path / "durable.db"), tmp_path / "server.log")
    process.start()
    yield process
    process.stop()


def test_sigkill_and_restart_resumes_moves_views_and_clocks(server: ServerProcess) -> None:
    timed = server.post("/api/games", {"game": "abalone", "options": {"time_limit": 600}})
    hidden = server.post("/api/games", {"game": "shengke"})
    versus_ai = server.post("/api/games", {"game": "abalone",
                                           "seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]})
    players = {s: server.seat(timed, s) for s in (0, 1)}
    before = play_alternately(players, 7)
    seen_before = time.time()
    shengke = {s: server.seat(hidden, s) for s in (0, 1)}
    play_alternately(shengke, 5)
    hidden_before = {s: p.last for s, p in shengke.items()}
    human = server.seat(versus_ai, 0)
    human.recv()
    human.send({"type": "move", "move": "a1b2"})
    ai_before = human.until_moves(2)
    # A move in flight at the crash: it is either wholly there afterwards or wholly not.
    racing = server.post("/api/games", {"game": "abalone"})
    racer = server.seat(racing, 0)
    racer.send({"type": "move", "move": racer.recv()["legal"][0]})
    server.kill()
    time.sleep(0.5)
    server.start()

    after = {s: server.seat(timed, s).recv() for s in (0, 1)}
    seen_after = time.time()
    mover = before["to_move"]
    assert after[0]["moves"] == before["moves"] and after[0]["to_move"] == mover
    assert after[mover]["legal"] == players[mover].last["legal"]  # type: ignore[index]
    assert after[mover]["view"] == players[mover].last["view"]  # type: ignore[index]
    # The clock of the player to move kept running while the server was down; the other stood.
    other = 1 - mover
    assert after[0]["clocks"][other] == pytest.approx(before["clocks"][other], abs=0.05)
    ran = before["clocks"][mover] - after[0]["clocks"][mover]
    assert ran == pytest.approx(seen_after - seen_before, abs=1.0)
    raced = server.seat(racing, None).recv()
    assert len(raced["moves"]) in (0, 1)
    assert raced["to_move"] == len(raced["moves"])
    # Play on after the restart.
    resumed = {s: server.seat(timed, s) for s in (0, 1)}
    final = play_alternately(resumed, 2)
    assert len(final["moves"]) == len(after[0]["moves"]) + 2

    # Sheng-Ke: hidden hands and every chance outcome come back exactly.
    for seat in (0, 1):
        again = server.seat(hidden, seat).recv()
        old = hidden_before[seat]
        assert old is not None
        assert again["moves"] == old["moves"] and again["view"] == old["view"]
        assert again["legal"] == old["legal"] and again["to_move"] == old["to_move"]

    # The AI seat resumes too: it has answered, and answers the next move after the restart.
    back = server.seat(versus_ai, 0)
    state = back.recv()
    assert state["moves"] == ai_before["moves"] and state["to_move"] == 0
    back.send({"type": "move", "move": state["legal"][0]})
    assert back.until_moves(4)["to_move"] == 0


@pytest.mark.parametrize("sync", ["normal", "full"])
def test_an_acknowledged_move_always_survives_a_crash(tmp_path: Path, sync: str) -> None:
    """Kill at once after each acknowledgement, again and again: nothing acknowledged is lost."""
    server = ServerProcess(str(tmp_path / "acked.db"), tmp_path / "server.log", "--sqlite-sync", sync)
    server.start()
    try:
        kill_after_moves(server)
    finally:
        server.stop()


def kill_after_moves(server: ServerProcess) -> None:
    created = server.post("/api/games", {"game": "abalone"})
    acknowledged = 0
    for _ in range(2):
        players = {s: server.seat(created, s) for s in (0, 1)}
        acknowledged = len(play_alternately(players, 3)["moves"])
        server.kill()
        server.start()
        summary = server.get(f"/api/games/{created['id']}")
        assert summary["moves"] == acknowledged
        assert summary["status"] == "playing"
