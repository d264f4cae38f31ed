"""The limits several server processes share through Redis (cluster mode: ``qipan serve --redis``).

One process keeps its limits in memory (:mod:`qipan.server.limits`). Several behind one load
balancer share those that are per client or per site, or a client would get one allowance per
process:

- :class:`RedisRateLimiter`: every token bucket (games created, connections opened, messages,
  chat per address) in Redis, updated by one Lua script per event, on Redis' clock.
- :class:`SharedCounts`: counts each process holds (connections per client, open public games per
  client, games between AIs), capped over every live process. A process writes its own counts
  to a hash that expires :data:`PROCESS_TTL` seconds after it stops renewing it (every
  :data:`HEARTBEAT` seconds), so the counts of a process that died vanish with it.
- :class:`SharedLobby`: each process publishes its lobby lists; every reader merges them.

When Redis cannot answer, each piece falls back to this process's own state and the site
stays up with per-process limits meanwhile (logged once per outage, and once when Redis answers
again). The scripts read keys they are not given (other processes' hashes): this needs one Redis
server (or a primary under Sentinel), not Redis Cluster.

redis-py comes with the ``scale`` extra (``pip install 'qipan[scale]'``); this module is only
imported in cluster mode.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from qipan.core.errors import brief_text
from qipan.server.limits import MemoryRateLimiter, Rate, RateLimiter

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from qipan.server.hub import Hub
    from qipan.server.live import LiveGame

log = logging.getLogger("qipan.server")

T = TypeVar("T")

PREFIX = "qipan:"
"""Every key this module writes starts with it."""
HEARTBEAT = 1.0
"""Seconds between two renewals of a process's counts."""
PROCESS_TTL = 5.0
"""Seconds after which the counts of a process that stopped renewing them are gone."""
CALL_TIMEOUT = 1.0
"""Longest wait for one Redis call before its fallback answers."""
RETRY = 1.0
"""Seconds Redis is left alone after a failed call (the fallbacks answer meanwhile)."""
LOBBY_CHANNEL = "qipan:lobby"
"""Where a process says that its lobby lists changed (the message: its id)."""
LOBBY_TTL = 10.0
"""Seconds a process's published lobby lists last unless renewed."""
LOBBY_REFRESH = 3.0
"""Seconds after which unchanged lobby lists are published again (renewing them)."""
LOBBY_PUBLISH = 1.0
"""Least seconds between two publications of a process's lobby lists."""
LOBBY_CACHE = 1.0
"""Seconds the other processes' lists are reused before being read again (unless notified)."""
AI_GRACE = 10.0
"""Seconds an admitted game between AIs counts before it has started (if its creation failed)."""


class Link:
    """One piece's use of Redis, and what happens when Redis is unreachable: each call bounded by
    ``timeout`` (waiting for a connection included: :func:`gate`), and made again at once if its
    connection turns out closed (Redis restarted since it was opened); after a failure Redis is
    left alone for ``retry`` seconds (the caller's fallback answers) and then tried by one call at
    a time. An outage is logged once, and so is its end."""

    def __init__(self, redis: Redis, name: str, fallback: str, retry: float = RETRY, timeout: float = CALL_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic):
        from redis.exceptions import ConnectionError as Closed
        from redis.exceptions import RedisError  # the scale extra

        self.errors: tuple[type[BaseException], ...] = (RedisError, OSError)  # OSError: TimeoutError too
        self._closed = Closed
        self._gate = gate(redis)
        self.name = name
        self.fallback = fallback
        self.retry = retry
        self.timeout = timeout
        self.clock = clock
        self.down = False
        self._next = 0.0
        self._probing = False

    async def call(self, make: Callable[[], Awaitable[T]]) -> T | None:
        """What ``make()`` answers, or None when Redis cannot answer now."""
        if self.down and (self._probing or self.clock() < self._next):
            return None
        probing = self._probing = self.down
        try:
            async with asyncio.timeout(self.timeout), self._gate:
                try:
                    answer = await make()
                except self._closed:  # (redis-py drops that connection: this call takes a new one)
                    answer = await make()
        except self.errors as exc:
            self.failed(exc)
            return None
        finally:
            if probing:
                self._probing = False
        if probing:  # (a call that began before the outage proves nothing)
            self.answered()
        return answer

    def failed(self, exc: BaseException) -> None:
        if not self.down:
            reason = brief_text(f"{type(exc).__name__}: {exc}".rstrip(": "), 160)
            log.warning("Redis cannot answer (%s); %s: %s until it does again", reason, self.name, self.fallback)
        self.down = True
        self._next = self.clock() + self.retry

    def answered(self) -> None:
        if self.down:
            self.down = False
            log.info("Redis answers again; %s: shared by every server process again", self.name)


_GATES: weakref.WeakKeyDictionary[Redis, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def gate(redis: Redis) -> asyncio.Semaphore:
    """How many calls may use ``redis`` at once: its connection pool's size, less room for the
    lobby's subscription. redis-py refuses a call beyond its pool instead of waiting for a
    connection, which would look like an outage during a burst of requests."""
    found = _GATES.get(redis)
    if found is None:
        size = getattr(redis.connection_pool, "max_connections", 100)
        found = _GATES[redis] = asyncio.Semaphore(max(1, size - 2))
    return found


def _text(value: object) -> str:
    """A Redis answer as text (the client may or may not decode answers)."""
    return value.decode() if isinstance(value, bytes) else str(value)


# -- rates ---------------------------------------------------------------------------------------

BUCKET = """
-- TokenBucket.take (qipan.server.limits) on a hash: KEYS[1] the bucket; ARGV: count, seconds,
-- and the time ('' for Redis' clock). Numbers travel as text with 17 digits, so that every step
-- computes what Python computes. A bucket of another rate starts again, full.
local count, seconds = tonumber(ARGV[1]), tonumber(ARGV[2])
local rate = ARGV[1] .. '/' .. ARGV[2]
local now
if ARGV[3] == '' then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
else
  now = tonumber(ARGV[3])
end
local tokens, stamp = count, now
local held = redis.call('HMGET', KEYS[1], 'rate', 'tokens', 'stamp')
if held[1] == rate then
  tokens, stamp = tonumber(held[2]), tonumber(held[3])
end
tokens = math.min(count, tokens + math.max(0, now - stamp) * count / seconds)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = (1 - tokens) * seconds / count
end
redis.call('HSET', KEYS[1], 'rate', rate, 'tokens', string.format('%.17g', tokens),
           'stamp', string.format('%.17g', now))
if ARGV[3] == '' then
  -- once full again the bucket is as good as new: let it go
  redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((count - tokens) * seconds / count * 1000)))
end
return string.format('%.17g', wait)
"""


class RedisRateLimiter:
    """Token buckets in Redis, one hash per (name, client), shared by every process: the same
    answers as :class:`~qipan.server.limits.TokenBucket`. A bucket expires once it is full again.

    Time is Redis' own (``TIME`` in the script): one clock for every process on every host, so
    no host whose clock is ahead refills buckets early, and none whose clock stepped back stalls
    them. ``clock`` replaces it (tests; such buckets do not expire, Redis' clock not being theirs).
    While Redis is unreachable, ``fallback`` (this process's buckets) answers."""

    def __init__(self, redis: Redis, fallback: RateLimiter | None = None, clock: Callable[[], float] | None = None,
                 link: Link | None = None):
        self.fallback = fallback if fallback is not None else MemoryRateLimiter()
        self.clock = clock
        self.link = link or Link(redis, "rate limits", "each server process counts its own")
        self._take = redis.register_script(BUCKET)  # EVALSHA, loading the script again after NOSCRIPT

    async def take(self, name: str, client: str, rate: Rate) -> float:
        key = f"{PREFIX}rate:{name}:{client}"
        args: list[str | int] = [rate.count, repr(float(rate.seconds)),
                                 "" if self.clock is None else repr(float(self.clock()))]
        wait = await self.link.call(lambda: self._take(keys=[key], args=args))
        if wait is None:
            return await self.fallback.take(name, client, rate)
        return float(_text(wait))


# -- counts --------------------------------------------------------------------------------------

ADMIT = """
-- Whether ARGV[3]'s count over every live process, with this one's (KEYS[2]) at ARGV[5], is at
-- most ARGV[4]; if so, record this one's (renewed for ARGV[6] ms). KEYS[1]: the processes that
-- hold counts; ARGV[1] .. id: each one's hash, gone once it stopped renewing it.
local total = tonumber(ARGV[5])
for _, process in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if process ~= ARGV[2] then
    local count = redis.call('HGET', ARGV[1] .. process, ARGV[3])
    if count then
      total = total + tonumber(count)
    elseif redis.call('EXISTS', ARGV[1] .. process) == 0 then
      redis.call('SREM', KEYS[1], process)
    end
  end
end
if total > tonumber(ARGV[4]) then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('SADD', KEYS[1], ARGV[2])
return 1
"""

WRITE = """
-- Write this process's counts (KEYS[2]; all of them anew if ARGV[3] is '1'): pairs from ARGV[4],
-- 0 removing one; renew them for ARGV[2] ms. 1 if it holds any.
if ARGV[3] == '1' then
  redis.call('DEL', KEYS[2])
end
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '0' then
    redis.call('HDEL', KEYS[2], ARGV[i])
  else
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
if redis.call('PEXPIRE', KEYS[2], ARGV[2]) == 0 then
  return 0
end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""


class SharedCounts:
    """A count per key (a client, ...) that each process holds, capped over every live process.

    ``local()`` gives this process's counts (the truth); they are written to its hash
    ``qipan:<name>:<process>`` by :meth:`flush`: the keys that changed, all of them again after
    Redis was unreachable or lost them. :meth:`run` flushes soon after :meth:`changed` and at
    least every :data:`HEARTBEAT` seconds, which renews the hash; ``ttl`` seconds after a process
    stops, its counts are gone."""

    def __init__(self, redis: Redis, name: str, local: Callable[[], Mapping[str, int]], process: str,
                 ttl: float = PROCESS_TTL, link: Link | None = None):
        self.redis = redis
        self.local = local
        self.process = process
        self.link = link or Link(redis, name, "each server process counts its own")
        self._members = f"{PREFIX}{name}:processes"
        self._prefix = f"{PREFIX}{name}:"
        self._hash = self._prefix + process
        self._ttl = str(math.ceil(ttl * 1000))
        self._admit = redis.register_script(ADMIT)
        self._write = redis.register_script(WRITE)
        self._written: dict[str, int] = {}
        self._stale = True  # what Redis holds is unknown: write everything
        self._unsure: set[str] = set()  # keys admit() wrote, perhaps overtaken by a flush
        self._kick = asyncio.Event()

    async def admit(self, key: str, cap: int) -> bool | None:
        """Whether ``key``'s count over every process, with this one's at ``local()[key]`` (the
        new one counted there already), is at most ``cap``; then this process's count is
        recorded. None when Redis cannot answer: the caller decides alone."""
        mine = self.local().get(key, 0)
        args: list[str | int] = [self._prefix, self.process, key, cap, mine, self._ttl]
        allowed = await self.link.call(lambda: self._admit(keys=[self._members, self._hash], args=args))
        if allowed is None:
            self._stale = True
            return None
        if int(allowed):
            self._unsure.add(key)
        return bool(int(allowed))

    def changed(self) -> None:
        """This process's counts changed: flush them soon."""
        self._kick.set()

    async def flush(self) -> None:
        """Write the counts that changed (all of them when Redis may have missed some) and renew them."""
        local = {key: count for key, count in self.local().items() if count > 0}
        held = await self._send(local, self._stale)
        if held is False and local:  # the hash was gone (Redis restarted, or this process stalled)
            await self._send(local, True)

    async def _send(self, local: dict[str, int], whole: bool) -> bool | None:
        if whole:
            changes = local
        else:
            keys = local.keys() | self._written.keys() | self._unsure
            changes = {key: local.get(key, 0) for key in keys
                       if key in self._unsure or local.get(key, 0) != self._written.get(key, 0)}
        self._unsure = set()
        args: list[str | int] = [self.process, self._ttl, int(whole)]
        for key, count in changes.items():
            args += [key, count]
        held = await self.link.call(lambda: self._write(keys=[self._members, self._hash], args=args))
        if held is None:
            self._stale = True
            return None
        self._written, self._stale = local, False
        return bool(int(held))

    async def run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(HEARTBEAT):
                    await self._kick.wait()
            self._kick.clear()
            try:
                await self.flush()
            except Exception:  # (Redis' own failures are handled: this is a bug, and renewing must go on)
                log.exception("could not write this process's %s", self.link.name)

    async def close(self) -> None:
        """Remove this process's counts (it stops)."""
        await self.link.call(lambda: self.redis.delete(self._hash))


class AIGames:
    """``--max-ai-games`` over every process: each counts its unfinished games between AIs, plus
    the creations it admitted that have not started yet (at most :data:`AI_GRACE` seconds)."""

    KEY = "games"

    def __init__(self, redis: Redis, hub: Hub, process: str, ttl: float = PROCESS_TTL):
        self.hub = hub
        self.counts = SharedCounts(redis, "ai-games", self.local, process, ttl,
                                   Link(redis, "games between AIs", "each server process caps its own"))
        self._admitted: list[float] = []  # when each creation not started yet was admitted (time.time())
        self._seen: set[str] = set()

    def local(self) -> dict[str, int]:
        now = time.time()
        games = {live.id: live.row.created for live in list(self.hub.games.values()) if between_ais(live)}
        for game_id in sorted(games.keys() - self._seen, key=games.__getitem__):
            # a game created after an admission is that creation, started (a game taken over
            # from another process or resumed was created earlier)
            if self._admitted and games[game_id] >= self._admitted[0]:
                self._admitted.pop(0)
        self._seen = set(games)
        self._admitted = [at for at in self._admitted if now - at < AI_GRACE]
        return {self.KEY: len(games) + len(self._admitted)}

    async def admit(self, cap: int) -> bool:
        """Whether one more game between AIs may start (the hub checked its own games first;
        while Redis is unreachable, yes)."""
        at = time.time()
        self._admitted.append(at)
        if await self.counts.admit(self.KEY, cap) is False:
            self._admitted.remove(at)
            return False
        return True


def between_ais(live: LiveGame) -> bool:
    """Whether ``live`` is an unfinished game in which every seat is an AI (as :meth:`Hub.ai_games` counts)."""
    return not live.match.over and all(seat["kind"] == "ai" for seat in live.row.seats)


# -- the lobby -----------------------------------------------------------------------------------

READ_LISTS = """
-- The lobby lists of every live process but ARGV[1]: KEYS[1] names them, ARGV[2] .. id holds each.
local found = {}
for _, process in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if process ~= ARGV[1] then
    local lists = redis.call('GET', ARGV[2] .. process)
    if lists then
      table.insert(found, lists)
    else
      redis.call('SREM', KEYS[1], process)
    end
  end
end
return found
"""


class SharedLobby:
    """Every process's lobby lists. This process's, ``local()`` (``{"open": [...], "playing":
    [...]}``), are published after :meth:`changed` (at most every :data:`LOBBY_PUBLISH` seconds,
    renewed every :data:`LOBBY_REFRESH`, gone :data:`LOBBY_TTL` seconds after the process
    stops), with a notification on :data:`LOBBY_CHANNEL`; :meth:`others` reads everyone else's.
    ``listeners`` are called when another process's lists changed."""

    def __init__(self, redis: Redis, local: Callable[[], dict[str, list[dict[str, Any]]]], process: str,
                 link: Link | None = None, clock: Callable[[], float] = time.monotonic):
        self.redis = redis
        self.local = local
        self.process = process
        self.link = link or Link(redis, "lobby lists", "each server process lists only its own games")
        self.clock = clock
        self.listeners: list[Callable[[], None]] = []
        self._members = f"{PREFIX}lobby:processes"
        self._prefix = f"{PREFIX}lobby:"
        self._read = redis.register_script(READ_LISTS)
        self._changed = asyncio.Event()
        self._published: str | None = None
        self._published_at = -math.inf
        self._cache: list[dict[str, Any]] | None = None
        self._cache_at = -math.inf

    def changed(self) -> None:
        """Some game of this process changed (a hub watcher)."""
        self._changed.set()

    async def publish(self) -> None:
        """Publish this process's lists if they changed, or are due for renewal."""
        text = json.dumps(self.local(), ensure_ascii=False, separators=(",", ":"))
        fresh = text != self._published
        if not fresh and self.clock() - self._published_at < LOBBY_REFRESH:
            return

        async def send() -> bool:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.set(self._prefix + self.process, text, px=math.ceil(LOBBY_TTL * 1000))
                pipe.sadd(self._members, self.process)
                if fresh:
                    pipe.publish(LOBBY_CHANNEL, self.process)
                await pipe.execute()
            return True

        if await self.link.call(send):
            self._published, self._published_at = text, self.clock()

    async def others(self, status: str) -> list[dict[str, Any]]:
        """The ``status`` list (``"open"``, ``"playing"``) of every other live process, in no order."""
        if self._cache is None or self.clock() - self._cache_at >= LOBBY_CACHE:
            found = await self.link.call(lambda: self._read(keys=[self._members], args=[self.process, self._prefix]))
            lists = []
            for text in found or []:
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    parsed = json.loads(_text(text))
                    if isinstance(parsed, dict):
                        lists.append(parsed)
            self._cache, self._cache_at = lists, self.clock()
        return [summary for lists in self._cache for summary in lists.get(status) or []
                if isinstance(summary, dict) and isinstance(summary.get("id"), str)
                and isinstance(summary.get("created"), int | float)]

    def _notified(self) -> None:
        self._cache = None
        for listener in self.listeners:
            listener()

    async def run(self) -> None:
        """Publish this process's lists as they change, and listen for the others'."""
        listening = asyncio.create_task(self.listen())
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(LOBBY_REFRESH):
                        await self._changed.wait()
                self._changed.clear()
                try:
                    await self.publish()
                except Exception:  # (as in SharedCounts.run)
                    log.exception("could not publish this process's lobby lists")
                await asyncio.sleep(LOBBY_PUBLISH)
        finally:
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)

    async def listen(self) -> None:
        """Call the listeners whenever another process says its lists changed (and once each
        time the subscription starts again after Redis was unreachable: changes were missed)."""
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(LOBBY_CHANNEL)
                self.link.answered()
                self._notified()
                async for message in pubsub.listen():
                    if message and message.get("type") == "message" and _text(message.get("data")) != self.process:
                        self._notified()
            except self.link.errors as exc:
                self.link.failed(exc)
            finally:
                with contextlib.suppress(*self.link.errors):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # (unannotated in redis-py)
            await asyncio.sleep(self.link.retry)

    async def close(self) -> None:
        """Remove this process's lists (it stops) and tell the others."""
        async def remove() -> None:
            await self.redis.delete(self._prefix + self.process)
            await self.redis.publish(LOBBY_CHANNEL, self.process)

        await self.link.call(remove)


# -- one app -------------------------------------------------------------------------------------

class Shared:
    """What one app shares through Redis under one process id: :meth:`start` runs the tasks
    keeping this process's part current, :meth:`close` removes it."""

    def __init__(self, redis: Redis, process: str | None = None, ttl: float = PROCESS_TTL):
        self.redis = redis
        self.process = process or secrets.token_hex(8)
        self.ttl = ttl
        self.parts: list[SharedCounts | SharedLobby] = []
        self._tasks: list[asyncio.Task[None]] = []

    def counts(self, name: str, local: Callable[[], Mapping[str, int]]) -> SharedCounts:
        part = SharedCounts(self.redis, name, local, self.process, self.ttl)
        self.parts.append(part)
        return part

    def add(self, part: SharedCounts | SharedLobby) -> None:
        self.parts.append(part)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(part.run()) for part in self.parts]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for part in self.parts:
            await part.close()


def share(state: Any, redis: Redis) -> Shared:
    """Share the limits of an app (its ``state``: ``guard``, ``hub``, ``lobby``) with the other
    processes using ``redis``, and start keeping them current. The rates go to Redis unless the
    app was given a rate limiter other than this process's buckets."""
    shared = Shared(redis)
    guard = state.guard
    if isinstance(guard.limiter, MemoryRateLimiter):
        guard.limiter = RedisRateLimiter(redis, fallback=guard.limiter)
    guard.shared = shared.counts("connections", guard.connections.clients)
    lobby = state.lobby
    lists = SharedLobby(redis, lobby.local_lists, shared.process)
    shared.add(lists)
    lobby.share(lists, shared.counts("open-games", lobby.open_counts))
    ai_games = AIGames(redis, state.hub, shared.process, shared.ttl)
    shared.add(ai_games.counts)
    state.hub.ai_cap = ai_games
    shared.start()
    return shared
