"""What the AI benchmarks share: a ``qipan serve`` process (this version or an older source tree)
and a scripted human player that speaks both wire protocols (tokens in the URL before issue 18,
a hello message after)."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parent.parent / "src"
UNLIMITED = ["--create-limit", "off", "--join-limit", "off", "--message-limit", "off", "--client-connections", "0",
             "--max-connections", "0", "--max-ai-games", "100000"]
"""This version's per-client limits and its cap on games between AIs are off (every benchmark
client is 127.0.0.1, and the AI benchmarks run many all-AI games on purpose); older versions had
none."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_up(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Return once the server at ``base`` answers (60 s at most); SystemExit with the tail of its
    ``log`` if it does not, or ``proc`` ends first."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/games?limit=1", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"{base} did not start: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.2)


@contextmanager
def server(src: Path, db: Path, *options: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``python -m qipan.server`` from ``src`` on a free port (AI delay 0); its URL and process."""
    port = free_port()
    log = db.with_suffix(".log")
    extra = UNLIMITED if src == HERE else []
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(src)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipan.server", "--port", str(port), "--db", str(db), "--log-level", "warning",
             "--ai-delay", "0", *extra, *options],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, proc, log)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


async def play_as_human(base: str, body: dict[str, Any], rng: random.Random,
                        answered: Callable[[float], bool] | None = None) -> None:
    """Create a game whose seat 0 is human (``body``: the create request) and play it with random
    legal moves at once, until it ends or ``answered(seconds the opponents took)`` says stop."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        reply = await http.post("/api/games", json=body)
        reply.raise_for_status()
        created = reply.json()
    new_protocol = "token" in created
    token = created["token"] if new_protocol else created["seats"][0]["token"]
    url = base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    async with connect(url if new_protocol else f"{url}?seat=0&token={token}", max_size=2**24,
                       ping_interval=None) as ws:
        if new_protocol:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
        sent_at: float | None = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "update":
                continue
            if message["result"] is not None:
                return
            if message["to_move"] == 0 and message["legal"]:
                if sent_at is not None and answered is not None and not answered(time.perf_counter() - sent_at):
                    return
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"])}))


async def create_all_ai(base: str, game: str, level: str, players: int = 2,
                        options: dict[str, Any] | None = None) -> str:
    """Create a game of AIs at ``level``; its id."""
    body: dict[str, Any] = {"game": game, "seats": [{"kind": "ai", "level": level}] * players}
    if options:
        body["options"] = options
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        reply = await http.post("/api/games", json=body)
        reply.raise_for_status()
        game_id: str = reply.json()["id"]
        return game_id
