"""Who owns which game when several server processes share one PostgreSQL database: leases
with fencing tokens (qipan.server.cluster) and the hub in cluster mode.

Each test runs two or three hubs, each with its own store and cluster, in this process on a
fresh database: as far as the database can tell, separate server processes. Leases and sweeps
are short so that takeovers happen within the tests' deadlines; nothing here measures time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import qipan
from qipan.core.clock import TimeControl
from qipan.server.cluster import Cluster
from qipan.server.connections import Client
from qipan.server.errors import Elsewhere, Fenced, NotFound, SetAside
from qipan.server.hub import Hub, seat_specs
from qipan.server.live import LiveGame
from qipan.server.store import ReadFailed, Store, WriteFailed, normalise_url

from . import postgres
from .helpers import eventually
from .test_chat import OLD_ROW, OLD_SCHEMA

_databases = itertools.count()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres.cluster() as url:
        yield normalise_url(url)


@pytest.fixture
def db(pg_url: str) -> Iterator[str]:
    """A fresh database on the test cluster (so no test sees another's orphaned games)."""
    yield postgres.new_database(pg_url, f"leases{next(_databases)}")


@contextlib.asynccontextmanager
async def node(url: str, lease: float = 1.0, heartbeat: float = 0.2, sweep: float = 0.2,
               ai_delay: float = 0.0) -> AsyncIterator[Hub]:
    """One server process as the cluster sees it: a store, a cluster and a hub, started."""
    store = Store(url)
    cluster = Cluster(store, lease=lease, heartbeat=heartbeat, sweep=sweep)
    hub = Hub(store, ai_delay=ai_delay, ai_processes=False, cluster=cluster)
    await cluster.start()
    await hub.resume_all()
    try:
        yield hub
    finally:
        await hub.close()


def cluster_of(hub: Hub) -> Cluster:
    assert hub.cluster is not None
    return hub.cluster


async def new_game(hub: Hub, ai: bool = False, clock: TimeControl | None = None) -> LiveGame:
    """An Abalone game with both seats taken (seat 1: the AI, or a person who claimed it)."""
    game = qipan.load("abalone")
    seats = [{"kind": "human"}, {"kind": "ai", "level": "easy"} if ai else {"kind": "human"}]
    live, _, invites = await hub.create(game, seat_specs(game, seats), creator=0, clock=clock)
    for code in invites.values():
        await live.claim(code)
    return live


async def move(live: LiveGame) -> None:
    """The player to move plays their first legal move."""
    mover = live.match.to_move
    assert isinstance(mover, int)
    await live.act(mover, "move", live.match.legal_texts()[0])


class Connection:
    """A connection as the game sees it, recording what it was sent and how it was closed."""

    def __init__(self, seat: int | None):
        self.codes: list[int] = []
        self.client = Client(seat, self._send, self._close)

    async def _send(self, _text: str) -> None:
        pass

    async def _close(self, code: int) -> None:
        self.codes.append(code)


class Workers:
    """Stands in for the AI worker processes (no AI here gets to think): records what is forgotten."""

    def __init__(self) -> None:
        self.forgotten: list[str] = []

    def forget(self, keys: Iterable[str]) -> None:
        self.forgotten.extend(keys)

    def close(self) -> None:
        pass


def query(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as c:
            result = c.execute(sa.text(sql), params)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def ownership(url: str, game_id: str) -> tuple[str | None, int]:
    [(owner, fence)] = query(url, "SELECT owner, fence FROM games WHERE id = :g", g=game_id)
    return owner, fence


def stored_moves(url: str, game_id: str) -> list[tuple[int, str]]:
    return [(ply, text) for ply, text in query(url, "SELECT ply, text FROM moves WHERE game_id = :g ORDER BY ply",
                                               g=game_id)]


def test_a_paused_owner_loses_its_game_to_another_process_and_cannot_write_to_it_any_more(db: str) -> None:
    async def scenario() -> None:
        async with node(db) as a, node(db) as b:
            live = await new_game(a)
            assert ownership(db, live.id) == (cluster_of(a).id, 1) and cluster_of(a).fences[live.id] == 1
            with pytest.raises(Elsewhere) as where:
                await b.get(live.id)
            assert where.value.owner == cluster_of(a).id and live.id not in b.games
            await move(live)
            await move(live)
            watcher = Connection(0)
            live.join(watcher.client)

            cluster_of(a)._tasks[0].cancel()  # A pauses: its lease is no longer renewed
            taken = await eventually(lambda: b.games.get(live.id), "B to take the game over")
            assert ownership(db, live.id) == (cluster_of(b).id, 2)
            assert [m.text for m in taken.match.moves] == [m.text for m in live.match.moves]

            # A wakes up and plays on: refused, nothing saved, and it lets the game go.
            with pytest.raises(Fenced, match="moved to another server"):
                await move(live)
            assert len(live.match.moves) == 2 and live.lost and live.id not in a.games
            assert stored_moves(db, live.id) == [(i, m.text) for i, m in enumerate(taken.match.moves)]
            await eventually(lambda: watcher.codes == [1012], "A to close the game's connection with 1012")

            await move(taken)
            await move(taken)
            assert stored_moves(db, live.id) == [(i, m.text) for i, m in enumerate(taken.match.moves)]
            assert len(taken.match.moves) == 4

    asyncio.run(scenario())


def test_a_clock_running_out_on_a_game_taken_over_ends_quietly(db: str, caplog: pytest.LogCaptureFixture) -> None:
    # The old owner's clock watch found the player out of time after another process had taken
    # the game over: its save was fenced, and it logged "could not save the end of game ...;
    # retrying", though nothing had failed: the game had moved (the hub says so, truly).
    async def scenario() -> None:
        async with node(db) as a, node(db) as b:
            live = await new_game(a, clock=TimeControl(1))
            await move(live)
            await move(live)  # both have moved: seat 0's second of thinking runs out
            clock_task = live._clock_task
            assert clock_task is not None
            async with live.lock:  # A's clock watch waits for the game until B has taken it over
                cluster_of(a)._tasks[0].cancel()  # A pauses: its lease is no longer renewed
                # (B ends it on time as it loads it, and unloads it at once: nobody watches it there.)
                await eventually(lambda: query(db, "SELECT owner FROM games WHERE id = :g AND finished IS NOT NULL",
                                               g=live.id) == [(cluster_of(b).id,)], "B to end the game on time")
            await asyncio.wait([clock_task], timeout=30)
            assert clock_task.done() and live.lost and live.id not in a.games
            assert not live.match.over, "A saved nothing: its game stays as it was"

    with caplog.at_level(logging.INFO, logger="qipan.server"):
        asyncio.run(scenario())
    said = [r.getMessage() for r in caplog.records]
    assert any("was taken over by another server process" in m for m in said), said
    assert not any("could not save" in m for m in said), said


def test_a_process_that_leaves_hands_its_games_over_at_once(db: str) -> None:
    async def scenario() -> None:
        # Leases of a minute and no sweeps after the first: only leaving can hand a game over.
        async with node(db, lease=60.0, sweep=3600.0) as a, node(db, lease=60.0, sweep=3600.0) as b:
            live = await new_game(a)
            await move(live)
            watcher = Connection(1)
            live.join(watcher.client)
            with pytest.raises(Elsewhere):
                await b.get(live.id)
            await a.close()
            assert watcher.codes == [1012] and live.id not in a.games
            taken = await b.get(live.id)
            assert ownership(db, live.id) == (cluster_of(b).id, 2)
            assert [m.text for m in taken.match.moves] == [m.text for m in live.match.moves]
            await move(taken)
            assert len(stored_moves(db, live.id)) == 2

    asyncio.run(scenario())


def test_a_lapsed_lease_drops_every_game_and_the_process_joins_again_under_a_new_id(db: str) -> None:
    async def scenario() -> None:
        # A long lease: only the database saying it lapsed (the renewal matching no row) can end it.
        async with node(db, lease=30.0, ai_delay=3600.0) as a:
            cluster = cluster_of(a)
            workers = a.ai_processes = Workers()  # type: ignore[assignment]
            live = await new_game(a, ai=True, clock=TimeControl(600))
            await move(live)  # the AI's turn: it waits (ai_delay) while the clock runs
            ai_task, clock_task = live._ai_task, live._clock_task
            assert ai_task is not None and clock_task is not None and not ai_task.done() and not clock_task.done()
            watcher = Connection(0)
            live.join(watcher.client)
            old = cluster.id

            query(db, "UPDATE processes SET expires = clock_timestamp() - interval '1 second' WHERE id = :me", me=old)

            async def rejoined() -> bool:
                # (The id changes first, its games are dropped, then it registers: only a lease
                # under the new id says the whole lapse is over.)
                return cluster.id != old and await cluster.alive([old, cluster.id]) == {cluster.id}

            await eventually(rejoined, "the process to hold a lease again, under a new id")
            assert watcher.codes == [1012]  # the game's connection, closed for the client to reconnect
            assert live.lost and ai_task.done() and clock_task.done()
            assert workers.forgotten == [live.agent_key(1)]  # the AI worker's state of the game

            # Its game has no live owner now: a sweep (its own, the only process) takes it back.
            back = await eventually(lambda: a.games.get(live.id), "the game to be taken back")
            assert back is not live and ownership(db, live.id) == (cluster.id, 2)
            assert [m.text for m in back.match.moves] == [m.text for m in live.match.moves]

    asyncio.run(scenario())


def test_a_process_shutting_down_while_its_lapsed_lease_drops_its_games_stops(db: str) -> None:
    # The heartbeat is cancelled while it waits for a game's connection to stop: that
    # cancellation was swallowed (Client.stop), the heartbeat went on, and close waited for ever.
    async def scenario() -> None:
        released = asyncio.Event()

        class Sticky(Connection):
            """A connection whose sender, once stopped, lets go only when released."""

            sending = False

            async def _send(self, _text: str) -> None:
                self.sending = True
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    await released.wait()
                    raise

        async with node(db, lease=30.0, sweep=3600.0) as a:
            cluster = cluster_of(a)
            live = await new_game(a)
            watcher = Sticky(0)
            live.join(watcher.client)
            await eventually(lambda: watcher.sending, "the connection to be sending")
            query(db, "UPDATE processes SET expires = clock_timestamp() - interval '1 second' WHERE id = :me",
                  me=cluster.id)
            await eventually(lambda: watcher.codes == [1012], "the lapse to close the game's connection")
            closing = asyncio.create_task(a.close())  # the heartbeat waits for that connection's sender
            try:
                done, _ = await asyncio.wait([closing], timeout=60)  # a deadline, not a measurement
                assert closing in done, "closing the hub waits for ever for the heartbeat"
                closing.result()
            finally:
                released.set()

    asyncio.run(scenario())


def test_a_lease_that_cannot_be_renewed_for_its_length_drops_every_game(db: str) -> None:
    async def scenario() -> None:
        async with node(db, lease=1.0, sweep=3600.0) as a:
            cluster = cluster_of(a)
            live = await new_game(a)
            old = cluster.id
            renew = cluster._execute

            def unreachable(statement: Any, params: dict[str, Any]) -> int:
                if "UPDATE processes" in str(statement):
                    raise sa.exc.OperationalError(str(statement), params, Exception("connection refused"))
                return renew(statement, params)

            cluster._execute = unreachable  # type: ignore[method-assign]
            await eventually(lambda: cluster.id != old, "the process to give its lease up")
            cluster._execute = renew  # type: ignore[method-assign]  # the database answers again
            assert live.lost and live.id not in a.games and cluster.fences == {}

            async def joined_again() -> bool:  # (the id changes first, the process registers after)
                return await cluster.alive([old, cluster.id]) == {cluster.id}

            await eventually(joined_again, "the process to hold a lease under its new id")

    asyncio.run(scenario())


def test_orphaned_games_are_shared_between_the_live_processes_oldest_first(db: str) -> None:
    async def scenario() -> None:
        async with node(db, sweep=3600.0) as a, node(db, sweep=3600.0) as b:
            async with node(db, sweep=3600.0) as c:
                games = [await new_game(c) for _ in range(4)]
                await move(games[0])
            # C has left: four games without an owner, two live processes.
            assert await cluster_of(a).sweep() == 2
            assert await cluster_of(b).sweep() == 1
            assert await cluster_of(a).sweep() == 1
            assert await cluster_of(b).sweep() == 0
            ids = [g.id for g in games]
            assert sorted(a.games) == sorted([ids[0], ids[1], ids[3]]) and list(b.games) == [ids[2]]
            assert [ownership(db, i)[0] for i in ids] == [cluster_of(x).id for x in (a, a, b, a)]
            assert len(a.games[ids[0]].match.moves) == 1
            await move(a.games[ids[0]])
            assert len(stored_moves(db, ids[0])) == 2

    asyncio.run(scenario())


def test_a_sweep_sets_aside_a_game_that_cannot_be_loaded_and_retries_one_the_database_failed(db: str) -> None:
    async def scenario() -> None:
        async with node(db, sweep=3600.0) as a:
            async with node(db, sweep=3600.0) as c:
                damaged, unlucky, fine = [(await new_game(c)).id for _ in range(3)]
            query(db, "UPDATE games SET seats = '\"x\"' WHERE id = :g", g=damaged)
            read = a.store.game
            failures = [unlucky]

            def flaky(game_id: str) -> Any:
                if game_id in failures:
                    failures.remove(game_id)
                    raise ReadFailed("the database went away for a moment")
                return read(game_id)

            a.store.game = flaky  # type: ignore[method-assign]
            assert await cluster_of(a).sweep() == 1 and list(a.games) == [fine]
            assert a.unavailable[damaged]["reason"] == "its stored seats are damaged"
            with pytest.raises(SetAside):
                await a.get(damaged)
            assert await cluster_of(a).sweep() == 1 and sorted(a.games) == sorted([fine, unlucky])
            assert await cluster_of(a).sweep() == 0

    asyncio.run(scenario())


def test_a_fenced_write_fails_alone_and_the_rest_of_its_batch_commits(db: str) -> None:
    async def scenario() -> None:
        async with node(db, sweep=3600.0) as a:
            cluster = cluster_of(a)
            mine, taken = await new_game(a), await new_game(a)
            query(db, "UPDATE games SET fence = fence + 1 WHERE id = :g", g=taken.id)  # as a takeover does

            def say(game_id: str, text: str) -> Callable[[Any], None]:
                message = {"n": len(text), "channel": "players", "seat": 0, "name": "x", "text": text, "at": 1.0}
                return lambda c: a.store.add_chat(game_id, message, 500, conn=c)

            started, gate = threading.Event(), threading.Event()

            def hold(_conn: Any) -> None:  # keeps the writer busy while the writes queue up
                started.set()
                gate.wait(30)

            held = asyncio.ensure_future(a.writer.write(hold))
            await eventually(started.is_set, "the writer to run the held write")
            writes = [asyncio.ensure_future(a.write(mine.id, say(mine.id, "a"))),
                      asyncio.ensure_future(a.write(taken.id, say(taken.id, "bb"))),
                      asyncio.ensure_future(a.write(mine.id, say(mine.id, "ccc")))]
            await eventually(lambda: a.writer._queue.qsize() == 3, "the writes to queue up behind the held one")
            gate.set()
            results = await asyncio.gather(held, *writes, return_exceptions=True)
            assert results[:2] == [None, None] and results[3] is None
            assert isinstance(results[2], Fenced) and not isinstance(results[2], WriteFailed)
            assert query(db, "SELECT game_id, text FROM chat ORDER BY n") == [(mine.id, "a"), (mine.id, "ccc")]
            assert taken.lost and taken.id not in a.games and taken.id not in cluster.fences
            assert mine.id in a.games and not mine.lost

    asyncio.run(scenario())


def test_a_rematch_is_made_and_owned_by_the_owner_of_the_finished_game(db: str) -> None:
    async def scenario() -> None:
        async with node(db, sweep=3600.0) as a, node(db, sweep=3600.0) as b:
            game = qipan.load("abalone")
            live, token, invites = await a.create(game, seat_specs(game, None), creator=0)
            await live.claim(invites[1])
            await live.act(0, "resign")
            with pytest.raises(NotFound):
                await b.get("nosuchgame")
            with pytest.raises(Elsewhere):  # finished games are owned too: one process makes the rematch
                await b.get(live.id)
            rematch, _, _ = await a.rematch(live, token)
            assert ownership(db, rematch.id) == (cluster_of(a).id, 1) and cluster_of(a).fences[rematch.id] == 1
            assert query(db, "SELECT rematch FROM games WHERE id = :g", g=live.id) == [(rematch.id,)]
            with pytest.raises(Elsewhere):
                await b.get(rematch.id)

    asyncio.run(scenario())


def test_a_single_process_never_touches_leases(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'q.db'}"
    statements: list[str] = []

    async def scenario() -> None:
        store = Store(url)
        sa.event.listen(store.engine, "before_cursor_execute",
                        lambda _conn, _cursor, sql, *_rest: statements.append(sql))
        hub = Hub(store, ai_processes=False)
        await hub.resume_all()
        try:
            live = await new_game(hub)
            await move(live)
            await live.act(1, "resign")
        finally:
            await hub.close()
        with pytest.raises(ValueError, match="PostgreSQL"):
            Cluster(Store(url))

    asyncio.run(scenario())
    assert statements and not [s for s in statements if "fence" in s or "processes" in s or "owner" in s]
    assert query(url, "SELECT owner, fence FROM games") == [(None, 0)]
    assert query(url, "SELECT count(*) FROM processes") == [(0,)]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_from_before_clusters_gets_owners_fences_and_processes(kind: str, tmp_path: Path,
                                                                           request: pytest.FixtureRequest) -> None:
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        with sqlite3.connect(tmp_path / "old.db") as conn:
            conn.executescript(OLD_SCHEMA)
            conn.execute(OLD_ROW)
    else:
        url = request.getfixturevalue("db")
        postgres.execute(url, f"{OLD_SCHEMA};{OLD_ROW}")
    Store(url).close()
    engine = sa.create_engine(url)
    try:
        columns = {c["name"] for c in sa.inspect(engine).get_columns("games")}
        assert {"owner", "fence"} <= columns and "processes" in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    assert query(url, "SELECT owner, fence FROM games WHERE id = 'old1'") == [(None, 0)]
    store = Store(url)
    try:
        row = store.game("old1")
        assert row is not None and row.game == "abalone"  # the new columns stay out of GameRow
    finally:
        store.close()


def test_a_game_owned_elsewhere_is_answered_while_this_process_loads_another(db: str) -> None:
    async def scenario() -> None:
        async with node(db) as a, node(db) as b:
            live = await new_game(a)
            # B is busy loading (its loading lock held, as by a long replay): asking B for a game
            # A owns must still say Elsewhere at once, not queue behind the load.
            async with b._loading:
                with pytest.raises(Elsewhere) as where:
                    await asyncio.wait_for(b.get(live.id), timeout=30)
                with pytest.raises(NotFound):
                    await asyncio.wait_for(b.get("no-such-game"), timeout=30)
            assert where.value.owner == cluster_of(a).id

    asyncio.run(scenario())
