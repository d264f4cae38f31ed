"""Per-move cost against game length: the server's CPU time and the bytes of each update early in
a game and thousands of plies in, printed side by side.

Two scripted players move a row of three marbles out and back in Abalone with its default
options (no quiet-move limit, no repetition rule: the game never ends) while a spectator watches.
Over a window of moves starting at each measured ply the script reads the server process's CPU
time (user + system, from /proc) and the size of every update the three connections receive.
The issue's bar: at ply 4,000 within 1.5x of ply 50.

    python benchmarks/server_long_game.py                      # windows at ply 50 and 4,000
    python benchmarks/server_long_game.py --at 50 1000 4000 --window 400
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

from server_load import free_port, start_server

CYCLE = ["c3c4", "g5g6", "c6c5", "g8g7"]
"""Black's c-row steps out, white's g-row steps out, both step back: the start again."""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Seat:
    """One connection: reads updates, remembering the newest ply and the size of each update."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.ply = -1
        self.sizes: list[int] = []

    async def until(self, ply: int) -> None:
        while self.ply < ply:
            raw = await self.ws.recv()
            message = json.loads(raw)
            if message["type"] == "error":
                raise SystemExit(f"server error: {message['error']}")
            if message["type"] == "update":
                self.ply = message["ply"]
                self.sizes.append(len(raw.encode("utf-8") if isinstance(raw, str) else raw))


async def play(base: str, pid: int, windows: list[int], width: int) -> dict[int, dict[str, float]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = (await http.post("/api/games", json={"game": "abalone"})).raise_for_status().json()
        invite = created["seats"][1]["invite"]
        claimed = (await http.post(f"/api/games/{created['id']}/claim", json={"invite": invite})).raise_for_status()
    hellos = [{"type": "hello", "seat": 0, "token": created["token"]},
              {"type": "hello", "seat": 1, "token": claimed.json()["token"]}, {"type": "hello"}]
    url = f"{base.replace('http', 'ws', 1)}/ws/games/{created['id']}"
    sockets = [await connect(url, max_size=2**24, ping_interval=None) for _ in hellos]
    seats = [Seat(ws) for ws in sockets]
    for seat, hello in zip(seats, hellos, strict=True):
        await seat.ws.send(json.dumps(hello))
        await seat.until(0)
    results: dict[int, dict[str, float]] = {}
    started = time.perf_counter()
    ply = 0
    for at in windows:
        while ply < at:  # get there without measuring
            await move(seats, ply)
            ply += 1
        for seat in seats:
            seat.sizes.clear()
        cpu = cpu_seconds(pid)
        for _ in range(width):
            await move(seats, ply)
            ply += 1
        spent = cpu_seconds(pid) - cpu
        results[at] = {
            "cpu_ms": 1000 * spent / width,
            "spectator_bytes": statistics.median(seats[2].sizes),
            "seat_bytes": statistics.median(seats[0].sizes + seats[1].sizes),
        }
        print(f"  ply {at:>5}..{at + width}: {results[at]['cpu_ms']:.2f} ms CPU a move "
              f"({time.perf_counter() - started:.0f} s in)", flush=True)
    for ws in sockets:
        await ws.close()
    return results


async def move(seats: list[Seat], ply: int) -> None:
    """The mover plays the cycle's next move; wait until every connection has the update."""
    await seats[ply % 2].ws.send(json.dumps({"type": "move", "move": CYCLE[ply % 4]}))
    for seat in seats:
        await seat.until(ply + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--at", type=int, nargs="+", default=[50, 4000], help="plies to measure at (default 50 4000)")
    parser.add_argument("--window", type=int, default=300, help="moves measured at each ply (default 300)")
    args = parser.parse_args()
    windows = sorted(args.at)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(str(Path(tmp) / "long.db"), port, Path(tmp) / "server.log", "normal")
        try:
            results = asyncio.run(play(f"http://127.0.0.1:{port}", proc.pid, windows, args.window))
        finally:
            proc.terminate()
            proc.wait(10)
    first, last = results[windows[0]], results[windows[-1]]
    print(f"\n{'':28}" + "".join(f"{'ply ' + str(at):>12}" for at in windows) + f"{'ratio':>9}")
    for key, label in (("cpu_ms", "server CPU per move (ms)"), ("spectator_bytes", "update bytes (spectator)"),
                       ("seat_bytes", "update bytes (seats)")):
        row = "".join(f"{results[at][key]:>12.2f}" if key == "cpu_ms" else f"{results[at][key]:>12.0f}"
                      for at in windows)
        print(f"{label:28}{row}{last[key] / first[key]:>8.2f}x")


if __name__ == "__main__":
    main()
