"""The message bus between server processes: Redis pub/sub, with redis-py's asyncio client.

Each process subscribes to its own channel, ``qipan:proc:<id>``, and publishes to the others'.
A frame is a compact JSON object with its type ``t`` and its sender ``from`` (the bus adds it);
a handler per type (:attr:`Bus.handlers`) takes it. Frames carry seat tokens (a relayed hello,
a claim's answer), so none is ever logged, and Redis must be private to the servers.

One task publishes every frame of this process, in order, over one connection (several at once
in a pipeline): Redis delivers the frames one publisher sent in the order they were sent.

The bus is *up* while it is subscribed. When Redis cannot be reached (the subscription breaks,
a publish fails, Redis stops answering pings) it goes down: every :attr:`Bus.on_down` callback
runs (the relay ends every relayed session, pending calls fail), then it subscribes again with
backoff. Frames sent while down fail at once with :class:`BusDown` (:class:`MaybeSent` for those
being published when Redis failed: they may have arrived). When the process registers
again under a new id (its lease lapsed, :mod:`qipan.server.cluster`) the bus goes down and up
the same way, on the new channel.

redis-py is imported only here and only in cluster mode (``pip install 'qipan[scale]'``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from qipan.core.errors import brief_text
from qipan.server.connections import dumps

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("qipan.server")

MISSING = "--redis needs redis-py: pip install 'qipan[scale]'"
"""What to say when cluster mode is asked for without redis-py installed."""
CHANNEL = "qipan:proc:"
"""Prefix of each process's channel; the process id follows."""
BATCH = 512
"""Frames published in one pipeline at most."""
MAX_PENDING = 20_000
"""Frames waiting to be published at most; beyond, Redis is too slow to count as up."""
PING = 1.0
"""Seconds without a frame after which the subscription pings Redis ..."""
SILENCE = 5.0
"""... and seconds without any answer after which Redis counts as lost."""
BACKOFF = (0.1, 2.0)
"""First and longest wait between attempts to subscribe again."""


class BusDown(Exception):
    """Redis cannot be reached now: the frame was not sent."""


class MaybeSent(BusDown):
    """Redis failed while the frame was being published: it may have reached its receiver."""


def redis_client(url: str, **options: Any) -> Redis:
    """A ``redis.asyncio.Redis`` for ``url`` (redis:// or rediss://); ImportError saying how to
    install redis-py when it is missing."""
    try:
        from redis.asyncio import Redis
    except ImportError:
        raise ImportError(MISSING) from None
    client: Redis = Redis.from_url(url, **options)
    return client


class Bus:
    """This process's end of the bus. ``me`` gives the process id now (it changes when the process
    registers again); ``start`` subscribes, ``close`` stops."""

    def __init__(self, url: str, me: Callable[[], str]):
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No retries inside redis-py: a lost connection must be seen (frames may have been lost
        # with it), not healed quietly.
        self._redis = redis_client(url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2.0,
                                   socket_timeout=SILENCE)
        self._me = me
        self.id = me()
        """The process id whose channel the bus listens to (frames are sent as from it)."""
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        """Frame type -> its handler (called in the event loop; it must not block)."""
        self.on_down: list[Callable[[], None]] = []
        """Called when the bus goes down: every frame sent or received from then on may be lost."""
        self.on_up: list[Callable[[], None]] = []
        """Called when the bus is up (again): frames sent from then on are delivered."""
        self.up = False
        self._queue: collections.deque[tuple[str, str, asyncio.Future[int] | None]] = collections.deque()
        self._wake = asyncio.Event()
        self._subscribed = asyncio.Event()
        self._failure = "no answer yet"
        self._busy = False  # a batch is being published
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, wait: float = 5.0) -> None:
        """Start listening and publishing; wait up to ``wait`` seconds for the subscription (the
        server starts without it if Redis cannot be reached, and keeps trying)."""
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)
        if not self.up:
            log.warning("cannot reach Redis yet (%s); games owned by other processes wait until it answers",
                        self._failure)

    async def close(self, flush: float = 1.0) -> None:
        """Stop, after up to ``flush`` seconds for the frames queued to go out."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(flush):
                while self.up and (self._queue or self._busy):
                    await asyncio.sleep(0.01)
        self._down(None)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._redis.aclose()

    # -- sending -----------------------------------------------------------------------------------

    def publish(self, process: str, frame: dict[str, Any]) -> asyncio.Future[int]:
        """Send ``frame`` to ``process``: a future of how many subscribers got it (0: nobody
        listens on its channel), failed with BusDown when the bus is down."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        if not self._enqueue(process, frame, future):
            future.set_exception(BusDown())
        return future

    def post(self, process: str, frame: dict[str, Any]) -> None:
        """Send ``frame`` to ``process`` if the bus is up; nothing is known of its fate."""
        self._enqueue(process, frame, None)

    def _enqueue(self, process: str, frame: dict[str, Any], future: asyncio.Future[int] | None) -> bool:
        if not self.up:
            return False
        if len(self._queue) >= MAX_PENDING:
            self._down("Redis does not keep up with the frames to publish")
            return False
        self._queue.append((CHANNEL + process, dumps({**frame, "from": self.id}), future))
        self._wake.set()
        return True

    async def _publish(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = [self._queue.popleft() for _ in range(min(len(self._queue), BATCH))]
                self._busy = True
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, data, _ in batch:
                            pipe.publish(channel, data)
                        counts = await pipe.execute()
                except Exception as exc:  # redis-py's errors, OSError, a timeout
                    for _, _, future in batch:
                        if future is not None and not future.done():
                            future.set_exception(MaybeSent())
                    self._down(exc)
                    continue
                finally:
                    self._busy = False
                for (_, _, future), count in zip(batch, counts, strict=True):
                    if future is not None and not future.done():
                        future.set_result(int(count))

    # -- receiving ---------------------------------------------------------------------------------

    async def _listen(self) -> None:
        delay = BACKOFF[0]
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                self.id = self._me()
                await pubsub.subscribe(CHANNEL + self.id)
                if not self.up:
                    # Publish on fresh connections too: the old ones may be cut without knowing it.
                    await self._redis.connection_pool.disconnect()
                    self.up = True
                    log.info("the bus to the other server processes is up (Redis)")
                    for callback in self.on_up:  # (before any other frame: they go out first)
                        try:
                            callback()
                        except Exception:
                            log.exception("a callback for the bus coming up failed")
                self._subscribed.set()
                delay = BACKOFF[0]
                await self._read(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # redis-py's errors, OSError, a timeout
                self._failure = failure(exc)
                self._down(exc)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # (unannotated in redis-py)
            if self.id != self._me():
                continue  # registered again under a new id: subscribe to its channel at once
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF[1])

    async def _read(self, pubsub: PubSub) -> None:
        """Hand every frame to its handler while the bus is up under this id."""
        heard = pinged = time.monotonic()
        while self.up:
            if self._me() != self.id:
                self._down("this process registered again under a new id")
                return
            message = await pubsub.get_message(timeout=PING)
            now = time.monotonic()
            if message is not None:
                heard = now
                if message.get("type") == "message":
                    self._dispatch(message["data"])
                continue
            if now - heard > SILENCE:
                raise TimeoutError(f"Redis did not answer for {SILENCE:g} seconds")
            if now - pinged >= PING:
                pinged = now
                await pubsub.ping()

    def _dispatch(self, data: bytes) -> None:
        try:
            frame = json.loads(data)
        except ValueError:
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("from"), str):
            return
        handler = self.handlers.get(str(frame.get("t")))
        if handler is None:
            return
        try:
            handler(frame)
        except Exception as exc:
            # The type only: a frame (or a message quoting it) can hold a seat's token.
            log.error("could not handle a %s frame from another server process (%s)", frame["t"],
                      type(exc).__name__)

    def _down(self, why: BaseException | str | None) -> None:
        """Go down (``why``: what happened; None: closing), telling every on_down callback."""
        if not self.up:
            return
        self.up = False
        self._subscribed.clear()
        if why is not None:
            shown = why if isinstance(why, str) else failure(why)
            log.warning("the bus to the other server processes is down (%s); relayed games end and their "
                        "clients reconnect", shown)
        while self._queue:
            _, _, future = self._queue.popleft()
            if future is not None and not future.done():
                future.set_exception(BusDown())
        for callback in self.on_down:
            try:
                callback()
            except Exception:
                log.exception("a callback for the loss of Redis failed")


def failure(exc: BaseException) -> str:
    """What went wrong with Redis, in a line for the log (redis-py's messages name the host and
    port, never the password)."""
    return brief_text(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__, 200)
