"""AI seats in worker processes, so an AI thinking never holds the server's interpreter lock.

Each game goes to one worker (by a hash of its id), which keeps that game's agents between moves:
agents with memory (Tellstones) see every view exactly once, in order. A request carries the
views the agent has not seen yet; a worker that lost them (restarted, or evicted the agent)
answers ``resync`` and gets the whole history again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
import zlib
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("qipan.server")

MAX_AGENTS = 2000
"""Agents a worker keeps; the least recently used beyond this are dropped (and resynced)."""

THINK_LIMIT = 120
"""Seconds an AI may think before its worker is restarted and a random move is played."""


@dataclass(frozen=True)
class Request:
    """Observe ``views`` (the agent's views number ``first``, ``first + 1``, ...), then choose."""

    key: str
    game: str
    variant: str
    options: Mapping[str, Any]
    level: str
    first: int
    views: list[dict[str, Any]]
    view: dict[str, Any]
    rng_key: bytes
    """The key of the AI's generator for this move (:func:`qipan.core.chance.event_key`)."""


def _worker(conn: Connection) -> None:
    from qipan.ai import make_agent
    from qipan.core import load
    from qipan.core.chance import KeyedRandom

    agents: OrderedDict[str, tuple[Any, Any, int]] = OrderedDict()  # key -> (game, agent, seen)
    while True:
        try:
            request: Request | None = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            entry = agents.get(request.key)
            if request.first == 0:
                game = load(request.game, request.variant, dict(request.options))
                entry = (game, make_agent(game, request.level), 0)
            elif entry is None or entry[2] != request.first:
                conn.send(("resync", None))
                continue
            game, agent, _ = entry
            for view in request.views:
                agent.observe(game, view)
            agents[request.key] = (game, agent, request.first + len(request.views))
            agents.move_to_end(request.key)
            while len(agents) > MAX_AGENTS:
                agents.popitem(last=False)
            conn.send(("ok", agent.choose(game, request.view, KeyedRandom(request.rng_key))))
        except Exception as exc:  # the server logs it and plays a random move instead
            agents.pop(request.key, None)
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class AIProcesses:
    """A fixed set of worker processes (started when first needed) and the calls into them."""

    def __init__(self, workers: int):
        self.workers = workers
        self.resyncs = 0  # how often a worker had to be sent an agent's whole history again
        self._context = multiprocessing.get_context("spawn")
        self._processes: list[Any] = [None] * workers
        self._pipes: list[Connection | None] = [None] * workers
        self._locks = [threading.Lock() for _ in range(workers)]
        self._threads = ThreadPoolExecutor(max_workers=2 * workers, thread_name_prefix="qipan-ai-pipe")

    def worker_of(self, key: str) -> int:
        return zlib.crc32(key.encode("utf-8")) % self.workers

    async def choose(self, request: Request) -> tuple[str, Any]:
        """``("ok", action)``, ``("resync", None)`` or ``("error", message)``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, self._call, self.worker_of(request.key), request)

    def _call(self, index: int, request: Request) -> tuple[str, Any]:
        with self._locks[index]:
            pipe = self._pipe(index)
            try:
                pipe.send(request)
                if not pipe.poll(THINK_LIMIT):
                    log.warning("AI worker %d thought for over %d s; restarting it", index, THINK_LIMIT)
                    self._stop(index, force=True)
                    return ("error", f"the AI took longer than {THINK_LIMIT} s")
                reply: tuple[str, Any] = pipe.recv()
                return reply
            except (EOFError, OSError):
                log.warning("AI worker %d died; restarting it", index)
                self._stop(index)
                return ("resync", None)

    def _pipe(self, index: int) -> Connection:
        process, pipe = self._processes[index], self._pipes[index]
        if process is None or pipe is None or not process.is_alive():
            self._stop(index)
            parent, child = self._context.Pipe()
            process = self._context.Process(target=_worker, args=(child,), name=f"qipan-ai-{index}", daemon=True)
            process.start()
            child.close()
            self._processes[index], self._pipes[index] = process, parent
            pipe = parent
        return pipe

    def _stop(self, index: int, force: bool = False) -> None:
        process, pipe = self._processes[index], self._pipes[index]
        if pipe is not None:
            if not force:
                with contextlib.suppress(OSError):
                    pipe.send(None)
            pipe.close()
        if process is not None:
            process.join(timeout=0 if force else 2)
            if process.is_alive():
                process.kill()
                process.join(timeout=2)
        self._processes[index], self._pipes[index] = None, None

    def kill_worker(self, index: int) -> None:
        """Kill a worker outright (tests: the server must recover by itself)."""
        process = self._processes[index]
        if process is not None:
            process.kill()
            process.join(timeout=5)

    def close(self) -> None:
        for index in range(self.workers):
            with self._locks[index]:
                self._stop(index)
        self._threads.shutdown(wait=False, cancel_futures=True)
