"""What one client may ask of the server: rates (token buckets), connection caps, sizes and timers.

A client is its peer address (an IPv6 client is its /64 network, which one host usually holds
whole). Behind a reverse proxy, run uvicorn with ``--forwarded-allow-ips`` so the peer address
is the real client's.

>>> bucket = TokenBucket(Rate(2, 10.0), now=0.0)
>>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0)
(0.0, 0.0, 5.0)
>>> bucket.take(5.0)
0.0
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Rate:
    """At most ``count`` events in a burst, refilled steadily at ``count`` per ``seconds``.

    >>> Rate.parse("30/60"), Rate.parse("off")
    (Rate(count=30, seconds=60.0), None)
    """

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if not (isinstance(self.count, int) and 1 <= self.count <= 1_000_000):
            raise ValueError(f"a rate's count must be 1..1000000, not {self.count!r}")
        if not (isinstance(self.seconds, int | float) and 0.001 <= self.seconds <= 86_400):
            raise ValueError(f"a rate's period must be 0.001..86400 seconds, not {self.seconds!r}")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"COUNT/SECONDS"`` (e.g. ``"30/60"``), or ``"off"`` for no limit."""
        if text.strip().lower() == "off":
            return None
        count, slash, seconds = text.partition("/")
        try:
            if not slash:
                raise ValueError
            return cls(int(count), float(seconds))
        except ValueError:
            raise ValueError(f"a rate is COUNT/SECONDS like 30/60, or off; not {text[:40]!r}") from None

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"


@dataclass(frozen=True)
class Limits:
    """Every limit of the HTTP and WebSocket edge, with its default. ``None`` switches a rate off.

    >>> Limits().max_body
    16384
    """

    max_body: int = 16_384
    """Longest request body in bytes (413 beyond; a longer Content-Length is refused unread)."""
    max_headers: int = 64
    """Most request headers (431 beyond)."""
    max_head: int = 16_384
    """Longest request head in bytes: request line and headers (431 beyond; ``qipan serve``'s
    HTTP parser also stops reading a longer one, with a 400)."""
    body_timeout: float = 10.0
    """Seconds a client may take to send a request body (408 beyond)."""
    create_rate: Rate | None = Rate(30, 60.0)
    """Games created per client: ``POST /api/games`` and rematches (429 beyond)."""
    join_rate: Rate | None = Rate(60, 60.0)
    """WebSocket connections opened and seats claimed per client (429 beyond)."""
    message_rate: Rate | None = Rate(60, 10.0)
    """WebSocket messages per client, over all its connections (an error reply beyond)."""
    analyse_rate: Rate | None = Rate(120, 60.0)
    """Engine analyses per client: ``POST /api/analyse``, reviews of a move, hints (429 beyond).
    Each costs up to 2 s of an AI worker's time, at background priority."""
    position_rate: Rate | None = Rate(600, 60.0)
    """Positions stepped through per client: ``POST /api/position`` (429 beyond; cheap)."""
    client_connections: int = 32
    """Open WebSockets plus requests in progress per client (429 beyond; 0: no cap)."""
    total_connections: int = 2_048
    """Open WebSockets plus requests in progress in all (503 beyond; 0: no cap)."""
    tracked_clients: int = 100_000
    """Clients whose buckets are remembered; the least recently seen are forgotten beyond."""

    def __post_init__(self) -> None:
        checks: list[tuple[str, float, float, float]] = [
            ("max_body", self.max_body, 256, 64 * 2**20),
            ("max_headers", self.max_headers, 8, 1_000),
            ("max_head", self.max_head, 1_024, 2**20),
            ("body_timeout", self.body_timeout, 0.1, 3_600),
            ("client_connections", self.client_connections, 0, 1_000_000),
            ("total_connections", self.total_connections, 0, 1_000_000),
            ("tracked_clients", self.tracked_clients, 100, 10_000_000),
        ]
        for name, value, low, high in checks:
            if isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be {low:g}..{high:g}, not {value!r}")


class RateLimited(Exception):
    """A client over one of its rates; ``wait`` is the seconds until it may go on (HTTP 429)."""

    def __init__(self, message: str, wait: float):
        super().__init__(message)
        self.wait = wait


class RateLimiter(Protocol):
    """Where token buckets live: in this process (:class:`MemoryRateLimiter`), or in Redis for
    several processes (:class:`qipan.server.shared.RedisRateLimiter`)."""

    async def take(self, name: str, client: str, rate: Rate) -> float:
        """Spend one token of ``client``'s ``name`` bucket: 0.0 if allowed, else seconds to wait."""
        ...


class TokenBucket:
    """``rate.count`` tokens at most, refilled continuously; each event spends one."""

    __slots__ = ("rate", "stamp", "tokens")

    def __init__(self, rate: Rate, now: float):
        self.rate = rate
        self.tokens = float(rate.count)
        self.stamp = now

    def refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.stamp)
        self.tokens = min(float(self.rate.count), self.tokens + elapsed * self.rate.count / self.rate.seconds)
        self.stamp = now

    def take(self, now: float) -> float:
        """0.0 and one token spent, or the seconds until a token is there (nothing spent)."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) * self.rate.seconds / self.rate.count


class MemoryRateLimiter:
    """Token buckets in a dict, the least recently used forgotten beyond ``max_clients`` keys.

    >>> import asyncio
    >>> limiter = MemoryRateLimiter(clock=lambda: 0.0)
    >>> take = lambda client: asyncio.run(limiter.take("create", client, Rate(1, 60.0)))
    >>> take("10.0.0.1"), take("10.0.0.1"), take("10.0.0.2")
    (0.0, 60.0, 0.0)
    """

    def __init__(self, max_clients: int = 100_000, clock: Callable[[], float] = time.monotonic):
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()

    async def take(self, name: str, client: str, rate: Rate) -> float:
        now = self.clock()
        key = (name, client)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.rate != rate:
            bucket = self._buckets[key] = TokenBucket(rate, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take(now)

    def __len__(self) -> int:
        return len(self._buckets)


class ConnectionCounter:
    """Open connections per client and in all, refused beyond the caps (0: no cap).

    >>> counter = ConnectionCounter(per_client=1, total=0)
    >>> counter.open("a"), counter.open("a"), counter.open("b")
    (None, 'client', None)
    >>> counter.close("a"); counter.open("a")
    """

    def __init__(self, per_client: int, total: int):
        self.per_client = per_client
        self.total = total
        self.count = 0
        self._by_client: dict[str, int] = {}

    def open(self, client: str, per_client: bool = True) -> str | None:
        """Count one more connection, or say which cap refuses it: ``"client"`` or ``"total"``
        (``per_client=False``: the caller checks the client's cap itself, over every process)."""
        if self.total and self.count >= self.total:
            return "total"
        held = self._by_client.get(client, 0)
        if per_client and self.per_client and held >= self.per_client:
            return "client"
        self._by_client[client] = held + 1
        self.count += 1
        return None

    def close(self, client: str) -> None:
        held = self._by_client.get(client, 0) - 1
        if held > 0:
            self._by_client[client] = held
        else:
            self._by_client.pop(client, None)
        self.count = max(0, self.count - 1)

    def held(self, client: str) -> int:
        """The connections ``client`` has open here."""
        return self._by_client.get(client, 0)

    def clients(self) -> Mapping[str, int]:
        """The open connections of each client that has any (a live view, not a copy)."""
        return self._by_client


class SharedCount(Protocol):
    """A count per key held by every server process, capped over all of them (cluster mode:
    :class:`qipan.server.shared.SharedCounts`)."""

    async def admit(self, key: str, cap: int) -> bool | None:
        """Whether ``key``'s count over every process, this one's new one included, is within
        ``cap`` (then this process's count is recorded); None when that cannot be known now."""
        ...

    def changed(self) -> None:
        """This process's counts changed: record them soon."""
        ...


@dataclass
class Guard:
    """The limits of one app and the state that enforces them (``app.state.guard``)."""

    limits: Limits = field(default_factory=Limits)
    limiter: RateLimiter = field(default_factory=MemoryRateLimiter)
    connections: ConnectionCounter = field(init=False)
    shared: SharedCount | None = None
    """Connections per client over every server process (cluster mode); None: this process's.
    The total cap is a capacity and stays per process."""

    def __post_init__(self) -> None:
        self.connections = ConnectionCounter(self.limits.client_connections, self.limits.total_connections)
        if isinstance(self.limiter, MemoryRateLimiter):
            self.limiter.max_clients = self.limits.tracked_clients

    async def connect(self, client: str) -> str | None:
        """Count one more connection of ``client``, or say which cap refuses it: ``"client"`` or
        ``"total"`` (:meth:`disconnect` afterwards, unless refused)."""
        counter = self.connections
        if self.shared is None or not counter.per_client:
            return counter.open(client)
        if refused := counter.open(client, per_client=False):
            return refused
        allowed = await self.shared.admit(client, counter.per_client)
        if allowed is None:  # Redis cannot answer now: this process's count
            allowed = counter.held(client) <= counter.per_client
        if not allowed:
            counter.close(client)
            return "client"
        return None

    def disconnect(self, client: str) -> None:
        self.connections.close(client)
        if self.shared is not None and self.connections.per_client:
            self.shared.changed()

    async def wait(self, name: str, client: str) -> float:
        """Seconds ``client`` must wait before another ``name`` event (``create``, ``join``,
        ``message``, ``analyse``, ``position``); 0.0 when it may go ahead (and the event is counted)."""
        rate: Rate | None = getattr(self.limits, f"{name}_rate")
        return 0.0 if rate is None else await self.limiter.take(name, client, rate)

    async def refusal(self, name: str, scope: Any) -> RateLimited | None:
        """None when the client of this ASGI ``scope`` may go ahead with a ``name`` event (it is
        counted), else the refusal: a sentence saying how long to wait, and the wait."""
        wait = await self.wait(name, client_key(scope))
        return RateLimited(f"too many {EVENTS[name]}; wait {retry_after(wait)} s", wait) if wait else None


EVENTS = {"create": "games created", "join": "connections opened or seats claimed", "message": "messages",
          "analyse": "analyses, reviews or hints", "position": "positions"}


def retry_after(seconds: float) -> str:
    """A Retry-After header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def client_key(scope: Any) -> str:
    """The client an ASGI scope comes from: its address, IPv6 cut to the /64 network.

    >>> client_key({"client": ("2001:db8::1", 5000)}), client_key({"client": ("127.0.0.1", 5)})
    ('2001:db8::/64', '127.0.0.1')
    """
    peer = scope.get("client")
    host = str(peer[0]) if peer else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
