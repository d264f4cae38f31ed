"""Two server processes on one PostgreSQL and one Redis (cluster mode), each served by uvicorn on
its own port in a thread of this process: WebSockets relayed to a game's owner, HTTP operations
run there, and what happens when the owner or Redis goes away."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import redis as redis_py
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from qipan.server import create_app, ops
from qipan.server import relay as relay_module
from qipan.server.connections import Client
from qipan.server.limits import Limits, MemoryRateLimiter, Rate, RateLimiter
from qipan.server.relay import Piped, Relay, RemoteSocket
from qipan.server.store import normalise_url

from . import postgres
from .helpers import Message, free_port, wait_for
from .redis_server import RedisServer, redis_server
from .server_process import Player, play_alternately
from .test_ws import HOSTILE

T = TypeVar("T")

NO_LIMITS = Limits(create_rate=None, join_rate=None, message_rate=None)
"""Every test connects from 127.0.0.1: no rate gets in the way (one test sets its own)."""


class Served:
    """An app served by uvicorn on a free port, in a thread of this process with its own event
    loop (:meth:`run` runs a coroutine there)."""

    def __init__(self, app: FastAPI):
        self.app = app
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=65536))
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=asyncio.run, args=(self._serve(),), daemon=True)

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def start(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.thread.is_alive():
            self.server.should_exit = True
            self.thread.join(60)

    def run(self, coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run ``coroutine()`` in the server's event loop; its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine(), self.loop).result(30)

    @property
    def state(self) -> Any:
        return self.app.state

    @property
    def id(self) -> str:
        """The process id in the cluster."""
        return str(self.state.hub.cluster.id)

    def owns(self, game_id: str) -> bool:
        return game_id in self.state.hub.games

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(f"http://127.0.0.1:{self.port}{path}", json=body, timeout=30)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=30)

    def socket(self, game_id: str, hello: Message) -> Player:
        """A WebSocket to the game that has said ``hello``."""
        player = Player(connect(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}", open_timeout=10))
        player.send(hello)
        return player


def serve(pg_url: str, redis_url: str, limits: Limits = NO_LIMITS, limiter: RateLimiter | None = None) -> Served:
    return Served(create_app(pg_url, ai_delay=0.0, ai_workers=1, ai_processes=False, limits=limits,
                             rate_limiter=limiter, redis_url=redis_url)).start()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres.cluster() as url:
        yield url


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


@contextlib.contextmanager
def two_processes(pg_url: str, redis_url: str) -> Iterator[tuple[Served, Served]]:
    """Processes A and B on one database and one Redis, stopped afterwards."""
    a = serve(pg_url, redis_url)
    b = serve(pg_url, redis_url)
    try:
        yield a, b
    finally:
        b.stop()
        a.stop()


@pytest.fixture(scope="module")
def pair(pg_url: str, redis: RedisServer) -> Iterator[tuple[Served, Served]]:
    """Processes A and B; games are created on A (so A owns them) and reached through B."""
    with two_processes(pg_url, redis.url) as both:
        yield both


@contextlib.contextmanager
def processes_on_own_redis(pg_url: str, tmp_path: Path) -> Iterator[tuple[RedisServer, Served, Served]]:
    """A Redis of its own (for a test that stops it) and processes A and B on a new database."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        with two_processes(database(pg_url), server.url) as (a, b):
            yield server, a, b
    finally:
        server.kill()


def database(pg_url: str) -> str:
    """A new, empty database on the PostgreSQL server: processes there share nothing with the others."""
    return postgres.new_database(pg_url, f"qipan_{secrets.token_hex(4)}")


@pytest.fixture
def own_pair(pg_url: str, redis: RedisServer) -> Iterator[tuple[Served, Served]]:
    """A pair of its own (its own database) for a test that breaks it."""
    with two_processes(database(pg_url), redis.url) as both:
        yield both


def create(served: Served, game: str = "abalone", **body: Any) -> Message:
    reply = served.post("/api/games", {"game": game, **body})
    assert reply.status_code == 201, reply.text
    data: Message = reply.json()
    return data


def seated(a: Served, b: Served, game: str = "abalone") -> tuple[str, dict[int, str]]:
    """A two-player game created on A, its second seat claimed through B: its id and tokens."""
    created = create(a, game)
    claimed = b.post(f"/api/games/{created['id']}/claim", {"invite": created["seats"][1]["invite"]})
    assert claimed.status_code == 200, claimed.text
    return created["id"], {0: created["token"], 1: claimed.json()["token"]}


def hello(tokens: dict[int, str], seat: int | None) -> Message:
    return {"type": "hello"} if seat is None else {"type": "hello", "seat": seat, "token": tokens[seat]}


def close_code(player: Player, timeout: float = 20.0) -> tuple[int, list[Message]]:
    """Read until the server closes the connection: its close code, and the messages before."""
    seen: list[Message] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            seen.append(json.loads(player.ws.recv(timeout=max(0.1, deadline - time.monotonic()))))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame"
            return closed.rcvd.code, seen


def relayed(served: Served) -> set[str]:
    """The sessions ``served`` relays to other processes (as the edge)."""
    return set(served.state.relay.piped)


# -- play through the process that does not own the game ---------------------------------------------


def test_a_game_created_on_one_process_is_played_through_the_other(pair: tuple[Served, Served]) -> None:
    a, b = pair
    game_id, tokens = seated(a, b)
    before = relayed(b)
    players = {0: b.socket(game_id, hello(tokens, 0)), 1: a.socket(game_id, hello(tokens, 1))}
    try:
        final = play_alternately(players, 6)
        assert final["ply"] == 6 and [m["ply"] for m in final["moves"]] == list(range(1, 7))
        assert len(relayed(b) - before) == 1  # seat 0's connection went through B as a pipe ...
        assert a.owns(game_id) and not b.owns(game_id)  # ... to A, which plays the game
        summary = a.get(f"/api/games/{game_id}").json()
        assert summary["moves"] == 6 and [s["connected"] for s in summary["seats"]] == [True, True]
    finally:
        for player in players.values():
            player.close()
    wait_for(lambda: not (relayed(b) - before))  # the pipe ends with its client


def test_each_seat_of_a_hidden_information_game_sees_only_its_view_through_the_relay(
        pair: tuple[Served, Served]) -> None:
    a, b = pair
    game_id, tokens = seated(a, b, "shengke")
    seats: list[int | None] = [0, 1, None]
    via_b = {seat: b.socket(game_id, hello(tokens, seat)) for seat in seats}
    via_a = {seat: a.socket(game_id, hello(tokens, seat)) for seat in seats}
    try:
        current = {seat: p.recv() for seat, p in via_b.items()}
        def hands() -> bool:  # each seat holds cards the other may not see
            return all(current[seat]["view"]["players"][seat]["hand"] for seat in (0, 1))

        for _ in range(40):
            if hands():
                break
            mover = next(s for s, m in current.items() if m["legal"])
            n = len(current[mover]["moves"])
            via_b[mover].send({"type": "move", "move": current[mover]["legal"][0]})
            target = len(via_b[mover].until_moves(n + 1)["moves"])
            current = {s: p.until_moves(target) if s != mover else p.last for s, p in via_b.items()}  # type: ignore[misc]
            for seat in seats:  # the relayed copy is the owner's message for that seat, whole
                direct = via_a[seat].until_moves(target)
                assert {**current[seat], "moves": None} == {**direct, "moves": None}  # type: ignore[dict-item]
                assert current[seat]["moves"] == direct["moves"]
        assert hands()
        views = {seat: current[seat]["view"] for seat in seats}
        assert [views[s]["player"] for s in seats] == seats
        assert views[0]["players"][1]["hand"] is None and views[1]["players"][0]["hand"] is None
        assert views[None]["players"][0]["hand"] is None and views[None]["players"][1]["hand"] is None

        async def owner_views() -> dict[int | None, Any]:
            live = a.state.hub.games[game_id]
            return {seat: json.loads(json.dumps(live.game.view(live.match.state, seat))) for seat in seats}

        assert a.run(owner_views) == views
        assert not b.owns(game_id)
    finally:
        for player in [*via_a.values(), *via_b.values()]:
            player.close()


def test_an_update_goes_once_per_process_to_every_session_of_its_seat(
        pair: tuple[Served, Served], redis: RedisServer) -> None:
    """One publish carries the spectators' update to all of B's spectators; seat 0's own view
    goes only to seat 0's session."""
    a, b = pair
    game_id, tokens = seated(a, b)
    sessions: dict[int | None, set[str]] = {}
    players: list[Player] = []
    for seat in [0, None, None, None, None]:
        before = relayed(b)
        player = b.socket(game_id, hello(tokens, seat))
        player.until_moves(0)
        players.append(player)
        sessions.setdefault(seat, set()).update(relayed(b) - before)
    mover = a.socket(game_id, hello(tokens, 0))
    listener = redis_py.Redis.from_url(redis.url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(f"qipan:proc:{b.id}")
    try:
        update = mover.until_moves(0)
        mover.send({"type": "move", "move": update["legal"][0]})
        outs: list[Message] = []
        deadline = time.monotonic() + 20
        while sum(len(o["s"]) for o in outs) < 5:
            assert time.monotonic() < deadline, outs
            message = listener.get_message(timeout=1.0)
            if message is not None:
                frame = json.loads(message["data"])
                if frame["t"] == "out" and json.loads(frame["d"]).get("ply") == 1:
                    outs.append(frame)
        assert len(outs) == 2, outs
        by_seat = {json.loads(o["d"])["seat"]: set(o["s"]) for o in outs}
        assert by_seat == {None: sessions[None], 0: sessions[0]}
        assert all(o["from"] == a.id for o in outs)
        for player in players:
            assert player.until_moves(1)["ply"] == 1
    finally:
        listener.close()
        for player in [*players, mover]:
            player.close()


def test_hostile_messages_through_the_relay_are_answered_as_by_the_owner(pair: tuple[Served, Served]) -> None:
    a, b = pair
    game_id, tokens = seated(a, b)
    direct, piped = a.socket(game_id, hello(tokens, 0)), b.socket(game_id, hello(tokens, 0))
    direct.until_moves(0)
    piped.until_moves(0)
    for raw, reason in HOSTILE:
        answers = []
        for player in (direct, piped):
            player.ws.send(raw)
            answers.append(json.loads(player.ws.recv(timeout=20)))
        assert answers[0] == answers[1], raw[:40]
        assert reason in answers[1].get("error", "") if reason else answers[1] == {"type": "pong"}
    assert a.get(f"/api/games/{game_id}").json()["moves"] == 0
    direct.close()
    piped.close()


# -- HTTP operations through either process ---------------------------------------------------------


def same(a: Served, b: Served, method: str, path: str, body: Any = None) -> httpx.Response:
    """Ask A and B the same (a request that changes nothing); the answers must be equal."""
    ra, rb = (s.get(path) if method == "GET" else s.post(path, body) for s in (a, b))
    assert (rb.status_code, rb.text, rb.headers.get("content-disposition")) == \
        (ra.status_code, ra.text, ra.headers.get("content-disposition")), path
    return rb


def test_http_game_operations_answer_the_same_through_either_process(pair: tuple[Served, Served]) -> None:
    a, b = pair
    created = create(a)
    game_id, creator, invite = created["id"], created["token"], created["seats"][1]["invite"]
    base = f"/api/games/{game_id}"
    assert same(a, b, "GET", base).json()["seats"][1]["claimed"] is False
    assert same(a, b, "GET", f"{base}/record").status_code == 409
    assert same(a, b, "GET", f"{base}/record.txt").status_code == 409
    assert same(a, b, "GET", f"{base}/replay/0").status_code == 200
    assert same(a, b, "GET", f"{base}/replay/3").status_code == 404
    assert same(a, b, "GET", "/api/games/nosuchgame").status_code == 404
    assert same(a, b, "POST", f"{base}/join", {}).status_code == 403  # invite-only
    assert same(a, b, "POST", f"{base}/claim", {"invite": "not-an-invitation"}).status_code == 403
    assert same(a, b, "POST", f"{base}/invites", {"token": "not-the-creator"}).status_code == 403
    assert same(a, b, "POST", f"{base}/rematch", {"token": creator}).status_code == 409  # not over
    assert same(a, b, "POST", f"{base}/claim", {"invite": invite, "name": "\u0000"}).status_code == 400

    reissued = b.post(f"{base}/invites", {"token": creator})  # through B, by the creator
    assert reissued.status_code == 200, reissued.text
    new_invite = reissued.json()["invites"][0]["invite"]
    assert new_invite != invite and a.post(f"{base}/claim", {"invite": invite}).status_code == 403
    claimed = b.post(f"{base}/claim", {"invite": new_invite, "name": "Bea"})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    used = same(a, b, "POST", f"{base}/claim", {"invite": new_invite})
    assert used.status_code == 409 and "has been used" in used.json()["error"]
    assert same(a, b, "GET", base).json()["seats"][1]["name"] == "Bea"
    with a.socket(game_id, {"type": "hello", "seat": 1, "token": claimed.json()["token"]}).ws:
        pass  # the token B handed out opens the seat at the owner

    open_game = create(a, public=True)
    joined = b.post(f"/api/games/{open_game['id']}/join", {"name": "Jo"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert same(a, b, "POST", f"/api/games/{open_game['id']}/join", {}).status_code == 409  # no free seat

    player = a.socket(game_id, {"type": "hello", "seat": 0, "token": creator})
    player.until_moves(0)
    player.send({"type": "resign"})
    while player.recv().get("result") is None:
        pass
    player.close()
    assert same(a, b, "GET", f"{base}/record").json()["result"]["reason"] == "resignation"
    assert "resignation" in same(a, b, "GET", f"{base}/record.txt?download=1").text
    assert same(a, b, "GET", f"{base}/record?download=1").headers["content-disposition"].endswith('.json"')
    assert same(a, b, "GET", f"{base}/replay/0").json()["ply"] == 0

    first = b.post(f"{base}/rematch", {"token": creator})
    second = a.post(f"{base}/rematch", {"token": claimed.json()["token"]})
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"] and (first.json()["seat"], second.json()["seat"]) == (1, 0)
    assert not b.owns(first.json()["id"])  # made by A, the finished game's owner


def test_a_rematch_another_process_took_over_is_joined_there(own_pair: tuple[Served, Served]) -> None:
    a, b = own_pair
    game_id, tokens = seated(a, b)
    player = a.socket(game_id, hello(tokens, 0))
    player.until_moves(0)
    player.send({"type": "resign"})
    while player.recv().get("result") is None:
        pass
    player.close()
    first = a.post(f"/api/games/{game_id}/rematch", {"token": tokens[0]})
    assert first.status_code == 201
    rematch_id = first.json()["id"]

    async def let_go() -> None:
        a.state.hub.games.pop(rematch_id).stop()

    a.run(let_go)  # A lets the rematch go and B holds it, as after takeovers that split the two games
    with a.state.hub.store.engine.begin() as c:
        c.execute(sa.text("UPDATE games SET owner = :b WHERE id = :r"), {"b": b.id, "r": rematch_id})
    assert b.run(lambda: b.state.hub.get(rematch_id)).id == rematch_id
    assert b.owns(rematch_id) and not a.owns(rematch_id)
    with a.state.hub.store.engine.connect() as c:  # the finished game stays A's
        assert c.execute(sa.text("SELECT owner FROM games WHERE id = :g"), {"g": game_id}).scalar() == a.id
    second = a.post(f"/api/games/{game_id}/rematch", {"token": tokens[1], "name": "Two"})
    assert second.status_code == 201, second.text
    assert second.json()["id"] == rematch_id and second.json()["seat"] == 0
    seat = a.socket(rematch_id, {"type": "hello", "seat": 0, "token": second.json()["token"]})
    assert seat.until_moves(0)["seats"][0]["name"] == "Two"
    seat.close()


def test_an_operation_on_a_set_aside_game_answers_its_summary_through_either_process(
        pair: tuple[Served, Served], pg_url: str) -> None:
    a, b = pair
    created = create(a)
    engine = sa.create_engine(normalise_url(pg_url))
    with engine.begin() as c:  # a move that does not replay
        c.execute(sa.text("INSERT INTO moves (game_id, ply, player, text, time) VALUES (:g, 0, '0', 'z9z9', 0)"),
                  {"g": created["id"]})
    engine.dispose()

    async def unload() -> None:
        live = a.state.hub.games.pop(created["id"])
        live.stop()

    a.run(unload)  # A loads the game again at the next request, and sets it aside
    summary = same(a, b, "GET", f"/api/games/{created['id']}").json()
    assert summary["status"] == "unavailable" and "cannot be replayed" in summary["reason"]
    assert same(a, b, "POST", f"/api/games/{created['id']}/join", {}).status_code == 409


# -- failures ---------------------------------------------------------------------------------------


def test_an_operation_the_owner_got_but_did_not_answer_in_time_is_not_sent_again(
        pair: tuple[Served, Served], monkeypatch: pytest.MonkeyPatch) -> None:
    # A join that reached its owner may have run there: sent again, it could take a second seat.
    a, b = pair
    game_id = create(a, public=True)["id"]
    runs: list[str] = []
    release = threading.Event()
    join = ops.OPS["join"]

    async def held_join(hub: Any, live: Any, args: dict[str, Any]) -> Any:
        runs.append(live.id)
        await asyncio.to_thread(release.wait, 60)  # answers only once B has given up
        return await join(hub, live, args)

    monkeypatch.setattr(ops, "CALL_TIMEOUT", 0.5)
    monkeypatch.setitem(ops.OPS, "join", held_join)
    try:
        reply = b.post(f"/api/games/{game_id}/join", {"name": "Jo"})
        assert reply.status_code == 503 and reply.headers["retry-after"] == "5", reply.text
        assert "try again" in reply.json()["error"]
        assert runs == [game_id]  # the owner got the call once
    finally:
        release.set()
    wait_for(lambda: a.get(f"/api/games/{game_id}").json()["seats"][1]["claimed"])  # it ran there, late
    assert runs == [game_id]



def test_a_message_reaching_no_owner_and_an_owner_gone_close_the_relayed_socket_1012(
        own_pair: tuple[Served, Served]) -> None:
    a, b = own_pair
    game_id, tokens = seated(a, b)
    talking, idle = b.socket(game_id, hello(tokens, None)), b.socket(game_id, hello(tokens, 0))
    talking.until_moves(0)
    idle.until_moves(0)
    a.run(a.state.bus.close)  # A hears and says nothing more, though its lease runs
    talking.send({"type": "ping"})
    code, seen = close_code(talking)
    assert code == 1012 and all(m["type"] != "pong" for m in seen)

    a.run(a.state.hub.cluster.close)  # A leaves the cluster as if it had died: only B's watchdog can tell
    assert close_code(idle)[0] == 1012
    reconnected = b.socket(game_id, hello(tokens, 0))  # the client reconnects: B takes the game over
    assert reconnected.until_moves(0)["seat"] == 0 and b.owns(game_id)
    reconnected.close()


def test_an_owner_shutting_down_sends_its_relayed_clients_elsewhere_and_the_game_goes_on(
        own_pair: tuple[Served, Served]) -> None:
    a, b = own_pair
    game_id, tokens = seated(a, b)
    players = {0: b.socket(game_id, hello(tokens, 0)), 1: b.socket(game_id, hello(tokens, 1))}
    before = play_alternately(players, 4)
    a.stop()
    for player in players.values():
        assert close_code(player)[0] == 1012
    players = {seat: b.socket(game_id, hello(tokens, seat)) for seat in (0, 1)}
    again = players[0].until_moves(4)
    assert again["moves"] == before["moves"] and b.owns(game_id)
    assert play_alternately(players, 2)["ply"] == 6
    for player in players.values():
        player.close()


def test_the_owner_ends_the_sessions_of_an_edge_that_is_gone(own_pair: tuple[Served, Served]) -> None:
    a, b = own_pair
    game_id, tokens = seated(a, b)
    player = b.socket(game_id, hello(tokens, 0))
    player.until_moves(0)
    assert len(a.state.relay.remotes) == 1
    b.run(b.state.bus.close)  # B can no longer say that its client left ...
    b.run(b.state.hub.cluster.close)  # ... and has left the cluster
    wait_for(lambda: not a.state.relay.remotes)  # A's watchdog ended the session
    summary = a.get(f"/api/games/{game_id}").json()
    assert summary["seats"][0]["connected"] is False
    player.close()


def test_frames_for_unknown_or_foreign_sessions_are_dropped(pair: tuple[Served, Served], redis: RedisServer) -> None:
    a, b = pair
    game_id, tokens = seated(a, b)
    before = relayed(b)
    watcher = b.socket(game_id, hello(tokens, None))
    watcher.until_moves(0)
    (sid,) = relayed(b) - before
    raw = redis_py.Redis.from_url(redis.url)
    listener = raw.pubsub(ignore_subscribe_messages=True)
    listener.subscribe("qipan:proc:intruder", f"qipan:proc:{a.id}")
    try:
        spoof = json.dumps({"type": "error", "error": "spoofed"})
        raw.publish(f"qipan:proc:{b.id}", json.dumps({"t": "out", "s": [sid], "d": spoof, "from": "intruder"}))
        raw.publish(f"qipan:proc:{b.id}", json.dumps({"t": "out", "s": ["nosuchsession"], "d": spoof,
                                                      "from": a.id}))
        raw.publish(f"qipan:proc:{b.id}", json.dumps({"t": "close", "s": sid, "code": 4403, "from": "intruder"}))
        raw.publish(f"qipan:proc:{b.id}", b"not json")
        raw.publish(f"qipan:proc:{b.id}", json.dumps({"t": "teleport", "from": a.id}))
        raw.publish(f"qipan:proc:{a.id}", json.dumps({"t": "in", "s": "deadbeefdeadbeef", "from": "intruder",
                                                      "d": json.dumps({"type": "resign"})}))
        raw.publish(f"qipan:proc:{a.id}", json.dumps({"t": "open", "s": "feedfeedfeedfeed", "edge": b.id,
                                                      "game": game_id, "client": "10.0.0.1", "from": "intruder"}))
        answers: list[Message] = []
        expected = [{"t": "close", "s": "deadbeefdeadbeef", "code": 1012, "from": a.id},  # to the intruder
                    {"t": "end", "s": "nosuchsession", "from": b.id}]  # to A, named as the sender
        deadline = time.monotonic() + 20
        while not all(frame in answers for frame in expected):
            assert time.monotonic() < deadline, answers
            message = listener.get_message(timeout=1.0)
            if message is not None:
                answers.append(json.loads(message["data"]))
        watcher.send({"type": "ping"})
        assert watcher.recv() == {"type": "pong"}  # nothing spoofed reached it, and it is open
        assert "feedfeedfeedfeed" not in a.state.relay.remotes
        assert a.get(f"/api/games/{game_id}").json()["status"] == "playing"  # the stray resign did nothing
    finally:
        listener.close()
        raw.close()
        watcher.close()


class QuietBus:
    """Stands in for the bus: handlers are registered on it; what is posted is kept."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Message], None]] = {}
        self.on_down: list[Callable[[], None]] = []
        self.on_up: list[Callable[[], None]] = []
        self.posted: list[tuple[str, Message]] = []

    def post(self, process: str, frame: Message) -> None:
        self.posted.append((process, frame))


def test_a_session_opened_while_the_watchdog_asks_who_is_alive_is_not_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    # The watchdog asked the database about the processes of the sessions it had, and ended every
    # session whose process was not in the answer: one opened to another process while the
    # database answered was closed with 1012 though its owner was alive (a healthy seat of
    # test_scale_out, once, under load).
    async def scenario() -> None:
        monkeypatch.setattr(relay_module, "WATCH", 0.001)
        asked: asyncio.Queue[set[str]] = asyncio.Queue()
        answer = asyncio.Event()

        async def alive(ids: set[str]) -> set[str]:  # a database that takes its time; only "gone" is dead
            asked.put_nowait(set(ids))
            await answer.wait()
            answer.clear()
            return set(ids) - {"gone"}

        relay = Relay(QuietBus(), alive, state=None)  # type: ignore[arg-type]  # (a stand-in bus)
        old, dead = (relay.piped.setdefault(sid, Piped(sid, owner, Client(None, print, print)))
                     for sid, owner in (("old", "owner-1"), ("dead", "gone")))
        relay.start()
        try:
            assert await asked.get() == {"owner-1", "gone"}
            # Meanwhile a session to another live owner opens here, and one from another live edge.
            new = relay.piped["new"] = Piped("new", "owner-2", Client(None, print, print))
            remote = relay.remotes["remote"] = RemoteSocket(relay, "remote", "edge-2", "g", "c", {"type": "hello"})
            answer.set()
            assert await asked.get() >= {"owner-2", "edge-2"}  # the next look asks about them too
            assert dead.code == 1012  # (still listed: its pipe() removes it)
            assert old.code is None and new.code is None and not remote.ended
        finally:
            assert relay._watch is not None
            relay._watch.cancel()

    asyncio.run(scenario())


@pytest.mark.parametrize("key", [["x"], {"x": 1}, 7, None])
def test_frames_whose_session_or_call_is_not_a_string_are_dropped(key: object) -> None:
    # A dict lookup with a list or a dict raised TypeError inside the handlers (logged as a failure).
    bus = QuietBus()
    Relay(bus, alive=None, state=None)  # type: ignore[arg-type]  # (neither is reached)
    ops.Ops(hub=None, bus=bus)  # type: ignore[arg-type]  # (nor is the hub)
    for kind in ("close", "in", "end", "reply"):  # ("out" names a list of sessions)
        field = "id" if kind == "reply" else "s"
        assert bus.handlers[kind]({"t": kind, field: key, "d": "{}", "code": 4403, "from": "p"}) is None
    assert bus.posted == []


def test_messages_through_a_relay_count_once_against_the_rate(pg_url: str, redis: RedisServer) -> None:
    # Both processes spend from the same buckets (Redis's; this one only if Redis cannot answer):
    # a message counted by the edge and again by the owner would show.
    shared = MemoryRateLimiter()
    limits = Limits(create_rate=None, join_rate=None, message_rate=Rate(5, 3600))
    url = database(pg_url)
    a, b = (serve(url, redis.url, limits, shared) for _ in range(2))
    try:
        game_id, tokens = seated(a, b)
        watcher = b.socket(game_id, hello(tokens, None))  # the hello is the first of 5
        watcher.until_moves(0)
        replies = []
        for _ in range(5):
            watcher.send({"type": "ping"})
            replies.append(watcher.recv())
        assert replies[:4] == [{"type": "pong"}] * 4 and "too many messages" in replies[4]["error"]
        watcher.close()
    finally:
        b.stop()
        a.stop()


def test_losing_redis_ends_relayed_sessions_refuses_new_ones_and_local_games_go_on(
        pg_url: str, tmp_path: Path) -> None:
    with processes_on_own_redis(pg_url, tmp_path) as (server, a, b):
        relayed_game, relayed_tokens = seated(a, b)
        local_game, local_tokens = seated(a, a)
        watcher = b.socket(relayed_game, hello(relayed_tokens, None))
        watcher.until_moves(0)
        players = {seat: a.socket(local_game, hello(local_tokens, seat)) for seat in (0, 1)}
        server.kill()
        assert close_code(watcher)[0] == 1012
        refused = b.socket(relayed_game, hello(relayed_tokens, None))
        code, seen = close_code(refused)
        assert code == 1013 and "try again" in seen[-1]["error"]
        unreachable = b.get(f"/api/games/{relayed_game}")
        assert unreachable.status_code == 503 and unreachable.headers["retry-after"] == "5"
        assert play_alternately(players, 2)["ply"] == 2  # A's own game: no Redis needed
        server.start()
        wait_for(lambda: a.state.bus.up and b.state.bus.up)
        watcher = b.socket(relayed_game, hello(relayed_tokens, None))
        assert watcher.until_moves(0)["seat"] is None and not b.owns(relayed_game)
        assert b.get(f"/api/games/{relayed_game}").status_code == 200
        watcher.close()
        for player in players.values():
            player.close()


def test_a_process_cut_off_from_redis_takes_no_orphaned_games_and_keeps_its_own(pg_url: str, tmp_path: Path) -> None:
    # Taken by a process the others cannot relay to, an orphaned game would be playable only
    # through that one process.
    with processes_on_own_redis(pg_url, tmp_path) as (server, a, b):
        orphan, _ = seated(a, b)
        own, own_tokens = seated(b, b)
        players = {seat: b.socket(own, hello(own_tokens, seat)) for seat in (0, 1)}
        server.kill()
        wait_for(lambda: not b.state.bus.up)
        a.run(a.state.hub.cluster.close)  # A goes away: its game has no owner
        b.run(b.state.hub.cluster.sweep)  # (as its sweeper does every second)
        with b.state.hub.store.engine.connect() as c:
            owner = c.execute(sa.text("SELECT owner FROM games WHERE id = :g"), {"g": orphan}).scalar()
        assert owner != b.id and not b.owns(orphan)
        assert b.owns(own) and play_alternately(players, 2)["ply"] == 2  # its own game plays on
        server.start()
        wait_for(lambda: b.owns(orphan), "B to take the orphaned game over once Redis is back")
        for player in players.values():
            player.close()


def test_cluster_mode_needs_postgresql(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"--redis needs a PostgreSQL --db \(several processes share it\)"):
        create_app(str(tmp_path / "q.db"), redis_url="redis://127.0.0.1:1/0")
    assert not (tmp_path / "q.db").exists()
    with pytest.raises(ValueError) as caught:
        create_app("postgresql://qipan@127.0.0.1:1/qipan", redis_url="http://:s3cret@127.0.0.1/0")
    assert str(caught.value).startswith("--redis http://***@127.0.0.1/0 is not a Redis URL; use redis://")


def test_a_hint_goes_to_the_owner_and_a_review_reads_the_database_on_either_process(
        pair: tuple[Served, Served]) -> None:
    """A hint asked through B is taken (and counted) on A, which plays the game; a finished
    game's review is answered by either process from the database, without taking it over."""
    a, b = pair
    created = create(a, seats=[{"kind": "human"}, {"kind": "ai", "level": "easy"}], hints=True)
    game_id, token = created["id"], created["token"]
    base = f"/api/games/{game_id}"
    hint = b.post(f"{base}/hint", {"token": token})
    assert hint.status_code == 200, hint.text
    assert hint.json()["ply"] == 0 and hint.json()["analysis"]["player"] == 0 and not b.owns(game_id)
    assert same(a, b, "POST", f"{base}/hint", {"token": "forged"}).status_code == 403
    assert same(a, b, "POST", f"{base}/review/0", {}).status_code == 409  # still played
    assert same(a, b, "GET", base).json()["hints_used"] == 1
    player = a.socket(game_id, {"type": "hello", "seat": 0, "token": token})
    player.until_moves(0)
    player.send({"type": "move", "move": "a1b2"})
    player.until_moves(2)  # the AI answered
    player.send({"type": "resign"})
    while player.recv().get("result") is None:
        pass
    player.close()
    reviews = [served.post(f"{base}/review/0", {"time": 0.1}) for served in (a, b)]
    assert [r.status_code for r in reviews] == [200, 200], reviews[1].text
    assert [(r.json()["ply"], r.json()["player"], r.json()["move"]) for r in reviews] == [(0, 0, "a1b2")] * 2
    assert not b.owns(game_id)
    assert same(a, b, "GET", f"{base}/record").json()["hints"] is True
