"""A qipan cluster for tests: a throwaway PostgreSQL (:mod:`tests.server.postgres`), a throwaway
Redis (:mod:`tests.server.redis_server`) and N ``qipan serve`` processes on free loopback ports,
each given the database and Redis by environment (``QIPAN_DB``, ``QIPAN_REDIS``). Each process
logs to its own file; :meth:`Cluster.reporting` prints the logs' tails when a test fails, and
:meth:`Cluster.check_logs` fails on what a log must never hold."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from qipan.server.store import normalise_url

from . import postgres
from .helpers import end_process, free_port
from .redis_server import RedisServer, redis_server

SERVER_FLAGS = ("--ai-workers", "1", "--ai-delay", "0", "--log-level", "warning")
"""Flags every test process gets: one AI worker each (the machine has 2 cores) and AI seats that
move at once."""

START_TIMEOUT = 90.0
"""Seconds a process may take to start (several start at once on a busy machine)."""


class Node:
    """One ``python -m qipan.server`` process (the same as ``qipan serve``), given its database and
    Redis in ``QIPAN_DB`` and ``QIPAN_REDIS``: start, SIGKILL, stop."""

    def __init__(self, index: int, db: str, redis: str, log: Path, extra: Sequence[str] = ()):
        self.index = index
        self.db = db
        self.redis = redis
        self.log = log
        self.extra = list(extra)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.paused = False

    def __repr__(self) -> str:
        return f"node {self.index} (port {self.port}, pid {self.pid})"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}"

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def launch(self) -> None:
        """Start the process (on the same port as before, if it ran already); see :meth:`wait_ready`."""
        assert not self.running, f"{self} is running already"
        # The URLs go by environment, as docs/deploy.md recommends: a command line (and its
        # passwords) is visible to every user of the machine.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "QIPAN_DB": self.db, "QIPAN_REDIS": self.redis}
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"---- start {self.starts} ----\n".encode())
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "qipan.server", "--port", str(self.port), *SERVER_FLAGS, *self.extra],
                stdout=out, stderr=subprocess.STDOUT, env=env,
            )

    def wait_ready(self, engine: sa.Engine, deadline: float) -> None:
        """Wait until the process answers HTTP and holds its lease (its row in ``processes``)."""
        assert self.proc is not None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self} exited with {self.proc.returncode} while starting:\n{tail(self.log)}")
            try:
                ready = httpx.get(f"{self.base}/api/games?limit=1", timeout=2).status_code == 200
            except httpx.HTTPError:
                ready = False
            if ready and process_id(engine, self.proc.pid) is not None:
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self} did not become ready (HTTP and a lease) in {START_TIMEOUT:g} s:\n{tail(self.log)}")

    def pause(self) -> None:
        """SIGSTOP: the process stands still (a long GC pause, a frozen VM) until :meth:`resume`;
        its connections stay open and unanswered."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)
        self.paused = False

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, exactly like a crash (its AI worker is left to notice)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc, self.paused = None, False

    def stop(self) -> None:
        """A graceful shutdown (SIGTERM), SIGKILL if it hangs."""
        if self.proc is None:
            return
        if self.paused:
            self.resume()
        end_process(self.proc, grace=20)
        self.proc = None


def process_id(engine: sa.Engine, pid: int) -> str | None:
    """The cluster id under which the process ``pid`` (on this host) holds a live lease."""
    with engine.connect() as c:
        found = c.execute(sa.text("SELECT id FROM processes WHERE pid = :pid AND expires > clock_timestamp() "
                                  "ORDER BY started DESC"), {"pid": pid}).first()
    return None if found is None else str(found[0])


class Cluster:
    """PostgreSQL, Redis and the server processes of one test module."""

    def __init__(self, directory: Path, pg_url: str, redis: RedisServer, processes: int, extra: Sequence[str]):
        self.directory = directory
        self.pg_url = pg_url
        self.redis = redis
        self.engine = sa.create_engine(normalise_url(pg_url))
        self.nodes = [Node(i, pg_url, redis.url, directory / f"node{i}.log", extra) for i in range(processes)]

    def start(self, nodes: Sequence[Node] | None = None) -> None:
        """Start these processes (default: every one not running) at once, and wait for them
        (a paused one continues)."""
        for node in self.nodes if nodes is None else nodes:
            if node.paused:
                node.resume()
        starting = [n for n in (self.nodes if nodes is None else nodes) if not n.running]
        for node in starting:
            node.launch()
        deadline = time.monotonic() + START_TIMEOUT
        for node in starting:
            node.wait_ready(self.engine, deadline)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.engine.dispose()

    def process_id(self, node: Node) -> str | None:
        """The id under which ``node`` holds a live lease now (None: none)."""
        return None if node.pid is None else process_id(self.engine, node.pid)

    def node_of(self, process: str | None) -> Node | None:
        """The running node whose live lease is ``process`` (a ``processes.id``)."""
        if process is None:
            return None
        with self.engine.connect() as c:
            pid = c.execute(sa.text("SELECT pid FROM processes WHERE id = :id"), {"id": process}).scalar()
        return next((n for n in self.nodes if n.running and n.pid == pid), None)

    def owners(self, game_ids: Sequence[str]) -> dict[str, Node | None]:
        """Which running node owns each game now (None: nobody holds a live lease on it)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.text(
                "SELECT g.id, p.pid FROM games g LEFT JOIN processes p ON p.id = g.owner "
                "AND p.expires > clock_timestamp() WHERE g.id = ANY(:ids)"), {"ids": list(game_ids)}).all()
        by_pid = {n.pid: n for n in self.nodes if n.running}
        found = {str(r[0]): by_pid.get(r[1]) for r in rows}
        return {g: found.get(g) for g in game_ids}

    def query(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        with self.engine.connect() as c:
            return [tuple(row) for row in c.execute(sa.text(sql), params)]

    def logs(self, chars: int = 4000) -> str:
        parts = [f"==== {n} log {n.log.name} ====\n{tail(n.log, chars)}" for n in self.nodes]
        parts.append(f"==== redis log ====\n{tail(self.redis.log, 1500)}")
        return "\n".join(parts)

    @contextlib.contextmanager
    def reporting(self) -> Iterator[None]:
        """Print every process's log tail (pytest shows it with the failure) if the block fails."""
        try:
            yield
        except BaseException:
            print(self.logs())
            raise

    def check_logs(self, secrets: Sequence[str] = ()) -> None:
        """No log holds a secret (the Redis password, or any of ``secrets``: seat tokens,
        invitation codes), no process logged a traceback, and no running process shows the Redis
        password on its command line (which every user of the machine can read)."""
        for node in self.nodes:
            if node.running:
                cmdline = Path(f"/proc/{node.pid}/cmdline").read_bytes().decode(errors="replace")
                assert self.redis.password not in cmdline, f"{node} has the Redis password on its command line"
            text = node.log.read_text(errors="replace")
            assert self.redis.password not in text, f"{node} logged the Redis password:\n{tail(node.log)}"
            assert not any(s in text for s in secrets), f"{node} logged a seat token or an invitation code"
            assert "Traceback" not in text, f"{node} logged a traceback:\n{tail(node.log, 8000)}"


def tail(path: Path, chars: int = 4000) -> str:
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return "(no log)"
    return text if len(text) <= chars else "…" + text[-chars:]


@contextlib.contextmanager
def cluster(processes: int = 3, extra: Sequence[str] = ()) -> Iterator[Cluster]:
    """PostgreSQL, Redis and ``processes`` running servers (each with ``extra`` flags); removed
    afterwards (their logs printed if starting them fails)."""
    directory = Path(tempfile.mkdtemp(prefix="qipan-cluster-"))
    try:
        with postgres.cluster() as pg_url, redis_server() as redis:
            running = Cluster(directory, pg_url, redis, processes, extra)
            try:
                with running.reporting():
                    running.start()
                yield running
            finally:
                running.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
