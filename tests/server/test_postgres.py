"""The server's core flow against a real PostgreSQL server started for these tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipan.server import create_app
from qipan.server.store import normalise_url

from . import postgres
from .helpers import connect, create, until, update_with
from .server_process import ServerProcess, play_alternately
from .test_chat import OLD_ROW, OLD_SCHEMA, check_migrated


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres.cluster() as url:
        yield url


def test_play_list_record_and_resume_on_postgres(pg_url: str) -> None:
    with TestClient(create_app(pg_url, ai_delay=0.0)) as client:
        assert client.app.state.db_url.startswith("postgresql+psycopg://")  # type: ignore[attr-defined]
        done = create(client, game="shengke", public=True)
        open_game = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "easy"}], public=True)
        with connect(client, done, 0) as ws:
            until(ws, lambda m: m["type"] == "update")
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
        with connect(client, open_game, 0) as ws:
            until(ws, update_with(0))
            ws.send_json({"type": "move", "move": "a1b2"})
            before = until(ws, update_with(2))
        record = client.get(f"/api/games/{done['id']}/record").json()
        assert len(record["seed"]) == 64 and record["result"]["reason"] == "resignation"
        assert [g["id"] for g in client.get("/api/games?status=finished").json()] == [done["id"]]
        playing = client.get("/api/games?status=playing").json()
        assert [(g["id"], g["moves"]) for g in playing] == [(open_game["id"], 2)]
    # A new server on the same database picks the game up where it was.
    with TestClient(create_app(pg_url, ai_delay=0.0)) as client, \
            connect(client, open_game, 0) as ws:
        again = until(ws, update_with(2))
        assert again["moves"][-1] == before["last"] and again["view"] == before["view"]
        ws.send_json({"type": "move", "move": again["legal"][0]})
        assert until(ws, update_with(4))["to_move"] == 0


def test_a_database_from_before_public_games_and_chat_is_brought_up_to_date_on_postgres(pg_url: str) -> None:
    old_url = postgres.new_database(normalise_url(pg_url), "old_qipan")
    postgres.execute(old_url, f"{OLD_SCHEMA};{OLD_ROW}")
    check_migrated(old_url)
    with TestClient(create_app(old_url, ai_delay=0.0, ai_processes=False)) as client:
        game = create(client, public=True)
        with connect(client, game, 0) as ws:
            until(ws, update_with(0))
            ws.send_json({"type": "chat", "text": "hello from PostgreSQL"})
            until(ws, lambda m: m["type"] == "chat")
        assert [g["id"] for g in client.get("/api/games?status=open").json()] == []
        assert client.get("/api/games/old1").json()["public"] is False
    with TestClient(create_app(old_url, ai_delay=0.0, ai_processes=False)) as client, \
            connect(client, game, 1) as ws:
        assert ws.receive_json()["type"] == "update"
        assert [m["text"] for m in ws.receive_json()["messages"]] == ["hello from PostgreSQL"]


def test_sigkill_and_restart_on_postgres(pg_url: str, tmp_path: Path) -> None:
    server = ServerProcess(pg_url, tmp_path / "server.log")
    server.start()
    try:
        created = server.post("/api/games", {"game": "abalone", "options": {"time_limit": 300}})
        before = play_alternately({s: server.seat(created, s) for s in (0, 1)}, 4)
        server.kill()
        server.start()
        after = server.seat(created, before["to_move"]).recv()
        assert after["moves"] == before["moves"] and after["legal"]
        waiting = 1 - before["to_move"]
        assert after["clocks"][waiting] == pytest.approx(before["clocks"][waiting], abs=0.05)
    finally:
        server.stop()
