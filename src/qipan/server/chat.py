"""Table talk: a chat per game, one channel for the players and one for the spectators.

A seat writes to ``"players"``, a spectator to ``"spectators"``. Who reads what:

- ``players``: every seat; spectators too where the rules make table talk public (Tellstones'
  round-table variant: teammates must talk openly, "正大光明地公開談論", heard by everyone).
- ``spectators``: the spectators; the seats too once the game is over (no kibitzing during play).

A text is stripped, 1..:data:`MAX_TEXT` characters, one line, without invisible or control
characters (:func:`qipan.server.names.check_text`); refusals never repeat it. Each connection,
and each client address over all its connections, may send :data:`BURST` and :data:`SUSTAINED`.
Messages are stored (table ``chat``), so reloads and restarts keep them; a game keeps its last
:data:`KEEP` and a connection is sent the last :data:`HISTORY` of each channel it may read.

>>> import qipan
>>> public_table_talk(qipan.load("tellstones", variant="round-table")), public_table_talk(qipan.load("abalone"))
(True, False)
>>> readers("spectators", over=False), readers("spectators", over=True)
(('spectators',), ('seats', 'spectators'))
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qipan.core import GameError
from qipan.core.game import Game
from qipan.server.connections import dumps
from qipan.server.errors import Fenced
from qipan.server.limits import Rate, RateLimiter, TokenBucket, retry_after
from qipan.server.names import SPECTATOR, check_text
from qipan.server.store import BadRow, StorageUnavailable

if TYPE_CHECKING:
    from qipan.server.live import LiveGame

log = logging.getLogger("qipan.server")

MAX_TEXT = 300
"""Longest chat message (characters, after stripping)."""
BURST = Rate(5, 10.0)
"""Chat messages a connection (and a client address) may send: 5 per 10 s ..."""
SUSTAINED = Rate(30, 60.0)
"""... and 30 a minute."""
KEEP = 500
"""Messages a game keeps (older ones are dropped)."""
HISTORY = 100
"""Messages per channel a connection is sent when it joins."""

PLAYERS, SPECTATORS = "players", "spectators"



def public_table_talk(game: Game[Any, Any]) -> bool:
    """Whether the rules make the players' talk public (everyone at the table hears it)."""
    return game.name == "tellstones" and game.variant == "round-table"


def readers(channel: str, over: bool, public_talk: bool = False) -> tuple[str, ...]:
    """Who reads ``channel`` ("seats", "spectators") in a game that is ``over`` or not."""
    if channel == PLAYERS:
        return ("seats", "spectators") if public_talk else ("seats",)
    return ("seats", "spectators") if over else ("spectators",)


@dataclass(eq=False)
class Speaker:
    """One connection as the chat sees it: its seat (None: spectator), the name a spectator
    gave, its client address, where the per-address buckets live, and its own buckets."""

    seat: int | None
    name: str | None
    address: str
    limiter: RateLimiter | None = None
    clock: Callable[[], float] = time.monotonic
    buckets: tuple[TokenBucket, TokenBucket] = field(init=False)

    def __post_init__(self) -> None:
        self.buckets = (TokenBucket(BURST, self.clock()), TokenBucket(SUSTAINED, self.clock()))

    async def wait(self) -> float:
        """Seconds before this connection may speak again (0.0: now, and it is counted)."""
        now = self.clock()
        for bucket in self.buckets:
            if wait := bucket.take(now):
                return wait
        for name, rate in (("chat-burst", BURST), ("chat-minute", SUSTAINED)):
            if self.limiter is not None and (wait := await self.limiter.take(name, self.address, rate)):
                return wait
        return 0.0


class ChatRoom:
    """A game's chat: its messages (loaded from the database when first needed) and who hears them."""

    def __init__(self, live: LiveGame):
        self.live = live
        self.messages: list[dict[str, Any]] | None = None
        self.revealed = False
        """Whether the seats have been sent the spectators' channel (once the game is over)."""
        self._lock = asyncio.Lock()

    @property
    def public_talk(self) -> bool:
        return public_table_talk(self.live.game)

    def _may_read(self, seat: int | None, message: dict[str, Any]) -> bool:
        who = "spectators" if seat is None else "seats"
        return who in readers(message["channel"], self.live.match.over, self.public_talk)

    async def load(self) -> bool:
        """Read the stored messages once; False if the database cannot be read now (the chat is
        then unavailable, and the next connection tries again)."""
        if self.messages is not None:
            return True
        async with self._lock:
            if self.messages is None:
                store = self.live.hub.store
                try:
                    self.messages = await asyncio.to_thread(store.chat, self.live.id, KEEP)
                except (StorageUnavailable, BadRow) as exc:
                    log.error("could not read the chat of game %s: %s", self.live.id, exc)
                    return False
        return True

    def history(self, seat: int | None) -> dict[str, Any]:
        """The ``chats`` message for a connection at ``seat``: the last :data:`HISTORY` messages
        of each channel it may read, oldest first."""
        shown: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        for message in reversed(self.messages or []):
            if self._may_read(seat, message) and counts.get(message["channel"], 0) < HISTORY:
                counts[message["channel"]] = counts.get(message["channel"], 0) + 1
                shown.append(message)
        return {"type": "chats", "messages": [_wire(m) for m in reversed(shown)]}

    async def say(self, speaker: Speaker, text: object) -> None:
        """Check, store and send a message (GameError, nothing stored, when it is refused)."""
        if not isinstance(text, str):
            raise GameError(f'a chat message needs "text": a string of 1..{MAX_TEXT} characters')
        text = check_text(text, "a chat message", MAX_TEXT)
        if wait := await speaker.wait():
            raise GameError(f"too many chat messages; wait {retry_after(wait)} s")
        if not await self.load():
            raise GameError("the chat is unavailable right now; try again later")
        live = self.live
        seat = speaker.seat
        channel = SPECTATORS if seat is None else PLAYERS
        name = (speaker.name or SPECTATOR) if seat is None else live.seat_name(seat)
        async with self._lock:
            assert self.messages is not None
            n = self.messages[-1]["n"] + 1 if self.messages else 1
            message = {"n": n, "channel": channel, "seat": seat, "name": name, "text": text, "at": time.time()}
            try:
                await live.hub.write(live.id, lambda c: live.hub.store.add_chat(live.id, message, KEEP, conn=c))
            except Fenced:
                raise
            except Exception:
                raise GameError("the server could not save that message; please try again") from None
            self.messages.append(message)
            del self.messages[:-KEEP]
            wire = dumps(_wire(message))
            for client in list(live.clients):
                if self._may_read(client.seat, message):
                    client.push(wire)

    def after_change(self) -> None:
        """Once the game is over, send every seat the spectators' channel it may now read."""
        if self.revealed or not self.live.match.over or self.messages is None:
            return
        self.revealed = True
        if any(m["channel"] == SPECTATORS for m in self.messages):
            for client in list(self.live.clients):
                if client.seat is not None:
                    client.push(dumps(self.history(client.seat)))


def _wire(message: dict[str, Any]) -> dict[str, Any]:
    """A stored message as clients get it."""
    return {"type": "chat", **{k: message[k] for k in ("channel", "seat", "name", "text", "at", "n")}}
