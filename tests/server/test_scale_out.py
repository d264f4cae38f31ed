"""Several server processes on one PostgreSQL and one Redis (issue 20), tested for real: three
``qipan serve --db postgresql://… --redis redis://…`` processes, clients spread over them.

Every update a client receives is checked against the truth, once play has stopped: the game as
PostgreSQL holds it, replayed with :meth:`qipan.core.Match.from_record` in this process. An update
at ply n must show exactly what ``game.view(state_n, seat)`` shows, the seat's own public move
list, its legal moves only when it is to move, and clocks that follow from the stored move times.
So a move a client saw acknowledged (an update whose ply includes it) that the database lost, a
ply applied twice, a view of another seat, or a clock reset by a takeover all fail a test.

Run with ``-s`` (or ``-rP``) to see the figures the failover test prints.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import random
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from qipan.core import Match, Move, Record
from qipan.core.game import CHANCE, Game
from qipan.server import create_app
from qipan.server.clocks import read_clock
from qipan.server.hub import parse_player
from qipan.server.store import Store, StoreError, normalise_url

from . import helpers, postgres
from .cluster_harness import Cluster, Node, cluster
from .test_chat import OLD_ROW, OLD_SCHEMA, check_migrated

Message = dict[str, Any]

FLAGS = (
    "--create-limit", "3/60",  # test_creation_limit_holds_across_processes; the others create as many clients
    "--forwarded-allow-ips", "127.0.0.1",  # X-Forwarded-For names the client, as behind nginx
    "--join-limit", "off", "--message-limit", "off", "--client-connections", "0", "--max-connections", "0",
)
FATAL = {4403, 4404, 4408, 4409}
"""Close codes after which the web client gives up: never expected here."""
QUIET = 5.0
"""Seconds without a message after which a client asks for a fresh update (``sync``; spectators
``ping``); after twice as long it gives the server up and connects to the next one."""
SILENT = -1
"""The "close code" :class:`Conn` records when it gave up on a server that stopped answering."""


@pytest.fixture(scope="module")
def running() -> Iterator[Cluster]:
    with cluster(3, FLAGS) as started:
        yield started


@pytest.fixture
def cl(running: Cluster) -> Cluster:
    """The cluster with Redis and every process up (a test before may have stopped or killed one)."""
    if not running.redis.running:
        running.redis.start()
    running.start()
    return running


_addresses = itertools.count(1)


def new_client() -> str:
    """A client address of its own (sent as X-Forwarded-For), so creations are never rate-limited."""
    n = next(_addresses)
    return f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


# -- games and clients --------------------------------------------------------------------------


@dataclass
class Table:
    """A game under test: its id, the creator's answer and every human seat's token."""

    id: str
    created: Message
    tokens: dict[int, str]
    ai: set[int]

    def secrets(self) -> list[str]:
        """What no connection may ever be sent: seat tokens and invitation codes."""
        invites = [s["invite"] for s in self.created["seats"] if s.get("invite")]
        return [*self.tokens.values(), *invites]


async def open_table(http: httpx.AsyncClient, owner: Node, claim_on: Node, body: Message) -> Table:
    """Create a game on ``owner`` (the creator takes the first human seat), then claim every other
    human seat with its invitation on ``claim_on``."""
    reply = await http.post(f"{owner.base}/api/games", json=body, headers={"X-Forwarded-For": new_client()})
    assert reply.status_code == 201, f"creating {body} on {owner}: {reply.status_code} {reply.text}"
    created: Message = reply.json()
    tokens = {created["seat"]: created["token"]} if created["seat"] is not None else {}
    for seat in created["seats"]:
        if seat.get("invite"):
            claimed = await http.post(f"{claim_on.base}/api/games/{created['id']}/claim",
                                      json={"invite": seat["invite"]})
            assert claimed.status_code == 200, f"claiming seat {seat['seat']} on {claim_on}: {claimed.text}"
            tokens[claimed.json()["seat"]] = claimed.json()["token"]
    ai = {s["seat"] for s in created["seats"] if s["kind"] == "ai"}
    table = Table(created["id"], created, tokens, ai)
    SECRETS.extend(table.secrets())
    return table


SECRETS: list[str] = []
"""Every seat token and invitation code handed out so far: no server log may hold one."""


@dataclass
class Seen:
    """One message as a connection received it: from which node, on which of its connections."""

    node: int
    session: int
    raw: str
    message: Message


@dataclass
class Conn:
    """A client of one seat (None: a spectator) of one game, like the web client: it connects to
    ``nodes[0]``, and whenever its socket closes it connects to the next node in turn (round
    robin), says hello again and catches up. A player plays a random legal move ``delay`` seconds
    after each update that gives it legal moves."""

    table: Table
    seat: int | None
    nodes: list[Node]
    play: bool = False
    delay: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    seen: list[Seen] = field(default_factory=list)
    closes: list[tuple[int, int | None, float]] = field(default_factory=list)
    """(node, close code, time) of every connection that ended: the code the server closed it
    with, None when it failed (refused, cut), :data:`SILENT` when the client gave the server up."""
    connects: list[tuple[int, float]] = field(default_factory=list)
    node: int | None = None
    """The node it is connected to now."""
    finished: bool = False
    sent_at: int | None = None
    """The ply at which it sent its last move (it moves once per ply; an error clears it)."""

    @property
    def name(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"{who} of {self.table.created['game']} {self.table.id}"

    def updates(self) -> list[Seen]:
        return [s for s in self.seen if s.message.get("type") == "update"]

    async def run(self, stop: asyncio.Event) -> None:
        for turn in itertools.count():
            if stop.is_set() or self.finished:
                return
            node = self.nodes[turn % len(self.nodes)]
            try:
                await self._session(node, stop)
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                self.closes.append((node.index, code, time.time()))
                assert code not in FATAL, f"{self.name} was closed with {code} on {node}: {self._last_error()}"
            except (OSError, InvalidHandshake, TimeoutError):
                self.closes.append((node.index, None, time.time()))
            self.node = None
            if not self.finished and not stop.is_set():
                await asyncio.sleep(0.2)

    async def _session(self, node: Node, stop: asyncio.Event) -> None:
        async with connect(node.ws_url(self.table.id), open_timeout=10, close_timeout=2, max_size=2**22) as ws:
            self.node, self.sent_at = node.index, None
            self.connects.append((node.index, time.time()))
            hello: Message = {"type": "hello"}
            if self.seat is not None:
                hello.update(seat=self.seat, token=self.table.tokens[self.seat])
            await ws.send(json.dumps(hello))
            quiet = 0.0
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    quiet += 0.5
                    if quiet == QUIET:
                        await ws.send('{"type": "sync"}' if self.play else '{"type": "ping"}')
                    elif quiet >= 2 * QUIET:
                        self.closes.append((node.index, SILENT, time.time()))
                        return
                    continue
                quiet = 0.0
                assert isinstance(raw, str), f"{self.name} got a binary frame"
                message: Message = json.loads(raw)
                self.seen.append(Seen(node.index, len(self.connects), raw, message))
                if message.get("type") == "error" and self.play:
                    self.sent_at = None
                    await ws.send('{"type": "sync"}')  # e.g. "could not save that; please try again"
                if message.get("type") != "update":
                    continue
                if message["result"] is not None:
                    self.finished = True
                    return
                if self.play and message["legal"] and message["ply"] != self.sent_at:
                    self.sent_at = message["ply"]
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    await ws.send(json.dumps({"type": "move", "move": self.rng.choice(message["legal"])}))
            await ws.close()

    def _last_error(self) -> str:
        errors = [str(s.message.get("error")) for s in self.seen if s.message.get("type") == "error"]
        return errors[-1] if errors else "no error message"


def run_all(conns: list[Conn], stop: asyncio.Event) -> list[asyncio.Task[None]]:
    """Start every client (they play until ``stop`` is set, or their game ends)."""
    return [asyncio.create_task(c.run(stop), name=c.name) for c in conns]


async def finish(tasks: list[asyncio.Task[None]], stop: asyncio.Event) -> None:
    """Stop every client and wait for them (raising what any of them raised)."""
    stop.set()
    async with asyncio.timeout(30):
        for task in tasks:
            await task


async def wait_until(test: Callable[[], Awaitable[str | None]], seconds: float, tasks: list[asyncio.Task[None]]
                     ) -> None:
    """Poll ``test`` (None: done; else what is still missing) until done; fail after ``seconds``
    with what is missing (or at once when a client failed)."""
    deadline = time.monotonic() + seconds
    while True:
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        missing = await test()
        if missing is None:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"after {seconds:g} s: {missing}")
        await asyncio.sleep(0.3)


# -- the truth: PostgreSQL's games, replayed ------------------------------------------------------


class Truth:
    """A game as the database holds it, replayed; every update a client got is checked against it."""

    def __init__(self, store: Store, cl: Cluster, game_id: str):
        self.id = game_id
        plies = cl.query("SELECT ply FROM moves WHERE game_id = :g ORDER BY ply", g=game_id)
        assert [r[0] for r in plies] == list(range(len(plies))), \
            f"game {game_id}: the stored plies are not 0..{len(plies) - 1} exactly once: {[r[0] for r in plies]}"
        row = store.game(game_id)
        assert row is not None, f"game {game_id} is not in the database"
        self.row = row
        record = Record(game=row.game, variant=row.variant, options=dict(row.options), seed=row.seed,
                        moves=[Move(parse_player(m.player), m.text, m.time) for m in store.moves(game_id)],
                        result=row.result, started=row.started)
        record.clock, record.clock_reset = read_clock(row.clock)
        self.match = Match.from_record(record)  # raises if the stored moves do not replay
        self.game: Game[Any, Any] = self.match.game
        self._public: dict[int | None, list[Message]] = {}

    @property
    def plies(self) -> int:
        return len(self.match.moves)

    def public(self, seat: int | None) -> list[Message]:
        """The move list as ``seat`` may see it (what the server's ``public_moves`` must send)."""
        if seat not in self._public:
            states, moves, game = self.match.states, self.match.moves, self.game
            self._public[seat] = [
                {"ply": i + 1, "player": m.player,
                 "text": game.public_action_text(states[i], game.parse_action(states[i], m.text), seat)}
                for i, m in enumerate(moves)]
        return self._public[seat]

    def check(self, conn: Conn) -> int:
        """Check every update ``conn`` received; the highest ply it saw acknowledged."""
        highest, known, session = 0, 0, 0
        for n, seen in enumerate(conn.updates()):
            where = f"{conn.name}, update {n} (from node {seen.node}, ply {seen.message.get('ply')})"
            self.check_update(conn.seat, seen.message, where)
            if seen.session != session:  # a new connection starts with the whole history
                session, known = seen.session, 0
            if self.game.public_history:
                assert seen.message["first"] <= known, \
                    f"{where}: a gap: moves from ply {seen.message['first'] + 1}, the connection had {known}"
            known = seen.message["ply"]
            highest = max(highest, known)
        return highest

    def check_update(self, seat: int | None, m: Message, where: str) -> None:
        match, game = self.match, self.game
        ply = m["ply"]
        assert m["game"] == self.id and m["seat"] == seat, f"{where}: for game {m['game']} seat {m['seat']}"
        assert 0 <= ply <= self.plies, \
            f"{where}: acknowledges ply {ply} but the database holds {self.plies} moves (an acknowledged move lost)"
        state = match.states[ply]
        assert m["view"] == jsonable(game.view(state, seat)), \
            f"{where}: the view is not exactly seat {seat}'s view of the stored position"
        public = self.public(seat)
        first = m["first"]
        assert m["moves"] == public[first:ply], \
            f"{where}: moves {first + 1}..{ply} differ from the stored ones as seat {seat} may see them"
        assert m["last"] == (public[ply - 1] if ply else None), f"{where}: last move differs from the stored one"
        over = ply == self.plies and match.over
        assert m["result"] == (match.result() if over else None), f"{where}: result {m['result']}"
        if not game.public_history and not over:
            assert first >= ply - 1 and m["history"] is False, f"{where}: sent a hidden history ({first}..{ply})"
        mover = None if over else game.to_move(state)
        assert m["to_move"] == ("chance" if mover == CHANCE else mover), f"{where}: to_move {m['to_move']}"
        legal = game.legal_texts(state) if seat is not None and mover == seat else []
        assert m["legal"] == legal, f"{where}: legal moves are not the stored position's for seat {seat}"
        if match.time_control is not None and not over:
            assert m["clock"] == match.time_control.to_json(), f"{where}: clock {m['clock']}"
            past = copy.copy(match)  # the clocks after ``ply`` moves, at the moment the server stated
            past.moves, past.states, past.forfeit_result = match.moves[:ply], match.states[:ply + 1], None
            expected = [max(0.0, c) for c in past.clocks(now=m["now"]) or []]
            # A waiting player's clock is exact; the mover's runs, and the server reads it a moment
            # before it reads ``now`` (a busy machine may stretch that moment).
            slack = [1.0 if s == mover else 0.002 for s in range(len(expected))]
            assert len(m["clocks"]) == len(expected) and all(
                abs(a - b) <= e for a, b, e in zip(m["clocks"], expected, slack, strict=True)), \
                f"{where}: clocks {m['clocks']} do not follow from the stored move times ({expected})"


def jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def truths(cl: Cluster, tables: list[Table]) -> dict[str, Truth]:
    store = Store(cl.pg_url)
    try:
        return {t.id: Truth(store, cl, t.id) for t in tables}
    finally:
        store.close()


def check_everything(cl: Cluster, tables: list[Table], conns: list[Conn]) -> tuple[dict[str, Truth], int]:
    """Check every update of every connection against the database, and that no message carried a
    secret; the truths and how many stored moves some client saw acknowledged."""
    truth = truths(cl, tables)
    acknowledged: dict[str, int] = {}
    for conn in conns:
        highest = truth[conn.table.id].check(conn)
        acknowledged[conn.table.id] = max(acknowledged.get(conn.table.id, 0), highest)
        secrets = [*conn.table.secrets(), str(truth[conn.table.id].row.seed)]
        for seen in conn.seen:
            leaked = [s for s in secrets if s in seen.raw]
            assert not leaked, f"{conn.name} was sent a secret (a token, an invitation or the game's secret)"
    return truth, sum(acknowledged.values())


async def stored_plies(cl: Cluster, tables: list[Table]) -> dict[str, int]:
    rows = await asyncio.to_thread(cl.query, "SELECT game_id, count(*) FROM moves WHERE game_id = ANY(:ids) "
                                             "GROUP BY game_id", ids=[t.id for t in tables])
    found = {str(r[0]): int(r[1]) for r in rows}
    return {t.id: found.get(t.id, 0) for t in tables}


def run(cl: Cluster, main: Coroutine[Any, Any, None]) -> None:
    """Run a test's clients; print every process's log tail if it fails. Then no log may hold a
    secret of any game played so far, nor a traceback."""
    with cl.reporting():
        asyncio.run(main)
        cl.check_logs(SECRETS)


# -- 0. processes starting at once -----------------------------------------------------------------


def test_processes_starting_at_once_share_one_database(cl: Cluster) -> None:
    """Six processes opening one database at the same moment, empty or made by an older qipan,
    all start (each creating or bringing up to date the tables at once failed in all but one:
    "duplicate key value violates unique constraint", "column already exists")."""
    for name, schema in (("fresh", ""), ("old", OLD_SCHEMA + ";" + OLD_ROW)):
        url = postgres.new_database(normalise_url(cl.pg_url), f"at_once_{name}_{next(_addresses)}")
        postgres.execute(url, schema)
        failures = open_at_once(url, 6)
        assert failures == [], f"{len(failures)} of 6 could not open the {name} database: {failures[0]}"
        if schema:
            check_migrated(url)


def open_at_once(url: str, processes: int) -> list[str]:
    """Open ``url`` as a server process does (:class:`Store`), from ``processes`` threads at the
    same moment; why each one that failed did."""
    barrier, failures = threading.Barrier(processes), []

    def start() -> None:
        barrier.wait()
        try:
            Store(url).close()
        except StoreError as exc:
            failures.append(str(exc))

    threads = [threading.Thread(target=start) for _ in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return failures


# -- 1. hidden information across processes ------------------------------------------------------


def single_process_update_keys(tmp_path: Path) -> set[str]:
    """The fields of an update from the single-process server (SQLite, no Redis)."""
    with TestClient(create_app(str(tmp_path / "single.db"), ai_delay=0.0, ai_processes=False)) as client:
        created = helpers.create(client, game="shengke")
        with helpers.connect(client, created, 0) as ws:
            return set(helpers.until(ws, lambda m: m["type"] == "update"))


def test_hidden_information_games_across_processes(cl: Cluster, tmp_path: Path) -> None:
    """Sheng-Ke (hidden hands and shuffles) and Tellstones (hidden stones and history), each
    created on one process, its second seat claimed on another, each seat's WebSocket on a process
    that does not own the game, spectators on all three: played to the end with random legal
    moves, every update is exactly its seat's view of the stored game."""
    keys = single_process_update_keys(tmp_path)
    nodes = cl.nodes

    async def main() -> None:
        async with httpx.AsyncClient(timeout=20) as http:
            tables = [await open_table(http, nodes[k], nodes[(k + 1) % 3], {"game": name})
                      for k, name in enumerate(["shengke", "tellstones"])]
        owners = cl.owners([t.id for t in tables])
        assert [owners[t.id] for t in tables] == nodes[:2], "a new game is owned by the process that created it"
        conns: list[Conn] = []
        for k, table in enumerate(tables):
            rng = random.Random(k)
            conns += [Conn(table, 0, [nodes[(k + 1) % 3]], play=True, rng=rng),
                      Conn(table, 1, [nodes[(k + 2) % 3]], play=True, rng=rng)]
            conns += [Conn(table, None, [node]) for node in nodes]  # one local to the owner, two relayed
        stop = asyncio.Event()
        tasks = run_all(conns, stop)

        async def unfinished() -> str | None:
            waiting = [c.name for c in conns if not c.finished]
            return f"these never saw their game end: {waiting}" if waiting else None

        await wait_until(unfinished, 120, tasks)
        await finish(tasks, stop)

        truth, acknowledged = check_everything(cl, tables, conns)
        for table in tables:
            game = truth[table.id]
            assert game.match.over and game.row.result is not None, f"{table.id} is not finished in the database"
            views = [[jsonable(game.game.view(s, seat)) for s in game.match.states] for seat in (0, 1, None)]
            assert views[0] != views[1] != views[2], "the game hides nothing: the test would prove nothing"
            async with httpx.AsyncClient(timeout=20) as http:  # a finished game's record, from a process
                reply = await http.get(f"{nodes[2].base}/api/games/{table.id}/record")  # that may not own it
            assert reply.status_code == 200, reply.text
            record = Record.from_json(reply.json())
            assert [(m.player, m.text) for m in record.moves] == [(m.player, m.text) for m in game.match.moves]
            assert record.seed == game.row.seed and record.result == game.row.result
        for conn in conns:
            assert conn.closes == [] and len(conn.connects) == 1, f"{conn.name} lost its connection: {conn.closes}"
            errors = [s.message for s in conn.seen if s.message["type"] == "error"]
            assert errors == [], f"{conn.name} got errors: {errors}"
            for seen in conn.updates():
                assert set(seen.message) == keys, f"{conn.name}: fields {set(seen.message) ^ keys} differ " \
                                                  "from the single-process server's update"
            assert conn.updates()[-1].message["ply"] == truth[conn.table.id].plies
        assert acknowledged == sum(t.plies for t in truth.values())

    run(cl, main())


# -- 4. limits hold across processes ---------------------------------------------------------------


def test_creation_limit_holds_across_processes(cl: Cluster) -> None:
    """With ``--create-limit 3/60``, a client's 4th game is refused whichever process gets it."""
    with cl.reporting():
        client = "203.0.113.9"
        with httpx.Client(timeout=20) as http:
            def create(node: Node, who: str) -> httpx.Response:
                return http.post(f"{node.base}/api/games", json={"game": "abalone"},
                                 headers={"X-Forwarded-For": who})

            made = [create(node, client) for node in cl.nodes]
            assert [r.status_code for r in made] == [201, 201, 201], [r.text for r in made]
            for node in cl.nodes:
                refused = create(node, client)
                assert refused.status_code == 429, f"the 4th creation on {node}: {refused.status_code} {refused.text}"
                assert int(refused.headers["Retry-After"]) >= 1 and "error" in refused.json()
            assert create(cl.nodes[1], "203.0.113.10").status_code == 201, "another client is not limited"
        cl.check_logs(SECRETS)


# -- 3. Redis restarted mid-game ----------------------------------------------------------------------


def test_redis_restarted_mid_game(cl: Cluster) -> None:
    """Games played through every process; Redis stops (its state is lost) and starts again on the
    same port. While it is down, relayed clients are closed with 1012, a WebSocket to a process
    that does not own its game is refused with 1013, and games keep playing through their owners;
    once it is back, games are played through every process again, each game keeps its owner,
    and nothing acknowledged is lost."""
    nodes = cl.nodes

    async def main() -> None:
        async with httpx.AsyncClient(timeout=20) as http:
            tables = []
            for i in range(6):
                seats = [{"kind": "human"}, {"kind": "ai", "level": "easy"} if i % 3 == 1 else {"kind": "human"}]
                tables.append(await open_table(http, nodes[i % 3], nodes[(i + 1) % 3],
                                               {"game": "abalone", "seats": seats}))
        owners = cl.owners([t.id for t in tables])

        def clients(everywhere: bool) -> list[Conn]:
            """Two spectators and the players of each game, on the processes that do not own it;
            with ``everywhere``, they reconnect to every process in turn (the owner last)."""
            made = []
            for i, table in enumerate(tables):
                others = [n for n in nodes if n is not owners[table.id]]
                for k, seat in enumerate([None, None, *table.tokens]):
                    where = others[k % 2:] + others[:k % 2]
                    if everywhere:
                        where.append(owners[table.id])  # type: ignore[arg-type]
                    made.append(Conn(table, seat, where, play=seat is not None, delay=0.2,
                                     rng=random.Random(f"{i}/{seat}")))
            return made

        def grown(by: int, since: dict[str, int], what: str) -> Callable[[], Awaitable[str | None]]:
            async def test() -> str | None:
                now = await stored_plies(cl, tables)
                short = {t: now[t] for t in now if now[t] < since[t] + by}
                return f"games that did not get {by} more moves {what}: {short} (from {since})" if short else None
            return test

        before = clients(everywhere=True)
        stop = asyncio.Event()
        tasks = run_all(before, stop)
        await wait_until(grown(4, {t.id: 0 for t in tables}, "at the start"), 60, tasks)

        relayed = [c for c in before if c.node is not None and nodes[c.node] is not owners[c.table.id]]
        cl.redis.stop()
        down = time.time()
        at_stop = await stored_plies(cl, tables)
        await wait_until(grown(4, at_stop, "while Redis was down (through their owners)"), 45, tasks)
        await finish(tasks, stop)
        for conn in relayed:
            codes = [code for _, code, when in conn.closes if when > down]
            assert codes and codes[0] == 1012, f"{conn.name}, relayed when Redis stopped: closes {codes}"
        outage = [(c.name, node, code) for c in before for node, code, when in c.closes if when > down]
        assert all(code in (1012, 1013, None) for _, _, code in outage), f"closes while Redis was down: {outage}"
        assert any(code == 1013 for _, _, code in outage), "no WebSocket was refused with 1013 while Redis was down"

        cl.redis.start()
        at_restart = await stored_plies(cl, tables)
        during = clients(everywhere=False)  # only processes that do not own the game: every move is relayed
        stop = asyncio.Event()
        tasks = run_all(during, stop)
        await wait_until(grown(6, at_restart, "after Redis came back"), 60, tasks)

        async def spectators_caught_up() -> str | None:
            behind = [c.name for c in during if c.seat is None and
                      max((s.message["ply"] for s in c.updates()), default=-1) < at_restart[c.table.id] + 6]
            return f"relayed spectators that saw no move after Redis came back: {behind}" if behind else None

        await wait_until(spectators_caught_up, 30, tasks)
        await finish(tasks, stop)
        assert cl.owners([t.id for t in tables]) == owners, "a game changed owner because Redis restarted"
        truth, acknowledged = check_everything(cl, tables, before + during)
        refused = sum(code == 1013 for _, _, code in outage)
        print(f"\nRedis restart: {len(tables)} games; {len(relayed)} relayed connections closed with 1012, "
              f"{refused} refused with 1013 while it was down; moves stored: {sum(at_stop.values())} when it "
              f"stopped, {sum(at_restart.values())} when it came back, {sum(t.plies for t in truth.values())} "
              f"at the end; {acknowledged} acknowledged moves checked")

    run(cl, main())


# -- 2. SIGKILL in the middle of load ----------------------------------------------------------------


def test_sigkill_of_one_process_under_load(cl: Cluster) -> None:
    """30 games (human against human, against the AI, timed), created on all three processes,
    their clients relayed through the others; one process is killed with SIGKILL while they play.
    The others take its games over: clients reconnect round robin and play on, its games continue
    (AI seats move again), and the database holds every acknowledged move at its ply exactly once,
    each game replays, and timed games' clocks were never reset."""
    nodes = cl.nodes

    async def main() -> None:
        bodies = []
        for i in range(30):  # game i is created on (so owned by) process i % 3: each owns every kind
            kind, other = (i // 3) % 3, (i // 9) % 2  # untimed, against the AI, timed; which variant
            ai = kind == 1 or (kind == 2 and other)
            game = "chinese_checkers" if kind == 1 and other else "abalone"
            body: Message = {"game": game, "seats": [{"kind": "human"},
                                                     {"kind": "ai", "level": "easy"} if ai else {"kind": "human"}]}
            if kind == 2:
                body["clock"] = {"base": 900, "increment": 2}
            bodies.append(body)
        async with httpx.AsyncClient(timeout=20) as http:
            tables = await asyncio.gather(*(open_table(http, nodes[i % 3], nodes[(i + 2) % 3], body)
                                            for i, body in enumerate(bodies)))
        conns = []
        for i, table in enumerate(tables):
            for seat in table.tokens:
                order = [nodes[(i + 1 + seat + k) % 3] for k in range(3)]  # never the owner first
                conns.append(Conn(table, seat, order, play=True, delay=0.4, rng=random.Random(f"{i}/{seat}")))
            if i % 5 == 0:
                conns.append(Conn(table, None, [nodes[(i + 2 + k) % 3] for k in range(3)]))
            elif i % 5 == 1:
                conns.append(Conn(table, None, [nodes[(i + k) % 3] for k in range(3)]))  # local to the owner
        ids = [t.id for t in tables]
        stop = asyncio.Event()
        tasks = run_all(conns, stop)

        async def started() -> str | None:
            plies = await stored_plies(cl, tables)
            slow = {g: n for g, n in plies.items() if n < 6}
            return f"games with fewer than 6 moves: {slow}" if slow else None

        await wait_until(started, 90, tasks)
        owners = cl.owners(ids)
        victim = max(nodes, key=lambda n: sum(o is n for o in owners.values()))
        orphans = [t for t in tables if owners[t.id] is victim]
        orphan_ids = {t.id for t in orphans}
        kinds = {(bool(t.ai), "clock" in bodies[tables.index(t)]) for t in orphans}
        assert {(False, False), (True, False), (False, True), (True, True)} <= kinds, \
            f"the killed process must own games of every kind: {kinds}"
        at_kill = await stored_plies(cl, tables)
        on_victim = [c for c in conns if c.node == victim.index]
        relayed_to_victim = [c for c in conns if c.table.id in orphan_ids and c.node not in (None, victim.index)]
        killed = time.time()
        victim.kill()

        def ai_silent() -> list[str]:
            """Games taken over whose AI seat has not moved since the kill."""
            return [t.id for t in orphans if t.ai and not cl.query(
                "SELECT 1 FROM moves WHERE game_id = :g AND ply >= :p AND time > :t AND player = :s",
                g=t.id, p=at_kill[t.id], t=killed, s=str(min(t.ai)))]

        async def continued() -> str | None:
            plies = await stored_plies(cl, tables)
            stuck = {t.id: (at_kill[t.id], plies[t.id]) for t in tables
                     if plies[t.id] < at_kill[t.id] + (6 if t.id in orphan_ids else 2)}
            if stuck:
                owned = await asyncio.to_thread(cl.owners, list(stuck))
                return f"games that did not continue after the kill (ply at the kill, now): {stuck}; " \
                       f"owners now: {owned}"
            if silent := await asyncio.to_thread(ai_silent):
                return f"games taken over whose AI seat has not moved since the kill: {silent}"
            behind = [c.name for c in on_victim if not c.updates() or c.updates()[-1].node == victim.index]
            return f"clients of the killed process that have not caught up elsewhere: {behind}" if behind else None

        await wait_until(continued, 90, tasks)
        await finish(tasks, stop)

        new_owners = cl.owners(ids)
        assert all(new_owners[t.id] not in (None, victim) for t in orphans), \
            f"games of the killed process without a live owner: {new_owners}"
        for conn in relayed_to_victim:
            codes = [code for node, code, when in conn.closes if when > killed]
            assert codes and codes[0] == 1012, \
                f"{conn.name}, relayed to the killed owner, was not closed with 1012 (service restart): {codes}"
        truth, acknowledged = check_everything(cl, tables, conns)
        for t in tables:
            assert truth[t.id].match.clock_reset is None, f"{t.id}: a clock reset was stored (no takeback was made)"
        firsts = []
        for t in orphans:
            after = [m.time for m in truth[t.id].match.moves[at_kill[t.id]:] if m.time is not None and m.time > killed]
            assert after, f"{t.id}: no stored move after the kill"
            firsts.append(min(after) - killed)
        reconnections = sum(max(0, len(c.connects) - 1) for c in conns)
        stored = sum(t.plies for t in truth.values())
        print(f"\nscale-out failover: 1 kill (SIGKILL) of 3 processes; {len(tables)} games, {len(conns)} connections; "
              f"{acknowledged} acknowledged moves checked against PostgreSQL ({stored} stored); "
              f"{len(orphans)} games taken over; takeover (kill -> first committed move in a game the killed "
              f"process owned) {min(firsts):.2f} s first, {max(firsts):.2f} s last; {reconnections} reconnections")

    run(cl, main())


# -- 5. a paused process ----------------------------------------------------------------------------


def test_a_paused_process_loses_its_games_and_comes_back(cl: Cluster) -> None:
    """A process stopped (SIGSTOP) longer than its lease, with games it owns and clients connected
    to it: the others take its games over and play on. When it continues (SIGCONT) it finds its
    lease gone, drops those games without writing to them, joins again under a new id, and serves
    again: every game is then played through it, relayed to the new owners."""
    victim, others = cl.nodes[0], cl.nodes[1:]

    async def main() -> None:
        old_id = cl.process_id(victim)
        async with httpx.AsyncClient(timeout=20) as http:
            tables = []
            for i in range(6):
                body: Message = {"game": "abalone", "seats": [
                    {"kind": "human"}, {"kind": "ai", "level": "easy"} if i % 3 == 1 else {"kind": "human"}]}
                if i % 2:
                    body["clock"] = {"base": 900, "increment": 2}
                tables.append(await open_table(http, victim, others[i % 2], body))
        assert set(cl.owners([t.id for t in tables]).values()) == {victim}

        def clients(first: list[Node]) -> list[Conn]:
            made = []
            for i, table in enumerate(tables):
                for k, seat in enumerate([None, *table.tokens]):
                    start = first[(i + k) % len(first)]
                    order = [start, *(n for n in cl.nodes if n is not start)]
                    made.append(Conn(table, seat, order, play=seat is not None, delay=0.2,
                                     rng=random.Random(f"{i}/{seat}/{len(first)}")))
            return made

        def grown(by: int, since: dict[str, int], what: str) -> Callable[[], Awaitable[str | None]]:
            async def test() -> str | None:
                now = await stored_plies(cl, tables)
                short = {t: now[t] for t in now if now[t] < since[t] + by}
                return f"games that did not get {by} more moves {what}: {short} (from {since})" if short else None
            return test

        before = clients(cl.nodes)  # some connected to the victim itself, some relayed to it
        stop = asyncio.Event()
        tasks = run_all(before, stop)
        await wait_until(grown(4, {t.id: 0 for t in tables}, "at the start"), 60, tasks)

        victim.pause()
        at_pause = await stored_plies(cl, tables)
        await wait_until(grown(4, at_pause, "while their owner was paused"), 60, tasks)
        taken = await asyncio.to_thread(cl.owners, [t.id for t in tables])
        assert all(taken[t.id] in others for t in tables), f"owners while the victim is paused: {taken}"
        victim.resume()

        async def rejoined() -> str | None:
            now = await asyncio.to_thread(cl.process_id, victim)
            return None if now not in (None, old_id) else f"the resumed process holds lease {now} (was {old_id})"

        await wait_until(rejoined, 30, tasks)
        await finish(tasks, stop)
        resumed = await stored_plies(cl, tables)
        through_victim = clients([victim])  # every client starts on the resumed process: relayed
        stop = asyncio.Event()
        tasks = run_all(through_victim, stop)
        await wait_until(grown(4, resumed, "through the resumed process"), 60, tasks)
        await finish(tasks, stop)
        served = [c.name for c in through_victim if c.connects and c.connects[0][0] == victim.index
                  and any(s.node == victim.index and s.session == 1 for s in c.updates())]
        assert len(served) == len(through_victim), \
            f"clients the resumed process did not serve: {set(c.name for c in through_victim) - set(served)}"
        owners = await asyncio.to_thread(cl.owners, [t.id for t in tables])
        assert all(owners[t.id] in others for t in tables), f"owners after it came back: {owners}"
        check_everything(cl, tables, before + through_victim)

    run(cl, main())
