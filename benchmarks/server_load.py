"""Load test for ``qipan serve``: N concurrent games, two scripted players each, over WebSockets.

Each player waits for an update that offers it legal moves, plays a random one, and times the
round trip until the server's acknowledging update (sent only after the move is committed to the
database). Prints moves per second and the latency percentiles.

    python benchmarks/server_load.py --games 200 --moves 40            # players think ~1 s per move
    python benchmarks/server_load.py --games 200 --think 0             # saturate the server
    python benchmarks/server_load.py --url http://127.0.0.1:8000   # against a running server
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from running_server import UNLIMITED, free_port


def start_server(db: str, port: int, log: Path, sync: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipan.server", "--port", str(port), "--db", db, "--log-level", "warning",
             "--sqlite-sync", sync, *UNLIMITED],
            stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games?limit=1", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")


async def player(ws_base: str, created: dict[str, Any], seat: int, moves: int, think: float, rng: random.Random,
                 latencies: list[float], ready: asyncio.Barrier, go: asyncio.Event) -> int:
    """Play ``seat`` until the game has ``moves`` plies or ends; return how many moves it made."""
    made = 0
    async with connect(f"{ws_base}/ws/games/{created['id']}", max_size=2**22, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": created["tokens"][seat]}))
        first = json.loads(await ws.recv())
        await ready.wait()
        await go.wait()
        message = first
        sent_at: float | None = None
        sent_ply = 0
        while True:
            if message["type"] == "error":
                raise RuntimeError(f"server error: {message['error']}")
            if message["type"] == "update":
                ply = message["ply"]
                if sent_at is not None and ply > sent_ply:
                    latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                if message["result"] is not None or ply >= moves:
                    return made
                if message["legal"] and sent_at is None:
                    if think:
                        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    sent_ply = ply
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"])}))
                    made += 1
            message = json.loads(await ws.recv())


async def run(args: argparse.Namespace, base: str) -> None:
    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        limit = asyncio.Semaphore(16)

        async def create() -> dict[str, Any]:
            async with limit:
                body: dict[str, Any] = {"game": args.game, "options": args.options}
                if args.ai:
                    body["seats"] = [{"kind": "human"}, {"kind": "ai", "level": args.ai}]
                reply = await http.post("/api/games", json=body)
                reply.raise_for_status()
                data: dict[str, Any] = reply.json()
                data["tokens"] = {data["seat"]: data["token"]}
                for seat in data["seats"]:  # each invited player claims their seat
                    if seat.get("invite"):
                        claim = await http.post(f"/api/games/{data['id']}/claim", json={"invite": seat["invite"]})
                        data["tokens"][seat["seat"]] = claim.raise_for_status().json()["token"]
                return data

        games = await asyncio.gather(*(create() for _ in range(args.games)))
    latencies: list[float] = []
    players = [(g, s["seat"]) for g in games for s in g["seats"] if s["kind"] == "human"]
    ready = asyncio.Barrier(len(players) + 1)
    go = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = [
        asyncio.create_task(player(ws_base, g, s, args.moves, args.think, random.Random(rng.random()), latencies,
                                   ready, go))
        for g, s in players
    ]
    await ready.wait()
    started = time.perf_counter()
    go.set()
    made = sum(await asyncio.gather(*tasks))
    elapsed = time.perf_counter() - started
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p / 100 * len(ms)))]

    print(f"games {args.games} ({args.game}{', AI ' + args.ai if args.ai else ''}), connections {len(players)}, "
          f"think {args.think} s, "
          f"moves {made} in {elapsed:.2f} s")
    print(f"throughput      {made / elapsed:8.1f} moves/s")
    print(f"round trip (ms) p50 {pct(50):.1f}  p95 {pct(95):.1f}  p99 {pct(99):.1f}  "
          f"max {ms[-1]:.1f}  mean {statistics.fmean(ms):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--moves", type=int, default=40, help="plies per game (default 40)")
    parser.add_argument("--game", default="abalone", help="game id (two-player games; default abalone)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player thinks before moving (uniform 0.5x..1.5x; 0: move at once, "
                             "which measures the saturated server)")
    parser.add_argument("--ai", metavar="LEVEL", help="seat an AI of this level against one scripted player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server (default: start one on a temporary SQLite file)")
    parser.add_argument("--db", help="database for the server started here (default: a temporary SQLite file)")
    parser.add_argument("--sqlite-sync", choices=["normal", "full"], default="normal",
                        help="SQLite commit mode of the server started here (full: fsync every commit)")
    args = parser.parse_args()
    args.options = dict(item.split("=", 1) for item in args.option)
    if args.url:
        asyncio.run(run(args, args.url.rstrip("/")))
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(args.db or str(Path(tmp) / "load.db"), port, Path(tmp) / "server.log", args.sqlite_sync)
        try:
            asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
