"""The seats of a live game: who sits where, their links, and taking, naming and checking a seat.

:class:`Seats` is a part of :class:`qipan.server.live.LiveGame`, which holds the state it reads
and the lock and broadcasts it uses. A seat's secrets (its token, its invitation code) are kept
hashed; only the links made here for their owner carry them, in the URL's fragment.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from qipan.core import GameError, Match
from qipan.core.errors import brief
from qipan.core.game import Game
from qipan.server.auth import SeatRecord, check_token, claimed, derived_token, hash_token, new_invite, new_token
from qipan.server.connections import Client
from qipan.server.errors import AuthError, Conflict
from qipan.server.meta import refuse_paths
from qipan.server.names import display_name
from qipan.server.store import GameRow

if TYPE_CHECKING:
    from qipan.server.hub import Hub


def play_url(game_id: str) -> str:
    """The page of a game: anyone with it may watch."""
    return f"/play/{game_id}"


def seat_url(game_id: str, seat: int, token: str) -> str:
    """A seat's own link (to open the seat on another device). The secret is in the fragment,
    which browsers never send to the server."""
    return f"/play/{game_id}#seat={seat}&token={token}"


def invite_url(game_id: str, code: str) -> str:
    """An invitation link; the page claims the seat with the code in the fragment."""
    return f"/play/{game_id}#invite={code}"


def seat_summary(seat: int, side: str, info: SeatRecord, connected: bool) -> dict[str, Any]:
    """A seat as everyone may see it: its side, who plays it (their nickname, else the side) and
    whether they are here (no secrets)."""
    return {
        "seat": seat,
        "side": side,
        "name": display_name(info, side),
        "kind": info["kind"],
        "level": info.get("level"),
        "claimed": claimed(info),
        "connected": info["kind"] == "ai" or connected,
    }


class Seats:
    """A live game's seats: reading them, checking a seat's token, and taking or naming a seat."""

    hub: Hub
    row: GameRow
    match: Match
    game: Game[Any, Any]
    lock: asyncio.Lock
    changed: asyncio.Event
    clients: set[Client]

    if TYPE_CHECKING:  # the rest of LiveGame
        @property
        def id(self) -> str: ...
        def broadcast(self, since: int | None = None, skip: Client | None = None) -> None: ...
        def after_change(self) -> None: ...
        def _forget(self, moves: int) -> None: ...
        def _restart_agents(self) -> None: ...

    # -- reading ---------------------------------------------------------------------------------

    def seat_summaries(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.clients}
        return [
            seat_summary(seat, self.game.player_name(seat), info, seat in connected)
            for seat, info in enumerate(self.row.seats)
        ]

    def seat_name(self, seat: int) -> str:
        """What seat ``seat`` is called: its player's nickname, or its side."""
        return display_name(self.row.seats[seat], self.game.player_name(seat))

    def seated(self) -> float | None:
        """When the last human seat was taken (None: a seat is still free, and nobody's turn
        starts: a game begins once every player is seated)."""
        times = [self.row.created]
        for info in self.row.seats:
            if info["kind"] != "human":
                continue
            if info.get("token") is None:
                return None
            when = info.get("seated")
            if isinstance(when, int | float) and not isinstance(when, bool):
                times.append(float(when))
        return max(times)

    def seat_for_token(self, token: object) -> int:
        for seat, info in enumerate(self.row.seats):
            if info["kind"] == "human" and check_token(info.get("token"), token):
                return seat
        raise AuthError("that token does not belong to any seat of this game")

    def check_seat(self, seat: int | None, token: object) -> None:
        """Raise AuthError unless ``token`` is the secret of human seat ``seat``."""
        if seat is None:
            return
        n = len(self.row.seats)
        if not 0 <= seat < n:
            raise AuthError(f"seat must be 0..{n - 1}, not {seat}")
        info = self.row.seats[seat]
        if info["kind"] != "human":
            raise AuthError(f"seat {seat} is played by the AI; join as a spectator instead")
        if info.get("token") is None and info.get("rematch_of") is not None:
            raise AuthError(f"seat {seat} of this rematch waits for its player: they press Rematch in the last game")
        if info.get("token") is None:
            raise AuthError(f"nobody has claimed seat {seat} yet; open its invitation link")
        if not check_token(info["token"], token):
            raise AuthError(f"wrong or missing token for seat {seat}")

    # -- taking and naming seats -----------------------------------------------------------------
    async def take_rematch_seat(self, seat: int, old_token: str, name: str | None = None) -> str:
        """Seat ``seat`` of this rematch for whoever holds ``old_token`` (their token in the finished
        game): their token here, the same at every request (``name``: their nickname now, if they
        give one). AuthError if the seat is not theirs."""
        token = derived_token(old_token, "rematch")
        async with self.lock:
            info = self.row.seats[seat]
            if check_token(info.get("token"), token):
                if name is not None and name != info.get("name"):
                    await self._save_seats({seat: {**info, "name": name}})
                    self.broadcast()
                return token
            if info.get("token") is not None or not check_token(info.get("rematch_of"), old_token):
                raise Conflict(f"seat {seat} of the rematch has been taken by someone else")
            await self._save_seats({seat: {**info, "token": hash_token(token), "name": name or info.get("name")}})
        self.broadcast()
        return token

    async def claim(self, code: object, name: str | None = None,
                    options: Mapping[str, object] | None = None) -> tuple[int, str]:
        """Take the seat an invitation code is for, as ``name``, bringing ``options`` (see
        :meth:`_bring`); its new token. AuthError for a code of no seat, Conflict when the seat
        has been claimed already (every code works once) or the game is over."""
        async with self.lock:
            seats = self.row.seats
            seat = next((s for s, info in enumerate(seats) if check_token(info.get("invite"), code)), None)
            if seat is None:
                raise AuthError("that invitation is not valid for this game (it may have been replaced by a new "
                                "one; ask whoever created the game)")
            if claimed(seats[seat]):
                raise Conflict(f"that invitation has been used: seat {seat} is taken")
            if self.match.over:
                # A seat taken now would be a seat in no game: the rematch has been (or will be)
                # made from the seats held at the end.
                raise Conflict("the game is over: its seats can no longer be taken")
            brought = self._bring(seat, options)
            token = new_token()
            await self._save_seats({seat: {**seats[seat], "token": hash_token(token), "name": name}}, brought)
        self.broadcast()
        return seat, token

    async def take_seat(self, name: str | None, seat: object = None,
                        options: Mapping[str, object] | None = None) -> tuple[int, str]:
        """Take a free human seat of a public game (``seat``, or the first free one) as ``name``,
        bringing ``options`` (see :meth:`_bring`); its new token. AuthError for an invite-only
        game, Conflict when no seat (or not that one) is free or the game is over."""
        if not self.row.public:
            raise AuthError("this game is invite-only: its seats are taken with an invitation link")
        seats = self.row.seats
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats)
                                 or seats[seat]["kind"] != "human"):
            humans = ", ".join(str(s) for s, info in enumerate(seats) if info["kind"] == "human")
            raise GameError(f'"seat" must be the number of a human seat ({humans}) or left out, not {brief(seat, 40)}')
        async with self.lock:
            if self.match.over:
                raise Conflict("the game is over: its seats can no longer be taken")
            free = [s for s, info in enumerate(self.row.seats) if not claimed(info)]
            if not free:
                raise Conflict("every seat of this game is taken; watch it, or start a game of your own")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise Conflict(f"seat {seat} is taken; free: {', '.join(map(str, free))}")
            assert isinstance(seat, int)
            brought = self._bring(seat, options)
            token = new_token()
            await self._save_seats({seat: {**self.row.seats[seat], "token": hash_token(token), "name": name}},
                                   brought)
        self.broadcast()
        return seat, token

    async def rename(self, seat: int, name: str) -> None:
        """Give seat ``seat`` (its token checked already) the nickname ``name``; a finished
        game keeps the names it was played under (they are in its record)."""
        async with self.lock:
            info = self.row.seats[seat]
            if info.get("name") == name or self.match.over:
                return
            await self._save_seats({seat: {**info, "name": name}})
        self.broadcast()

    async def reissue_invites(self, token: object) -> dict[int, str]:
        """New invitation codes for every human seat nobody has claimed (the old codes stop
        working); only the creator's token may ask."""
        seat = self.seat_for_token(token)
        if not self.row.seats[seat].get("creator"):
            raise AuthError("only the player who created the game can issue new invitations")
        async with self.lock:
            codes = {s: new_invite() for s, info in enumerate(self.row.seats) if not claimed(info)}
            await self._save_seats({s: {**self.row.seats[s], "invite": hash_token(c)} for s, c in codes.items()})
        return codes

    def _bring(self, seat: int, options: Mapping[str, object] | None) -> Match | None:
        """The game as seat ``seat`` plays it with its own options (None: it brings none):
        ``options`` by the names of the game's ``seat_options`` (Sheng-Ke: ``{"deck": ...}`` is
        this seat's deck option). The game is rebuilt with them and its moves so far replayed:
        only chance outcomes, since nobody decides anything before every seat is taken. Held
        under the game's lock; :meth:`_save_seats` saves it with the seat, in one transaction.
        GameError (the option's own message) or Conflict, and nothing changed."""
        if not options:
            return None
        chosen = {}
        for key, value in options.items():
            names = self.game.seat_options.get(key)
            if names is None:
                offered = ", ".join(sorted(self.game.seat_options)) or "nothing"
                raise GameError(f"{self.game.name} has no option {brief(key, 40)} to bring with a seat; "
                                f"a player brings: {offered}")
            chosen[names[seat]] = value
        refuse_paths(type(self.game), chosen)
        if any(move.player != "chance" for move in self.match.moves):
            raise Conflict("the game has begun: what a player brings must come with their seat, before the first move")
        record = self.match.record()
        record.options = {**record.options, **chosen}
        match = Match.from_record(record)  # a bad value: GameError naming the option (a deck's problems)
        if len(match.moves) != len(self.match.moves):
            raise Conflict("the game cannot take those options now")
        return match

    async def _save_seats(self, changes: dict[int, SeatRecord], brought: Match | None = None) -> None:
        """Commit changed seat records, then keep them (held under the game's lock). A seat
        taken now records when (``seated``): the game's first turn starts once every seat is.
        ``brought``: the game with what the seat taken brought (:meth:`_bring`), saved in the
        same transaction, so that a failed write leaves neither the seat nor its options."""
        now = time.time()
        taken = [s for s, info in changes.items()
                 if info.get("token") is not None and self.row.seats[s].get("token") is None]
        changes = {**changes, **{s: {**changes[s], "seated": now} for s in taken}}
        seats = [changes.get(s, info) for s, info in enumerate(self.row.seats)]
        options = None if brought is None else dict(brought.game.config)

        def job(conn: Any) -> None:
            if options is not None:
                self.hub.store.set_options(self.id, options, conn=conn)
            self.hub.store.set_seats(self.id, seats, conn=conn)

        if changes:
            await self.hub.write(self.id, job)
        if brought is not None and options is not None:
            self.match, self.game, self.row.options = brought, brought.game, options
            self._forget(0)
            self._restart_agents()
        self.row.seats = seats
        if taken:
            self.changed.set()
            self.after_change()  # the last seat taken: the first turn (an AI's, the clock) starts
