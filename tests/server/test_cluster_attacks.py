"""Cluster mode under attack: a hostile client reaching a game through a process that does not own
it gets the owner's own answers, and the processes' failures leave nothing behind (two processes
on one PostgreSQL and one Redis, served in threads of this process as in :mod:`test_relay`)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .helpers import Message
from .test_relay import Served, own_pair, pair, pg_url, redis, seated

__all__ = ["own_pair", "pair", "pg_url", "redis"]  # the fixtures this module uses


@contextlib.contextmanager
def raw_socket(served: Served, game_id: str, first: str) -> Iterator[ClientConnection]:
    """A WebSocket to the game on ``served`` that has sent ``first``."""
    with connect(f"ws://127.0.0.1:{served.port}/ws/games/{game_id}", open_timeout=10, max_size=2**22) as ws:
        ws.send(first)
        yield ws


def answers(ws: ClientConnection, count: int | None = None, timeout: float = 20.0) -> tuple[int | None, list[Message]]:
    """The messages ``ws`` gets (``count`` of them, else until it is closed) without the server's
    time, and its close code (None: still open)."""
    seen: list[Message] = []
    deadline = time.monotonic() + timeout
    while count is None or len(seen) < count:
        try:
            seen.append({**json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic()))), "now": None})
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd else None), seen
    return None, seen


def test_a_hello_the_owner_accepts_is_accepted_through_the_relay(pair: tuple[Served, Served]) -> None:
    """The edge reads the hello; the owner must see that very hello, not a copy written out again
    (1e5 comes back as 100000.0: a hello under the size limit grew past it, and the relayed
    client was told its message was too long, then closed 4408 for no hello)."""
    a, b = pair
    game_id, _ = seated(a, b)
    hello = '{"type": "hello", "pad": [' + ",".join(["1e5"] * 1900) + "]}"
    assert len(hello) < 8192 < len(json.dumps(json.loads(hello)))
    seen = []
    for served in (a, b):
        with raw_socket(served, game_id, hello) as ws:
            seen.append(answers(ws, 1))
    assert seen[0][1][0]["type"] == "update" and seen[0][1][0]["seat"] is None
    assert seen[1] == seen[0]


def test_a_relayed_hello_is_checked_like_a_direct_one(pair: tuple[Served, Served]) -> None:
    a, b = pair
    game_id, tokens = seated(a, b)
    hellos = [{"type": "hello", "seat": 0, "token": "x" * 8000}, {"type": "hello", "seat": 7, "token": tokens[0]},
              {"type": "hello", "seat": 0, "token": [tokens[0]]}, {"type": "hello", "seat": 1, "token": tokens[0]},
              {"type": "hello", "seat": 0, "token": tokens[0], "name": "\u0000"}]
    for hello in hellos:
        seen = []
        for served in (a, b):
            with raw_socket(served, game_id, json.dumps(hello)) as ws:
                seen.append(answers(ws, 2 if "name" in hello else None))  # (a bad name: the seat is kept)
        assert seen[0] == seen[1], hello
        assert seen[0][0] == (None if "name" in hello else 4403)
