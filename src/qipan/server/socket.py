"""The WebSocket endpoint: one connection per seat or spectator, and the messages it accepts.

A connection says who it is in its first message, never in its URL (URLs reach access logs)::

    {"type": "hello", "seat": 0, "token": "..."}     a seat
    {"type": "hello"}                                a spectator

Nothing about the game is sent before a valid hello. A connection without one after
:data:`HELLO_TIMEOUT` seconds gets an error and close code 4408; a wrong seat or token an error
and 4403; an unknown game 4404; a game set aside as unavailable 4409; a database that cannot be
read right now 1013. After the hello every message is answered (see :func:`handle`) and the
connection stays open whatever it sends.

The session (:func:`play`) runs over a :class:`Conn`. In cluster mode, a connection to a game
another server process owns is relayed to that process, which runs the session
(:mod:`qipan.server.relay`); it is closed with 1012 when that process goes away or the game
moves (the client reconnects), and refused with 1013 while the processes cannot reach each other.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any, Protocol

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from qipan.core import GameError, jsonsafe
from qipan.core.errors import brief
from qipan.server.chat import Speaker
from qipan.server.connections import Client, dumps
from qipan.server.errors import AuthError, Elsewhere, NotFound, SetAside
from qipan.server.hub import Hub
from qipan.server.limits import RateLimited, client_key
from qipan.server.live import LiveGame
from qipan.server.names import check_name
from qipan.server.store import StorageUnavailable

MAX_MESSAGE = 8192
"""Longest client WebSocket message (characters, or bytes of a binary frame) the server reads;
moves are far shorter."""
MAX_MOVE = 200
"""Longest move notation read (real ones are a few dozen characters at most; random play saw 14)."""
HELLO_TIMEOUT = 5.0
"""Seconds a new connection has to send its hello before it is closed (code 4408)."""

HELLO = '{"type": "hello", "seat": 0, "token": "..."} (spectators: {"type": "hello"})'
EXAMPLE = '{"type": "move", "move": "a1b2"}'

router = APIRouter()


class Conn(Protocol):
    """One connection as a session sees it: a WebSocket to this process (:class:`LocalSocket`),
    or one another process accepted and relays here (:class:`qipan.server.relay.RemoteSocket`)."""

    scope: Mapping[str, Any]
    """At least ``"client"``: the client's address, for limits."""
    state: Any
    """The app's state: ``hub``, ``guard``."""

    async def receive(self) -> str | bytes | None:
        """The next message (a binary frame's bytes); None once the client has gone."""
        ...

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int) -> None:
        """Close with ``code`` (never raises)."""
        ...

    async def refusal(self, name: str) -> RateLimited | None:
        """Take one of the client's ``name`` events (``"message"``): None to go ahead, else the
        refusal. A relayed connection always goes ahead: the process that accepted it counted."""
        ...


class LocalSocket:
    """A WebSocket this process accepted, as a :class:`Conn`."""

    def __init__(self, websocket: WebSocket):
        self.websocket = websocket
        self.scope: Mapping[str, Any] = websocket.scope
        self.state: Any = websocket.app.state

    async def receive(self) -> str | bytes | None:
        return await receive(self.websocket)

    async def send_text(self, text: str) -> None:
        await self.websocket.send_text(text)

    async def close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code)

    async def refusal(self, name: str) -> RateLimited | None:
        refused: RateLimited | None = await self.state.guard.refusal(name, self.scope)
        return refused


@router.websocket("/ws/games/{game_id}")
async def play_socket(websocket: WebSocket, game_id: str) -> None:
    await websocket.accept()
    conn = LocalSocket(websocket)
    hello = await receive_hello(conn)
    if hello is None:
        return
    try:
        await play(conn, game_id, hello)
    except Elsewhere as exc:  # cluster mode: another process plays the game; relay to it
        await websocket.app.state.relay.pipe(conn, game_id, hello, exc.owner)


async def play(conn: Conn, game_id: str, hello: dict[str, Any]) -> None:
    """The session of a connection that said ``hello``: check its seat, join the game, answer its
    messages until it leaves. Elsewhere when another process owns the game."""
    hub: Hub = conn.state.hub
    try:
        seat = seat_of(hello)
        live = await hub.get(game_id)
        live.check_seat(seat, hello.get("token"))
    except NotFound as exc:
        await refuse(conn, str(exc), 4404)
        return
    except SetAside as exc:
        await refuse(conn, str(exc), 4409)
        return
    except StorageUnavailable as exc:
        await refuse(conn, exc.public, 1013)  # try again later
        return
    except AuthError as exc:
        await refuse(conn, str(exc), 4403)
        return

    client = Client(seat, conn.send_text, conn.close)
    if seat is not None:
        live.ai_owner = client_key(conn.scope)  # the AI's time is shared fairly between clients
    name, problem = await take_name(live, seat, hello)
    await live.chat.load()
    async with live.lock:  # the first update shows only committed moves
        live.join(client)
    if (history := live.chat.history(seat))["messages"]:  # none: nothing to send
        client.push(dumps(history))
    if problem:
        client.push(dumps(error(problem)))
    speaker = Speaker(seat, name, client_key(conn.scope), conn.state.guard.limiter)
    try:
        while (data := await conn.receive()) is not None:
            too_many = await conn.refusal("message")  # the connection stays
            reply = error(str(too_many)) if too_many else await handle(live, seat, data, speaker)
            if reply is not None:
                client.push(dumps(reply))
    finally:
        await live.leave(client)


async def receive(websocket: WebSocket) -> str | bytes | None:
    """The next message's text (or a binary frame's bytes); None once the client has gone."""
    try:
        message = await websocket.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    data: str | bytes | None = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    return data


async def receive_hello(conn: Conn) -> dict[str, Any] | None:
    """Read messages until a hello (each other message gets an error); None when the client
    left, or sent no hello in time (then it is told so and closed)."""
    try:
        async with asyncio.timeout(HELLO_TIMEOUT):
            while (data := await conn.receive()) is not None:
                if too_many := await conn.refusal("message"):
                    await conn.send_text(dumps(error(str(too_many))))
                    continue
                try:
                    message = parse(data)
                except GameError as exc:
                    problem = str(exc)
                else:
                    if message.get("type") == "hello":
                        return message
                    problem = "the first message must say hello"
                await conn.send_text(dumps(error(f"{problem}; start with {HELLO}")))
            return None
    except TimeoutError:
        await refuse(conn, f"no hello within {HELLO_TIMEOUT:g} seconds; start with {HELLO}", 4408)
        return None


async def take_name(live: LiveGame, seat: int | None, hello: dict[str, Any]) -> tuple[str | None, str | None]:
    """The nickname a hello gives (a seat's is saved as its name) and, if it is refused, why."""
    try:
        name = check_name(hello.get("name"))
        if name is not None and seat is not None:
            await live.rename(seat, name)
    except GameError as exc:
        return None, f"{exc}; you keep your name"
    except StorageUnavailable as exc:
        return None, exc.public
    return name, None


def seat_of(hello: dict[str, Any]) -> int | None:
    seat = hello.get("seat")
    if seat is None or (isinstance(seat, int) and not isinstance(seat, bool)):
        return seat
    raise AuthError(f"seat must be a seat number (or left out to watch), not {brief(seat, 40)}")


async def refuse(conn: Conn, message: str, code: int) -> None:
    """Send an error and close the connection with ``code``."""
    with contextlib.suppress(Exception):
        await conn.send_text(dumps(error(message)))
    await conn.close(code)


def too_long(data: str | bytes) -> str | None:
    """Why a message is too long to read, or None."""
    if len(data) > MAX_MESSAGE:
        return f"message too long ({len(data)} characters; at most {MAX_MESSAGE})"
    return None


def parse(data: str | bytes) -> dict[str, Any]:
    """The message as a JSON object; GameError saying why it is not one."""
    if problem := too_long(data):
        raise GameError(problem)
    try:
        message = jsonsafe.loads(data)
    except GameError as exc:
        raise GameError(f"messages must be JSON objects like {EXAMPLE}: {exc}") from None
    if not isinstance(message, dict):
        raise GameError(f"messages must be JSON objects like {EXAMPLE}")
    return message


async def handle(live: LiveGame, seat: int | None, data: str | bytes, speaker: Speaker | None = None
                 ) -> dict[str, Any] | None:
    """Answer one client message after its hello: None when the update broadcast (or the chat
    message sent to everyone who reads it) is the answer, else a reply (an error changes nothing)."""
    try:
        message = parse(data)
    except GameError as exc:
        return error(str(exc))
    kind = message.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind == "sync":
        async with live.lock:
            return live.update(seat)
    if kind in ("move", "resign"):
        move = message.get("move") if kind == "move" else None
        if kind == "move" and (not isinstance(move, str) or not move.strip()):
            return error(f'a move message needs "move": the move in notation, e.g. {EXAMPLE}')
        if isinstance(move, str) and len(move) > MAX_MOVE:
            return error(f"a move is at most {MAX_MOVE} characters of notation, not {len(move)}")
        try:
            await live.act(seat, kind, move.strip() if isinstance(move, str) else None)
        except GameError as exc:
            return error(str(exc))
        return None
    if kind in ("offer", "accept", "decline", "withdraw", "abort"):
        try:
            if kind == "abort":
                await live.abort(seat)
            elif kind == "offer":
                await live.offer(seat, message.get("offer"))
            else:
                await live.respond(seat, kind, message.get("offer"))
        except GameError as exc:
            return error(str(exc))
        return None
    if kind == "chat":
        try:
            await live.chat.say(speaker or Speaker(seat, None, "?"), message.get("text"))
        except GameError as exc:
            return error(str(exc))
        return None
    if kind == "hello":
        return error("this connection has said hello already; open a new one to change seats")
    return error(f"unknown message type {brief(kind, 40)}; use move, resign, offer, accept, decline, withdraw, abort, "
                 "chat, ping or sync")


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "error": message}
