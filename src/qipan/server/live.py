"""A game in play on the server: the object that holds it, what each connection sees of it, and
every change to it (its seats are in :mod:`qipan.server.seats`, its clocks in
:mod:`qipan.server.clocks`, its offers in :mod:`qipan.server.offers`, its AI turns in
:mod:`qipan.server.ai_turns`).

Each :class:`LiveGame` wraps a :class:`qipan.core.Match`; every change (a move, a resignation, a
time-out) happens under the game's lock, is committed to the database, and only then is sent to
the connections, each of which gets its own seat's view.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from qipan.ai.agent import Agent
from qipan.core import CHANCE, GameError, Match
from qipan.core.game import Game
from qipan.server.ai_turns import AITurns
from qipan.server.chat import ChatRoom
from qipan.server.clocks import Clocks
from qipan.server.connections import Client, dumps
from qipan.server.errors import AuthError, Conflict, Fenced, NotFound
from qipan.server.offers import Offers
from qipan.server.seats import Seats
from qipan.server.store import GameRow

if TYPE_CHECKING:
    from qipan.server.hub import Hub

ANALYSIS_HISTORY = 200
"""Earlier views of the player the engine is given with a hint or a review (the newest): a memory
agent (Tellstones) learns from them, a search (Abalone) avoids repeating the positions they show."""


class LiveGame(Seats, Clocks, Offers, AITurns):
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

    # -- what each connection sees ---------------------------------------------------------------

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

    # -- hints -----------------------------------------------------------------------------------

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
    def stop(self) -> None:
        for task in (self._ai_task, self._clock_task):
            if task is not None:
                task.cancel()
