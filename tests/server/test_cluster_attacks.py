"""Cluster mode under attack: a hostile client reaching a game through a process that does not own
it gets the owner's own answers, and the processes' failures leave nothing behind (two processes
on one PostgreSQL and one Redis, served in threads of this process as in :mod:`test_relay`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import uvicorn
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from qipan.cli.main import app as cli_app
from qipan.server import create_app
from qipan.server.cluster import Cluster
from qipan.server.expiry import Expiry, watch
from qipan.server.hub import Hub
from qipan.server.store import ReadFailed, StorageUnavailable, Store, WriteFailed, Writer, normalise_url

from . import postgres
from .helpers import Message, eventually
from .test_cluster_leases import cluster_of, move, new_game, node, ownership, query, stored_moves
from .test_relay import Served, close_code, create, hello, own_pair, pair, pg_url, redis, seated, wait_for

__all__ = ["own_pair", "pair", "pg_url", "redis"]  # the fixtures this module uses


@contextlib.contextmanager
def raw_socket(served: Served, game_id: str, first: str) -> Iterator[ClientConnection]:
    """A WebSocket to the game on ``served`` that has sent ``first``."""
    with connect(f"ws://127.0.0.1:{served.port}/ws/games/{game_id}", open_timeout=10, max_size=2**22) as ws:
        ws.send(first)
        yield ws


def answers(ws: ClientConnection, count: int | None = None, timeout: float = 20.0) -> tuple[int | None, list[Message]]:
    """The messages ``ws`` gets (``count`` of them, else until it is closed) without the server's
    time, and its close code (None: still open)."""
    seen: list[Message] = []
    deadline = time.monotonic() + timeout
    while count is None or len(seen) < count:
        try:
            seen.append({**json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic()))), "now": None})
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd else None), seen
    return None, seen


def test_a_hello_the_owner_accepts_is_accepted_through_the_relay(pair: tuple[Served, Served]) -> None:
    """The edge reads the hello; the owner must see that very hello, not a copy written out again
    (1e5 comes back as 100000.0: a hello under the size limit grew past it, and the relayed
    client was told its message was too long, then closed 4408 for no hello)."""
    a, b = pair
    game_id, _ = seated(a, b)
    padded = '{"type": "hello", "pad": [' + ",".join(["1e5"] * 1900) + "]}"
    assert len(padded) < 8192 < len(json.dumps(json.loads(padded)))
    seen = []
    for served in (a, b):
        with raw_socket(served, game_id, padded) as ws:
            seen.append(answers(ws, 1))
    assert seen[0][1][0]["type"] == "update" and seen[0][1][0]["seat"] is None
    assert seen[1] == seen[0]


def test_a_relayed_hello_is_checked_like_a_direct_one(pair: tuple[Served, Served]) -> None:
    a, b = pair
    game_id, tokens = seated(a, b)
    hellos = [{"type": "hello", "seat": 0, "token": "x" * 8000}, {"type": "hello", "seat": 7, "token": tokens[0]},
              {"type": "hello", "seat": 0, "token": [tokens[0]]}, {"type": "hello", "seat": 1, "token": tokens[0]},
              {"type": "hello", "seat": 0, "token": tokens[0], "name": "\u0000"}]
    for message in hellos:
        seen = []
        for served in (a, b):
            with raw_socket(served, game_id, json.dumps(message)) as ws:
                seen.append(answers(ws, 2 if "name" in message else None))  # (a bad name: the seat is kept)
        assert seen[0] == seen[1], message
        assert seen[0][0] == (None if "name" in message else 4403)


# -- one process losing Redis while the other keeps it -------------------------------------------------


def blip(served: Served) -> None:
    """The bus of ``served`` goes down and comes back, as when its own connection to Redis breaks
    (the other process's stays up and notices nothing)."""
    bus = served.state.bus

    async def down() -> None:
        bus._down("its connection to Redis broke")

    served.run(down)
    wait_for(lambda: bus.up)


def test_a_relayed_client_is_sent_away_when_the_owner_alone_lost_redis(own_pair: tuple[Served, Served]) -> None:
    """The owner ended its relayed sessions when its bus went down; the edge, whose bus stayed
    up, must hear of it once the owner is back, or its client waits for updates that never come."""
    a, b = own_pair
    game_id, tokens = seated(a, b)
    relayed = b.socket(game_id, hello(tokens, 1))
    relayed.until_moves(0)
    blip(a)
    code, _ = close_code(relayed, timeout=10)  # (it sends nothing: only the servers can tell it)
    assert code == 1012
    wait_for(lambda: not b.state.relay.piped)
    again = b.socket(game_id, hello(tokens, 1))  # the client reconnects and plays on
    assert again.until_moves(0)["seat"] == 1
    again.close()


def test_the_owner_forgets_a_relayed_session_when_the_edge_alone_lost_redis(own_pair: tuple[Served, Served]) -> None:
    """The edge closed its client's WebSocket when its bus went down; the owner, whose bus stayed
    up, must not keep the session (the seat shown connected, the game held) until it next sends."""
    a, b = own_pair
    game_id, tokens = seated(a, b)
    relayed = b.socket(game_id, hello(tokens, 0))
    relayed.until_moves(0)
    assert a.get(f"/api/games/{game_id}").json()["seats"][0]["connected"] is True
    blip(b)
    assert close_code(relayed)[0] == 1012
    wait_for(lambda: not a.state.relay.remotes, timeout=10)
    assert a.get(f"/api/games/{game_id}").json()["seats"][0]["connected"] is False


# -- a process that lost its games without knowing it yet ------------------------------------------------


def test_an_expiry_on_a_game_taken_over_meanwhile_lets_it_go_without_a_traceback(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A paused process wakes up and its expiry watch ends a game another process took over
    meanwhile: refused (fenced), the game dropped here, and no 'could not end expired game'
    traceback in the log (nothing failed: the game is played elsewhere)."""
    db = postgres.new_database(normalise_url(pg_url), f"attacks_{secrets.token_hex(4)}")

    async def scenario() -> None:
        async with node(db) as a, node(db) as b:
            live = await new_game(a)
            cluster_of(a)._tasks[0].cancel()  # A stops renewing its lease, as if paused
            await eventually(lambda: b.games.get(live.id), "B to take the game over")
            assert a.games.get(live.id) is live  # A does not know yet
            watching = asyncio.create_task(watch(a, Expiry(unstarted=0.001, idle=0.001)))
            await eventually(lambda: live.lost, "A's expiry watch to reach the game")
            watching.cancel()
            assert live.id not in a.games and not b.games[live.id].match.over

    with caplog.at_level(logging.INFO, logger="qipan.server"):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], caplog.text


def test_a_game_opened_while_the_sweeper_claims_it_keeps_its_newest_fence(pg_url: str) -> None:
    """A process's sweeper claims an orphaned game (its owner died) while a client reconnecting to
    the same process opens it: the open waits for the claim's row lock and takes the game with the
    next fence. The sweeper, coming back later, must not put its older fence back, or every write
    of the game is refused as if another process had taken it over."""
    db = postgres.new_database(normalise_url(pg_url), f"attacks_{secrets.token_hex(4)}")

    async def scenario() -> None:
        async with node(db, sweep=3600.0) as a:
            cluster = cluster_of(a)
            orphan = await new_game(a)
            a.games.pop(orphan.id).stop()  # its process died: nobody holds it
            query(db, "UPDATE games SET owner = NULL WHERE id = :g", g=orphan.id)
            loop = asyncio.get_running_loop()
            claim = cluster._claim

            def claim_then_open(me: str) -> list[tuple[str, int]]:
                claimed = claim(me)  # committed: then the client's open gets through first
                asyncio.run_coroutine_threadsafe(a.get(orphan.id), loop).result(30)
                return claimed

            cluster._claim = claim_then_open  # type: ignore[method-assign]
            assert await cluster.sweep() == 0  # (opened already)
            live = a.games[orphan.id]
            assert cluster.fences[orphan.id] == ownership(db, orphan.id)[1] == 3
            await move(live)  # its write is not fenced
            assert not live.lost and len(stored_moves(db, orphan.id)) == 1

    asyncio.run(scenario())


# -- a process busy loading a game ---------------------------------------------------------------------


def test_a_slow_load_does_not_hold_up_connections_relayed_to_other_processes(own_pair: tuple[Served, Served]) -> None:
    """B loads one game (a long replay, or one a client asks for again and again) while a client
    opens, through B, a game A plays: that connection needs nothing loaded on B and must not wait
    for the load (every relayed connection of B would queue behind one hostile client's requests)."""
    a, b = own_pair
    playing, tokens = seated(a, b)
    orphan = create(a)["id"]  # a game whose process died: B takes it and loads it when asked
    a.run(lambda: _unload(a, orphan))
    with a.state.hub.store.engine.begin() as c:
        c.execute(sa.text("UPDATE games SET owner = NULL WHERE id = :g"), {"g": orphan})
    hub = b.state.hub
    release = b.run(_event)
    loading = b.run(_event)
    load = hub._load

    async def slow_load(row: Any) -> Any:
        loading.set()
        await release.wait()
        return await load(row)

    hub._load = slow_load
    asking = threading.Thread(target=b.get, args=(f"/api/games/{orphan}",))
    asking.start()
    try:
        wait_for(loading.is_set)
        relayed = b.socket(playing, hello(tokens, 0))
        assert relayed.until_moves(0)["seat"] == 0  # while B is still loading the other game
        assert not release.is_set()
        relayed.close()
    finally:
        b.run(lambda: _set(release))
        asking.join(30)


async def _event() -> asyncio.Event:
    return asyncio.Event()


async def _set(event: asyncio.Event) -> None:
    event.set()


async def _unload(served: Served, game_id: str) -> None:
    served.state.hub.games.pop(game_id).stop()


def test_processes_joining_at_about_the_same_time_share_the_orphaned_games(pg_url: str) -> None:
    """A cluster starting, or every process joining again after a PostgreSQL outage (each lease
    lapsed): the first process to join must not take every unfinished game before the others have
    joined and are counted (it took all 39 after a database restart, the other none)."""
    db = postgres.new_database(normalise_url(pg_url), f"attacks_{secrets.token_hex(4)}")

    async def scenario() -> None:
        async with node(db) as old:
            games = [(await new_game(old)).id for _ in range(10)]
        hubs = []
        for _ in range(2):  # (made first: joining is then one statement, whatever the machine's load)
            store = Store(db)
            hubs.append(Hub(store, ai_processes=False, cluster=Cluster(store, lease=2.0, heartbeat=0.5, sweep=1.0)))
        a, b = hubs
        try:
            await cluster_of(a).start()
            await asyncio.sleep(0.3)  # (processes never join at exactly the same moment)
            await cluster_of(b).start()
            await eventually(lambda: len(a.games) + len(b.games) == len(games), "every game to be taken")
            assert min(len(a.games), len(b.games)) >= 3, (len(a.games), len(b.games))
        finally:
            for hub in hubs:
                await hub.close()

    asyncio.run(scenario())


# -- the database going away ---------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["unreachable", "bug"])
def test_a_write_the_database_refuses_is_one_log_line_unless_it_is_a_bug(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, failure: str) -> None:
    """PostgreSQL restarting (or cut off) fails every write meanwhile: each is one line in the log
    saying what the database said, not a 60-line traceback per move (tried: a database restart
    under two processes). A write that fails for another reason (a bug) keeps its traceback."""
    store = Store(f"sqlite:///{tmp_path / 'q.db'}")
    writer = Writer(store)

    def job(_conn: Any) -> None:
        if failure == "unreachable":
            raise sa.exc.OperationalError("INSERT ...", {}, Exception('connection to server at "db" failed: '
                                                                      "Connection refused\nIs the server running?"))
        raise ValueError("a bug")

    async def write() -> None:
        with pytest.raises(WriteFailed):
            await writer.write(job)

    try:
        with caplog.at_level(logging.ERROR, logger="qipan.server"):
            asyncio.run(write())
    finally:
        writer.close()
        store.close()
    [record] = [r for r in caplog.records if r.name == "qipan.server"]
    if failure == "unreachable":
        assert record.getMessage() == 'database write failed: connection to server at "db" failed: Connection refused'
        assert record.exc_info is None
    else:
        assert record.getMessage() == "database write failed" and record.exc_info is not None


def test_a_game_taken_when_opened_but_not_read_is_resumed_by_the_sweeper(pg_url: str) -> None:
    """A client opens a game nobody owns (its process died) while the database fails a read: the
    process has taken the game (it owns it now, so no other process will) but could not load it.
    Its sweeper must load it later, or its AI seats and clocks wait until someone opens it again."""
    db = postgres.new_database(normalise_url(pg_url), f"attacks_{secrets.token_hex(4)}")

    async def scenario() -> None:
        async with node(db) as a:
            orphan = await new_game(a, ai=True)
            a.games.pop(orphan.id).stop()  # its process died: nobody holds it
            query(db, "UPDATE games SET owner = NULL WHERE id = :g", g=orphan.id)
            read = a.store.game
            failures = [ReadFailed("the database did not answer")]

            def failing(game_id: str) -> Any:
                if failures:
                    raise failures.pop()
                return read(game_id)

            a.store.game = failing  # type: ignore[method-assign]
            with pytest.raises(StorageUnavailable):
                await a.get(orphan.id)
            assert ownership(db, orphan.id)[0] == cluster_of(a).id  # taken, not loaded
            resumed = await eventually(lambda: a.games.get(orphan.id), "the sweeper to resume the game")
            await move(resumed)
            await eventually(lambda: len(resumed.match.moves) == 2, "its AI seat to answer")

    asyncio.run(scenario())


# -- operator errors -----------------------------------------------------------------------------------


def test_a_process_without_redis_refuses_a_database_server_processes_with_redis_use(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One unit of a cluster started without --redis (QIPAN_REDIS missing from its environment)
    would load every unfinished game and play it too, without leases or fences, beside the game's
    owner (tried: both served the same seat; the second move collided in the database; an ending
    or a resignation would not collide). It stops with one line instead; the app refuses too."""
    db = postgres.new_database(normalise_url(pg_url), f"attacks_{secrets.token_hex(4)}")
    Store(db).close()  # (the tables)
    query(db, "INSERT INTO processes (id, host, pid, started, expires) VALUES "
              "('a1b2c3d4e5f60718', 'web1', 1, 0, clock_timestamp() + interval '1 minute')")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: print("serving"))  # (it must not get that far)
    result = CliRunner().invoke(cli_app, ["serve", "--db", db])
    assert result.exit_code == 1
    assert result.output == ("qipan: 1 server process started with --redis uses this database; start this one with "
                             "the same --redis (or QIPAN_REDIS), or stop it first\n")
    with pytest.raises(RuntimeError, match="started with --redis uses this database"), TestClient(create_app(db)):
        pass
    query(db, "UPDATE processes SET expires = clock_timestamp() - interval '1 second'")  # (it stopped)
    with TestClient(create_app(db)) as client:
        assert client.get("/api/games").status_code == 200
