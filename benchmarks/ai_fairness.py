"""How long a human waits for the AI's answer while all-AI games keep the AI workers busy.

Starts ``qipan serve`` (AI delay 0, 2 AI workers), creates ``--all-ai`` games between two AIs of
``--level`` (default: 40 hard Abalone games), lets them run for ``--warmup`` seconds, then plays
one human-vs-AI game per ``--human-levels`` level: the human plays a random legal move as soon as
it is their turn and times the round trip until the AI's answer arrives. Prints p50/p99/max per
level.

With ``--before DIR`` (the ``src`` directory of an older qipan, e.g. from
``git archive <commit> src | tar -x -C /tmp/before``), the same run alternates between that
version and this one (``--rounds`` each, before first), so both meet the same machine load, and
prints the ratios. The script speaks both wire protocols (tokens in the URL before issue 18, a
hello message after).

    python benchmarks/ai_fairness.py --before /tmp/qipan-before/src --moves 12
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

HERE = Path(__file__).resolve().parent.parent / "src"
UNLIMITED = ["--create-limit", "off", "--join-limit", "off", "--message-limit", "off", "--client-connections", "0",
             "--max-connections", "0"]
"""This version's per-client limits (every client here is 127.0.0.1); older versions had none."""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(src: Path, db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    extra = UNLIMITED if src == HERE else []
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(src)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "qipan.server", "--port", str(port), "--db", db, "--log-level", "warning",
             "--ai-delay", "0", "--ai-workers", "2", *extra],
            stdout=out, stderr=subprocess.STDOUT, env=env,
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


def ply_of(message: dict[str, Any]) -> int:
    return int(message["ply"]) if "ply" in message else len(message["moves"])


async def human_game(base: str, game: str, level: str, moves: int, rng: random.Random) -> list[float]:
    """Play ``moves`` moves as seat 0 against ``level``; the seconds each AI answer took."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        reply = await http.post("/api/games", json={"game": game,
                                                    "seats": [{"kind": "human"}, {"kind": "ai", "level": level}]})
        reply.raise_for_status()
        created = reply.json()
    token = created.get("token") or created["seats"][0]["token"]
    ws_base = base.replace("http", "ws", 1)
    new_protocol = "token" in created
    url = f"{ws_base}/ws/games/{created['id']}" + ("" if new_protocol else f"?seat=0&token={token}")
    waits: list[float] = []
    async with connect(url, max_size=2**24, ping_interval=None) as ws:
        if new_protocol:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
        sent_at: float | None = None
        while len(waits) < moves:
            message = json.loads(await ws.recv())
            if message["type"] != "update":
                continue
            if message["result"] is not None:
                break
            if message["to_move"] == 0 and message["legal"]:
                if sent_at is not None:
                    waits.append(time.perf_counter() - sent_at)
                    if len(waits) == moves:
                        break
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"])}))
    return waits


async def measure(args: argparse.Namespace, base: str) -> dict[str, list[float]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(args.all_ai):
            reply = await http.post("/api/games", json={
                "game": args.game, "seats": [{"kind": "ai", "level": args.level}] * 2})
            reply.raise_for_status()
    await asyncio.sleep(args.warmup)
    rng = random.Random(args.seed)
    results = {}
    for level in args.human_levels:
        results[level] = await human_game(base, args.game, level, args.moves, random.Random(rng.random()))
    return results


def run_server(src: Path, args: argparse.Namespace) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        proc = start_server(src, str(Path(tmp) / "fair.db"), port, log)
        try:
            return asyncio.run(measure(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def stats(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    if not values:
        return (float("nan"),) * 3
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return statistics.median(values), p99, values[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="abalone")
    parser.add_argument("--level", default="hard", help="level of both AIs in the all-AI games")
    parser.add_argument("--all-ai", type=int, default=40, help="all-AI games running meanwhile")
    parser.add_argument("--human-levels", nargs="+", default=["random", "easy"])
    parser.add_argument("--moves", type=int, default=20, help="AI answers timed per level and round")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds the all-AI games run first")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, help="src directory of an older qipan to compare with")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    versions = [("before", args.before.resolve()), ("after", HERE)] if args.before else [("this", HERE)]
    waits: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        for name, src in versions:
            started = time.perf_counter()
            for level, values in run_server(src, args).items():
                waits.setdefault((name, level), []).extend(values)
            print(f"round {round_ + 1}, {name}: {time.perf_counter() - started:.0f} s", flush=True)
    print(f"\n{args.all_ai} all-AI {args.level} {args.game} games running; "
          f"a human's wait for the AI's answer (seconds):")
    print(f"{'version':8} {'level':8} {'n':>4} {'p50':>8} {'p99':>8} {'max':>8}")
    for (name, level), values in waits.items():
        p50, p99, top = stats(values)
        print(f"{name:8} {level:8} {len(values):4d} {p50:8.3f} {p99:8.3f} {top:8.3f}")
    if args.before:
        print("\nbefore / after:")
        for level in args.human_levels:
            b, a = stats(waits[("before", level)]), stats(waits[("after", level)])
            print(f"  {level:8} p50 {b[0] / a[0]:8.1f}x   p99 {b[1] / a[1]:8.1f}x")


if __name__ == "__main__":
    main()
