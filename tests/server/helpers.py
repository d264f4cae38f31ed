"""Helpers shared by the server tests."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

Message = dict[str, Any]


def create(client: TestClient, game: str = "abalone", **body: Any) -> Message:
    reply = client.post("/api/games", json={"game": game, **body})
    assert reply.status_code == 201, reply.text
    data: Message = reply.json()
    return data


def seat_path(created: Message, seat: int | None) -> str:
    if seat is None:
        return f"/ws/games/{created['id']}"
    return f"/ws/games/{created['id']}?seat={seat}&token={created['seats'][seat]['token']}"


def until(ws: WebSocketTestSession, test: Callable[[Message], bool], limit: int = 50) -> Message:
    """Read messages until one passes ``test`` (fails after ``limit`` others)."""
    for _ in range(limit):
        message: Message = ws.receive_json()
        if test(message):
            return message
    raise AssertionError(f"no matching message in {limit}")


def update_with(moves: int) -> Callable[[Message], bool]:
    """A test for the update that shows exactly ``moves`` plies."""
    return lambda m: m["type"] == "update" and len(m["moves"]) == moves


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
