"""Games nobody plays end by themselves: unstarted ones are aborted, idle ones lost by the
player to move; the ending is stored like any other, survives restarts, and frees memory."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qipan.cli.main import app as cli_app
from qipan.server import create_app

from .helpers import Message, connect, create, until, update_with


def serve(db: Path, **timers: float) -> TestClient:
    return TestClient(create_app(str(db), ai_delay=0.0, ai_processes=False, **timers))


def ended(message: Message) -> bool:
    return message["type"] == "update" and message["result"] is not None


def play(client: TestClient, created: Message, plies: int) -> None:
    """Play ``plies`` moves, alternating the two seats."""
    for ply in range(plies):
        with connect(client, created, ply % 2) as ws:
            message = until(ws, update_with(ply))
            ws.send_json({"type": "move", "move": message["legal"][0]})
            until(ws, update_with(ply + 1))


def stored_result(db: Path, game_id: str) -> Any:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT finished IS NOT NULL, result FROM games WHERE id = ?", (game_id,)).fetchone()


def test_a_game_some_player_never_moves_in_is_aborted_and_leaves_memory(db_path: Path) -> None:
    with serve(db_path, unstarted_timeout=0, idle_timeout=0) as client:  # (no race with the timer)
        watched, unwatched = create(client), create(client)
        play(client, watched, 1)  # black moved, white never does
    with serve(db_path, unstarted_timeout=0.3, idle_timeout=0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with connect(client, watched, 0) as ws:
            result = until(ws, ended, limit=200)["result"]
            assert watched["id"] in hub.games  # someone is still looking at it
        assert result["reason"] == "aborted" and result["returns"] == [0.0, 0.0]
        assert "aborted" in result["text"] and "not every player made a move" in result["text"]
        for game_id in (watched["id"], unwatched["id"]):
            assert client.get(f"/api/games/{game_id}").json()["status"] == "finished"
            assert game_id not in hub.games
            assert client.get(f"/api/games/{game_id}/record").json()["result"]["reason"] == "aborted"
        assert stored_result(db_path, watched["id"])[0] == 1


def test_a_started_game_nobody_moves_in_is_lost_by_the_player_to_move(db_path: Path) -> None:
    with serve(db_path, unstarted_timeout=0, idle_timeout=0) as client:
        created = create(client)
        play(client, created, 3)  # both moved; white is to move and stops
    with serve(db_path, unstarted_timeout=3600, idle_timeout=0.3) as client, connect(client, created, 0) as ws:
        result = until(ws, ended, limit=200)["result"]
    assert result["reason"] == "abandoned" and result["loser"] == 1 and result["returns"] == [1.0, -1.0]
    assert result["text"] == "white lost (abandoned)"
    with serve(db_path) as client:  # kept, finished, after a restart
        summary = client.get(f"/api/games/{created['id']}").json()
        assert summary["status"] == "finished" and summary["result"]["reason"] == "abandoned"
        assert summary["moves"] == 3


def test_a_human_who_never_moves_against_the_ai_gets_the_game_aborted(db_path: Path) -> None:
    with serve(db_path, unstarted_timeout=0.3) as client:
        created = create(client, seats=[{"kind": "ai", "level": "random"}, {"kind": "human"}])
        with connect(client, created, 1) as ws:
            final = until(ws, ended, limit=200)
    assert final["ply"] == 1 and final["result"]["reason"] == "aborted"  # the AI moved, the human never


def test_timers_count_from_stored_times_so_they_hold_across_restarts(db_path: Path) -> None:
    with serve(db_path, unstarted_timeout=0, idle_timeout=0) as client:  # nothing expires here
        unstarted, idle, fresh = create(client), create(client), create(client)
        play(client, idle, 2)
    hour_ago, days_ago = time.time() - 3700, time.time() - 4 * 86400
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET created = ?, seats = json_set(seats, '$[1].seated', ?) WHERE id IN (?, ?)",
                     (days_ago, days_ago, unstarted["id"], idle["id"]))  # white's seat was taken then too
        conn.execute("UPDATE moves SET time = ? WHERE game_id = ? AND ply = 0", (days_ago, idle["id"]))
        conn.execute("UPDATE moves SET time = ? WHERE game_id = ? AND ply = 1", (hour_ago, idle["id"]))
    with serve(db_path) as client:  # the default timers: 1 hour unstarted, 3 days idle
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert until_gone(hub, unstarted["id"])
        assert fresh["id"] in hub.games and idle["id"] in hub.games  # its last move is an hour old
    assert '"aborted"' in stored_result(db_path, unstarted["id"])[1]
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE moves SET time = ? WHERE game_id = ? AND ply = 1", (days_ago, idle["id"]))
    with serve(db_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert until_gone(hub, idle["id"])
        result = client.get(f"/api/games/{idle['id']}").json()["result"]
        assert result["reason"] == "abandoned" and result["loser"] == 0


def until_gone(hub: Any, game_id: str) -> bool:
    """Wait (a while at most) for a game to leave memory."""
    for _ in range(200):
        if game_id not in hub.games:
            return True
        time.sleep(0.02)
    return False


def test_each_move_pushes_the_deadline_back(db_path: Path) -> None:
    with serve(db_path, unstarted_timeout=600, idle_timeout=7200) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        created = create(client)
        live = hub.games[created["id"]]
        assert hub.expiry.deadline(live) == live.seated() + 600  # from when the last seat was taken
        play(client, created, 1)
        assert hub.expiry.deadline(live) == live.match.moves[0].time + 600  # white has not moved yet
        with connect(client, created, 1) as ws:
            message = until(ws, update_with(1))
            ws.send_json({"type": "move", "move": message["legal"][0]})
            until(ws, update_with(2))
        assert hub.expiry.deadline(live) == live.match.moves[1].time + 7200
        with connect(client, created, 0) as ws:
            until(ws, update_with(2))
            ws.send_json({"type": "resign"})
            until(ws, ended)
        assert hub.expiry.deadline(live) is None  # finished games are kept


@pytest.mark.parametrize("timer", [-1, float("nan"), float("inf"), 10**12, True])
def test_timers_out_of_range_are_refused(db_path: Path, timer: Any) -> None:
    with pytest.raises(ValueError, match="unstarted-game timeout"):
        create_app(str(db_path), unstarted_timeout=timer)


def test_qipan_serve_refuses_a_negative_timer(db_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(db_path), "--idle-timeout", "-5"])
    assert result.exit_code == 2 and "idle-timeout" in result.output
