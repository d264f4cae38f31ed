"""The WebSocket endpoint: one connection per seat or spectator, and the messages it accepts."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from qipan.core import GameError
from qipan.server.connections import Client
from qipan.server.errors import AuthError, NotFound
from qipan.server.hub import Hub
from qipan.server.live import LiveGame

MAX_MESSAGE = 8192
"""Longest client WebSocket message (characters) the server reads; moves are far shorter."""

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def play_socket(websocket: WebSocket, game_id: str) -> None:
    await websocket.accept()
    hub: Hub = websocket.app.state.hub

    async def refuse(message: str, code: int) -> None:
        await websocket.send_text(json.dumps({"type": "error", "error": message}))
        await websocket.close(code)

    try:
        live = await hub.get(game_id)
    except NotFound as exc:
        await refuse(str(exc), 4404)
        return
    raw_seat = websocket.query_params.get("seat")
    seat: int | None = None
    if raw_seat not in (None, "", "null"):
        try:
            seat = int(raw_seat)  # type: ignore[arg-type]
        except ValueError:
            await refuse(f"seat must be a seat number, not {raw_seat!r}", 4403)
            return
    try:
        live.check_seat(seat, websocket.query_params.get("token"))
    except AuthError as exc:
        await refuse(str(exc), 4403)
        return

    async def close(code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code)

    client = Client(seat, websocket.send_text, close)
    live.join(client)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", errors="replace")
            reply = await handle(live, seat, text)
            if reply is not None:
                client.push(json.dumps(reply, ensure_ascii=False))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await live.leave(client)


async def handle(live: LiveGame, seat: int | None, text: str) -> dict[str, Any] | None:
    """Answer one client message: None when the update broadcast is the answer, else a reply."""
    if len(text) > MAX_MESSAGE:
        return error(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        return error('messages must be JSON objects like {"type": "move", "move": "a1b2"}')
    if not isinstance(message, dict):
        return error('messages must be JSON objects like {"type": "move", "move": "a1b2"}')
    kind = message.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind == "move":
        move = message.get("move")
        if not isinstance(move, str) or not move.strip():
            return error('a move message needs "move": the move in notation, e.g. {"type": "move", "move": "a1b2"}')
        try:
            await live.act(seat, "move", move.strip())
        except GameError as exc:
            return error(str(exc))
        return None
    if kind == "resign":
        try:
            await live.act(seat, "resign")
        except GameError as exc:
            return error(str(exc))
        return None
    if kind == "sync":
        return live.update(seat)
    return error(f"unknown message type {kind!r}; use move, resign, ping or sync")


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "error": message}
