"""Where a batch of numbered games is played: in this process, in worker processes on this
machine (``jobs``) or on a Ray cluster (:class:`RayCluster`).

A batch is a *play* function, a picklable *spec* and a number of games; game ``i`` is
``play(spec, i)``. Everything about a game (its seed, seating, agents) derives from the spec and
``i`` alone, never from the worker that plays it, so every runner gives the same results. They
arrive as they finish; callers put them in index order. Records and other files are the
caller's to write, in its own process: a Ray worker may sit on another machine.

Ray is imported only when a batch goes to it (``pip install 'qipan[ray]'``). Its workers import
qipan and the play function by name: a local instance runs this Python; every node of a remote
cluster needs the same qipan installed (or a Ray job whose runtime_env installs it).

>>> list(play_all(pow, 2, 4))  # game i is pow(2, i)
[1, 2, 4, 8]
>>> RayCluster("head.example.org:6379").address
'head.example.org:6379'
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from qipan.core.errors import GameError, brief, brief_text

Spec = TypeVar("Spec")
Result = TypeVar("Result")

ADDRESS_LIMIT = 300
"""Longest Ray address read: longer text is refused unread."""

_ADDRESS = re.compile(
    r"(?:ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?):(?P<port>[0-9]{1,5})"
)

CONNECT_SECONDS = 5.0
"""How long to wait for a cluster's address to answer at all before giving up on it."""

JOBS_PER_CPU = 4
"""The most worker processes per CPU of this machine: more only add memory and switching."""

PARENT_POLL_SECONDS = 0.5
"""How often a worker process checks that the process that started it is still there."""

CHUNKS_PER_CPU = 4
"""Ray tasks per CPU of the cluster: enough to even out games of different lengths, few enough
that a task's overhead is small beside its games."""


def check_address(text: str) -> str:
    """``text`` as a Ray address (``HOST:PORT``, ``ray://HOST:PORT``, ``auto`` or ``local``), or
    GameError saying what is allowed.

    >>> check_address(" 10.0.0.5:6379 ")
    '10.0.0.5:6379'
    >>> check_address("head; rm -rf /")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qipan.core.errors.GameError: 'head; rm -rf /' is not a Ray address: give HOST:PORT (...), ray://HOST:PORT, ...
    """
    address = text.strip()
    if address in ("auto", "local"):
        return address
    match = _ADDRESS.fullmatch(address) if len(address) <= ADDRESS_LIMIT else None
    if match is None or not 1 <= int(match["port"]) <= 65535:
        raise GameError(f"{brief(text, 60)} is not a Ray address: give HOST:PORT (as `ray start --head` prints it), "
                        "ray://HOST:PORT, auto or local")
    return address


@dataclass(frozen=True)
class RayCluster:
    """The Ray cluster that plays the games.

    ``address`` as for ``ray.init``: None lets Ray choose (the cluster named by ``RAY_ADDRESS``,
    checked like an address given here, else one started with ``ray start`` on this machine, else
    a new local instance); ``local``
    starts a new local instance, ``auto`` finds a running one, ``HOST:PORT`` (or ``ray://HOST:PORT``,
    which needs ``ray[client]``) connects there. ``num_cpus``: a new local instance's CPUs
    (default: all of this machine's). A process already connected to Ray (``ray.init`` called
    before) plays on that connection, given no address, and keeps it open.
    """

    address: str | None = None
    num_cpus: int | None = None

    def __post_init__(self) -> None:
        if self.address is not None:
            object.__setattr__(self, "address", check_address(self.address))


def max_jobs() -> int:
    """The most worker processes a batch may use on this machine (:data:`JOBS_PER_CPU` per CPU)."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


def check(jobs: int, ray: RayCluster | None = None) -> None:
    """Raise GameError for a runner that cannot be, before any game starts."""
    if jobs < 1:
        raise GameError("jobs must be at least 1")
    if jobs > max_jobs():
        raise GameError(f"jobs must be at most {max_jobs()} ({JOBS_PER_CPU} per CPU of this machine), not {jobs}")
    if ray is not None and jobs != 1:
        raise GameError("worker processes on this machine (jobs) and Ray do not mix: on Ray the cluster's CPUs "
                        "play the games")


def play_all(play: Callable[[Spec, int], Result], spec: Spec, games: int, jobs: int = 1,
             ray: RayCluster | None = None) -> Iterator[Result]:
    """``play(spec, i)`` for every ``i`` in ``range(games)``, yielded as each finishes.

    ``play`` must be a module-level function (workers import it by name) and ``spec`` picklable.
    """
    check(jobs, ray)
    if ray is not None:
        yield from _on_ray(play, spec, games, ray)
    elif jobs == 1:
        for index in range(games):
            yield play(spec, index)
    else:
        # fork where the platform has it: workers inherit the loaded modules, and it works from any
        # script (spawn would re-import an unguarded __main__).
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(jobs, _start_worker, (os.getpid(),)) as pool:
            yield from pool.imap_unordered(_call, [(play, spec, index) for index in range(games)])
            pool.close()  # let the workers finish: leaving the block early terminates them instead
            pool.join()


def _start_worker(parent: int) -> None:
    """Set up a worker process: it leaves Ctrl-C to the parent (which stops the pool) and ends
    itself when the parent is gone, however it went (SIGTERM, SIGKILL), rather than play on
    as an orphan."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_follow_parent, args=(parent,), name="qipan-parent-watch", daemon=True).start()


def _follow_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _call(task: tuple[Callable[[Any, int], Result], Any, int]) -> Result:
    play, spec, index = task
    return play(spec, index)


def chunks(games: int, parts: int) -> list[range]:
    """``range(games)`` cut into at most ``parts`` consecutive ranges of nearly equal length.

    >>> chunks(10, 3)
    [range(0, 4), range(4, 7), range(7, 10)]
    >>> chunks(2, 8)
    [range(0, 1), range(1, 2)]
    """
    parts = max(1, min(parts, games))
    size, extra = divmod(games, parts)
    bounds = [k * size + min(k, extra) for k in range(parts + 1)]
    return [range(start, stop) for start, stop in itertools.pairwise(bounds)]


def play_range(play: Callable[[Spec, int], Result], spec: Spec, start: int, stop: int) -> Iterator[Result]:
    """One Ray task: games ``start`` to ``stop - 1``, each result yielded (streamed) as it is ready."""
    for index in range(start, stop):
        yield play(spec, index)


def _import_ray() -> ModuleType:
    try:
        import ray
    except ModuleNotFoundError:
        raise GameError("playing on Ray needs Ray: pip install 'qipan[ray]'") from None
    return ray


def _on_ray(play: Callable[[Spec, int], Result], spec: Spec, games: int, cluster: RayCluster) -> Iterator[Result]:
    ray = _import_ray()
    with _connected(ray, cluster):
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_range).options(num_returns="streaming")
        spec_ref = ray.put(spec)
        pending = [task.remote(play, spec_ref, r.start, r.stop) for r in chunks(games, CHUNKS_PER_CPU * cpus)]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for stream in ready:
                    try:
                        result = ray.get(next(stream))
                    except StopIteration:
                        continue
                    except ray.exceptions.RayError as exc:
                        raise _failure(ray, exc) from None
                    pending.append(stream)
                    yield result
        finally:
            for stream in pending:  # stopped early (an error, ^C): free the cluster's CPUs
                ray.cancel(stream)


@contextmanager
def _connected(ray: ModuleType, cluster: RayCluster) -> Iterator[None]:
    """Connected to ``cluster`` (started, for a local instance) and, unless this process was
    connected before, disconnected (the local instance stopped) afterwards."""
    if ray.is_initialized():
        if cluster.address is not None:
            raise GameError("this process is already connected to Ray: leave out the address")
        yield
        return
    address = cluster.address
    if address is None and os.environ.get("RAY_ADDRESS"):  # where ray.init would go: checked the same way
        try:
            address = check_address(os.environ["RAY_ADDRESS"])
        except GameError as exc:
            raise GameError(f"RAY_ADDRESS: {exc}") from None
    target = {None: "Ray", "local": "a local Ray instance", "auto": "a running Ray cluster"}.get(
        address, f"the Ray cluster at {address}")
    concrete = address not in (None, "local", "auto")
    if concrete:
        _reachable(str(address))
    # A port that answers but is not Ray's (the dashboard's 8265, say) would keep ray.init
    # retrying for twenty rounds of some forty seconds each; one round will do.
    with _environment_default("RAY_gcs_server_port_wait_time_s", "1" if concrete else None):
        try:
            ray.init(address=address, num_cpus=cluster.num_cpus, include_dashboard=False, log_to_driver=False,
                     configure_logging=True, logging_level=logging.ERROR)
        except Exception as exc:  # Ray's start and connection errors share no type
            raise GameError(f"could not use {target}: {_first_line(exc)}") from None
    try:
        yield
    finally:
        ray.shutdown()


@contextmanager
def _environment_default(key: str, value: str | None) -> Iterator[None]:
    """``os.environ[key]`` set to ``value`` for a while, unless it is set already (or value is None)."""
    if value is None or key in os.environ:
        yield
        return
    os.environ[key] = value
    try:
        yield
    finally:
        os.environ.pop(key, None)


def _reachable(address: str) -> None:
    """GameError unless something answers at ``address``'s host and port (ray.init would wait
    for many minutes, printing, before it gave up on an address that does not answer)."""
    match = _ADDRESS.fullmatch(address)
    assert match is not None
    host = match["host"].strip("[]")
    try:
        socket.create_connection((host, int(match["port"])), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise GameError(f"cannot reach a Ray cluster at {address}: {reason.lower()}") from None


def _failure(ray: ModuleType, exc: Exception) -> Exception:
    """The error to raise for a Ray task that failed: a game's own GameError as it is, a cluster
    whose workers lack qipan or lost a worker in a line, a bug with its remote traceback."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, GameError):
        return cause
    if "No module named 'qipan" in str(exc):
        return GameError("the Ray workers cannot import qipan: install the same qipan on every node of the "
                         "cluster, or give the run a Ray runtime_env that installs it (docs/ai.md)")
    task_error: type[Exception] = ray.exceptions.RayTaskError
    if isinstance(exc, task_error):
        return exc
    return GameError(f"Ray failed: {_first_line(exc)}")


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return brief_text(lines[0], 200) if lines else type(exc).__name__
