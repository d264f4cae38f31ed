"""Scale-out: ``qipan serve`` as 1, 2 and 3 processes on one PostgreSQL and one Redis.

Starts PostgreSQL and Redis (Debian packages, installed with apt when missing, as the tests do),
then for each process count N and each step of a ramp of concurrent games: N fresh processes on a
fresh database, the games created and their players connected round robin over the processes
(each HTTP request and each WebSocket to the next process, as a round-robin load balancer without
sticky sessions does), two scripted players per game thinking ~1 s per move as in server_load.py.
A step passes when the move round trip's p99 is under 100 ms; the ramp stops at the first step
that fails twice (``--retries``). Each move is also sorted by where its player is connected:
**direct** (on the game's owner) or **relayed** (another process, which forwards the move to the
owner and the update back through Redis). Then, for N >= 2, a light run in which every game has one player on its owner
and one elsewhere gives the cross-process cost side by side. Prints numbers; asserts nothing.

    python benchmarks/server_scale.py                   # 1, 2, 3 processes (about 15 minutes)
    python benchmarks/server_scale.py --quick           # a short run
    python benchmarks/server_scale.py --processes 2 --steps 200,400 --moves 30
    python benchmarks/server_scale.py --nginx           # clients through nginx (round robin) in front

Every process, PostgreSQL, Redis, nginx and this load generator share the machine's cores: each
step prints who used how much CPU, so what limits the scaling can be read off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from running_server import UNLIMITED, free_port, wait_until_up
from server_load import player

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # PostgreSQL and Redis are started as the tests start them
from tests.server.cluster_harness import Cluster  # noqa: E402
from tests.server.postgres import cluster as postgres_cluster  # noqa: E402
from tests.server.redis_server import RedisServer, redis_server  # noqa: E402

TARGET = 0.100
"""A step passes while the move round trip's p99 stays under this (seconds)."""
TICK = os.sysconf("SC_CLK_TCK")


# --- the processes ---------------------------------------------------------------------------


@dataclass
class Site:
    """The processes (:class:`tests.server.cluster_harness.Cluster`), and nginx in front with ``--nginx``."""

    cluster: Cluster
    urls: list[str]
    """Where clients go: each process (in the order of ``cluster.nodes``), or nginx alone."""
    nginx: int | None = None
    """nginx's master process."""

    @property
    def pids(self) -> list[int]:
        return [node.pid for node in self.cluster.nodes if node.pid is not None]

    def owners(self, ids: list[str]) -> dict[str, int]:
        """Which process (index in ``cluster.nodes``) owns each game, from the leases in PostgreSQL."""
        return {game: node.index for game, node in self.cluster.owners(ids).items() if node is not None}


@contextlib.contextmanager
def servers(n: int, db: str, redis: RedisServer, folder: Path, nginx: bool) -> Iterator[Site]:
    """Start ``n`` processes (and nginx); stop them afterwards."""
    cluster = Cluster(folder, db, redis, n, [*UNLIMITED, "--forwarded-allow-ips", "127.0.0.1"])
    proxy: subprocess.Popen[bytes] | None = None
    try:
        with cluster.reporting():
            cluster.start()
        site = Site(cluster, [node.base for node in cluster.nodes])
        if nginx:
            proxy, port = start_nginx([node.port for node in cluster.nodes], folder)
            site = Site(cluster, [f"http://127.0.0.1:{port}"], proxy.pid)
            wait_until_up(site.urls[0], proxy, folder / "nginx-error.log")
        yield site
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        cluster.stop()


NGINX = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {folder}/nginx-body;
    proxy_temp_path {folder}/nginx-proxy;
    upstream qipan {{
{servers}
        keepalive 64;
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://qipan;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 120s;
            proxy_send_timeout 120s;
        }}
    }}
}}
"""
"""The loopback form of the configuration in docs/deploy.md (no TLS, files in a temporary folder)."""


def start_nginx(ports: list[int], folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise SystemExit("--nginx needs nginx: apt-get install -y nginx")
    port = free_port()
    config = folder / "nginx.conf"
    config.write_text(NGINX.format(folder=folder, port=port,
                                   servers="\n".join(f"        server 127.0.0.1:{p};" for p in ports)))
    with (folder / "nginx.out").open("ab") as out:
        proc = subprocess.Popen([binary, "-c", str(config), "-e", str(folder / "nginx-error.log")],
                                stdout=out, stderr=subprocess.STDOUT)
    return proc, port


# --- CPU accounting ----------------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None and fields[1] == str(pid):
            found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far."""
    total = 0
    for pid in pids:
        if (fields := _stat(pid)) is not None:
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def machine_seconds() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine (every core) so far."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


def postmaster(port: int) -> int | None:
    """The PostgreSQL server listening on ``port`` (several may run on this machine)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                args = (entry / "cmdline").read_bytes().split(b"\0")
                flag = args.index(b"-p") if b"-p" in args[:-1] else None
                if args[0].endswith(b"postgres") and flag is not None and args[flag + 1] == str(port).encode():
                    return int(entry.name)
    return None


class Meter:
    """CPU used by each part of the site over a step, in % of one core, and Redis traffic."""

    def __init__(self, site: Site, postgres: int | None, redis: Any):
        self.groups: dict[str, Callable[[], list[int]]] = {
            "servers": lambda: site.pids + [c for p in site.pids for c in children(p)],
            "PostgreSQL": lambda: [] if postgres is None else [postgres, *children(postgres)],
            "Redis": lambda: [int(redis.info("server")["process_id"])],
        }
        if (master := site.nginx) is not None:
            self.groups["nginx"] = lambda: [master, *children(master)]
        self.redis = redis

    def start(self) -> None:
        self.before = {name: cpu_seconds(pids()) for name, pids in self.groups.items()}
        self.own = time.process_time()
        self.machine = machine_seconds()
        self.traffic = self._traffic()
        self.started = time.perf_counter()

    def _traffic(self) -> tuple[int, int]:
        stats = self.redis.info("stats")
        return stats["total_net_input_bytes"] + stats["total_net_output_bytes"], stats["total_commands_processed"]

    def stop(self) -> tuple[dict[str, float], tuple[int, int]]:
        """Percent of one core per part ("other": every other process on the machine), and Redis
        bytes and commands over the step."""
        wall = time.perf_counter() - self.started
        used = {name: (cpu_seconds(pids()) - self.before[name]) / wall * 100 for name, pids in self.groups.items()}
        used["load generator"] = (time.process_time() - self.own) / wall * 100
        busy = (machine_seconds()[0] - self.machine[0]) / wall * 100
        used["other jobs"] = max(0.0, busy - sum(used.values()))
        used["machine"] = busy
        traffic = self._traffic()
        return used, (traffic[0] - self.traffic[0], traffic[1] - self.traffic[1])


# --- one step ----------------------------------------------------------------------------------


@dataclass
class Result:
    games: int
    processes: int
    moves: int = 0
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"direct": [], "relayed": [], "unknown": [], "all": []})
    """Round trips by where the player was connected: on the game's owner, on another process, or
    unknown (through nginx); "all" of them."""
    failed: list[str] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    redis: tuple[int, int] = (0, 0)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def p(self, q: float, route: str = "all") -> float:
        ms = sorted(x * 1000 for x in self.latencies[route])
        return ms[min(len(ms) - 1, int(q / 100 * len(ms)))] if ms else float("nan")

    @property
    def passed(self) -> bool:
        return not self.failed and bool(self.latencies["all"]) and self.p(99) < TARGET * 1000


Route = Callable[[int, int, int | None], int]
"""(game number, seat, owner's process index or None) -> the process index a player connects to."""


def round_robin() -> Route:
    counter = iter(range(10**9))
    return lambda _game, _seat, _owner: next(counter)


def one_each(n: int) -> Route:
    """Seat 0 on the owner, seat 1 on the next process."""
    return lambda _game, seat, owner: (owner or 0) + seat % n


async def create_games(urls: list[str], count: int, game: str) -> list[dict[str, Any]]:
    """``count`` two-player games, each request to the next process; every invitation claimed."""
    turn = iter(range(10**9))
    limit = asyncio.Semaphore(16)
    async with httpx.AsyncClient(timeout=60) as http:
        async def create() -> dict[str, Any]:
            async with limit:
                reply = await http.post(f"{urls[next(turn) % len(urls)]}/api/games", json={"game": game})
                data: dict[str, Any] = reply.raise_for_status().json()
                data["tokens"] = {data["seat"]: data["token"]}
                for seat in data["seats"]:
                    if seat.get("invite"):
                        claim = await http.post(f"{urls[next(turn) % len(urls)]}/api/games/{data['id']}/claim",
                                                json={"invite": seat["invite"]})
                        data["tokens"][seat["seat"]] = claim.raise_for_status().json()["token"]
                return data

        return await asyncio.gather(*(create() for _ in range(count)))


async def play_step(site: Site, result: Result, args: argparse.Namespace, route: Route,
                    meter: Meter) -> None:
    games = await create_games(site.urls, result.games, args.game)
    owner = {} if site.nginx is not None else await asyncio.to_thread(site.owners, [g["id"] for g in games])
    ready = asyncio.Barrier(2 * len(games) + 1)
    go = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = []
    aborting: list[asyncio.Task[None]] = []

    def give_up(task: asyncio.Task[int]) -> None:
        """A player that failed before the start breaks the barrier, so the others stop waiting."""
        if not go.is_set() and not task.cancelled() and task.exception() is not None:
            aborting.append(asyncio.create_task(ready.abort()))

    for number, created in enumerate(games):
        for seat in (0, 1):
            home = owner.get(created["id"])
            where = route(number, seat, home) % len(site.urls)
            times = result.latencies["unknown" if home is None else "direct" if where == home else "relayed"]
            task = asyncio.create_task(player(site.urls[where].replace("http", "ws", 1), created, seat, args.moves,
                                              args.think, random.Random(rng.random()), times, ready, go))
            task.add_done_callback(give_up)
            tasks.append(task)
    try:
        await asyncio.wait_for(ready.wait(), 120)
    except (asyncio.BrokenBarrierError, TimeoutError):
        result.failed.append("players could not all connect")
    meter.start()
    started = time.perf_counter()
    go.set()
    done, pending = await asyncio.wait(tasks, timeout=args.moves * args.think * 4 + 60)
    result.seconds = time.perf_counter() - started
    result.cpu, result.redis = meter.stop()
    for task in pending:
        task.cancel()
    failures = [t.exception() for t in done if not t.cancelled() and t.exception() is not None]
    if pending:
        result.failed.append(f"{len(pending)} players stalled")
    if failures:
        result.failed.append(f"{len(failures)} players failed, e.g. {type(failures[0]).__name__}: "
                             f"{str(failures[0])[:120]}")
    result.latencies["all"] = [x for route in ("direct", "relayed", "unknown") for x in result.latencies[route]]
    result.moves = len(result.latencies["all"])


def run_step(n: int, games: int, args: argparse.Namespace, services: Services, route: Route | None = None) -> Result:
    """A fresh database and fresh processes, then one step."""
    db = services.database()
    result = Result(games, n)
    with tempfile.TemporaryDirectory(prefix="qipan-scale-") as tmp, \
            servers(n, db, services.server, Path(tmp), args.nginx) as site:
        meter = Meter(site, services.postmaster, services.redis)
        asyncio.run(play_step(site, result, args, route or round_robin(), meter))
        if result.failed:  # say why, from the processes' own logs (gone with the folder)
            for node in site.cluster.nodes:
                said = [line for line in node.log.read_text(errors="replace").splitlines()
                        if line.startswith(("WARNING", "ERROR"))]
                result.failed += [f"process {node.index}: {line[:200]}" for line in said[:5]]
    return result


# --- PostgreSQL and Redis ----------------------------------------------------------------------


class Services:
    """One PostgreSQL and one Redis for the whole run; a new database (and an empty Redis) per step."""

    def __init__(self, postgres: str, server: RedisServer):
        import redis

        self.postgres = postgres
        self.server = server
        self.redis = redis.Redis.from_url(server.url)
        self.postmaster = postmaster(int(postgres.rsplit(":", 1)[1].split("/")[0]))
        self.count = 0

    def database(self) -> str:
        import psycopg

        self.count += 1
        name = f"scale{self.count}"
        with psycopg.connect(self.postgres, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        self.redis.flushall()
        return self.postgres.rsplit("/", 1)[0] + f"/{name}"


# --- output ------------------------------------------------------------------------------------


def describe(r: Result) -> str:
    line = (f"  {r.processes} x {r.games:5d} games: {r.moves:6d} moves in {r.seconds:5.1f} s = {r.rate:6.1f} moves/s, "
            f"p50 {r.p(50):6.1f}  p95 {r.p(95):6.1f}  p99 {r.p(99):6.1f} ms  {'pass' if r.passed else 'FAIL'}")
    if r.latencies["relayed"]:
        line += (f"\n      direct  {len(r.latencies['direct']):6d}: p50 {r.p(50, 'direct'):6.1f}  "
                 f"p99 {r.p(99, 'direct'):6.1f} ms;  relayed {len(r.latencies['relayed']):6d}: "
                 f"p50 {r.p(50, 'relayed'):6.1f}  p99 {r.p(99, 'relayed'):6.1f} ms")
    cores = ", ".join(f"{name} {value:.0f}%" for name, value in r.cpu.items() if name != "machine")
    line += (f"\n      CPU (% of one core; the machine has {os.cpu_count()}): {cores}; "
             f"all {r.cpu.get('machine', 0):.0f}%")
    if r.moves:
        line += f"\n      Redis: {r.redis[0] / r.moves:,.0f} bytes and {r.redis[1] / r.moves:.1f} commands per move"
    for problem in r.failed:
        line += f"\n      {problem}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2,3", help="process counts to measure (default 1,2,3)")
    parser.add_argument("--steps", default="100,200,300,400,500,600,800,1000,1200,1600",
                        help="concurrent games of the ramp's steps (default 100,200,...,1600)")
    parser.add_argument("--moves", type=int, default=20, help="plies per game in a step (default 20)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks (default 1)")
    parser.add_argument("--cross-games", type=int, default=100,
                        help="games of the direct-vs-relayed run (default 100; 0: skip it)")
    parser.add_argument("--retries", type=int, default=1,
                        help="run a failing step again this many times before the ramp stops (other jobs on the "
                             "machine come and go; default 1)")
    parser.add_argument("--game", default="abalone", help="a two-player game id (default abalone)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nginx", action="store_true",
                        help="clients through nginx (round robin, the configuration of docs/deploy.md) in front of "
                             "the processes, instead of choosing the process themselves")
    parser.add_argument("--quick", action="store_true", help="a short run: steps 50,200, 10 plies, 40 cross games")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.moves, args.cross_games = "50,200", 10, 40
    counts = [int(x) for x in args.processes.split(",")]
    steps = [int(x) for x in args.steps.split(",")]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.game}, {args.moves} plies a game, "
          f"players think ~{args.think} s; a step passes at p99 < {TARGET * 1000:.0f} ms"
          f"{'; through nginx' if args.nginx else ''}")
    best: dict[int, tuple[Result | None, Result | None]] = {}
    cross: dict[int, Result] = {}
    with postgres_cluster() as pg, redis_server() as redis:
        services = Services(pg, redis)
        for n in counts:
            print(f"{n} process{'es' if n > 1 else ''}:")
            passed: Result | None = None
            failed: Result | None = None
            for games in steps:
                for attempt in range(1 + args.retries):
                    print(f"    load average {os.getloadavg()[0]:.1f}{' (again)' if attempt else ''}", flush=True)
                    result = run_step(n, games, args, services)
                    print(describe(result), flush=True)
                    if result.passed:
                        break
                if not result.passed:
                    failed = result
                    break
                passed = result
            best[n] = (passed, failed)
            if n > 1 and args.cross_games and not args.nginx:
                print(f"  cross-process run: {args.cross_games} games, seat 0 on the owner, seat 1 on another process")
                cross[n] = run_step(n, args.cross_games, args, services, one_each(n))
                print(describe(cross[n]), flush=True)
    print("\nprocesses | games at p99 < 100 ms | moves/s | p50 | p99 | other jobs' CPU | next step")
    for n, (ok, bad) in best.items():
        beyond = (f"{bad.games} games: p99 {bad.p(99):.0f} ms, other jobs {bad.cpu['other jobs']:.0f}%"
                  f"{' (' + bad.failed[0] + ')' if bad.failed else ''}") if bad else "not reached"
        if ok:
            print(f"{n} | {ok.games} | {ok.rate:.0f} | {ok.p(50):.1f} ms | {ok.p(99):.1f} ms | "
                  f"{ok.cpu['other jobs']:.0f}% | {beyond}")
        else:
            print(f"{n} | none of the steps | | | | | {beyond}")
    if cross:
        print("\nprocesses | route | moves | p50 | p95 | p99")
        for n, r in cross.items():
            for route in ("direct", "relayed"):
                print(f"{n} | {route} | {len(r.latencies[route])} | {r.p(50, route):.1f} ms | "
                      f"{r.p(95, route):.1f} ms | {r.p(99, route):.1f} ms")
            extra = [r.p(q, "relayed") - r.p(q, "direct") for q in (50, 95, 99)]
            print(f"{n} | relayed - direct | | {extra[0]:+.1f} ms | {extra[1]:+.1f} ms | {extra[2]:+.1f} ms")


if __name__ == "__main__":
    main()
