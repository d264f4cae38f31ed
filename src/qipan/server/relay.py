"""WebSockets relayed between server processes (cluster mode): the whole session runs at the
game's owner, and the process that accepted the WebSocket (the *edge*) is a pipe.

Frames over the bus (:mod:`qipan.server.bus`; each also says ``from``, its sender)::

    edge -> owner   {"t": "open", "s": sid, "edge": id, "game": G, "client": key, "hello": {...}}
                    {"t": "in", "s": sid, "d": text}      a client message (binary: "b", base64)
                    {"t": "end", "s": sid}                the client has gone
    owner -> edge   {"t": "out", "s": [sid, ...], "d": text}
                    {"t": "close", "s": sid, "code": code}

The edge reads the hello (as parsed: written out again, a hello may not read the same) and the
owner runs the session of :mod:`qipan.server.socket` on a :class:`RemoteSocket`. What it
sends to one edge process in one turn of the event loop goes out together, one ``out`` per text:
an update for spectators is published once per process, not once per spectator. The edge delivers
an ``out`` only to the sessions it lists, so a seat's view reaches only that seat's connections.
Both sides queue boundedly (:class:`qipan.server.connections.Client`), and the edge counts the
client's messages against its rate limits (the owner does not count them again).

Failures: a publish that reaches nobody, an owner no longer alive (checked every
:data:`WATCH` seconds), or a ``close`` end the edge's WebSocket with 1012 (the client reconnects,
to any process, and resyncs); an edge no longer alive ends its sessions at the owner. When Redis
is lost every relayed session ends (1012 at the edge), and until it is back a WebSocket for a game
owned elsewhere is refused with 1013; once it is back, the other end of each session that ended
is told (its process may have kept Redis all along). A frame for a session a process does not know is dropped,
and the sender told (``end`` or ``close``) where that ends something.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from qipan.server.bus import Bus, BusDown
from qipan.server.connections import MAX_SEND_QUEUE, Client, dumps
from qipan.server.errors import Elsewhere
from qipan.server.limits import client_key
from qipan.server.socket import Conn, error, play, refuse, too_long

log = logging.getLogger("qipan.server")

WATCH = 1.0
"""Seconds between two checks that the other end of every relayed session is still alive."""
MAX_INBOX = MAX_SEND_QUEUE
"""Client messages a relayed session may have waiting at the owner (beyond: closed, 1013)."""
DRAIN = 2.0
"""Seconds an edge waits for a closing session's last messages to reach its client."""
UNREACHABLE = "the servers cannot reach each other right now; try again in a moment"

Alive = Callable[[set[str]], Awaitable[set[str]]]
"""Which of these process ids hold a lease now (:meth:`qipan.server.cluster.Cluster.alive`)."""


class RemoteSocket:
    """The owner's end of a relayed session, as a :class:`qipan.server.socket.Conn`: fed by the
    edge's frames, sending through the relay's batches."""

    def __init__(self, relay: Relay, sid: str, edge: str, game: str, client: str, hello: dict[str, Any]):
        self.relay = relay
        self.sid = sid
        self.edge = edge
        self.game = game
        self.hello = hello
        self.scope: Mapping[str, Any] = {"type": "websocket", "client": (client, 0)}
        self.state: Any = relay.state
        self.inbox: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        self.ended = False
        self.task: asyncio.Task[None] | None = None

    async def receive(self) -> str | bytes | None:
        if self.ended:
            return None
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        if self.ended or not await self.relay.outbox.send(self.edge, self.sid, text):
            self.end()
            raise ConnectionError("the relayed connection has ended")

    async def close(self, code: int) -> None:
        if not self.ended:
            self.relay.outbox.close(self.edge, self.sid, code)
            self.end()

    async def refusal(self, name: str) -> None:
        return None  # the edge counted the message

    def feed(self, data: str | bytes) -> None:
        """A client message from the edge."""
        if self.ended:
            return
        if self.inbox.qsize() >= MAX_INBOX:  # far behind: like a full send queue
            self.relay.outbox.close(self.edge, self.sid, 1013)
            self.end()
            return
        self.inbox.put_nowait(data)

    def end(self) -> None:
        """The session is over: its next receive answers None (the client has gone)."""
        if not self.ended:
            self.ended = True
            self.inbox.put_nowait(None)


class Outbox:
    """What the owner sends to edge processes, published once per event-loop turn: per edge,
    one ``out`` per distinct text listing every session it goes to, then the ``close`` frames."""

    def __init__(self, bus: Bus):
        self.bus = bus
        self._texts: dict[str, dict[str, list[str]]] = {}  # edge -> text -> sids
        self._closes: dict[str, list[tuple[str, int]]] = {}  # edge -> (sid, code)
        self._sent: dict[str, asyncio.Future[bool]] = {}  # edge -> whether this turn's frames arrived
        self._scheduled = False
        self._settling: set[asyncio.Task[None]] = set()

    async def send(self, edge: str, sid: str, text: str) -> bool:
        """Queue ``text`` for session ``sid``; whether it reached the edge process."""
        self._texts.setdefault(edge, {}).setdefault(text, []).append(sid)
        future = self._sent.get(edge)
        if future is None:
            future = self._sent[edge] = asyncio.get_running_loop().create_future()
        self._schedule()
        return await asyncio.shield(future)

    def close(self, edge: str, sid: str, code: int) -> None:
        self._closes.setdefault(edge, []).append((sid, code))
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        texts, closes, sent = self._texts, self._closes, self._sent
        self._texts, self._closes, self._sent = {}, {}, {}
        for edge in texts.keys() | closes.keys():
            published: list[asyncio.Future[int]] = [
                self.bus.publish(edge, {"t": "out", "s": sids, "d": text}) for text, sids in texts.get(edge, {}).items()
            ]
            for sid, code in closes.get(edge, []):
                self.bus.post(edge, {"t": "close", "s": sid, "code": code})
            future = sent.get(edge)
            if future is not None:
                task = asyncio.create_task(_settle(published, future))
                self._settling.add(task)
                task.add_done_callback(self._settling.discard)


async def _settle(published: list[asyncio.Future[int]], future: asyncio.Future[bool]) -> None:
    """Resolve ``future``: whether every one of these publishes reached a subscriber."""
    counts = await asyncio.gather(*published, return_exceptions=True)
    if not future.done():
        future.set_result(all(isinstance(count, int) and count > 0 for count in counts))


class Piped:
    """The edge's end of a relayed session: the client's WebSocket, the owner, and why it ended."""

    def __init__(self, sid: str, owner: str, client: Client):
        self.sid = sid
        self.owner = owner
        self.client = client
        self.code: int | None = None
        """The close code once the session has ended from the owner's side (or its loss)."""
        self.ended = asyncio.Event()

    def finish(self, code: int) -> None:
        if self.code is None:
            self.code = code
            self.ended.set()


class Relay:
    """Both ends of every relayed session of this process (``app.state.relay``)."""

    def __init__(self, bus: Bus, alive: Alive, state: Any):
        self.bus = bus
        self.alive = alive
        self.state = state
        self.outbox = Outbox(bus)
        self.piped: dict[str, Piped] = {}
        """Sessions this process accepted for games owned elsewhere, by sid."""
        self.remotes: dict[str, RemoteSocket] = {}
        """Sessions other processes relay to games this process owns, by sid."""
        bus.handlers.update(open=self._open, **{"in": self._in}, end=self._end, out=self._out, close=self._close)
        bus.on_down.append(self._lost)
        bus.on_up.append(self._back)
        self._unsaid: list[tuple[str, dict[str, Any]]] = []  # (process, frame) the bus was down to send
        self._unsaid_by: str | None = None  # the bus's id then
        self._watch: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._watch = asyncio.create_task(self._watchdog())

    async def close(self) -> None:
        """Shutting down: every client of a relayed session reconnects (to another process)."""
        if self._watch is not None:
            self._watch.cancel()
        for remote in list(self.remotes.values()):
            await remote.close(1012)
        for session in list(self.piped.values()):
            session.finish(1012)
        tasks = [remote.task for remote in self.remotes.values() if remote.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0)  # the close frames' turn to be published

    # -- the edge ----------------------------------------------------------------------------------

    async def pipe(self, conn: Conn, game_id: str, hello: dict[str, Any], owner: str) -> None:
        """Relay the WebSocket ``conn`` (its ``hello`` read) to ``owner``, the process that plays
        ``game_id``, until either side ends it."""
        if not self.bus.up:
            await refuse(conn, UNREACHABLE, 1013)
            return
        sid = secrets.token_hex(8)
        client = Client(None, conn.send_text, conn.close)
        session = self.piped[sid] = Piped(sid, owner, client)
        client.start()
        reader = asyncio.create_task(self._forward(session, conn, game_id, hello))
        ended = asyncio.create_task(session.ended.wait())
        try:
            await asyncio.wait({reader, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.piped.pop(sid, None)
            for task in (reader, ended):
                task.cancel()
            await asyncio.gather(reader, ended, return_exceptions=True)
            self.bus.post(owner, {"t": "end", "s": sid})  # (the client has gone, or the owner may not know)
            if session.code is not None:
                await drain(client)
                await conn.close(session.code)
            await client.stop()

    async def _forward(self, session: Piped, conn: Conn, game_id: str, hello: dict[str, Any]) -> None:
        """Send the owner the session's opening with its hello, then every client message (counted
        against the client's rate here; one that is refused or too long is answered here)."""
        opening = {"t": "open", "s": session.sid, "edge": self.bus.id, "game": game_id,
                   "client": client_key(conn.scope), "hello": hello}
        if not await self._to_owner(session, opening):
            return
        while (data := await conn.receive()) is not None:
            refused = await conn.refusal("message")
            if problem := str(refused) if refused else too_long(data):
                session.client.push(dumps(error(problem)))
                continue
            frame = {"t": "in", "s": session.sid}
            if isinstance(data, str):
                frame["d"] = data
            else:
                frame["b"] = base64.b64encode(data).decode()
            if not await self._to_owner(session, frame):
                return

    async def _to_owner(self, session: Piped, frame: dict[str, Any]) -> bool:
        """Publish to the session's owner; False (and the session ends, 1012) if nobody got it."""
        try:
            received = await self.bus.publish(session.owner, frame)
        except BusDown:
            received = 0
        if not received:
            session.finish(1012)
        return bool(received)

    def _out(self, frame: dict[str, Any]) -> None:
        text, sids = frame.get("d"), frame.get("s")
        if not isinstance(text, str) or not isinstance(sids, list):
            return
        for sid in sids:
            session = self.piped.get(sid) if isinstance(sid, str) else None
            if session is not None and session.owner == frame["from"]:
                session.client.push(text)
            elif isinstance(sid, str):
                self.bus.post(frame["from"], {"t": "end", "s": sid})

    def _close(self, frame: dict[str, Any]) -> None:
        sid, code = frame.get("s"), frame.get("code")
        session = self.piped.get(sid) if isinstance(sid, str) else None
        if session is not None and session.owner == frame["from"]:
            session.finish(code if isinstance(code, int) and 1000 <= code <= 4999 else 1012)

    # -- the owner ---------------------------------------------------------------------------------

    def _open(self, frame: dict[str, Any]) -> None:
        sid, edge, game, client, hello = (frame.get(k) for k in ("s", "edge", "game", "client", "hello"))
        if not all(isinstance(v, str) and 0 < len(v) <= 100 for v in (sid, edge, game, client)) \
                or not isinstance(hello, dict) or hello.get("type") != "hello" \
                or edge != frame["from"] or sid in self.remotes:
            return
        assert isinstance(sid, str) and isinstance(edge, str) and isinstance(game, str) and isinstance(client, str)
        remote = self.remotes[sid] = RemoteSocket(self, sid, edge, game, client, hello)
        remote.task = asyncio.create_task(self._serve(remote))

    async def _serve(self, remote: RemoteSocket) -> None:
        """Run a relayed session here, as if its WebSocket were local."""
        try:
            await play(remote, remote.game, remote.hello)
        except Elsewhere:  # the game moved on meanwhile: the client reconnects, and finds it
            await remote.close(1012)
        except ConnectionError:  # the session ended while a message was on its way
            pass
        except Exception as exc:
            log.error("a relayed session failed (%s)", type(exc).__name__)
            await remote.close(1011)
        finally:
            remote.end()
            if self.remotes.get(remote.sid) is remote:
                del self.remotes[remote.sid]

    def _in(self, frame: dict[str, Any]) -> None:
        sid = frame.get("s")
        remote = self.remotes.get(sid) if isinstance(sid, str) else None
        if remote is None or remote.edge != frame["from"]:
            if isinstance(sid, str):
                self.bus.post(frame["from"], {"t": "close", "s": sid, "code": 1012})
            return
        data: str | bytes | None = frame.get("d")
        if not isinstance(data, str):
            try:
                data = base64.b64decode(frame.get("b") or "", validate=True)
            except (binascii.Error, TypeError, ValueError):
                return
        remote.feed(data)

    def _end(self, frame: dict[str, Any]) -> None:
        sid = frame.get("s")
        remote = self.remotes.get(sid) if isinstance(sid, str) else None
        if remote is not None and remote.edge == frame["from"]:
            remote.end()

    # -- failures ----------------------------------------------------------------------------------

    def _lost(self) -> None:
        """Redis is lost: frames may have been lost with it, so every relayed session ends. The
        other ends are told once the bus is back: their processes may not have lost Redis."""
        self._unsaid_by = self.bus.id
        for session in list(self.piped.values()):
            session.finish(1012)
            self._unsaid.append((session.owner, {"t": "end", "s": session.sid}))
        for remote in list(self.remotes.values()):
            remote.end()
            self._unsaid.append((remote.edge, {"t": "close", "s": remote.sid, "code": 1012}))

    def _back(self) -> None:
        """The bus is up again: end the other side of the sessions that ended while it was down
        (under a new id nobody would believe it: their watchdogs end those)."""
        unsaid, self._unsaid = self._unsaid, []
        if self.bus.id == self._unsaid_by:
            for process, frame in unsaid:
                self.bus.post(process, frame)

    async def _watchdog(self) -> None:
        """End the sessions whose other end's process is no longer alive."""
        failing = False
        while True:
            await asyncio.sleep(WATCH)
            processes = {s.owner for s in self.piped.values()} | {r.edge for r in self.remotes.values()}
            if not processes:
                continue
            try:
                dead = processes - await self.alive(processes)
            except Exception as exc:  # the database: check again next time (logged once an outage)
                if not failing:
                    log.warning("cannot check which server processes are alive (%s); relayed sessions stay "
                                "until it can", type(exc).__name__)
                failing = True
                continue
            failing = False
            # Only the processes asked about are judged: a session that opened while the database
            # answered, to a process it was not asked about, waits for the next look.
            for session in list(self.piped.values()):
                if session.owner in dead:
                    session.finish(1012)
            for remote in list(self.remotes.values()):
                if remote.edge in dead:
                    remote.end()


async def drain(client: Client, timeout: float = DRAIN) -> None:
    """Let a client's queued messages go out (for at most ``timeout`` seconds)."""
    with contextlib.suppress(asyncio.QueueFull):
        client.queue.put_nowait(None)
    if client.task is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(client.task), timeout)
