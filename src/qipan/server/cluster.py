"""Several server processes on one PostgreSQL database: which process owns which game.

Each game in play is owned by one process at a time, through a lease with a fencing token kept
in PostgreSQL. Not in Redis: the token is checked by the database that accepts the writes, in
the same transaction and under the same row lock, by the database's own clock (no skew between
hosts), and ownership survives a Redis restart.

- Every process registers a row in ``processes`` under an id new at every start, and renews its
  lease (``expires``, by the database's clock) every :data:`HEARTBEAT` seconds; a lease lasts
  :data:`LEASE` seconds.
- Game G is owned by process P while ``games.owner`` is P and P's lease runs. A process takes a
  game (:meth:`Cluster.acquire`) that it owns already or that nobody owns (``owner`` NULL, or
  its lease lapsed), and every take raises ``games.fence``.
- Every write for an existing game first checks, in its own transaction, that ``owner`` and
  ``fence`` are still what this process holds (:meth:`Cluster.fenced`). The check locks the
  game's row, which orders it against a takeover: once another process has taken the game,
  every write of the old owner fails with :class:`~qipan.server.errors.Fenced` and nothing of
  it is saved.
- A process whose lease lapsed (it was paused, or cut off from the database) loses every game
  (:meth:`qipan.server.hub.Hub.lose_all`) and registers again under a new id.
- Every :data:`SWEEP` seconds each process takes its share of the unfinished games nobody owns
  (their process died) and resumes them; this is also how games resume at start-up. A process
  the others cannot reach (its Redis bus is down) takes none, and keeps those it holds.
- A process that shuts down deletes its row, so the others take its games at once.

Use it with a :class:`~qipan.server.hub.Hub` built on the same store; the hub must exist before
the cluster starts (the sweeper loads games into it)::

    store = Store("postgresql://qipan@db.example/qipan")
    cluster = Cluster(store)
    hub = Hub(store, cluster=cluster)
    await cluster.start()    # registers, then heartbeats and sweeps in the background
    await hub.resume_all()   # in cluster mode only the expiry watch: the sweeper resumes games
    ...
    await cluster.close()    # hands its games over at once (hub.close() does it too)
    await hub.close()
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from qipan.server.errors import Fenced
from qipan.server.store import Job, ReadFailed, StorageUnavailable, Store, StoreError, first_line

if TYPE_CHECKING:
    from qipan.server.hub import Hub

log = logging.getLogger("qipan.server")

P = ParamSpec("P")
T = TypeVar("T")

LEASE = 5.0
"""Seconds a process's lease lasts after its last renewal: a dead process's games are taken
over within about LEASE + SWEEP seconds."""
HEARTBEAT = 1.0
"""Seconds between lease renewals."""
SWEEP = 1.0
"""Seconds between two looks for games nobody owns."""
JOINING = 2
"""Heartbeats a process that has just joined (or joined again) waits before it sweeps: processes
joining at about the same time (a cluster starting, every process joining again after a database
outage) then count each other and share the games nobody owns, instead of the first one taking
them all. A game someone opens meanwhile is taken at once, by the process they reach."""
ALIVE_CACHE = 1.0
"""Seconds :meth:`Cluster.alive` may answer from its last look."""
FORGET_UNLOADED = 60.0
"""Seconds this process keeps the fencing token of a game it unloaded (a finished game nobody
watches): a request still holding the game may yet write to it (a rematch)."""
FORGET_DEAD = 60.0
"""Seconds after its lease lapsed that a process's row is deleted (a missing row counts as lapsed)."""

_LIVE = "EXISTS (SELECT 1 FROM processes p WHERE p.id = {who} AND p.expires > clock_timestamp())"
_ORPHAN = f"(games.owner IS NULL OR NOT {_LIVE.format(who='games.owner')})"
_LEASED = "clock_timestamp() + make_interval(secs => :lease)"

REGISTER = sa.text(f"INSERT INTO processes (id, host, pid, started, expires) "
                   f"VALUES (:me, :host, :pid, :started, {_LEASED})")
RENEW = sa.text(f"UPDATE processes SET expires = {_LEASED} WHERE id = :me AND expires > clock_timestamp()")
LEAVE = sa.text("DELETE FROM processes WHERE id = :me")
LIVE = sa.text("SELECT id FROM processes WHERE expires > clock_timestamp()")
COUNT_LIVE = sa.text("SELECT count(*) FROM processes WHERE expires > clock_timestamp()")
ACQUIRE = sa.text(f"""
UPDATE games SET owner = :me, fence = fence + 1
WHERE id = :game AND {_LIVE.format(who=':me')} AND (owner = :me OR {_ORPHAN})
RETURNING fence""")
LOCATE = sa.text(f"SELECT CASE WHEN {_LIVE.format(who='games.owner')} THEN games.owner END FROM games "
                 "WHERE id = :game")
FENCE = sa.text("UPDATE games SET fence = fence WHERE id = :game AND owner = :me AND fence = :fence")
PRUNE = sa.text("DELETE FROM processes WHERE expires < clock_timestamp() - make_interval(secs => :age)")
COUNT = sa.text(f"SELECT (SELECT count(*) FROM games WHERE finished IS NULL AND {_ORPHAN}), "
                f"(SELECT count(*) FROM processes WHERE expires > clock_timestamp())")
CLAIM = sa.text(f"""
UPDATE games SET owner = :me, fence = games.fence + 1
FROM (SELECT id FROM games WHERE finished IS NULL AND {_ORPHAN}
      ORDER BY created LIMIT :share FOR UPDATE SKIP LOCKED) AS orphans
WHERE games.id = orphans.id AND {_LIVE.format(who=':me')}
RETURNING games.id, games.fence""")


class Rejoining(StorageUnavailable):
    """This process cannot take a game right now: its lease lapsed and it is registering again,
    or the game's owner is just going away (HTTP 503, WebSocket close code 1013)."""

    public = "this server is rejoining its cluster; try again in a moment"


def new_process_id() -> str:
    return secrets.token_hex(8)


def check_alone(store: Store) -> None:
    """Refuse to serve ``store`` as a single process (no Redis) while server processes started
    with Redis hold leases on it: it would load their games and play them beside their owners,
    without a lease or a fence (one unit of a cluster whose Redis URL went missing). StoreError in
    one line; nothing on SQLite, or when the database cannot tell (the server says so itself)."""
    if store.engine.dialect.name != "postgresql":
        return
    try:
        with store.engine.connect() as c:
            live = int(c.execute(COUNT_LIVE).scalar() or 0)
    except sa.exc.SQLAlchemyError:
        return
    if live:
        who = "1 server process started with --redis uses" if live == 1 else \
            f"{live} server processes started with --redis use"
        raise StoreError(f"{who} this database; start this one with the same --redis (or QIPAN_REDIS), or stop "
                         f"{'it' if live == 1 else 'them'} first")


class Cluster:
    """This process's membership of a cluster: its lease, the games it holds (their fencing
    tokens), and the sweeper that takes over the games of processes that went away."""

    def __init__(self, store: Store, lease: float = LEASE, heartbeat: float = HEARTBEAT, sweep: float = SWEEP):
        if store.engine.dialect.name != "postgresql":
            raise ValueError("a cluster needs a PostgreSQL database (several processes share it), "
                             f"not {store.engine.dialect.name}")
        if not 0 < heartbeat < lease or sweep <= 0:
            raise ValueError("the heartbeat must be shorter than the lease, and both and the sweep positive")
        self.store = store
        # Its own few connections: a lease renewal never waits behind a busy pool.
        self.engine = sa.create_engine(store.url, pool_pre_ping=True, pool_size=2, max_overflow=2)
        self.lease = lease
        self.heartbeat = heartbeat
        self.sweep_every = sweep
        self.id = new_process_id()
        """This process's id (a new one after its lease lapsed)."""
        self.fences: dict[str, int] = {}
        """Game id -> the fencing token this process took it with (games it holds)."""
        self.hub: Hub | None = None
        """The hub whose games these are (set by ``Hub(cluster=...)``)."""
        self._registered = False
        self._joined = -math.inf  # when it last (re)registered, by time.monotonic()
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self._live: frozenset[str] = frozenset()
        self._live_at = -math.inf
        self._live_lock = asyncio.Lock()
        self._retry: set[str] = set()  # taken over, but the database failed while loading them
        self._sweep_failing = False
        self.reachable: Callable[[], bool] = lambda: True
        """Whether the other processes can reach this one now (cluster mode: while its bus to
        them is up). Only then does the sweeper take orphaned games over: a game taken by a
        process the others cannot reach would be playable only through that one."""

    # -- membership --------------------------------------------------------------------------------

    async def start(self) -> None:
        """Register this process, then renew its lease and sweep for orphaned games in the
        background (from :data:`JOINING` heartbeats on: the first sweep resumes games). Raises StorageUnavailable if the
        database cannot be reached."""
        if self.hub is None:
            raise RuntimeError("build the Hub with cluster=... before starting the cluster")
        if self._tasks:
            return
        await self._register()
        log.info("server process %s joined the cluster (lease %.1f s)", self.id, self.lease)
        self._tasks = [asyncio.create_task(self._heartbeat(), name="qipan-heartbeat"),
                       asyncio.create_task(self._sweeper(), name="qipan-sweeper")]

    async def close(self) -> None:
        """Stop heartbeating and sweeping, and leave the cluster: the other processes take this
        one's games over at once. Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._registered:
            try:
                await self._db(self._execute, LEAVE, {"me": self.id})
            except StorageUnavailable as exc:
                log.warning("could not leave the cluster (%s): the others take its games once its lease lapses", exc)
            self._registered = False
        self.engine.dispose()

    async def _register(self) -> None:
        params = {"me": self.id, "host": socket.gethostname()[:255], "pid": os.getpid(), "started": time.time(),
                  "lease": self.lease}
        await self._db(self._execute, REGISTER, params)
        self._registered = True
        self._joined = time.monotonic()

    async def _heartbeat(self) -> None:
        """Renew the lease; after LEASE seconds without a renewal (by this process's clock), or
        when the database says it has lapsed, lose every game and register again."""
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(self.heartbeat)
            if not self._registered:
                try:
                    await self._register()
                    renewed = time.monotonic()
                    log.info("server process %s joined the cluster again", self.id)
                except StorageUnavailable as exc:
                    log.warning("could not join the cluster again (%s); retrying", exc)
                continue
            sent = time.monotonic()  # the database's new expiry is at least LEASE after this
            kept: bool | None = None
            try:
                async with asyncio.timeout(renewed + self.lease - sent):
                    kept = await self._db(self._execute, RENEW, {"me": self.id, "lease": self.lease}) == 1
            except (TimeoutError, StorageUnavailable) as exc:
                log.warning("could not renew the lease of server process %s: %s", self.id, str(exc) or "timed out")
            if kept:
                renewed = sent
            elif kept is False or time.monotonic() - renewed >= self.lease:
                await self._lapse("it lapsed" if kept is False else "it could not be renewed in time")
                renewed = time.monotonic()

    async def _lapse(self, why: str) -> None:
        """This process's lease is gone: drop every game and register under a new id."""
        old, self.id, self._registered = self.id, new_process_id(), False
        self._live_at = -math.inf
        log.warning("the lease of server process %s ended (%s): dropping its games; rejoining as %s", old, why, self.id)
        assert self.hub is not None
        await self.hub.lose_all()
        try:
            await self._register()
        except StorageUnavailable as exc:
            log.warning("could not join the cluster again (%s); retrying", exc)

    # -- games -------------------------------------------------------------------------------------

    async def acquire(self, game_id: str) -> int | None:
        """Take ``game_id`` for this process and return its new fencing token (kept in
        :attr:`fences`); None if another live process owns it, there is no such game, or this
        process's own lease has lapsed."""
        me = self.id
        fence = await self._db(self._scalar, ACQUIRE, {"me": me, "game": game_id})
        if fence is None or self.id != me:  # (re-registered meanwhile: taken by the old id)
            return None
        return self._hold(game_id, int(fence))

    def _hold(self, game_id: str, fence: int) -> int:
        """Keep ``fence`` for ``game_id`` unless this process took the game again since (a claim
        and an acquire of one game may return in either order): its newest fence."""
        self.fences[game_id] = max(fence, self.fences.get(game_id, 0))
        return self.fences[game_id]

    async def locate(self, game_id: str) -> tuple[bool, str | None]:
        """Whether ``game_id`` exists, and the live process that owns it (None: nobody)."""
        def run(c: Connection) -> tuple[bool, str | None]:
            row = c.execute(LOCATE, {"game": game_id}).first()
            return row is not None, None if row is None else row[0]

        return await self._db(self._read, run)

    async def owner(self, game_id: str) -> str | None:
        """The live process that owns ``game_id`` (None: nobody, or no such game)."""
        return (await self.locate(game_id))[1]

    async def alive(self, ids: Iterable[str]) -> set[str]:
        """Which of these processes hold a lease now (as of at most :data:`ALIVE_CACHE` seconds
        ago). StorageUnavailable if the database cannot tell."""
        if time.monotonic() - self._live_at > ALIVE_CACHE:
            async with self._live_lock:
                asked = time.monotonic()
                if asked - self._live_at > ALIVE_CACHE:
                    self._live = frozenset(await self._db(self._read, lambda c: list(c.execute(LIVE).scalars())))
                    self._live_at = asked
        return set(self._live.intersection(ids))

    def retry_later(self, game_id: str) -> None:
        """``game_id`` was taken here but could not be loaded now (the database failed): the next
        sweep resumes it (nobody else will: this process owns it)."""
        self._retry.add(game_id)

    def forget_later(self, game_id: str) -> None:
        """Forget the fencing token of a game the hub unloaded, unless it is loaded again meanwhile."""
        fence = self.fences.get(game_id)

        def forget() -> None:
            if self.fences.get(game_id) == fence and (self.hub is None or game_id not in self.hub.games):
                self.fences.pop(game_id, None)

        asyncio.get_running_loop().call_later(FORGET_UNLOADED, forget)

    def fenced(self, game_id: str, job: Job) -> Job:
        """``job`` (a write for game ``game_id``) made to fail with :class:`Fenced`, nothing of it
        saved, unless this process still holds the game with the fencing token it holds now."""
        me, fence = self.id, self.fences.get(game_id)

        def run(conn: Connection) -> None:
            if fence is None or conn.execute(FENCE, {"game": game_id, "me": me, "fence": fence}).rowcount != 1:
                raise Fenced()
            job(conn)

        return run

    # -- the sweeper ---------------------------------------------------------------------------------

    async def _sweeper(self) -> None:
        while True:
            if (wait := self._joined + JOINING * self.heartbeat - time.monotonic()) > 0:
                await asyncio.sleep(wait)  # (just joined: let the others joining with it be counted)
                continue
            try:
                await self.sweep()
                if self._sweep_failing:
                    log.info("the takeover sweep works again")
                self._sweep_failing = False
            except StorageUnavailable as exc:
                if not self._sweep_failing:
                    log.warning("the takeover sweep failed (%s); retrying", exc)
                self._sweep_failing = True
            await asyncio.sleep(self.sweep_every)

    async def sweep(self) -> int:
        """Take this process's share of the unfinished games nobody owns (at most the orphans
        divided by the live processes, rounded up, oldest first) and resume them; how many
        were resumed. Games that cannot be loaded are set aside, as at a restart. None is taken
        while the others cannot reach this process (:attr:`reachable`); those it holds stay."""
        hub = self.hub
        assert hub is not None
        me = self.id
        claimed = await self._db(self._claim, me) if self.reachable() else []
        if self.id != me:  # re-registered meanwhile: those games are orphans again
            return 0
        for game_id, fence in claimed:
            self._hold(game_id, fence)
        if claimed:
            log.info("server process %s took over %d game(s)", me, len(claimed))
        retry, self._retry = self._retry, set()
        resumed = 0
        for game_id in [*(g for g in retry if g in self.fences), *(g for g, _ in claimed)]:
            if self.id != me:
                break
            try:
                resumed += await hub.adopt(game_id)
            except StorageUnavailable as exc:
                log.error("could not resume game %s now (%s); retrying at the next sweep", game_id, exc)
                self._retry.add(game_id)
        return resumed

    def _claim(self, me: str) -> list[tuple[str, int]]:
        with self.engine.begin() as c:
            c.execute(PRUNE, {"age": FORGET_DEAD})
            orphans, processes = c.execute(COUNT).one()
            if not orphans:
                return []
            share = math.ceil(orphans / max(1, processes))
            return [(game_id, int(fence)) for game_id, fence in c.execute(CLAIM, {"me": me, "share": share})]

    # -- database access -----------------------------------------------------------------------------

    def _execute(self, statement: sa.TextClause, params: dict[str, Any]) -> int:
        with self.engine.begin() as c:
            return int(c.execute(statement, params).rowcount)

    def _scalar(self, statement: sa.TextClause, params: dict[str, Any]) -> Any:
        with self.engine.begin() as c:
            return c.execute(statement, params).scalar()

    def _read(self, run: Callable[[Connection], T]) -> T:
        with self.engine.connect() as c:
            return run(c)

    async def _db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` in a thread; ReadFailed if the database fails."""
        try:
            return await asyncio.to_thread(call, *args, **kwargs)
        except sa.exc.SQLAlchemyError as exc:
            raise ReadFailed(first_line(exc)) from None
