"""Helpers shared by the server tests."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

Message = dict[str, Any]
T = TypeVar("T")


def create(client: TestClient, game: str = "abalone", **body: Any) -> Message:
    """Create a game, then claim every invitation as its invitee would: ``tokens`` maps each
    human seat to its token (the creator's from the answer, the others from their claims)."""
    reply = client.post("/api/games", json={"game": game, **body})
    assert reply.status_code == 201, reply.text
    data: Message = reply.json()
    data["tokens"] = {} if data["seat"] is None else {data["seat"]: data["token"]}
    for seat in data["seats"]:
        if seat.get("invite"):
            claimed = client.post(f"/api/games/{data['id']}/claim", json={"invite": seat["invite"]})
            assert claimed.status_code == 200, claimed.text
            data["tokens"][claimed.json()["seat"]] = claimed.json()["token"]
    return data


def hello(created: Message, seat: int | None) -> Message:
    """The first message of a connection at ``seat`` (None: a spectator)."""
    if seat is None:
        return {"type": "hello"}
    return {"type": "hello", "seat": seat, "token": created["tokens"][seat]}


@contextlib.contextmanager
def connect(client: TestClient, created: Message, seat: int | None) -> Iterator[WebSocketTestSession]:
    """A WebSocket to the game that has said hello as ``seat``."""
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json(hello(created, seat))
        yield ws


def until(ws: WebSocketTestSession, test: Callable[[Message], bool], limit: int = 50) -> Message:
    """Read messages until one passes ``test`` (fails after ``limit`` others)."""
    for _ in range(limit):
        message: Message = ws.receive_json()
        if test(message):
            return message
    raise AssertionError(f"no matching message in {limit}")


def update_with(moves: int) -> Callable[[Message], bool]:
    """A test for the update that shows exactly ``moves`` plies."""
    return lambda m: m["type"] == "update" and m["ply"] == moves


class History:
    """A client's copy of the public move list, kept from full and delta updates as the web
    client keeps it (and checked: a delta must continue exactly where the copy ends)."""

    def __init__(self) -> None:
        self.moves: list[Message] = []

    def add(self, message: Message) -> Message:
        if message["type"] == "update":
            first, known = message["first"], len(self.moves)
            assert first <= known, f"a gap: the update starts after ply {first}, the copy ends at {known}"
            assert len(message["moves"]) == message["ply"] - first
            self.moves[first:] = message["moves"]
            assert [m["ply"] for m in self.moves] == list(range(1, message["ply"] + 1))
        return message


def end_process(proc: subprocess.Popen[Any], sig: signal.Signals = signal.SIGTERM, grace: float = 15.0) -> None:
    """Send ``sig`` to ``proc`` (if it still runs) and wait for it; SIGKILL after ``grace`` seconds."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(test: Callable[[], T], what: str = "the condition", timeout: float = 30.0) -> T:
    """The first true answer of ``test()``, asked every 50 ms. For a condition another process or
    thread brings about; ``timeout`` is a deadline (AssertionError naming ``what``), not a
    measurement."""
    deadline = time.monotonic() + timeout
    while not (value := test()):
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)
    return value


async def eventually(test: Callable[[], T | Awaitable[T]], what: str = "the condition", timeout: float = 30.0
                     ) -> T:
    """:func:`wait_for` in an event loop: ``test`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        value: Any = test()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.05)


class GatedAgent:
    """An AI that waits for a gate before it moves (its first legal move): a test can act while
    the AI is to move, or prove that its thinking blocks nothing else."""

    name = "gated"

    def __init__(self, gate: threading.Event):
        self.gate = gate

    def choose(self, game: Any, view: Any, rng: Any) -> Any:
        assert self.gate.wait(30)
        return game.legal_actions(game.sample_state(view, rng))[0]

    def observe(self, game: Any, view: Any) -> None:
        return None
