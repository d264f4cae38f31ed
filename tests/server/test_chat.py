"""Table talk on the wire: who reads which channel, hostile texts, limits, storage and restarts."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from qipan.server import chat as chat_module
from qipan.server import create_app
from qipan.server.chat import Speaker
from qipan.server.limits import MemoryRateLimiter
from qipan.server.store import Store

from .helpers import Message, connect, create, until, update_with


def is_chat(message: Message) -> bool:
    return message["type"] == "chat"


def before_pong(ws: WebSocketTestSession) -> list[Message]:
    """Every message a connection receives before the answer to a ping sent now."""
    ws.send_json({"type": "ping"})
    seen: list[Message] = []
    while (message := ws.receive_json())["type"] != "pong":
        seen.append(message)
    return seen


def chats_before_pong(ws: WebSocketTestSession) -> list[Message]:
    return [m for m in before_pong(ws) if m["type"] in ("chat", "chats")]


def stored(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = client.app.state.hub.store.chat(game_id, 1000)  # type: ignore[attr-defined]
    return messages


def test_the_players_channel_reaches_every_seat_and_no_spectator(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white, \
            connect(client, created, None) as spectator:
        for ws in (black, white, spectator):
            until(ws, update_with(0))
        black.send_json({"type": "chat", "text": "  good luck  "})
        heard = until(white, is_chat)
        assert heard == {"type": "chat", "channel": "players", "seat": 0, "name": "black", "text": "good luck",
                         "at": heard["at"], "n": 1}
        assert until(black, is_chat) == heard  # the writer sees it arrive too
        assert chats_before_pong(spectator) == []
        spectator.send_json({"type": "chat", "text": "nice opening"})
        assert until(spectator, is_chat)["channel"] == "spectators"
        assert chats_before_pong(black) == [] and chats_before_pong(white) == []


def test_seats_read_the_spectators_channel_once_the_game_is_over(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black:
        until(black, update_with(0))
        with client.websocket_connect(f"/ws/games/{created['id']}") as spectator, \
                connect(client, created, None) as other:
            spectator.send_json({"type": "hello", "name": "Kibitzer"})
            until(spectator, update_with(0))
            until(other, update_with(0))
            spectator.send_json({"type": "chat", "text": "black should push"})
            said = until(other, is_chat)
            assert (said["channel"], said["seat"], said["name"]) == ("spectators", None, "Kibitzer")
            black.send_json({"type": "chat", "text": "shh"})
            until(black, is_chat)
            assert chats_before_pong(black) == []
            black.send_json({"type": "resign"})
            revealed = until(black, lambda m: m["type"] == "chats")
            assert [(m["channel"], m["text"]) for m in revealed["messages"]] == [
                ("spectators", "black should push"), ("players", "shh")]
            spectator.send_json({"type": "chat", "text": "gg"})
            assert until(black, is_chat)["text"] == "gg"  # after the game, everyone talks


def test_round_table_tellstones_talk_is_heard_by_everyone(client: TestClient) -> None:
    created = create(client, game="tellstones", variant="round-table")
    with connect(client, created, 2) as seat, connect(client, created, None) as spectator:
        until(seat, lambda m: m["type"] == "update")
        until(spectator, lambda m: m["type"] == "update")
        seat.send_json({"type": "chat", "text": "I think the crown is on the left"})
        heard = until(spectator, is_chat)
        assert (heard["channel"], heard["seat"], heard["name"]) == ("players", 2, "player 3 (team A)")
    plain = create(client, game="tellstones")
    with connect(client, plain, 0) as seat, connect(client, plain, None) as spectator:
        until(seat, lambda m: m["type"] == "update")
        until(spectator, lambda m: m["type"] == "update")
        seat.send_json({"type": "chat", "text": "hm"})
        until(seat, is_chat)
        assert chats_before_pong(spectator) == []


HOSTILE = {
    "control": ("hi\x07there", "U+0007"),
    "escape": ("\x1b[2Jcleared", "U+001B"),
    "newline": ("line one\nline two", "U+000A"),
    "bidi": ("gg \u202eevil", "U+202E"),
    "zero width": ("g\u200bg", "U+200B"),
    "too long": ("x" * 5000, "at most 300 characters"),
    "10 kB": ("y" * 10_000, "message too long"),
    "empty": ("   ", "empty"),
    "not text": (12, '"text"'),
    "missing": (None, '"text"'),
}


@pytest.mark.parametrize(("text", "why"), HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_texts_are_refused_briefly_and_nothing_is_stored_or_sent(client: TestClient, text: Any,
                                                                         why: str) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        until(black, update_with(0))
        until(white, update_with(0))
        black.send_json({"type": "chat"} if text is None else {"type": "chat", "text": text})
        problem = until(black, lambda m: m["type"] == "error")["error"]
        assert why in problem and len(problem) < 120
        if isinstance(text, str):
            assert text.strip()[:10] not in problem or not text.strip()
        assert chats_before_pong(white) == []
    assert stored(client, created["id"]) == []


def test_chat_is_rate_limited_per_client(db_path: Path) -> None:
    frozen = MemoryRateLimiter(clock=lambda: 0.0)  # the per-address buckets never refill
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False, rate_limiter=frozen)) as client:
        created = create(client)
        with connect(client, created, 0) as black:
            until(black, update_with(0))
            for n in range(5):
                black.send_json({"type": "chat", "text": f"message {n}"})
                until(black, is_chat)
            black.send_json({"type": "chat", "text": "one too many"})
            assert "too many chat messages" in until(black, lambda m: m["type"] == "error")["error"]
        with connect(client, created, 1) as white:  # another connection from the same address
            until(white, update_with(0))
            white.send_json({"type": "chat", "text": "me too"})
            assert "too many chat messages" in until(white, lambda m: m["type"] == "error")["error"]
        assert [m["text"] for m in stored(client, created["id"])] == [f"message {n}" for n in range(5)]


def test_a_connection_has_its_own_burst_and_minute_buckets() -> None:
    now = [0.0]
    speaker = Speaker(0, None, "10.0.0.1", clock=lambda: now[0])
    wait = lambda: asyncio.run(speaker.wait())  # noqa: E731
    assert [wait() for _ in range(5)] == [0.0] * 5
    assert wait() == pytest.approx(2.0)  # 5 per 10 s: the next one in 2 s
    said = 5
    while now[0] < 59.5:
        now[0] += 0.5  # someone trying twice a second
        said += wait() == 0.0
    assert said == 5 + 29  # a burst of 5, then 30 a minute


def test_history_is_sent_right_after_the_first_update_and_survives_a_restart(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        created = create(client)
        with connect(client, created, 0) as black:
            until(black, update_with(0))
            for text in ("one", "two"):
                black.send_json({"type": "chat", "text": text})
                until(black, is_chat)
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        with connect(client, created, 1) as white:
            assert white.receive_json()["type"] == "update"
            history = white.receive_json()
            assert history["type"] == "chats"
            assert [(m["n"], m["text"], m["name"]) for m in history["messages"]] == [(1, "one", "black"),
                                                                                   (2, "two", "black")]
            white.send_json({"type": "chat", "text": "three"})
            assert until(white, is_chat)["n"] == 3
        with connect(client, created, None) as spectator:  # the players' channel is not for spectators
            assert spectator.receive_json()["type"] == "update"
            assert chats_before_pong(spectator) == []


def test_a_game_keeps_its_last_messages_only(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat_module, "KEEP", 3)
    monkeypatch.setattr(chat_module, "HISTORY", 2)
    created = create(client)
    with connect(client, created, 0) as black:
        until(black, update_with(0))
        for n in range(1, 6):
            black.send_json({"type": "chat", "text": f"m{n}"})
            until(black, is_chat)
    assert [m["n"] for m in stored(client, created["id"])] == [3, 4, 5]
    with connect(client, created, 1) as white:
        until(white, update_with(0))
        assert [m["text"] for m in until(white, lambda m: m["type"] == "chats")["messages"]] == ["m4", "m5"]


OLD_SCHEMA = """
CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, variant VARCHAR(64) NOT NULL,
    options JSON NOT NULL, seed BIGINT NOT NULL, secret VARCHAR(128), seats JSON NOT NULL, created FLOAT NOT NULL,
    started FLOAT NOT NULL, finished FLOAT, result JSON, rematch VARCHAR(32));
CREATE TABLE moves (game_id VARCHAR(32) NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    player VARCHAR(16) NOT NULL, text TEXT NOT NULL, time FLOAT, PRIMARY KEY (game_id, ply));
"""
OLD_ROW = ("INSERT INTO games (id, game, variant, options, seed, secret, seats, created, started) VALUES "
           "('old1', 'abalone', 'standard', '{}', 0, '" + "ab" * 32 + "', "
           "'[{\"kind\": \"human\", \"level\": null, \"token\": \"" + "0" * 64 + "\"}, "
           "{\"kind\": \"human\", \"level\": null, \"token\": \"" + "1" * 64 + "\"}]', 1.0, 1.0)")


def check_migrated(url: str) -> None:
    store = Store(url)
    try:
        columns = {c["name"] for c in sa.inspect(store.engine).get_columns("games")}
        assert "public" in columns and "chat" in sa.inspect(store.engine).get_table_names()
        row = store.game("old1")
        assert row is not None and row.public is False  # old games stay invite-only
        store.add_chat("old1", {"n": 1, "channel": "players", "seat": 0, "name": "black", "text": "hi", "at": 2.0}, 500)
        assert [m["text"] for m in store.chat("old1", 10)] == ["hi"]
        assert store.list_games(None, 10, True) == []
    finally:
        store.close()


def test_a_database_from_before_public_games_and_chat_is_brought_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute(OLD_ROW)
    check_migrated(f"sqlite:///{db}")
    with TestClient(create_app(str(db), ai_delay=0.0, ai_processes=False)) as client:
        assert client.get("/api/games").json() == []
        assert client.get("/api/games/old1").json()["public"] is False
