"""Soak a server's AI workers and print their memory (RSS) over time.

Starts ``qipan serve`` (AI delay 0, ``--workers`` AI workers) and keeps ``--games`` games running
for ``--minutes``: every game and AI level in turn (Abalone, Chinese Checkers with 2, 3 and 6
players, Kelighine with 2 and 3, Sheng-Ke, Tellstones), two in three of them between AIs and the
others against a scripted human who answers at once; a game that ends is replaced by the next one
in the rotation. Every ``--interval`` seconds it prints each worker's resident memory (from
/proc), then the start, peak and end per worker.

    python benchmarks/ai_worker_memory.py --minutes 10
    python benchmarks/ai_worker_memory.py --minutes 10 --src /tmp/qipan-before/src   # an older qipan
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from running_server import HERE, create_all_ai, play_as_human, server

SPECS: list[tuple[str, int, dict[str, Any], list[str]]] = [
    ("abalone", 2, {}, ["easy", "medium", "hard"]),
    ("chinese-checkers", 2, {"players": 2}, ["easy", "medium", "hard", "max"]),
    ("chinese-checkers", 3, {"players": 3}, ["medium", "hard"]),
    ("chinese-checkers", 6, {"players": 6}, ["medium", "hard"]),
    ("kelighine", 2, {}, ["easy", "medium", "hard"]),
    ("kelighine", 3, {"players": 3}, ["hard"]),
    ("shengke", 2, {}, ["easy", "medium", "hard"]),
    ("tellstones", 2, {}, ["easy", "medium", "hard", "perfect"]),
]
"""(game, players, options, levels): the rotation of games the soak keeps running."""


def rotation() -> list[tuple[str, int, dict[str, Any], str]]:
    return [(game, players, options, level) for game, players, options, levels in SPECS for level in levels]


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def ai_workers(server_pid: int) -> list[int]:
    """The server's AI worker processes (its multiprocessing children, less the resource tracker)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and "spawn_main" in cmdline and "resource_tracker" not in cmdline:
            found.append(int(proc.name))
    return sorted(found)


async def keep_playing(base: str, args: argparse.Namespace, stop: float, counts: dict[str, int]) -> None:
    specs = itertools.cycle(rotation())
    rng = random.Random(args.seed)
    running: dict[str, tuple[str, str]] = {}  # all-AI game id -> (game, level)
    humans: set[asyncio.Task[None]] = set()

    def finished(task: asyncio.Task[None]) -> None:
        humans.discard(task)
        counts["finished"] += 1
        if not task.cancelled() and task.exception() is not None:
            print(f"a human player stopped: {task.exception()!r}", flush=True)

    async def start_one(index: int) -> None:
        game, players, options, level = next(specs)
        if index % 3 == 2:
            seats = [{"kind": "human"}] + [{"kind": "ai", "level": level}] * (players - 1)
            body = {"game": game, "options": options, "seats": seats}
            task = asyncio.create_task(play_as_human(base, body, random.Random(rng.random())))
            humans.add(task)
            task.add_done_callback(finished)
        else:
            running[await create_all_ai(base, game, level, players, options)] = (game, level)
        counts["started"] += 1

    for index in range(args.games):
        await start_one(index)
    index = args.games
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            await asyncio.sleep(2)
            playing = {g["id"] for g in (await http.get("/api/games", params={"status": "playing",
                                                                               "limit": 1000})).json()}
            for game_id in [g for g in running if g not in playing]:
                del running[game_id]
                counts["finished"] += 1
            while len(running) + len(humans) < args.games:
                await start_one(index)
                index += 1
    for task in list(humans):
        task.cancel()
    await asyncio.gather(*humans, return_exceptions=True)


async def watch(proc_pid: int, args: argparse.Namespace, stop: float, counts: dict[str, int],
                samples: dict[int, list[tuple[float, float]]]) -> None:
    start = time.monotonic()
    print(f"{'min':>5} {'server MB':>9}  workers (pid: MB)                         games started/finished", flush=True)
    while True:
        now = time.monotonic()
        workers = ai_workers(proc_pid)
        line = []
        for pid in workers:
            mb = rss_mb(pid)
            if mb is not None:
                samples.setdefault(pid, []).append((now - start, mb))
                line.append(f"{pid}: {mb:6.1f}")
        print(f"{(now - start) / 60:5.1f} {rss_mb(proc_pid) or 0:9.1f}  {'   '.join(line):40}  "
              f"{counts['started']}/{counts['finished']}", flush=True)
        if now >= stop:
            return
        await asyncio.sleep(min(args.interval, max(0.0, stop - now)))


async def soak(base: str, proc_pid: int, args: argparse.Namespace) -> dict[int, list[tuple[float, float]]]:
    stop = time.monotonic() + args.minutes * 60
    counts = {"started": 0, "finished": 0}
    samples: dict[int, list[tuple[float, float]]] = {}
    await asyncio.gather(keep_playing(base, args, stop, counts), watch(proc_pid, args, stop, counts, samples))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=30, help="games kept running")
    parser.add_argument("--workers", type=int, default=2, help="AI worker processes")
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--src", type=Path, default=HERE, help="src directory of the qipan to soak")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    src = args.src.resolve()
    print(f"soaking {'this qipan' if src == HERE else src}: {args.games} games, {args.workers} AI workers, "
          f"{args.minutes:g} minutes")
    with tempfile.TemporaryDirectory() as tmp, server(src, Path(tmp) / "soak.db",
                                                       "--ai-workers", str(args.workers)) as (base, proc):
        samples = asyncio.run(soak(base, proc.pid, args))
    print("\nworker RSS (MB): start, peak (when), end")
    for pid, series in samples.items():
        peak_at, peak = max(series, key=lambda s: s[1])
        print(f"  worker {pid}: {series[0][1]:.1f}, {peak:.1f} (minute {peak_at / 60:.1f}), {series[-1][1]:.1f}")


if __name__ == "__main__":
    main()
