"""A game in play on the server: seats, connections, moves and clocks (its offers are in
:mod:`qipan.server.offers`, its AI turns in :mod:`qipan.server.ai_turns`).

Each :class:`LiveGame` wraps a :class:`qipan.core.Match`; every change (a move, a resignation, a
time-out) happens under the game's lock, is committed to the database, and only then is sent to
the connections, each of which gets its own seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from qipan.ai.agent import Agent
from qipan.core import CHANCE, GameError, Match
from qipan.core.clock import Reset, TimeControl
from qipan.core.errors import brief
from qipan.core.game import Game
from qipan.server.ai_turns import AITurns
from qipan.server.auth import SeatRecord, check_token, claimed, derived_token, hash_token, new_invite, new_token
from qipan.server.chat import ChatRoom
from qipan.server.connections import Client, dumps
from qipan.server.errors import AuthError, Conflict, Fenced, NotFound
from qipan.server.expiry import describe
from qipan.server.names import display_name
from qipan.server.offers import Offers
from qipan.server.store import GameRow

if TYPE_CHECKING:
    from qipan.server.hub import Hub

log = logging.getLogger("qipan.server")

ANALYSIS_HISTORY = 200
"""Earlier views of the player the engine is given with a hint or a review (the newest): a memory
agent (Tellstones) learns from them, a search (Abalone) avoids repeating the positions they show."""


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


def stored_clock(match: Match) -> dict[str, Any] | None:
    """A match's ``games.clock`` value: its time control and the clocks the last takeback left."""
    control = match.time_control
    if control is None:
        return None
    data: dict[str, Any] = control.to_json()
    if match.clock_reset is not None:
        data["reset"] = match.clock_reset.to_json()
    return data


def read_clock(data: object) -> tuple[TimeControl | None, Reset | None]:
    """The time control and takeback reset of a stored ``games.clock`` (GameError if damaged)."""
    if data is None:
        return None, None
    if not isinstance(data, dict):
        raise GameError("a stored clock must be an object")
    control = TimeControl.from_json({k: v for k, v in data.items() if k != "reset"})
    return control, None if data.get("reset") is None else Reset.from_json(data["reset"])


class LiveGame(Offers, AITurns):
    """A game the server holds in memory, with its connections and AI seats."""

    def __init__(self, hub: Hub, row: GameRow, match: Match):
        self.hub = hub
        self.row = row
        self.match = match
        self.game: Game[Any, Any] = match.game
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.clients: set[Client] = set()
        self.agents: dict[int, Agent] = {}
        self._public: dict[int | None, list[dict[str, Any]]] = {}
        self._actions: list[Any] = []  # the parsed action of each recorded move
        self._ai_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.ai_owner: str | None = None
        """The client (address) of the last person who sat down here: AI time is shared fairly
        between clients, so one with many games cannot starve everyone else's."""
        self._synced: dict[int, int] = {}  # AI seat -> views its worker-process agent has seen
        self.offers: dict[str, int] = {}
        """Pending offers: "takeback" or "draw" -> the seat that made it (in memory only)."""
        self._declined: dict[tuple[int, str], int] = {}  # (seat, offer) -> moves when it was declined
        self.epoch = 0
        """Counts takebacks: an AI's answer to a position that was taken back is not played."""
        self.chat = ChatRoom(self)
        self.lost = False
        """Another server process owns this game now (cluster mode): it is no longer played here."""
        self._seat_agents()

    @property
    def id(self) -> str:
        return self.row.id

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

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "variant": self.game.variant,
            "options": dict(self.game.config),
            "seats": self.seat_summaries(),
            "status": "finished" if self.match.over else "playing",
            "result": self.match.result(),
            "moves": len(self.match.moves),
            "created": self.row.created,
            "public": self.row.public,
            "clock": None if self.match.time_control is None else self.match.time_control.to_json(),
            "hints": self.row.hints,
            "hints_used": self.row.hints_used,
        }

    def public_moves(self, seat: int | None) -> list[dict[str, Any]]:
        """The move list as ``seat`` may see it (hidden chance outcomes masked by the game).

        Built once per move and seat, and kept: read it, never change it."""
        done = self._public.setdefault(seat, [])
        moves, states, actions = self.match.moves, self.match.states, self._actions
        for ply in range(len(actions), len(moves)):
            actions.append(self.game.parse_action(states[ply], moves[ply].text))
        for ply in range(len(done), len(moves)):
            text = self.game.public_action_text(states[ply], actions[ply], seat)
            done.append({"ply": ply + 1, "player": moves[ply].player, "text": text})
        return done

    def _forget(self, moves: int) -> None:
        """Drop what was built for moves after the first ``moves`` (they were taken back)."""
        del self._actions[moves:]
        for done in self._public.values():
            del done[moves:]

    def clocks(self) -> list[float] | None:
        """Seconds left on each clock (never below 0); once the game is over, as it ended."""
        clocks = self.match.clocks()
        return None if clocks is None else [max(0.0, c) for c in clocks]

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

    def abort_at(self) -> float | None:
        """When the server aborts this timed game unless the human to move makes their first
        move (None: it does not)."""
        match = self.match
        control, mover, seated = match.time_control, match.to_move, self.seated()
        if control is None or mover is None or mover < 0 or seated is None or mover in match.moved() \
                or self.row.seats[mover]["kind"] != "human":
            return None
        return max(match.turn_started(), seated) + control.first_move_window()

    def update(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """The ``update`` message for a connection at ``seat`` (None: spectator).

        ``moves`` holds the moves after ply ``since`` (None: the whole history, for a connection
        that has none yet), and ``first`` says where they start, so a client can tell whether it
        missed something. A game without a public history (``Game.public_history``) sends at
        most the newest move while it runs, and its whole history once it is over."""
        match = self.match
        mover = match.to_move
        ply = len(match.moves)
        history = self.game.public_history or match.over
        if history:
            first = 0 if since is None or not self.game.public_history else since
        else:
            first = ply if since is None else max(since, ply - 1)
        moves = self.public_moves(seat)
        return {
            "type": "update",
            "game": self.id,
            "seat": seat,
            "ply": ply,
            "first": first,
            "moves": moves[first:],
            "history": history,
            "last": moves[-1] if moves else None,
            "view": self.game.view(match.state, seat),
            "legal": match.legal_texts() if seat is not None and mover == seat and self.seated() else [],
            "to_move": "chance" if mover == CHANCE else mover,
            "clock": None if match.time_control is None else match.time_control.to_json(),
            "clocks": self.clocks(),
            "clock_running": match.clock_running(),
            "abort_at": self.abort_at(),
            "now": round(match.clock(), 3),  # the server's time, for clients whose clock is off
            "abortable": self.abortable(),
            "offers": [{"offer": offer, "by": by} for offer, by in self.offers.items()],
            "can": self.can(seat),
            "result": match.result(),
            "seats": self.seat_summaries(),
            "rematch": None if self.row.rematch is None else {"id": self.row.rematch},
        }

    def frame(self, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves as a spectator sees it (for replays)."""
        match = self.match
        if not 0 <= ply <= len(match.moves):
            raise NotFound(f"ply must be 0..{len(match.moves)}, not {ply}")
        if not self.game.public_history and not match.over:
            raise Conflict("the replay of this game is available once it is over (its moves are for the players "
                           "to remember)")
        state = match.states[ply]
        mover = self.game.to_move(state)
        at_end = ply == len(match.moves)
        if at_end and match.over:
            mover = None
        # Match computes clocks; a shallow copy cut at ``ply`` gives the clocks at that moment.
        past = copy.copy(match)
        past.moves, past.states, past.forfeit_result = match.moves[:ply], match.states[:ply + 1], None
        stamp = match.moves[ply - 1].time if ply else match.started
        moves = self.public_moves(None)
        return {
            "type": "frame",
            "game": self.id,
            "ply": ply,
            "seat": None,
            "view": self.game.view(state, None),
            "to_move": "chance" if mover == CHANCE else mover,
            "last": moves[ply - 1] if ply else None,
            "clocks": past.clocks(now=stamp),
            "result": match.result() if at_end else None,
            "seats": self.seat_summaries(),
        }

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

    async def hint(self, token: object) -> dict[str, Any]:
        """Count a hint for the seat of ``token`` and return what the engine may look at: that
        seat's own view of its current decision and its :data:`ANALYSIS_HISTORY` views before (never
        the state). AuthError in a game without
        hints or for a token of no seat, Conflict when it is not that seat's turn."""
        if not self.row.hints:
            raise AuthError("this game was not created with hints")
        seat = self.seat_for_token(token)
        async with self.lock:
            match = self.match
            if match.over:
                raise Conflict("the game is over: no hints (review it instead)")
            if match.to_move != seat or self.seated() is None:
                raise Conflict("a hint is for your own turn; it is not your turn")
            used = self.row.hints_used + 1
            await self.hub.write(self.id, lambda c: self.hub.store.set_hints_used(self.id, used, conn=c))
            self.row.hints_used = used
            game, ply = self.game, len(match.moves)
            history = [game.view(state, seat) for state in match.states[max(0, ply - ANALYSIS_HISTORY):ply]]
            position = {"game": game.name, "variant": game.variant, "options": dict(game.config), "player": seat,
                        "ply": ply, "view": game.view(match.state, seat), "history": history}
        self.hub.touched()
        return position

    # -- invitations -----------------------------------------------------------------------------

    async def claim(self, code: object, name: str | None = None) -> tuple[int, str]:
        """Take the seat an invitation code is for, as ``name``; its new token. AuthError for a
        code of no seat, Conflict when the seat has been claimed already (every code works once)
        or the game is over."""
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
            token = new_token()
            await self._save_seats({seat: {**seats[seat], "token": hash_token(token), "name": name}})
        self.broadcast()
        return seat, token

    async def take_seat(self, name: str | None, seat: object = None) -> tuple[int, str]:
        """Take a free human seat of a public game (``seat``, or the first free one) as ``name``;
        its new token. AuthError for an invite-only game, Conflict when no seat (or not that one)
        is free or the game is over."""
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
            token = new_token()
            await self._save_seats({seat: {**self.row.seats[seat], "token": hash_token(token), "name": name}})
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

    async def _save_seats(self, changes: dict[int, SeatRecord]) -> None:
        """Commit changed seat records, then keep them (held under the game's lock). A seat
        taken now records when (``seated``): the game's first turn starts once every seat is."""
        now = time.time()
        taken = [s for s, info in changes.items()
                 if info.get("token") is not None and self.row.seats[s].get("token") is None]
        changes = {**changes, **{s: {**changes[s], "seated": now} for s in taken}}
        seats = [changes.get(s, info) for s, info in enumerate(self.row.seats)]
        if changes:
            await self.hub.write(self.id, lambda c: self.hub.store.set_seats(self.id, seats, conn=c))
        self.row.seats = seats
        if taken:
            self.changed.set()
            self.after_change()  # the last seat taken: the first turn (an AI's, the clock) starts

    # -- connections -----------------------------------------------------------------------------

    def _seat_connected(self, seat: int | None) -> bool:
        return any(c.seat == seat for c in self.clients)

    def join(self, client: Client) -> None:
        """Add a connection and send it the current update (everyone hears of a new seat)."""
        if self.lost:  # it reconnects to the process that owns the game now
            client.closing = asyncio.ensure_future(client.close(1012))
            return
        news = client.seat is not None and not self._seat_connected(client.seat)
        self.hub.games.setdefault(self.id, self)  # a finished game may have been released meanwhile
        self.clients.add(client)
        client.start()
        client.push(dumps(self.update(client.seat)))
        if news:
            self.broadcast(skip=client)

    async def leave(self, client: Client) -> None:
        # Everything before the only wait: a session cancelled while its sender stops (its
        # server shutting down, a test client closing) has left all the same.
        self.clients.discard(client)
        if client.seat is not None and not self._seat_connected(client.seat):
            self.broadcast()
        if not self.clients and self.match.over:
            self.hub.unload(self)
        await client.stop()

    def broadcast(self, since: int | None = None, skip: Client | None = None) -> None:
        """Queue an update for every connection (built once per seat) with the moves after ply
        ``since`` (default: none, only the current position)."""
        if since is None:
            since = len(self.match.moves)
        cache: dict[int | None, str] = {}
        for client in list(self.clients):
            if client is skip:
                continue
            if client.seat not in cache:
                cache[client.seat] = dumps(self.update(client.seat, since))
            client.push(cache[client.seat])
        self.chat.after_change()
        self.hub.touched()

    # -- changes ---------------------------------------------------------------------------------

    async def act(self, seat: int | None, kind: str, text: str | None = None, ply: int | None = None,
                  epoch: int | None = None) -> None:
        """Play ``text`` (kind "move") or resign (kind "resign") for ``seat``.

        Raises GameError (nothing changes) when the action is not allowed. With ``ply`` (and
        ``epoch``), the action only happens if the game still has exactly that many moves (and no
        takeback happened since: AI turns)."""
        if seat is None:
            raise GameError("spectators cannot play; open your invitation or seat link to play")
        async with self.lock:
            match = self.match
            if ply is not None and (len(match.moves) != ply or epoch not in (None, self.epoch)):
                return
            if match.over:
                raise GameError("the game is over: no more moves")
            if kind == "move" and self.seated() is None:
                raise GameError("the game starts when every player has taken their seat; waiting for them")
            before = self._snapshot()
            try:
                if kind == "move":
                    assert text is not None
                    match.play(text, player=seat)
                    if not match.over and len(match.moves) >= self.hub.max_plies:
                        match.stop("move limit", f"draw: the server's limit of {self.hub.max_plies} moves a game "
                                                 "was reached")
                else:
                    match.forfeit(seat, "resignation")
            except GameError:
                if match.over:  # Match.play found the mover out of time: save that ending
                    await self._commit(before)
                raise
            await self._commit(before)

    async def conclude(self, end: Callable[[Match], bool]) -> bool:
        """End the game from outside play (expiry): under the lock, ``end`` ends the match or
        returns False to leave it; the ending is committed and announced like a move."""
        async with self.lock:
            if self.match.over:
                return False
            before = self._snapshot()
            if not end(self.match):
                return False
            await self._commit(before)
        return True

    def _snapshot(self) -> tuple[int, tuple[Any, ...]]:
        return len(self.match.moves), self.match.snapshot()

    async def _commit(self, before: tuple[int, tuple[Any, ...]]) -> None:
        """Persist what changed since ``before``, then tell everyone; undo it if the write fails.
        Pending offers end with any move or the end of the game."""
        n0, saved = before
        match = self.match
        new = match.moves[n0:]
        result = match.result()
        finished = time.time() if result is not None else None
        rows = [(str(m.player), m.text, m.time) for m in new]
        try:
            await self.hub.write(
                self.id, lambda c: self.hub.store.append_moves(self.id, n0, rows, finished, result, conn=c))
        except Exception as exc:
            match.restore(saved)
            self._forget(n0)
            if isinstance(exc, Fenced):
                raise
            raise GameError("the server could not save that; please try again") from None
        if result is not None:
            self.row.finished, self.row.result = finished, result
        self.offers.clear()
        for state in match.states[n0 + 1:]:
            self._observe(state)
        self.changed.set()
        self.broadcast(since=n0)
        self.after_change()

    def after_change(self) -> None:
        """Start whatever the new position needs: an AI turn, the clock watch; unload if done."""
        if self.lost:
            return
        match = self.match
        if match.over:
            if not self.clients:
                self.hub.unload(self)
            return
        if self.seated() is None:
            return  # nobody's turn starts before every seat is taken
        mover = match.to_move
        if mover is not None and mover in self.agents and (self._ai_task is None or self._ai_task.done()):
            self._ai_task = self.hub.spawn(self._ai_turn(mover, len(match.moves)))
        if match.time_control is not None and (self._clock_task is None or self._clock_task.done()):
            self._clock_task = self.hub.spawn(self._watch_clock())

    async def _watch_clock(self) -> None:
        """End a timed game when the player to move runs out of time, or abort it when the human
        to move has not made their first move by :meth:`abort_at` (woken early by every change)."""
        while True:
            async with self.lock:
                self.changed.clear()
                match = self.match
                if match.over or match.time_control is None:
                    return
                now = time.time()
                mover, clocks, abort_at = match.to_move, match.clocks(now), self.abort_at()
                assert clocks is not None
                wait, end = 60.0, False
                if abort_at is not None and mover is not None:
                    wait = abort_at - now
                    if wait <= 0:
                        window = describe(match.time_control.first_move_window())
                        end = True
                        before = self._snapshot()
                        match.stop("aborted", f"game aborted: {self.seat_name(mover)} made no first move within "
                                              f"{window}")
                elif mover is not None and mover >= 0 and match.clock_running()[mover]:
                    wait = clocks[mover] + 0.01
                    if clocks[mover] <= 0:
                        end = True
                        before = self._snapshot()
                        match.check_time()
                if end:
                    try:
                        await self._commit(before)
                        return
                    except GameError:
                        log.warning("could not save the end of game %s (time); retrying", self.id)
                        wait = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(max(wait, 0.01), 60.0))

    def stop(self) -> None:
        for task in (self._ai_task, self._clock_task):
            if task is not None:
                task.cancel()
