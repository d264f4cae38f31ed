"""Takebacks and draw offers: offered, accepted, declined, withdrawn; only where a takeback undoes
no chance and reveals nothing; an AI accepts takebacks and declines draws; a takeback is durable
(a restart, even after SIGKILL, resumes the position after it)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from qipan.server import create_app
from qipan.server.store import Store

from .helpers import Message, connect, create, until
from .server_process import ServerProcess


def error(ws: WebSocketTestSession) -> str:
    message: str = until(ws, lambda m: m["type"] == "error")["error"]
    return message


def update(ws: WebSocketTestSession, test: Any = lambda m: True) -> Message:
    return until(ws, lambda m: m["type"] == "update" and test(m))


def play(black: WebSocketTestSession, white: WebSocketTestSession, moves: list[str]) -> Message:
    """Play ``moves`` alternately from the start (black first); the last update black saw."""
    seen: Message = {}
    for ply, move in enumerate(moves):
        (black if ply % 2 == 0 else white).send_json({"type": "move", "move": move})
        seen = update(black, lambda m, n=ply + 1: m["ply"] == n)
        update(white, lambda m, n=ply + 1: m["ply"] == n)
    return seen


def test_a_takeback_accepted_undoes_the_askers_last_move_and_what_followed(client: TestClient,
                                                                           db_path: Path) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        update(black), update(white)
        play(black, white, ["a1b2", "i5h5", "b2c3"])
        black.send_json({"type": "offer", "offer": "takeback"})
        asked = update(white, lambda m: bool(m["offers"]))
        assert asked["offers"] == [{"offer": "takeback", "by": 0}] and asked["ply"] == 3
        mine = update(black, lambda m: bool(m["offers"]))
        assert mine["can"]["takeback"] is False  # waiting for the answer
        white.send_json({"type": "accept", "offer": "takeback"})
        back = update(black, lambda m: m["ply"] == 2)
        assert back["offers"] == [] and back["to_move"] == 0 and back["first"] == 2 and back["moves"] == []
        assert [m["text"] for m in update(white, lambda m: m["ply"] == 2)["moves"]] == []
    stored = Store(f"sqlite:///{db_path}")
    assert [m.text for m in stored.moves(created["id"])] == ["a1b2", "i5h5"]  # deleted in the database too
    stored.close()


def test_a_declined_offer_waits_for_the_askers_next_move_and_a_withdrawn_one_does_not(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        update(black), update(white)
        play(black, white, ["a1b2", "i5h5", "b2c3"])
        black.send_json({"type": "offer", "offer": "draw"})
        update(white, lambda m: bool(m["offers"]))
        black.send_json({"type": "withdraw", "offer": "draw"})
        gone = update(white, lambda m: not m["offers"])
        assert gone["result"] is None
        assert update(black, lambda m: not m["offers"])["can"]["draw"] is True  # withdrawn: may offer again
        black.send_json({"type": "offer", "offer": "takeback"})
        update(white, lambda m: bool(m["offers"]))
        white.send_json({"type": "decline", "offer": "takeback"})
        declined = update(black, lambda m: not m["offers"])
        assert declined["ply"] == 3 and declined["can"]["takeback"] is False
        black.send_json({"type": "offer", "offer": "takeback"})
        assert "declined" in error(black)
        white.send_json({"type": "move", "move": "h5g5"})
        assert update(black, lambda m: m["ply"] == 4)["can"]["takeback"] is False  # black has not moved again
        black.send_json({"type": "move", "move": "c3d4"})
        assert update(black, lambda m: m["ply"] == 5)["can"]["takeback"] is True
        black.send_json({"type": "offer", "offer": "takeback"})
        update(white, lambda m: bool(m["offers"]))
        white.send_json({"type": "move", "move": "g5f4"})  # a move answers the offer by clearing it
        assert update(black, lambda m: m["ply"] == 6)["offers"] == []


def test_offer_messages_are_checked(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white, \
            connect(client, created, None) as spectator:
        update(black), update(white), update(spectator)
        black.send_json({"type": "offer", "offer": "takeback"})
        assert "no move to take back" in error(black)
        for bad in (None, "resign", ["draw"], "x" * 5000):
            black.send_json({"type": "offer", "offer": bad})
            message = error(black)
            assert '"offer" must be' in message and len(message) < 120
        black.send_json({"type": "accept", "offer": "draw"})
        assert "no draw offer" in error(black)
        black.send_json({"type": "offer", "offer": "draw"})
        update(white, lambda m: bool(m["offers"]))
        black.send_json({"type": "accept", "offer": "draw"})
        assert "your own offer" in error(black)
        white.send_json({"type": "withdraw", "offer": "draw"})
        assert "only the player who made" in error(white)
        white.send_json({"type": "offer", "offer": "draw"})
        assert "accept or decline" in error(white)
        spectator.send_json({"type": "accept", "offer": "draw"})
        assert "spectators" in error(spectator)
        white.send_json({"type": "accept", "offer": "draw"})
        done = update(black, lambda m: m["result"] is not None)
    assert done["result"]["reason"] == "agreement" and done["result"]["returns"] == [0, 0]
    assert done["can"] == {"takeback": False, "draw": False, "abort": False} and done["offers"] == []


@pytest.mark.parametrize(("game", "options", "why"), [
    ("kelighine", {}, "roll"),
    ("shengke", {}, "hidden information"),
    ("tellstones", {}, "hidden information"),
    ("chinese-checkers", {"players": 3}, "two-player"),
])
def test_takebacks_are_refused_where_they_would_undo_chance_or_reveal_anything(
        client: TestClient, game: str, options: dict[str, Any], why: str) -> None:
    created = create(client, game=game, options=options)
    seats = range(len(created["seats"]))
    sockets = {seat: client.websocket_connect(f"/ws/games/{created['id']}") for seat in seats}
    entered = {seat: ws.__enter__() for seat, ws in sockets.items()}
    try:
        for seat, ws in entered.items():
            ws.send_json({"type": "hello", "seat": seat, "token": created["tokens"][seat]})
        last = {seat: update(ws) for seat, ws in entered.items()}
        asker: int | None = None
        for _ in range(8):  # play until someone has finished a turn and another player is to move
            mover = last[0]["to_move"]
            if isinstance(mover, int) and asker is not None and mover != asker:
                break
            if isinstance(mover, int):
                ply = last[0]["ply"]
                entered[mover].send_json({"type": "move", "move": last[mover]["legal"][0]})
                asker = mover
                last = {seat: update(ws, lambda m, p=ply: m["ply"] > p) for seat, ws in entered.items()}
        assert asker is not None
        assert last[asker]["can"]["takeback"] is False
        entered[asker].send_json({"type": "offer", "offer": "takeback"})
        assert why in error(entered[asker])
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_an_ai_accepts_a_takeback_at_once_and_declines_a_draw(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}])
    with connect(client, created, 0) as black:
        update(black)
        black.send_json({"type": "move", "move": "a1b2"})
        answered = update(black, lambda m: m["ply"] == 2)
        assert answered["can"]["takeback"] is True and answered["can"]["draw"] is True
        black.send_json({"type": "offer", "offer": "draw"})
        declined = update(black, lambda m: not m["can"]["draw"])
        assert declined["result"] is None and declined["offers"] == []
        black.send_json({"type": "offer", "offer": "takeback"})
        back = update(black, lambda m: m["ply"] == 0)
        assert back["to_move"] == 0 and back["offers"] == [] and back["can"]["takeback"] is False
        black.send_json({"type": "move", "move": "a5b5"})  # a different move; the AI answers it
        assert update(black, lambda m: m["ply"] == 2)["to_move"] == 0
        black.send_json({"type": "sync"})
        assert update(black)["moves"][0]["text"] == "a5b5"


def test_a_restart_after_a_takeback_resumes_the_position_after_it(db_path: Path) -> None:
    app = create_app(str(db_path), ai_delay=0.0, ai_processes=False)
    with TestClient(app) as client:
        created = create(client, clock={"base": 600, "increment": 2})
        with connect(client, created, 0) as black, connect(client, created, 1) as white:
            update(black), update(white)
            play(black, white, ["a1b2", "i5h5", "b2c3", "h5g5"])
            white.send_json({"type": "offer", "offer": "takeback"})
            update(black, lambda m: bool(m["offers"]))
            black.send_json({"type": "accept", "offer": "takeback"})
            before = update(white, lambda m: m["ply"] == 3)
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client, \
            connect(client, created, 1) as white:
        after = update(white)
        assert after["ply"] == 3 and [m["text"] for m in after["moves"]] == ["a1b2", "i5h5", "b2c3"]
        assert after["legal"] == before["legal"] and after["to_move"] == 1
        # The clocks the takeback left came back too: white's turn started at the takeback.
        assert after["clocks"][0] == pytest.approx(before["clocks"][0], abs=0.01)
        stored = client.app.state.hub.store.game(created["id"]).clock  # type: ignore[attr-defined]
        assert stored["base"] == 600 and stored["reset"]["ply"] == 3
        white.send_json({"type": "move", "move": "h5g4"})  # play on from there
        assert update(white, lambda m: m["ply"] == 4)["moves"][-1]["text"] == "h5g4"


def test_sigkill_never_resurrects_a_taken_back_move(tmp_path: Path) -> None:
    server = ServerProcess(str(tmp_path / "takeback.db"), tmp_path / "server.log")
    server.start()
    try:
        created = server.post("/api/games", {"game": "abalone"})
        black, white = server.seat(created, 0), server.seat(created, 1)
        black.recv(), white.recv()
        for ply, (player, move) in enumerate([(black, "a1b2"), (white, "i5h5"), (black, "b2c3")], 1):
            player.send({"type": "move", "move": move})
            black.until_moves(ply), white.until_moves(ply)
        black.send({"type": "offer", "offer": "takeback"})
        while not white.recv().get("offers"):
            pass
        white.send({"type": "accept", "offer": "takeback"})
        while len(black.recv().get("moves", [None] * 3)) != 2:
            pass  # the takeback is acknowledged: committed
        server.kill()
        time.sleep(0.2)
        server.start()
        again = server.seat(created, 0).recv()
        assert [m["text"] for m in again["moves"]] == ["a1b2", "i5h5"] and again["to_move"] == 0
    finally:
        server.stop()
