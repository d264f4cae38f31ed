"""Server-wide caps: a game's length, and how many games between AIs run at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipan.server import create_app

from .helpers import connect, create, until, update_with

AI = {"kind": "ai", "level": "random"}


@pytest.fixture
def capped(db_path: Path) -> Iterator[TestClient]:
    app = create_app(str(db_path), ai_delay=0.0, ai_processes=False, max_plies=6, max_ai_games=1)
    with TestClient(app) as client:
        yield client


def test_a_game_ends_as_a_draw_at_the_server_move_limit(capped: TestClient) -> None:
    """Abalone by default never ends by itself: two clients holding both seats could grow it for ever."""
    created = create(capped)
    cycle = ["c3c4", "g5g6", "c4c3", "g6g5"]
    with connect(capped, created, 0) as black, connect(capped, created, 1) as white:
        for ply in range(6):
            (black, white)[ply % 2].send_json({"type": "move", "move": cycle[ply % 4]})
            last = until(black, update_with(ply + 1))
        assert last["result"]["reason"] == "move limit" and last["result"]["returns"] == [0.0, 0.0]
        assert "limit of 6 moves" in last["result"]["text"] and last["to_move"] is None
        black.send_json({"type": "move", "move": "c4c3"})
        assert "over" in until(black, lambda m: m["type"] == "error")["error"]
    assert capped.get(f"/api/games/{created['id']}").json()["status"] == "finished"


HELD_DELAY = 0.5
"""Seconds each AI waits before moving in the test of the cap: its 6-move game lasts at least 3 s,
so it cannot end (and free the cap, as it did with no wait) before the next requests are sent."""


@pytest.fixture
def slow_capped(db_path: Path) -> Iterator[TestClient]:
    app = create_app(str(db_path), ai_delay=HELD_DELAY, ai_processes=False, max_plies=6, max_ai_games=1)
    with TestClient(app) as client:
        yield client


def test_games_between_ais_are_capped_and_people_are_not(slow_capped: TestClient) -> None:
    capped = slow_capped
    first = capped.post("/api/games", json={"game": "chinese-checkers", "seats": [AI, AI], "public": True})
    assert first.status_code == 201
    refused = capped.post("/api/games", json={"game": "abalone", "seats": [AI, AI]})
    assert refused.status_code == 503 and refused.headers["retry-after"] == "60"
    assert "between AIs" in refused.json()["error"]
    assert len(capped.get("/api/games").json()) == 1
    assert capped.post("/api/games", json={"game": "abalone", "seats": [{"kind": "human"}, AI]}).status_code == 201
    assert capped.get(f"/api/games/{first.json()['id']}").json()["status"] != "finished"  # still held
    # When the AI game ends (here: the move limit), another may start.
    with capped.websocket_connect(f"/ws/games/{first.json()['id']}") as spectator:
        spectator.send_json({"type": "hello"})
        until(spectator, lambda m: m["type"] == "update" and m["result"] is not None)
    assert capped.post("/api/games", json={"game": "abalone", "seats": [AI, AI]}).status_code == 201


def test_the_caps_are_checked(db_path: Path) -> None:
    for bad in ({"max_plies": 0}, {"max_ai_games": -1}):
        with pytest.raises(ValueError, match="max_plies"):
            create_app(str(db_path), **bad)  # type: ignore[arg-type]
