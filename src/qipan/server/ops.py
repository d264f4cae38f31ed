"""The HTTP operations on one game, run where the game is played.

Each operation is ``async (hub, live, args) -> JSON`` (:data:`OPS`). :class:`Ops` runs one on
the game here, or, in cluster mode when another process owns it (:class:`Elsewhere`), at that
process over the bus (:mod:`qipan.server.bus`)::

    {"t": "call", "id": rid, "op": name, "game": G, "args": {...}}
    {"t": "reply", "id": rid, "ok": answer}
    {"t": "reply", "id": rid, "error": {"kind": "Conflict", "message": ...}}

An error travels as its kind (with a SetAside's summary, a RateLimited's wait) and is raised
again as the same exception class, so a request gets the same answer whichever process it
reached. A call that certainly did not run (nobody received it, or the owner answered that the
game is no longer there) is tried once more after locating the game again; one that reached the
owner but got no answer (none within :data:`CALL_TIMEOUT` seconds, or Redis lost meanwhile) may
have run, and is never sent again: a join or a claim must not happen twice. Either way, when it
does not get through: :class:`Unreachable` (503, try again). Rate limits are the receiving
process's business (its routes take them): an operation never takes one again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from qipan.core import GameError, Record
from qipan.core.record_text import record_text
from qipan.server.errors import AuthError, Busy, Conflict, Elsewhere, Fenced, NotFound, SetAside
from qipan.server.limits import RateLimited
from qipan.server.live import LiveGame
from qipan.server.names import check_name
from qipan.server.seats import invite_url, play_url, seat_url
from qipan.server.store import StorageUnavailable

if TYPE_CHECKING:
    from qipan.server.bus import Bus
    from qipan.server.hub import Hub

log = logging.getLogger("qipan.server")

CALL_TIMEOUT = 10.0
"""Seconds to wait for the owner's answer to an operation (then: 503, try again)."""

Operation = Callable[["Hub", LiveGame, dict[str, Any]], Awaitable[Any]]
OPS: dict[str, Operation] = {}
"""Every operation, by name."""


class Unreachable(Busy):
    """The process that plays the game cannot be reached now (HTTP 503, Retry-After: a few seconds)."""

    retry_after = 5

    def __init__(self) -> None:
        super().__init__("the server process playing this game cannot be reached right now; try again in a "
                         "few seconds")


class Moved(Exception):
    """A call that certainly did not run (nobody received it, or the game moved on): worth one
    more try after locating the game again."""


class Redirect(Exception):
    """An operation that goes on as operation ``name`` on another game, wherever that one is
    played (a rematch whose game another process took over)."""

    def __init__(self, name: str, game_id: str, args: dict[str, Any]):
        super().__init__(name)
        self.name, self.game_id, self.arguments = name, game_id, args


def operation(name: str) -> Callable[[Operation], Operation]:
    def register(function: Operation) -> Operation:
        OPS[name] = function
        return function
    return register


# -- the operations --------------------------------------------------------------------------------

@operation("summary")
async def summary(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    return live.summary()


@operation("record")
async def record(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = finished_record(live).to_json()
    data["id"] = live.id
    return data


@operation("record_text")
async def text(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    return {"game": live.game.name, "text": record_text(finished_record(live))}


@operation("frame")
async def frame(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    return live.frame(args["ply"])


@operation("rematch")
async def rematch(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    name = check_name(args["name"])
    try:
        new, seat, token = await hub.rematch(live, args["token"], name)
    except Elsewhere:  # the rematch exists, and another process plays it (after a takeover): the seat there
        assert live.row.rematch is not None
        seat = (live.seat_for_token(args["token"]) + 1) % len(live.row.seats)
        raise Redirect("rematch_seat", live.row.rematch, {"seat": seat, "old_token": args["token"],
                                                          "name": name}) from None
    return created_reply(new, seat, token, {})


@operation("rematch_seat")
async def rematch_seat(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    """A seat of this rematch for the holder of the matching seat's token in the finished game."""
    seat = args["seat"]
    return created_reply(live, seat, await live.take_rematch_seat(seat, args["old_token"], args["name"]), {})


@operation("claim")
async def claim(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    seat, token = await live.claim(args["invite"], args["name"], args.get("options"))
    return {"id": live.id, "seat": seat, "token": token, "url": seat_url(live.id, seat, token)}


@operation("join")
async def join(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    seat, token = await live.take_seat(args["name"], args["seat"], args.get("options"))
    return {"id": live.id, "seat": seat, "token": token, "url": seat_url(live.id, seat, token)}


@operation("invites")
async def invites(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    codes = await live.reissue_invites(args["token"])
    names = live.match.players
    return {"invites": [{"seat": seat, "name": names[seat], "invite": code, "url": invite_url(live.id, code)}
                        for seat, code in codes.items()]}


@operation("hint")
async def hint(hub: Hub, live: LiveGame, args: dict[str, Any]) -> dict[str, Any]:
    """The position a hint is for (counted): the asking seat's own view of its decision. The
    engine then runs where the request came in (:mod:`qipan.server.analysis`)."""
    return await live.hint(args["token"])


def created_reply(live: LiveGame, seat: int | None, token: str | None, invites: dict[int, str]) -> dict[str, Any]:
    """The answer to whoever created a game (or its rematch): their own seat's token and link,
    and an invitation code per other human seat. Never another seat's token."""
    seats = []
    for info in live.seat_summaries():
        entry: dict[str, Any] = {k: info[k] for k in ("seat", "side", "name", "kind", "level", "claimed")}
        code = invites.get(info["seat"])
        if code is not None:
            entry["invite"], entry["url"] = code, invite_url(live.id, code)
        seats.append(entry)
    return {"id": live.id, "game": live.game.name, "seat": seat, "token": token,
            "url": None if seat is None or token is None else seat_url(live.id, seat, token),
            "seats": seats, "spectator_url": play_url(live.id)}


def finished_record(live: LiveGame) -> Record:
    """The game's record with its players' names, once it is over (Conflict before: the record
    holds the secret and every hidden outcome)."""
    if not live.match.over:
        raise Conflict("the record is available once the game is over (it would reveal hidden information)")
    data = live.match.record()
    data.players = [live.seat_name(seat) for seat in range(len(live.row.seats))]
    data.hints = live.row.hints
    return data


# -- running them ----------------------------------------------------------------------------------

class Ops:
    """Runs operations on games (``app.state.ops``): here, or at the game's owner (``bus``: cluster
    mode)."""

    def __init__(self, hub: Hub, bus: Bus | None = None):
        self.hub = hub
        self.bus = bus
        self._calls: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}  # rid -> (owner, answer)
        self._answering: set[asyncio.Task[None]] = set()
        if bus is not None:
            bus.handlers.update(call=self._call, reply=self._reply)
            bus.on_down.append(self._lost)

    async def run(self, name: str, game_id: str, args: dict[str, Any] | None = None) -> Any:
        """Operation ``name`` on game ``game_id`` with ``args``, wherever the game is played."""
        args = args or {}
        for attempt in (1, 2):
            try:
                try:
                    return await self.here(name, game_id, args)
                except Elsewhere as exc:
                    return await self._there(exc.owner, name, game_id, args)
            except Redirect as then:
                return await self.run(then.name, then.game_id, then.arguments)
            except (Moved, Fenced):
                if attempt == 2:
                    raise Unreachable() from None
        raise AssertionError("unreachable")

    async def here(self, name: str, game_id: str, args: dict[str, Any]) -> Any:
        """Run it on the game in this process (Elsewhere if another process owns it)."""
        live = await self.hub.get(game_id)
        try:
            return await OPS[name](self.hub, live, args)
        except Elsewhere:  # (a game the operation reached for, not this one: it was not redirected)
            raise Moved() from None
        finally:
            self.hub.release(live)

    async def _there(self, owner: str, name: str, game_id: str, args: dict[str, Any]) -> Any:
        """Run it at ``owner``: Moved if the call certainly did not run there, Unreachable if it
        may have run but no answer came."""
        from qipan.server.bus import BusDown, MaybeSent

        assert self.bus is not None, "only a process in a cluster hears of games owned elsewhere"
        rid = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = (owner, answer)
        try:
            try:
                received = await self.bus.publish(owner, {"t": "call", "id": rid, "op": name, "game": game_id,
                                                           "args": args})
            except MaybeSent:
                raise Unreachable() from None
            except BusDown:
                raise Moved() from None
            if not received:
                raise Moved()
            try:
                reply = await asyncio.wait_for(answer, CALL_TIMEOUT)
            except TimeoutError:  # it reached the owner, which may have run it: never sent twice
                raise Unreachable() from None
        finally:
            self._calls.pop(rid, None)
            if answer.done() and not answer.cancelled():
                answer.exception()  # (one failed by _lost while the call was still being sent: seen)
        if "error" in reply:
            raise rebuild(reply["error"])
        return reply.get("ok")

    # -- the owner's side --------------------------------------------------------------------------

    def _call(self, frame: dict[str, Any]) -> None:
        rid, name, game_id, args = (frame.get(k) for k in ("id", "op", "game", "args"))
        if not (isinstance(rid, str) and len(rid) <= 64 and isinstance(game_id, str) and len(game_id) <= 100
                and isinstance(args, dict) and name in OPS):
            return
        assert isinstance(name, str)
        task = asyncio.create_task(self._answer(frame["from"], rid, name, game_id, args))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, caller: str, rid: str, name: str, game_id: str, args: dict[str, Any]) -> None:
        assert self.bus is not None
        try:
            reply: dict[str, Any] = {"t": "reply", "id": rid, "ok": await self.here(name, game_id, args)}
        except Exception as exc:
            reply = {"t": "reply", "id": rid, "error": describe(exc, name)}
        self.bus.post(caller, reply)

    def _reply(self, frame: dict[str, Any]) -> None:
        rid = frame.get("id")
        call = self._calls.get(rid) if isinstance(rid, str) else None
        if call is not None and call[0] == frame["from"] and not call[1].done():
            call[1].set_result(frame)

    def _lost(self) -> None:
        """Redis is lost: no answer will come to the calls under way (which may have run)."""
        for _, answer in self._calls.values():
            if not answer.done():
                answer.set_exception(Unreachable())


KINDS: tuple[type[GameError], ...] = (AuthError, NotFound, Busy, Conflict, GameError)
"""The error classes that travel as their name and message (most specific first)."""


def describe(exc: Exception, name: str = "?") -> dict[str, Any]:
    """An operation's error as it travels back to the caller."""
    if isinstance(exc, SetAside):
        return {"kind": "SetAside", "summary": exc.summary}
    if isinstance(exc, Redirect):
        return {"kind": "Redirect", "op": exc.name, "game": exc.game_id, "args": exc.arguments}
    if isinstance(exc, Elsewhere | Fenced):
        return {"kind": "Moved"}
    if isinstance(exc, StorageUnavailable):
        return {"kind": "StorageUnavailable", "message": exc.public}
    if isinstance(exc, RateLimited):
        return {"kind": "RateLimited", "message": str(exc), "wait": exc.wait}
    for kind in KINDS:
        if isinstance(exc, kind):
            return {"kind": kind.__name__, "message": str(exc)}
    log.error("operation %s failed for another server process", name, exc_info=exc)
    return {"kind": "Internal"}


def rebuild(error: object) -> Exception:
    """The exception an error from :func:`describe` stands for."""
    info = error if isinstance(error, dict) else {}
    kind, message = info.get("kind"), str(info.get("message") or "")
    if kind == "SetAside" and isinstance(info.get("summary"), dict):
        return SetAside(info["summary"])
    if kind == "Moved":
        return Moved()
    if kind == "Redirect" and info.get("op") in OPS and isinstance(info.get("game"), str) \
            and isinstance(info.get("args"), dict):
        return Redirect(info["op"], info["game"], info["args"])
    if kind == "StorageUnavailable":
        unavailable = StorageUnavailable(message)
        unavailable.public = message or StorageUnavailable.public
        return unavailable
    if kind == "RateLimited":
        wait = info.get("wait")
        return RateLimited(message, float(wait) if isinstance(wait, int | float) else 1.0)
    for cls in KINDS:
        if kind == cls.__name__:
            return cls(message)
    return RuntimeError("the server process playing this game could not answer")
