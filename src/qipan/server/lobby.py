"""The lobby: which public games are open or in play, and the live lists at ``/ws/lobby``.

Only public games are listed (an invite-only game is listed nowhere; its link still lets anyone
watch). A game is **open** while it is unfinished, has a human seat nobody has taken (nor kept
for its player in a rematch), and is younger than the unstarted-game expiry. It is **in play**
while it is unfinished, every seat is taken, and a player is connected or someone moved within
:data:`IN_PLAY_IDLE` seconds: an abandoned game, or one nobody ever moved in, is not.

Every unfinished game is held in memory by the hub, so both lists are read from there. With
several server processes (cluster mode) each publishes its own lists and the lobby merges them
with the other processes' (:class:`qipan.server.shared.SharedLobby`), and a client's open games
are counted over every process.
``/ws/lobby`` needs no hello (nothing on it is secret): it sends
``{"type": "lobby", "open": [...], "playing": [...]}`` at once, then again whenever a list changed,
at most once every :data:`LOBBY_INTERVAL` seconds, each list at most :data:`LOBBY_LIST` games.

A listed game's inline option values (a Sheng-Ke deck, up to 4 KiB each) are named, not sent
(:func:`listed`): the game's own summary, ``GET /api/games/{id}``, holds them whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket

from qipan.core import GameError, jsonsafe
from qipan.core.options import is_inline
from qipan.server.auth import claimed
from qipan.server.connections import Client, dumps
from qipan.server.limits import RateLimited, SharedCount
from qipan.server.socket import error, parse, receive

if TYPE_CHECKING:
    from qipan.server.hub import Hub
    from qipan.server.live import LiveGame
    from qipan.server.shared import SharedLobby

IN_PLAY_IDLE = 600.0
"""Seconds since the last move after which a game nobody is connected to is no longer listed as in play."""
LOBBY_LIST = 50
"""Most games in each list ``/ws/lobby`` sends."""
LOBBY_INTERVAL = 1.0
"""Least seconds between two lobby messages."""
LOBBY_RECHECK = 5.0
"""Seconds after which the lists are looked at again even if no game changed (games age out of them)."""
OPEN_PER_CLIENT = 3
"""Open public games one client (address) may have at once: the lobby shows the newest
:data:`LOBBY_LIST`, and the creation rate alone (30 a minute) let one client fill the list with
games nobody would ever play, hiding everyone else's. Invite-only games do not count. Part of
the creation limit: off with it (``--create-limit off``)."""


def last_move_time(live: LiveGame) -> float | None:
    """When a player (not chance) last moved; None before the first move."""
    for move in reversed(live.match.moves):
        if isinstance(move.player, int):
            return move.time
    return None


def is_open(live: LiveGame, now: float, unstarted: float) -> bool:
    """Whether anyone may join ``live`` from the lobby."""
    return (live.row.public and not live.match.over and any(not claimed(info) for info in live.row.seats)
            and (not unstarted or now < live.row.created + unstarted))


def seated(info: dict[str, Any]) -> bool:
    """Whether a player sits in this seat (an AI, or a person with a token)."""
    return info["kind"] == "ai" or info.get("token") is not None


def in_play(live: LiveGame, now: float) -> bool:
    """Whether ``live`` is really being played: public, unfinished, every seat taken, and a
    player connected or a move within :data:`IN_PLAY_IDLE` seconds."""
    if not live.row.public or live.match.over or not all(seated(info) for info in live.row.seats):
        return False
    if any(client.seat is not None for client in live.clients):
        return True
    moved = last_move_time(live)
    return moved is not None and now - moved < IN_PLAY_IDLE


def open_games(hub: Hub, limit: int, now: float | None = None) -> list[dict[str, Any]]:
    """Summaries of the open public games, newest first."""
    now = time.time() if now is None else now
    return _newest(hub, lambda live: is_open(live, now, hub.expiry.unstarted), limit)


def playing_games(hub: Hub, limit: int, now: float | None = None) -> list[dict[str, Any]]:
    """Summaries of the public games in play, newest first."""
    now = time.time() if now is None else now
    return _newest(hub, lambda live: in_play(live, now), limit)


def _newest(hub: Hub, keep: Any, limit: int) -> list[dict[str, Any]]:
    found = [live for live in list(hub.games.values()) if keep(live)]
    found.sort(key=lambda live: (-live.row.created, live.id))
    return [listed(live.summary()) for live in found[:limit]]


def listed(summary: dict[str, Any]) -> dict[str, Any]:
    """A game's summary as lists show it: each inline option value (a Sheng-Ke deck) replaced by
    :func:`inline_summary`, so a list of 50 games is not 50 pairs of decks.

    >>> listed({"id": "g", "options": {"deck_0": '{"name": "mine", "cards": []}', "deck_1": "default"}})
    {'id': 'g', 'options': {'deck_0': {'name': 'mine', 'sha256': '1cc80429eb72c83d'}, 'deck_1': 'default'}}
    """
    options = summary.get("options")
    if not isinstance(options, dict) or not any(is_inline(value) for value in options.values()):
        return summary
    short = {key: inline_summary(value) if is_inline(value) else value for key, value in options.items()}
    return {**summary, "options": short}


def inline_summary(text: str) -> dict[str, str | None]:
    """An inline option value named: its ``name`` (None without one) and the first 16 hex digits
    of the SHA-256 of its text, the same for the same deck. Read it whole from the game's summary."""
    name, digest = _named(text)
    return {"name": name, "sha256": digest}


@functools.lru_cache(maxsize=512)  # the lists are built again every second while anyone listens
def _named(text: str) -> tuple[str | None, str]:
    try:
        data = jsonsafe.loads(text)
    except GameError:
        data = None
    name = data.get("name") if isinstance(data, dict) else None
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return name if isinstance(name, str) else None, digest


def too_many_open(count: int, wait: float) -> RateLimited:
    return RateLimited(f"you have {count} open public games already; wait until someone joins one, "
                       "or invite your opponent with a link instead", max(wait, 1.0))


class Lobby:
    """The ``/ws/lobby`` connections and the task that sends them the lists when they change."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.clients: set[Client] = set()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sent: str | None = None
        self.owners: dict[str, str] = {}
        """Open public games (id) and the client that created each (in memory: after a restart
        nobody's games count)."""
        self._pending: dict[str, int] = {}  # client -> public games it is creating right now
        self.shared: SharedLobby | None = None
        """The other processes' lists (cluster mode)."""
        self.shared_open: SharedCount | None = None
        """Open public games per client over every process (cluster mode)."""
        hub.watchers.append(self._changed.set)

    def share(self, lists: SharedLobby, counts: SharedCount) -> None:
        """Show the lists of every process, and count open games over all of them (cluster mode)."""
        self.shared, self.shared_open = lists, counts
        lists.listeners.append(self._changed.set)
        self.hub.watchers.append(lists.changed)

    def _open_owned(self, now: float) -> dict[str, str]:
        """The games in :attr:`owners` still open (the others are forgotten)."""
        unstarted = self.hub.expiry.unstarted
        self.owners = {game_id: owner for game_id, owner in self.owners.items()
                       if (live := self.hub.games.get(game_id)) is not None and is_open(live, now, unstarted)}
        return self.owners

    def open_counts(self) -> dict[str, int]:
        """The open public games each client has here, those being created included."""
        counts = dict(self._pending)
        for owner in self._open_owned(time.time()).values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts

    def admit(self, client: str, now: float | None = None) -> None:
        """Let ``client`` open another public game, or raise RateLimited (429) when it already has
        :data:`OPEN_PER_CLIENT` open ones here (the wait: until the first of them ages out)."""
        now = time.time() if now is None else now
        unstarted = self.hub.expiry.unstarted
        mine = [self.hub.games[game_id].row.created for game_id, owner in self._open_owned(now).items()
                if owner == client]
        if len(mine) + self._pending.get(client, 0) >= OPEN_PER_CLIENT:
            raise too_many_open(len(mine), min(mine) + unstarted - now if unstarted and mine else 60.0)

    @contextlib.asynccontextmanager
    async def opening(self, client: str) -> AsyncIterator[Callable[[str], None]]:
        """While ``client`` creates a public game (:meth:`admit` first, then over every process):
        counts as one of its open games, so creations running at once cannot pass the cap
        together. Call what it yields with the new game's id."""
        self.admit(client)
        self._pending[client] = self._pending.get(client, 0) + 1
        try:
            if self.shared_open is not None and await self.shared_open.admit(client, OPEN_PER_CLIENT) is False:
                # some are open on other processes: how long until one ages out is not known here
                raise too_many_open(OPEN_PER_CLIENT, 60.0)
            yield lambda game_id: self.owners.__setitem__(game_id, client)
        finally:
            self._pending[client] -= 1
            if not self._pending[client]:
                del self._pending[client]
            if self.shared_open is not None:
                self.shared_open.changed()

    def local_lists(self) -> dict[str, list[dict[str, Any]]]:
        """This process's lists."""
        return {"open": open_games(self.hub, LOBBY_LIST), "playing": playing_games(self.hub, LOBBY_LIST)}

    async def games(self, status: str, limit: int = LOBBY_LIST) -> list[dict[str, Any]]:
        """The newest ``limit`` public games ``"open"`` or ``"playing"``: this process's, and in
        cluster mode the other processes' lists too (each has published its newest
        :data:`LOBBY_LIST`)."""
        found = (open_games if status == "open" else playing_games)(self.hub, limit)
        if self.shared is None:
            return found
        seen = {summary["id"] for summary in found}
        for summary in await self.shared.others(status):
            # a game held here is shown as it is here (another process may still list it for a
            # few seconds after it moved)
            if summary["id"] not in seen and summary["id"] not in self.hub.games:
                seen.add(summary["id"])
                found.append(summary)
        found.sort(key=lambda summary: (-summary["created"], summary["id"]))
        return found[:limit]

    async def message(self) -> str:
        return dumps({"type": "lobby", "open": await self.games("open"), "playing": await self.games("playing")})

    async def join(self, client: Client) -> None:
        self.clients.add(client)
        client.start()
        message = await self.message()
        client.push(message)
        if self._task is None or self._task.done():
            self._sent = message
            self._task = self.hub.spawn(self._run())

    async def leave(self, client: Client) -> None:
        self.clients.discard(client)
        await client.stop()

    async def _run(self) -> None:
        """While anyone listens: after a change (or :data:`LOBBY_RECHECK` seconds), send the lists
        if they differ from the last ones sent, then rest :data:`LOBBY_INTERVAL` seconds."""
        while self.clients:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=LOBBY_RECHECK)
            self._changed.clear()
            message = await self.message()
            if message != self._sent:
                self._sent = message
                for client in list(self.clients):
                    client.push(message)
            await asyncio.sleep(LOBBY_INTERVAL)


router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    lobby: Lobby = websocket.app.state.lobby

    async def close(code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code)

    client = Client(None, websocket.send_text, close)
    await lobby.join(client)
    try:
        while (data := await receive(websocket)) is not None:
            too_many = await websocket.app.state.guard.refusal("message", websocket.scope)
            client.push(dumps(error(str(too_many)) if too_many else answer(data)))
    finally:
        await lobby.leave(client)


def answer(data: str | bytes) -> dict[str, Any]:
    """The reply to a message on ``/ws/lobby``: ``pong`` to a ping, else an error."""
    try:
        message = parse(data)
    except GameError as exc:
        return error(str(exc))
    if message.get("type") == "ping":
        return {"type": "pong"}
    return error('the lobby connection only answers {"type": "ping"}; the lists come by themselves')
