"""A real ``qipan serve`` process for durability tests, and a small WebSocket player for it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .helpers import History, Message, end_process, free_port


class ServerProcess:
    """``python -m qipan.server`` on a free port with the given database; kill and restart it."""

    def __init__(self, db: str, log: Path, *extra: str):
        self.db = db
        self.extra = list(extra)
        self.port = free_port()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "qipan.server", "--port", str(self.port), "--db", self.db,
                 "--ai-delay", "0", "--log-level", "warning", *self.extra],
                stdout=out, stderr=subprocess.STDOUT, env=env,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/games?limit=1", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start in 60 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, exactly like a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            end_process(self.proc, grace=10)
            self.proc = None

    def post(self, path: str, body: Any, status: int = 201) -> Message:
        reply = httpx.post(self.base + path, json=body, timeout=10)
        assert reply.status_code == status, reply.text
        data: Message = reply.json()
        return data

    def get(self, path: str) -> Any:
        return httpx.get(self.base + path, timeout=10).json()

    def token(self, created: Message, seat: int) -> str:
        """The seat's token: the creator's from the answer, any other claimed with its invitation
        (once; kept in ``created``)."""
        tokens: dict[int, str] = created.setdefault("tokens", {created["seat"]: created["token"]})
        if seat not in tokens:
            claimed = self.post(f"/api/games/{created['id']}/claim", {"invite": created["seats"][seat]["invite"]}, 200)
            tokens[seat] = claimed["token"]
        return tokens[seat]

    def seat(self, created: Message, seat: int | None) -> Player:
        """A connection at ``seat`` (None: a spectator). Every invitation is claimed first: nobody
        moves before every seat is taken."""
        for other, info in enumerate(created["seats"]):
            if seat is not None and info.get("invite"):
                self.token(created, other)
        hello: Message = {"type": "hello"} if seat is None else {"type": "hello", "seat": seat,
                                                                  "token": self.token(created, seat)}
        player = Player(connect(f"ws://127.0.0.1:{self.port}/ws/games/{created['id']}", open_timeout=10))
        player.send(hello)
        return player


class Player:
    """One WebSocket connection, reading JSON messages with a timeout. Like the web client it
    keeps the move history from full and delta updates: each update it returns has the whole
    history so far in ``moves``."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws.__enter__()  # what ``with connect(...)`` does, for a connection kept open
        self.last: Message | None = None
        self.history = History()

    def recv(self) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=20))
        if message["type"] == "update":
            self.history.add(message)
            message["moves"] = list(self.history.moves)
            self.last = message
        return message

    def until_moves(self, n: int) -> Message:
        while True:
            message = self.recv()
            if message["type"] == "update" and len(message["moves"]) >= n:
                return message

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()


def play_alternately(players: dict[int, Player], moves: int) -> Message:
    """Whoever is to move plays their last legal move, ``moves`` times; the final update."""
    current = {seat: p.recv() for seat, p in players.items()}
    for _ in range(moves):
        mover = next(s for s, m in current.items() if m["legal"])
        n = len(current[mover]["moves"])
        players[mover].send({"type": "move", "move": current[mover]["legal"][-1]})
        target = len(players[mover].until_moves(n + 1)["moves"])
        current = {s: p.until_moves(target) if s != mover else p.last for s, p in players.items()}  # type: ignore[misc]
    return current[next(iter(current))]
