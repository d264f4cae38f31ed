"""The limits several server processes share through Redis (:mod:`qipan.server.shared`), on a
real ``redis-server``. Each "process" here is its own Redis client and its own objects, as in
separate server processes on one Redis."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis as SyncRedis
from redis.asyncio import Redis
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import qipan
from qipan.server.errors import Busy
from qipan.server.hub import Hub, seat_specs
from qipan.server.limits import Guard, Limits, MemoryRateLimiter, Rate, RateLimited
from qipan.server.lobby import OPEN_PER_CLIENT, Lobby
from qipan.server.shared import LOBBY_CACHE, LOBBY_CHANNEL, AIGames, Link, RedisRateLimiter, SharedCounts, SharedLobby
from qipan.server.store import Store

from .cluster_harness import Node, cluster
from .helpers import eventually, wait_for
from .redis_server import RedisServer, redis_server

SCOPE = {"client": ("203.0.113.7", 5000)}
OTHER = {"client": ("203.0.113.8", 5000)}


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture
def url(server: RedisServer) -> str:
    """The shared server, emptied."""
    if not server.running:
        server.start()
    with SyncRedis.from_url(server.url) as client:
        client.flushall()
    return server.url


@pytest.fixture
def lone_server() -> Iterator[RedisServer]:
    """A server of its own, for tests that stop it."""
    with redis_server() as running:
        yield running


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())  # type: ignore[arg-type]


@asynccontextmanager
async def clients(url: str, n: int) -> AsyncIterator[list[Redis]]:
    """``n`` Redis clients: one per server process."""
    made = [Redis.from_url(url) for _ in range(n)]
    try:
        yield made
    finally:
        for client in made:
            await client.aclose()


# -- rates ---------------------------------------------------------------------------------------


def test_two_processes_share_a_clients_creation_bucket(url: str) -> None:
    """With ``create_rate`` 3/60 the 4th creation is refused, whichever process gets it."""
    async def test() -> None:
        async with clients(url, 2) as (one, two):
            limits = Limits(create_rate=Rate(3, 60.0))
            first, second = Guard(limits, RedisRateLimiter(one)), Guard(limits, RedisRateLimiter(two))
            assert [await first.refusal("create", SCOPE), await second.refusal("create", SCOPE),
                    await first.refusal("create", SCOPE)] == [None, None, None]
            for guard in (first, second):
                refused = await guard.refusal("create", SCOPE)
                assert isinstance(refused, RateLimited) and 19.0 < refused.wait <= 20.0  # a token every 20 s
            assert await second.refusal("create", OTHER) is None  # another client has its own bucket

    run(test)


def test_the_lua_bucket_answers_as_token_bucket(url: str) -> None:
    """Random sequences (times, clients, rates that change) get the very same answers, to the
    last bit, from Redis and from this process's buckets on the same clock."""
    async def test() -> None:
        now = [1000.0]
        async with clients(url, 1) as (client,):
            shared = RedisRateLimiter(client, clock=lambda: now[0])
            memory = MemoryRateLimiter(clock=lambda: now[0])
            rng = random.Random(20)
            choices = [Rate(3, 60.0), Rate(1, 0.5), Rate(7, 13.3), Rate(60, 10.0), Rate(2, 0.001)]
            rates = {"create": choices[0], "join": choices[2]}
            answers = []
            for _ in range(1000):
                now[0] += rng.choice([0.0, 0.0, rng.uniform(0, 0.5), rng.uniform(0, 3), rng.expovariate(1.0)])
                name, who = rng.choice(["create", "join"]), rng.choice(["10.0.0.1", "10.0.0.2", "2001:db8::/64"])
                if rng.random() < 0.02:  # the operator changed a rate: those buckets start again
                    rates[name] = rng.choice(choices)
                rate = rates[name]
                expected = await memory.take(name, who, rate)
                assert await shared.take(name, who, rate) == expected
                answers.append(expected)
            assert answers.count(0.0) > 100 and len(set(answers)) > 100  # both allowed and refused, many waits
            assert isinstance(shared.fallback, MemoryRateLimiter) and len(shared.fallback) == 0  # Redis answered

    run(test)


def test_a_burst_larger_than_the_connection_pool_waits_for_connections(url: str) -> None:
    """redis-py refuses a call beyond its pool: the limiter waits for a connection instead of
    answering from this process's buckets (which would let a burst through twice)."""
    async def test() -> None:
        client = Redis.from_url(url, max_connections=4)
        try:
            limiter = RedisRateLimiter(client)
            waits = await asyncio.gather(*(limiter.take("create", "10.0.0.1", Rate(3, 60.0)) for _ in range(50)))
            assert waits.count(0.0) == 3  # the burst of 3, once
            assert not limiter.link.down
            assert isinstance(limiter.fallback, MemoryRateLimiter) and len(limiter.fallback) == 0
        finally:
            await client.aclose()

    run(test)


def test_a_bucket_expires_once_full_again(url: str) -> None:
    async def test() -> None:
        async with clients(url, 1) as (client,):
            limiter = RedisRateLimiter(client)  # Redis' clock
            assert await limiter.take("join", "10.0.0.9", Rate(2, 0.2)) == 0.0
            key = "qipan:rate:join:10.0.0.9"
            assert 0 < await client.pttl(key) <= 100  # one token to refill: 0.1 s
            await eventually(lambda: _gone(client, key))
            assert [await limiter.take("join", "10.0.0.9", Rate(2, 0.2)) for _ in range(2)] == [0.0, 0.0]

    run(test)


async def _gone(client: Redis, key: str) -> bool:
    return not await client.exists(key)


def test_without_redis_the_limits_are_per_process_and_come_back_with_it(
        lone_server: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    """Redis stopped: every request is still answered (this process's buckets), the outage is
    logged once; Redis back (empty, without the script): the shared buckets again."""
    caplog.set_level(logging.INFO, logger="qipan.server")

    async def test() -> None:
        async with clients(lone_server.url, 1) as (client,):
            limiter = RedisRateLimiter(client, fallback=MemoryRateLimiter(clock=lambda: 0.0),
                                       link=Link(client, "rate limits", "each process its own", retry=0.0))
            rate = Rate(1, 60.0)
            assert await limiter.take("create", "10.0.0.1", rate) == 0.0
            assert await client.exists("qipan:rate:create:10.0.0.1")
            lone_server.stop()
            answers = [await limiter.take("create", "10.0.0.1", rate) for _ in range(3)]
            assert answers == [0.0, 60.0, 60.0]  # this process's bucket: still a limit
            assert limiter.link.down
            lone_server.start()
            assert await limiter.take("create", "10.0.0.2", rate) == 0.0
            assert not limiter.link.down
            assert await client.exists("qipan:rate:create:10.0.0.2")  # in Redis again (script loaded anew)
            assert 59.0 < await limiter.take("create", "10.0.0.2", rate) <= 60.0  # (this process's: 0.0)

    run(test)
    outages = [r for r in caplog.records if "Redis cannot answer" in r.getMessage()]
    assert len(outages) == 1 and "rate limits" in outages[0].getMessage()
    assert lone_server.password not in caplog.text
    assert sum("Redis answers again" in r.getMessage() for r in caplog.records) == 1


# -- connections ---------------------------------------------------------------------------------


def guard_on(client: Redis, process: str, cap: int, ttl: float = 30.0) -> tuple[Guard, SharedCounts]:
    guard = Guard(Limits(client_connections=cap))
    counts = SharedCounts(client, "connections", guard.connections.clients, process, ttl)
    guard.shared = counts
    return guard, counts


def test_the_connection_cap_is_global_and_a_dead_process_counts_vanish(url: str) -> None:
    async def test() -> None:
        async with clients(url, 2) as (one, two):
            first, first_counts = guard_on(one, "a" * 16, 3, ttl=3.0)
            second, _ = guard_on(two, "b" * 16, 3)
            client = "203.0.113.7"
            assert [await first.connect(client), await first.connect(client), await second.connect(client)] == \
                [None, None, None]
            assert await second.connect(client) == "client"
            assert await first.connect(client) == "client"
            assert await second.connect("203.0.113.8") is None  # another client
            assert first.connections.held(client) == 2 and second.connections.held(client) == 1
            first.disconnect(client)
            await first_counts.flush()
            assert await second.connect(client) is None  # one closed on the first process
            assert await second.connect(client) == "client"
            # the first process dies holding one: its count lasts until its hash expires (3 s)
            await eventually(lambda: _connects(second, client))
            assert second.connections.held(client) == 3

    run(test)


async def _connects(guard: Guard, client: str) -> bool:
    return await guard.connect(client) is None


def test_counts_survive_a_redis_restart_and_fall_back_while_it_is_down(lone_server: RedisServer) -> None:
    async def test() -> None:
        async with clients(lone_server.url, 2) as (one, two):
            first, first_counts = guard_on(one, "a" * 16, 2)
            second, _ = guard_on(two, "b" * 16, 2)
            first_counts.link.retry = 0.0
            assert await first.connect("c") is None
            lone_server.stop()
            assert await first.connect("c") is None  # this process's cap: 2
            assert await first.connect("c") == "client"
            lone_server.start()  # empty: the counts are written again by the next flush
            await first_counts.flush()
            assert await second.connect("c") == "client"
            lone_server.stop()  # a restart nobody noticed: the next flush finds the counts gone
            lone_server.start()
            await first_counts.flush()
            assert await second.connect("c") == "client"

    run(test)


# -- the lobby, open games, games between AIs ----------------------------------------------------


@asynccontextmanager
async def processes(tmp_path: Path, url: str, n: int, clock: Callable[[], float] = lambda: 0.0,
                    **hub_options: Any) -> AsyncIterator[list[tuple[Hub, Lobby]]]:
    """``n`` hubs with their lobbies sharing one Redis, each on its own database file (the lobby
    and the caps need no common database); ``clock``: the lobbies' (when to read lists again)."""
    async with clients(url, n) as redises:
        made = []
        for i, redis in enumerate(redises):
            hub = Hub(Store(f"sqlite:///{tmp_path / f'p{i}.db'}"), ai_processes=False, **hub_options)
            lobby = Lobby(hub)
            process = f"{i:016x}"
            lobby.share(SharedLobby(redis, lobby.local_lists, process, clock=clock),
                        SharedCounts(redis, "open-games", lobby.open_counts, process))
            hub.ai_cap = AIGames(redis, hub, process)
            made.append((hub, lobby))
        try:
            yield made
        finally:
            for hub, _ in made:
                await hub.close()


async def open_game(hub: Hub, lobby: Lobby | None = None, client: str = "203.0.113.7") -> str:
    """A public Abalone game with a free seat, created by ``client`` (counted when ``lobby``)."""
    game = qipan.load("abalone")
    specs = seat_specs(game, None)
    if lobby is None:
        live, _, _ = await hub.create(game, specs, 0, public=True)
        return live.id
    async with lobby.opening(client) as opened:
        live, _, _ = await hub.create(game, specs, 0, public=True)
        opened(live.id)
    return live.id


def test_the_lobby_shows_every_processs_games(tmp_path: Path, url: str) -> None:
    now = [0.0]

    async def test() -> None:
        async with processes(tmp_path, url, 2, clock=lambda: now[0]) as [(hub_a, lobby_a), (hub_b, lobby_b)]:
            older = await open_game(hub_a)
            newer = await open_game(hub_b)
            assert [g["id"] for g in await lobby_b.games("open")] == [newer]  # nothing published yet
            for lobby in (lobby_a, lobby_b):
                assert lobby.shared is not None
                await lobby.shared.publish()
            now[0] += LOBBY_CACHE  # the other processes' lists are read again
            for lobby in (lobby_a, lobby_b):
                assert [g["id"] for g in await lobby.games("open")] == [newer, older]  # newest first
                assert [g["id"] for g in await lobby.games("open", limit=1)] == [newer]
                assert await lobby.games("playing") == []
            message = await lobby_b.message()
            assert older in message and newer in message

    run(test)


def test_a_process_is_told_when_anothers_lobby_changed(tmp_path: Path, url: str) -> None:
    async def test() -> None:
        async with processes(tmp_path, url, 2) as [(hub_a, lobby_a), (_, lobby_b)]:
            assert lobby_a.shared is not None and lobby_b.shared is not None
            listening = asyncio.create_task(lobby_b.shared.listen())
            try:
                await eventually(lambda: _subscribed(lobby_b))
                lobby_b._changed.clear()
                game = await open_game(hub_a)
                await lobby_a.shared.publish()
                await eventually(lambda: _changed(lobby_b))  # woken by qipan:lobby
                assert [g["id"] for g in await lobby_b.games("open")] == [game]
                await lobby_a.shared.close()  # the process stops: its lists go with it
                await eventually(lambda: _lists(lobby_b, []))
            finally:
                listening.cancel()
                await asyncio.gather(listening, return_exceptions=True)

    run(test)


async def _subscribed(lobby: Lobby) -> bool:
    assert lobby.shared is not None
    return bool(dict(await lobby.shared.redis.pubsub_numsub(LOBBY_CHANNEL)).get(LOBBY_CHANNEL.encode()))


async def _changed(lobby: Lobby) -> bool:
    return lobby._changed.is_set()


async def _lists(lobby: Lobby, ids: list[str]) -> bool:
    return [g["id"] for g in await lobby.games("open")] == ids


def test_open_public_games_per_client_are_counted_over_every_process(tmp_path: Path, url: str) -> None:
    async def test() -> None:
        async with processes(tmp_path, url, 2) as [(hub_a, lobby_a), (hub_b, lobby_b)]:
            made = [await open_game(hub_a, lobby_a), await open_game(hub_b, lobby_b)]
            made += [await open_game(hub_a, lobby_a) for _ in range(OPEN_PER_CLIENT - 2)]
            for hub, lobby in ((hub_a, lobby_a), (hub_b, lobby_b)):
                with pytest.raises(RateLimited, match=f"you have {OPEN_PER_CLIENT} open public games"):
                    await open_game(hub, lobby)
            await open_game(hub_b, lobby_b, client="203.0.113.8")  # another client
            assert len(hub_a.games) + len(hub_b.games) == OPEN_PER_CLIENT + 1

    run(test)


def test_games_between_ais_are_capped_over_every_process(tmp_path: Path, url: str) -> None:
    async def test() -> None:
        # the AIs wait a minute before each move: the games stay unfinished
        async with processes(tmp_path, url, 2, max_ai_games=3, ai_delay=60.0) as [(hub_a, _), (hub_b, _)]:
            game = qipan.load("abalone")
            ais = seat_specs(game, [{"kind": "ai"}, {"kind": "ai"}])
            for hub in (hub_a, hub_b, hub_a):
                await hub.create(game, ais, None)
            for hub in (hub_a, hub_b):
                with pytest.raises(Busy, match="as many games between AIs"):
                    await hub.create(game, ais, None)
            assert hub_a.ai_games() + hub_b.ai_games() == 3
            await hub.create(game, seat_specs(game, None), 0)  # a person's game is not capped

    run(test)


# -- real server processes -----------------------------------------------------------------------


def test_server_processes_share_the_lobby_the_open_games_and_the_connection_cap() -> None:
    """Two ``qipan serve --redis`` processes: a client's public games, created on either, show in
    both lobbies (HTTP and /ws/lobby) and count towards one cap; its WebSockets count over both."""
    flags = ("--forwarded-allow-ips", "127.0.0.1", "--client-connections", "2")
    with cluster(2, flags) as running, running.reporting(), httpx.Client(timeout=20) as http:
        first, second = running.nodes
        creator, watcher = {"X-Forwarded-For": "203.0.113.20"}, {"X-Forwarded-For": "203.0.113.21"}

        def create(node: Node) -> httpx.Response:
            return http.post(f"{node.base}/api/games", json={"game": "abalone", "public": True}, headers=creator)

        made = [create(node) for node in (first, second, first)]
        assert [reply.status_code for reply in made] == [201] * OPEN_PER_CLIENT, [reply.text for reply in made]
        refused = create(second)
        assert refused.status_code == 429 and "open public games" in refused.json()["error"]
        ids = {reply.json()["id"] for reply in made}
        for node in running.nodes:
            listed = f"{node.base}/api/games?status=open"
            wait_for(lambda: {g["id"] for g in http.get(listed).json()} == ids)  # noqa: B023 (used at once)
        lobby_url = f"ws://127.0.0.1:{second.port}/ws/lobby"
        with connect(lobby_url, additional_headers=watcher) as lobby:
            wait_for(lambda: {g["id"] for g in json.loads(lobby.recv(timeout=10))["open"]} == ids)
            with connect(f"ws://127.0.0.1:{first.port}/ws/lobby", additional_headers=watcher):
                with pytest.raises(InvalidStatus) as third:  # the watcher's third connection, on either
                    connect(lobby_url, additional_headers=watcher)
                assert third.value.response.status_code == 429
        wait_for(lambda: _opens(lobby_url, watcher))  # both closed: connections count again
        running.check_logs([running.redis.password])


def _opens(url: str, headers: dict[str, str]) -> bool:
    try:
        with connect(url, additional_headers=headers):
            return True
    except InvalidStatus:
        return False
