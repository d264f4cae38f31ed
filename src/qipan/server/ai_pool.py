"""AI seats in worker processes, so an AI thinking never holds the server's interpreter lock.

Requests wait in three queues: *foreground* (a game with a human seat: someone is waiting for the
move), *analysis* (an engine analysis someone asked for: a position, a review, a hint; see
:class:`AnalysisRequest`) and *background* (all-AI games). A worker always takes a foreground
request first, then analysis, then background; analysis and background requests together may
occupy at most ``background_workers`` workers at once, so with two or more workers a human's AI
opponent never waits for anyone's analysis or an all-AI game's search (see :class:`Scheduler`).
Workers keep each game's agents between moves, so a request goes to the worker that holds its
agent while that worker is free; a foreground request whose worker is busy is taken by a free one.
A request carries the views the agent has not seen yet; a worker that does not have them (another
worker served the game meanwhile, it was restarted, or it evicted the agent) answers ``resync``
and gets the whole history again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("qipan.server")

MAX_AGENTS = 1000
"""Agents a worker keeps; the least recently used beyond this are dropped (and resynced). An
agent between moves holds its game's positions and memory, tens of kilobytes."""

THINK_LIMIT = 120
"""Seconds an AI may think before its worker is restarted and a random move is played."""

ANALYSIS_GRACE = 10.0
"""Seconds an analysis may run beyond the time it was given before its worker is restarted (as
for an AI that thinks past :data:`THINK_LIMIT`): a search finishes the iteration it is in."""

FOREGROUND, ANALYSIS, BACKGROUND = 0, 1, 2
"""Request priorities: a game with a human seat, an analysis, an all-AI game."""


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
    forget: tuple[str, ...] = ()
    """Agents the worker may drop first (their games are over)."""
    think: float | None = None
    """Seconds the agent may think (its clock; :func:`qipan.ai.agent.choose_within`), or None."""
    deadline: float | None = None
    """When (``time.time()``) that thinking must be over: time spent waiting for a worker runs on
    the AI's clock too, so it comes off ``think``."""

    def seconds(self, now: float) -> float | None:
        """How long the agent may think if it starts at ``now`` (None: its own budget).

        >>> Request("k", "abalone", "standard", {}, "easy", 0, [], {}, b"", think=3.0, deadline=10.0).seconds(8.5)
        1.5
        """
        if self.think is None or self.deadline is None:
            return self.think
        return max(0.0, min(self.think, self.deadline - now))


@dataclass(frozen=True)
class AnalysisRequest:
    """Analyse ``view`` (the view of the player to move) with :func:`qipan.ai.analysis.analyse`.

    The request holds the game's configuration and one player's view, never a state: what the
    engine answers cannot depend on anything that player does not see. With ``review``, the
    first of ``include`` is the move played, and the answer is the review of that decision."""

    game: str
    variant: str
    options: Mapping[str, Any]
    view: dict[str, Any]
    lines: int
    time: float
    include: tuple[str, ...] = ()
    review: bool = False
    history: tuple[dict[str, Any], ...] = ()
    """The same player's earlier views, oldest first (a memory agent learns from them)."""
    seed: int = 0
    forget: tuple[str, ...] = ()
    """Agents the worker may drop first (as :class:`Request`'s)."""
    key: str = ""
    """No agent: any worker takes it."""

    @property
    def limit(self) -> float:
        """Seconds the worker may take before it is restarted."""
        return self.time + ANALYSIS_GRACE


def run_analysis(request: AnalysisRequest) -> tuple[str, Any]:
    """``("ok", answer)`` (an Analysis as JSON, or a review's ``best``, ``played``, ``verdict`` and
    ``evaluation``) or ``("refused", message)`` for a position the engine cannot analyse."""
    from qipan.ai.analysis import analyse, verdict
    from qipan.core import GameError, load

    try:
        game = load(request.game, request.variant, dict(request.options))
        found = analyse(game, request.view, lines=request.lines, time=request.time, include=request.include,
                        seed=request.seed, history=request.history)
    except GameError as exc:
        return ("refused", str(exc))
    if not request.review:
        return ("ok", found.to_json())
    best, played = found.lines[0], found.line(request.include[0])
    if played is None:
        return ("refused", "the engine did not analyse the move played")
    return ("ok", {"best": best.to_json(), "played": played.to_json(),
                   "verdict": verdict(game, best.evaluation, played.evaluation),
                   "evaluation": found.evaluation.to_json()})


def _worker(conn: Connection) -> None:
    from qipan.ai import make_agent
    from qipan.ai.agent import choose_within
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
        for key in request.forget:
            agents.pop(key, None)
        if isinstance(request, AnalysisRequest):
            try:
                conn.send(run_analysis(request))
            except Exception as exc:  # the server answers that the analysis failed
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
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
            think = request.seconds(time.time())
            conn.send(("ok", choose_within(agent, think, game, request.view, KeyedRandom(request.rng_key))))
        except Exception as exc:  # the server logs it and plays a random move instead
            agents.pop(request.key, None)
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


@dataclass(eq=False)
class Job:
    """A queued request and where its answer goes."""

    request: Request | AnalysisRequest
    priority: int
    answer: Callable[[tuple[str, Any]], None] = lambda reply: None
    """Called with the worker's reply (from the worker's feeding thread)."""
    owner: str = ""
    """Whose game this is (a client's address, else the game id): jobs of owners with fewer jobs
    running go first, so one client's many games cannot starve another's."""


@dataclass
class Scheduler:
    """Which queued job each worker takes next: the policy alone (no processes, no locks).

    A free worker takes the oldest foreground job of the owners with the fewest jobs running,
    else (while fewer than ``background_workers`` workers are busy with analysis or background
    jobs) the oldest analysis job, then the oldest background job, each of the owners with the
    fewest jobs running. Of those, it skips a job whose agent another *free* worker holds (that
    worker takes it without a resync).
    """

    workers: int
    background_workers: int
    queues: tuple[deque[Job], deque[Job], deque[Job]] = field(default_factory=lambda: (deque(), deque(), deque()))
    home: dict[str, int] = field(default_factory=dict)
    """The worker that last served each agent (and so holds it)."""
    running: dict[int, Job] = field(default_factory=dict)
    forget: list[set[str]] = field(default_factory=list)
    """Per worker: agents of finished games to drop with its next request."""

    def __post_init__(self) -> None:
        if not 1 <= self.background_workers <= self.workers:
            raise ValueError(f"background_workers must be 1..{self.workers}, not {self.background_workers}")
        self.forget = [set() for _ in range(self.workers)]

    def submit(self, job: Job) -> None:
        self.queues[job.priority].append(job)

    def cancel(self, job: Job) -> None:
        with contextlib.suppress(ValueError):
            self.queues[job.priority].remove(job)

    def take(self, worker: int) -> Job | None:
        """The job ``worker`` (free) runs next, now marked running; None: nothing for it."""
        if worker in self.running:
            return None
        background_busy = sum(job.priority != FOREGROUND for job in self.running.values())
        for priority in (FOREGROUND, ANALYSIS, BACKGROUND):
            if priority != FOREGROUND and background_busy >= self.background_workers:
                break
            queue = self.queues[priority]
            running = Counter(job.owner for job in self.running.values())
            for job in sorted(queue, key=lambda job: running[job.owner]):  # stable: oldest first among equals
                key = job.request.key
                home = self.home.get(key) if key else None
                if home is None or home == worker or home in self.running:
                    queue.remove(job)
                    self.running[worker] = job
                    if key:
                        self.home[key] = worker
                    return job
        return None

    def done(self, worker: int) -> None:
        self.running.pop(worker, None)

    def drop(self, keys: Iterable[str]) -> None:
        """Agents nobody will ask for again: each worker drops them with its next request."""
        for key in keys:
            self.home.pop(key, None)
            for pending in self.forget:
                if len(pending) < MAX_AGENTS:  # past that, the worker's own eviction copes
                    pending.add(key)

    def forgotten(self, worker: int) -> tuple[str, ...]:
        """The agents ``worker`` should drop now (and forget that it should)."""
        keys = tuple(self.forget[worker])
        self.forget[worker].clear()
        return keys


class AIProcesses:
    """A fixed set of worker processes (all started with the first request, so a worker kept
    free for humans is ready when one needs it), one thread per worker feeding it jobs as the
    :class:`Scheduler` says."""

    def __init__(self, workers: int, background_workers: int | None = None):
        if background_workers is None:
            background_workers = max(1, workers // 2)
        if not 1 <= background_workers <= workers:
            raise ValueError(f"all_ai_workers must be 1..{workers} (the AI workers), not {background_workers}")
        self.workers = workers
        self.resyncs = 0  # how often a worker had to be sent an agent's whole history again
        self.scheduler = Scheduler(workers, background_workers)
        self._context = multiprocessing.get_context("spawn")
        self._processes: list[Any] = [None] * workers
        self._pipes: list[Connection | None] = [None] * workers
        self._locks = [threading.Lock() for _ in range(workers)]  # one user of a process at a time
        self._ready = threading.Condition()
        self._closed = False
        self._wanted = False  # a request has come: every worker process should be up
        self._warmed = [False] * workers  # this worker's process was started ahead of its first job
        self._threads = [threading.Thread(target=self._serve, args=(i,), name=f"qipan-ai-feed-{i}", daemon=True)
                         for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def worker_of(self, key: str) -> int | None:
        """The worker that holds the agent ``key`` (None: none yet)."""
        with self._ready:
            return self.scheduler.home.get(key)

    async def choose(self, request: Request | AnalysisRequest, priority: int = FOREGROUND, owner: str = ""
                     ) -> tuple[str, Any]:
        """``("ok", action)``, ``("resync", None)`` or ``("error", message)``; for an
        :class:`AnalysisRequest` (priority :data:`ANALYSIS`), what :func:`run_analysis` answers,
        or ``("error", message)``."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[str, Any]] = loop.create_future()

        def answer(reply: tuple[str, Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
                loop.call_soon_threadsafe(_resolve, future, reply)

        job = Job(request, priority, answer, owner)
        with self._ready:
            self.scheduler.submit(job)
            self._wanted = True
            self._ready.notify_all()
        try:
            return await future
        except asyncio.CancelledError:
            with self._ready:
                self.scheduler.cancel(job)
            raise

    def forget(self, keys: Iterable[str]) -> None:
        """The games of these agents are over: let the workers drop them."""
        with self._ready:
            self.scheduler.drop(keys)

    def _serve(self, index: int) -> None:
        while True:
            with self._ready:
                job = self.scheduler.take(index)
                while job is None:
                    if self._closed:
                        return
                    if self._wanted and not self._warmed[index]:
                        self._warmed[index] = True
                        break
                    self._ready.wait()
                    job = self.scheduler.take(index)
            if job is None:  # start this worker before anyone waits for it
                try:
                    with self._locks[index]:
                        if not self._closed:
                            self._pipe(index)
                except Exception:  # its first job tries again
                    log.exception("could not start AI worker %d", index)
                continue
            with self._ready:
                forget = self.scheduler.forgotten(index)
                self._ready.notify_all()  # this worker is busy now: others may take its agents' jobs
            request = dataclasses.replace(job.request, forget=forget) if forget else job.request
            try:
                reply = self._call(index, request)
            except Exception as exc:  # never lose a job: its game waits for the answer
                log.exception("AI worker %d failed", index)
                reply = ("error", f"{type(exc).__name__}")
            with self._ready:
                self.scheduler.done(index)
                self._ready.notify_all()
            job.answer(reply)

    def _call(self, index: int, request: Request | AnalysisRequest) -> tuple[str, Any]:
        limit = request.limit if isinstance(request, AnalysisRequest) else THINK_LIMIT
        who = "an analysis" if isinstance(request, AnalysisRequest) else "the AI"
        with self._locks[index]:
            if self._closed:
                return ("error", "the server is shutting down")
            pipe = self._pipe(index)
            try:
                pipe.send(request)
                if not pipe.poll(limit):
                    log.warning("AI worker %d ran %s for over %g s; restarting it", index, who, limit)
                    self._stop(index, force=True)
                    return ("error", f"{who} took longer than {limit:g} s")
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
        with self._ready:
            self._closed = True
            queued = [job for queue in self.scheduler.queues for job in queue]
            for queue in self.scheduler.queues:
                queue.clear()
            self._ready.notify_all()
        for job in queued:
            job.answer(("error", "the server is shutting down"))
        for index in range(self.workers):
            process = self._processes[index]
            if process is not None and self._locks[index].locked():
                process.kill()  # it is thinking: do not wait up to THINK_LIMIT
            with self._locks[index]:
                self._stop(index)
        for thread in self._threads:
            thread.join(timeout=5)


def _resolve(future: asyncio.Future[tuple[str, Any]], reply: tuple[str, Any]) -> None:
    if not future.done():
        future.set_result(reply)
