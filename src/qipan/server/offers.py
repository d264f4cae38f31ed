"""Offers, takebacks and aborts in a live game: what a player may offer the other, the answers,
and taking moves back durably.

:class:`Offers` is a part of :class:`qipan.server.live.LiveGame`, which holds the state it reads
and the lock, commits and broadcasts it uses.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from qipan.core import GameError, Match
from qipan.core.errors import brief
from qipan.core.game import Game
from qipan.server.clocks import stored_clock
from qipan.server.errors import Fenced
from qipan.server.store import GameRow

if TYPE_CHECKING:
    from qipan.server.connections import Client
    from qipan.server.hub import Hub


OFFERS = ("takeback", "draw")
"""What a player may offer the other (two-player games; see :meth:`Offers.offer`)."""


def check_offer(offer: object) -> str:
    if offer not in OFFERS:
        raise GameError(f'"offer" must be "takeback" or "draw", not {brief(offer, 40)}')
    assert isinstance(offer, str)
    return offer


class Offers:
    """A live game's offers (takebacks, draws) and aborts."""

    hub: Hub
    row: GameRow
    match: Match
    game: Game[Any, Any]
    lock: asyncio.Lock
    changed: asyncio.Event
    offers: dict[str, int]
    _declined: dict[tuple[int, str], int]
    epoch: int

    if TYPE_CHECKING:  # LiveGame's
        @property
        def id(self) -> str: ...
        def seat_name(self, seat: int) -> str: ...
        def broadcast(self, since: int | None = None, skip: Client | None = None) -> None: ...
        def after_change(self) -> None: ...
        def _snapshot(self) -> tuple[int, tuple[Any, ...]]: ...
        async def _commit(self, before: tuple[int, tuple[Any, ...]]) -> None: ...
        def _forget(self, moves: int) -> None: ...
        def _restart_agents(self) -> None: ...

    def abortable(self) -> bool:
        """Whether a player may still abort: some player has not made their first move."""
        return not self.match.over and len(self.match.moved()) < self.game.num_players

    def why_not_offer(self, seat: int, offer: str) -> str | None:
        """Why ``seat`` may not make ``offer`` now (None: it may)."""
        match = self.match
        if match.over:
            return "the game is over"
        if offer == "takeback":
            try:
                match.takeback_ply(seat)
            except GameError as exc:
                return str(exc)
        elif not match.draw_allowed():
            return "draw offers are for two-player games whose rules can end drawn"
        by = self.offers.get(offer)
        if by == seat:
            return f"your {offer} offer is waiting for an answer"
        if by is not None:
            return f"your opponent offered a {offer}: accept or decline it"
        declined = self._declined.get((seat, offer))
        if declined is not None and not any(m.player == seat for m in match.moves[declined:]):
            return f"your {offer} offer was declined; you may offer again after your next move"
        return None

    def can(self, seat: int | None) -> dict[str, bool]:
        """What ``seat`` may do now besides moving (spectators: nothing)."""
        if seat is None:
            return {"takeback": False, "draw": False, "abort": False}
        return {"takeback": self.why_not_offer(seat, "takeback") is None,
                "draw": self.why_not_offer(seat, "draw") is None, "abort": self.abortable()}

    async def offer(self, seat: int | None, offer: object) -> None:
        """``seat`` offers a takeback (of their last move and everything after it) or a draw. An
        AI opponent accepts a takeback at once and declines a draw. GameError saying why not."""
        kind = check_offer(offer)
        if seat is None:
            raise GameError("spectators cannot make offers")
        async with self.lock:
            problem = self.why_not_offer(seat, kind)
            if problem is not None:
                raise GameError(problem)
            if self.row.seats[1 - seat]["kind"] == "ai":  # offers exist in two-player games only
                if kind == "takeback":
                    await self._take_back(seat)
                else:
                    self._declined[(seat, kind)] = len(self.match.moves)
                    self.broadcast()
                return
            self.offers[kind] = seat
            self.broadcast()

    async def respond(self, seat: int | None, verb: str, offer: object) -> None:
        """``seat`` accepts, declines (the offerer may not repeat it before moving again) or
        withdraws (their own) pending ``offer``."""
        kind = check_offer(offer)
        if seat is None:
            raise GameError("spectators cannot answer offers")
        async with self.lock:
            by = self.offers.get(kind)
            if by is None:
                raise GameError(f"there is no {kind} offer to {verb}")
            if verb == "withdraw":
                if by != seat:
                    raise GameError("only the player who made an offer can withdraw it")
                del self.offers[kind]
                self.broadcast()
                return
            if by == seat:
                raise GameError(f"you cannot {verb} your own offer; withdraw it instead")
            if verb == "decline":
                del self.offers[kind]
                self._declined[(by, kind)] = len(self.match.moves)
                self.broadcast()
            elif kind == "takeback":
                await self._take_back(by)
            else:
                before = self._snapshot()
                self.match.stop("agreement", "draw by agreement")
                await self._commit(before)

    async def abort(self, seat: int | None) -> None:
        """``seat`` aborts the game (nobody wins or loses) while a first move is still missing."""
        if seat is None:
            raise GameError("spectators cannot abort a game")
        async with self.lock:
            if self.match.over:
                raise GameError("the game is over")
            if not self.abortable():
                raise GameError("every player has moved: the game can no longer be aborted (resign instead)")
            before = self._snapshot()
            self.match.stop("aborted", f"game aborted by {self.seat_name(seat)}")
            await self._commit(before)

    async def _take_back(self, asker: int) -> None:
        """Take back ``asker``'s last move and everything after it, durably (under the lock)."""
        match = self.match
        ply = match.takeback_ply(asker)
        saved = match.snapshot()
        match.take_back(ply)
        clock = stored_clock(match)
        try:
            await self.hub.write(self.id, lambda c: self.hub.store.take_back(self.id, ply, clock, conn=c))
        except Exception as exc:
            match.restore(saved)
            if isinstance(exc, Fenced):
                raise
            raise GameError("the server could not save that; please try again") from None
        self.epoch += 1
        self.offers.clear()
        # A refusal waits for its player's next move: after the takeback, that is any move from here.
        self._declined = {key: min(moves, ply) for key, moves in self._declined.items()}
        self._forget(ply)
        self._restart_agents()
        self.changed.set()
        self.broadcast(since=ply)
        self.after_change()
