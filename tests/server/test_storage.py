"""Storage that goes wrong: damaged rows, games that cannot be resumed, corrupted pages, a full
database, a file that is not a database. The server starts, sets aside what it cannot resume
(visible through the API), and keeps everything else playable."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import qipan
from qipan.cli.main import app as cli_app
from qipan.core import Match
from qipan.server import create_app
from qipan.server.live import LiveGame
from qipan.server.store import ReadFailed, Store

from .helpers import Message, connect, create, until, update_with

INTERNALS = ("Traceback", "Error:", "NoneType", "sqlite", "sqlalchemy", "subscriptable")


def serve(db: Path) -> TestClient:
    return TestClient(create_app(str(db), ai_delay=0.0, ai_processes=False))


def add_row(db: Path, game_id: str, *, game: str = "abalone", options: str = "{}", seats: str | None = None,
            finished: float | None = None, result: str | None = None, created: Any = 1.0,
            moves: tuple[str, ...] = ()) -> None:
    """Write a ``games`` row (and moves) straight into the file, as a damaged database holds it."""
    if seats is None:
        seats = json.dumps([{"kind": "human", "token": "0" * 64}, {"kind": "human", "token": "1" * 64}])
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO games (id, game, variant, options, seed, seats, created, started, finished, result,"
                     " public) VALUES (?, ?, 'standard', ?, 7, ?, ?, 1.0, ?, ?, TRUE)",
                     (game_id, game, options, seats, created, finished, result))
        for ply, text in enumerate(moves):
            conn.execute("INSERT INTO moves VALUES (?, ?, ?, ?, 2.0)", (game_id, ply, str(ply % 2), text))


def summaries(client: TestClient, **params: Any) -> dict[str, Message]:
    reply = client.get("/api/games", params=params)
    assert reply.status_code == 200, reply.text
    return {s["id"]: s for s in reply.json()}


def assert_clear(text: str) -> None:
    assert not any(word in text for word in INTERNALS), text
    assert len(text) < 300, text


def play_a_move(client: TestClient, created: Message, ply: int = 0) -> None:
    seat = ply % 2
    with connect(client, created, seat) as ws:
        message = until(ws, update_with(ply))
        ws.send_json({"type": "move", "move": message["legal"][0]})
        until(ws, update_with(ply + 1))


# -- games that cannot be resumed ------------------------------------------------------------------

DAMAGED = {
    # id: (row, the reason must mention)
    "overflow": ({"options": '{"time_limit": 1' + "0" * 400 + "}"}, "options"),  # the one-request brick
    "null-seats": ({"seats": "null"}, "seats"),
    "bad-json": ({"options": "{not json"}, "options"),
    "unknown-game": ({"game": "chess"}, "chess"),
    "illegal-move": ({"moves": ("zz99",)}, "move 1"),
    "three-seats": ({"seats": json.dumps([{"kind": "human"}] * 3)}, "seats"),
    "ai-without-level": ({"seats": json.dumps([{"kind": "human"}, {"kind": "ai"}])}, "seats"),
}


def test_the_public_reason_of_a_game_that_does_not_replay_shows_no_hidden_move(db_path: Path) -> None:
    # The lobby is public: a Sheng-Ke game whose fourth move no longer replays was listed with
    # "illegal move ...: ... is not in your hand; you hold <the player's hand>".
    match = Match(qipan.load("shengke"), seed=5)
    hand = [t.split("@")[0] for t in match.legal_texts()]
    with serve(db_path):
        pass
    other = next(f"{e}{n}" for e in ("wood", "fire", "earth", "metal", "water") for n in range(1, 6)
                 if f"{e}{n}" not in hand)
    moves = [(m.player, m.text) for m in match.moves] + [(match.to_move, f"{other}@a1")]
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO games (id, game, variant, options, seed, seats, created, started, public) VALUES "
                     "('hidden', 'shengke', 'standard', '{}', 5, ?, 1.0, 1.0, TRUE)",
                     (json.dumps([{"kind": "human", "token": "0" * 64}, {"kind": "human", "token": "1" * 64}]),))
        for ply, (player, text) in enumerate(moves):
            conn.execute("INSERT INTO moves VALUES ('hidden', ?, ?, ?, 2.0)", (ply, str(player), text))
    with serve(db_path) as client:
        entry = summaries(client)["hidden"]
    assert entry["status"] == "unavailable" and "move 4" in entry["reason"], entry
    shuffle = match.moves[1].text.split()[1]
    assert shuffle[:10] not in entry["reason"] and not [card for card in hand if card in entry["reason"]]


@pytest.fixture
def damaged_db(db_path: Path) -> Iterator[tuple[Path, Message]]:
    with serve(db_path) as client:
        good = create(client, game="abalone", public=True)
    for game_id, (row, _) in DAMAGED.items():
        add_row(db_path, game_id, **row)
    yield db_path, good


def test_games_that_cannot_be_resumed_are_set_aside_and_every_other_game_starts(
        damaged_db: tuple[Path, Message]) -> None:
    db, good = damaged_db
    with serve(db) as client:
        lobby = summaries(client)
        assert lobby[good["id"]]["status"] == "playing"
        for game_id, (_, word) in DAMAGED.items():
            entry = lobby[game_id]
            assert entry["status"] == "unavailable" and word in entry["reason"], entry
            assert_clear(entry["reason"])
            # the same through the game's own endpoint, and a clear refusal everywhere else
            assert client.get(f"/api/games/{game_id}").json() == entry
            record = client.get(f"/api/games/{game_id}/record")
            assert record.status_code == 409 and entry["reason"] in record.json()["error"]
            with client.websocket_connect(f"/ws/games/{game_id}") as ws:
                ws.send_json({"type": "hello"})
                error = ws.receive_json()
                assert error["type"] == "error" and entry["reason"] in error["error"]
                assert ws.receive()["code"] == 4409
        play_a_move(client, good)
        assert summaries(client)[good["id"]]["moves"] == 1


def test_a_game_whose_restart_raises_is_set_aside(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serve(db_path) as client:
        broken, fine = create(client), create(client)
    real = LiveGame.after_change

    def after_change(self: LiveGame) -> None:
        if self.id == broken["id"]:
            raise OverflowError("int too large to convert to float")
        real(self)

    monkeypatch.setattr(LiveGame, "after_change", after_change)
    with serve(db_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert broken["id"] not in hub.games and fine["id"] in hub.games
        entry = client.get(f"/api/games/{broken['id']}").json()
        assert entry["status"] == "unavailable" and "could not be restored" in entry["reason"]
        assert_clear(entry["reason"])
        play_a_move(client, fine)


def test_the_lobby_list_survives_bad_finished_rows(db_path: Path) -> None:
    with serve(db_path) as client:
        good = create(client, public=True)
        with connect(client, good, 0) as ws:
            until(ws, update_with(0))
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    rows = {
        "no-seats": {"seats": "null", "finished": 5.0, "result": '{"returns": [1, -1], "text": "x"}'},
        "bad-result": {"finished": 5.0, "result": '{"returns": "lots", "text": 5}'},
        "text-time": {"created": "yesterday", "finished": 5.0, "result": "null"},
        "huge-options": {"options": json.dumps({f"o{i}": i for i in range(2000)}), "finished": 5.0},
    }
    for game_id, row in rows.items():
        add_row(db_path, game_id, **row)
    with serve(db_path) as client:
        for params in ({}, {"status": "finished"}):
            lobby = summaries(client, **params)
            assert lobby[good["id"]]["status"] == "finished"
            for game_id in rows:
                assert lobby[game_id]["status"] == "unavailable", lobby[game_id]
                assert_clear(lobby[game_id]["reason"])
        for game_id in rows:  # loaded on demand: set aside, not a 500
            assert client.get(f"/api/games/{game_id}").json()["status"] == "unavailable"


# -- a corrupted file ------------------------------------------------------------------------------

def pages_of(db: Path, table: str) -> list[int]:
    """The leaf pages of a table's b-tree (SQLite's dbstat)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
                            (table,)).fetchall()
    return [pageno for (pageno,) in rows]


def random_game_moves(count: int, seed: int) -> list[str]:
    match = Match(qipan.load("abalone"), seed=1)
    rng = random.Random(seed)
    for _ in range(count):
        match.play(rng.choice(match.legal_texts()))
    return [move.text for move in match.moves]


def test_a_database_with_corrupted_pages_starts_and_sets_aside_what_it_cannot_read(db_path: Path) -> None:
    with serve(db_path) as client:
        created = {c["id"]: c for c in (create(client, game="abalone", public=True) for _ in range(30))}
    games = list(created)
    with sqlite3.connect(db_path) as conn:  # 40 moves each, so the moves fill many pages
        for n, game_id in enumerate(games):
            conn.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, 2.0)",
                             [(game_id, ply, str(ply % 2), text) for ply, text in enumerate(random_game_moves(40, n))])
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    rng = random.Random(3)
    damaged = rng.sample(pages_of(db_path, "moves"), 3) + rng.sample(pages_of(db_path, "games"), 1)
    with db_path.open("r+b") as f:
        for pageno in damaged:
            f.seek((pageno - 1) * page_size)
            f.write(rng.randbytes(page_size))
    with serve(db_path) as client:
        lobby = summaries(client)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        playing = [g for g in games if g in hub.games]
        assert playing and set(hub.unavailable) == set(games) - set(playing)
        for game_id in games:  # each is whole and playable, or unavailable
            # (listed in the lobby unless its row cannot be read: then it is not known to be public)
            entry = lobby.get(game_id) or client.get(f"/api/games/{game_id}").json()
            if game_id in playing:
                assert (entry["status"], entry["moves"]) == ("playing", 40)
            else:
                assert entry["status"] == "unavailable" and "cannot be read" in entry["reason"]
                assert_clear(entry["reason"])
        play_a_move(client, created[playing[0]], 40)


def test_a_file_that_is_not_a_database_stops_qipan_serve_with_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database" * 400)
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cannot open the database" in lines[0] and "not a database" in lines[0], lines
    assert "Traceback" not in result.output


# -- a full database -------------------------------------------------------------------------------

def test_a_full_database_answers_503_and_changes_nothing(db_path: Path) -> None:
    with serve(db_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with sqlite3.connect(db_path) as conn:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]

        @sa.event.listens_for(hub.store.engine, "connect")
        def small(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages + 2}")

        hub.store.engine.dispose()  # every connection from now on has the limit
        made = []
        for _ in range(200):
            # (against the AI: a public game with no free seat is not one of the client's few open ones)
            reply = client.post("/api/games", json={"game": "abalone", "public": True,
                                                    "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
            if reply.status_code != 201:
                break
            made.append(reply.json()["id"])
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert "full" in error and "nothing was changed" in error
        assert_clear(error)
        assert set(hub.games) == set(made)
        assert set(summaries(client)) == set(made)


def test_a_database_that_cannot_be_read_for_now_answers_503_and_sets_nothing_aside(db_path: Path) -> None:
    with serve(db_path) as client:
        created = create(client)
        with connect(client, created, 0) as ws:
            until(ws, update_with(0))
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert created["id"] not in hub.games  # finished and unwatched: read again when asked for
        locked = True

        @sa.event.listens_for(hub.store.engine, "before_cursor_execute")
        def busy(*_args: Any) -> None:
            if locked:
                error = sqlite3.OperationalError("database is locked")
                error.sqlite_errorcode = sqlite3.SQLITE_BUSY  # as SQLite sets it
                raise error

        for path in (f"/api/games/{created['id']}", "/api/games"):
            reply = client.get(path)
            assert reply.status_code == 503 and "cannot read its database right now" in reply.json()["error"]
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "error" and ws.receive()["code"] == 1013
        locked = False
        assert client.get(f"/api/games/{created['id']}").json()["status"] == "finished"
        assert not hub.unavailable


def test_an_unfinished_game_the_database_could_not_list_at_start_up_starts_when_first_opened(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(str(db_path), ai_delay=60, ai_processes=False)) as client:
        created = create(client, seats=[{"kind": "ai", "level": "random"}, {"kind": "human"}])

    def unreadable(_store: Store) -> list[str]:
        raise ReadFailed("database is locked")

    monkeypatch.setattr(Store, "unfinished_ids", unreadable)
    with serve(db_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert created["id"] not in hub.games and not hub.unavailable
        with connect(client, created, None) as ws:
            until(ws, update_with(1))  # loaded on demand, and the AI's turn ran
