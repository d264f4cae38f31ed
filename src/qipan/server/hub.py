"""The hub: every live game, the database writer, and the AI workers; creating, loading and
resuming games.

With a :class:`~qipan.server.cluster.Cluster` (several processes on one PostgreSQL database),
the hub holds only the games this process owns: :meth:`Hub.get` takes a game nobody else owns
and raises :class:`~qipan.server.errors.Elsewhere` for one another process owns, every write
for a game goes through :meth:`Hub.write` (refused once another process took the game over,
which drops it here: :meth:`Hub.lose`), and the cluster's sweeper, not :meth:`Hub.resume_all`,
resumes the unfinished games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from qipan.ai import make_agent
from qipan.ai.agent import agent_levels
from qipan.core import GameError, Match, Move, Record, load
from qipan.core.clock import TimeControl
from qipan.core.errors import brief, brief_text
from qipan.core.game import Game
from qipan.server.ai_pool import AIProcesses
from qipan.server.auth import SeatRecord, human_seat, new_game_id, new_seats
from qipan.server.clocks import read_clock, stored_clock
from qipan.server.errors import Busy, Conflict, Elsewhere, Fenced, NotFound, SetAside
from qipan.server.expiry import Expiry, watch
from qipan.server.live import LiveGame
from qipan.server.store import BadRow, GameRow, Job, StorageUnavailable, Store, Writer

if TYPE_CHECKING:
    from qipan.server.cluster import Cluster
    from qipan.server.shared import AIGames

log = logging.getLogger("qipan.server")

MAX_PLIES = 10_000
"""Moves (chance outcomes included) after which a game ends as a draw: without a cap, two
clients playing both seats of a game that never ends (Abalone by default) grow its memory, its
replay at every start and every resync without bound. Real games end far sooner (Abalone
between people: a few hundred)."""

MAX_AI_GAMES = 16
"""Games between AIs (every seat an AI) that may run at once: each one plays non-stop, and
creations alone (30 a minute per client) would let one client start hundreds."""


def parse_player(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


class Hub:
    """Every live game, the database, and the AI worker threads; with ``cluster``, only the games
    this process owns (see the module's description)."""

    def __init__(self, store: Store, ai_delay: float = 0.0, ai_workers: int = 2, ai_processes: bool = True,
                 all_ai_workers: int | None = None, expiry: Expiry | None = None, max_plies: int = MAX_PLIES,
                 max_ai_games: int = MAX_AI_GAMES, cluster: Cluster | None = None):
        self.store = store
        self.cluster = cluster
        if cluster is not None:
            cluster.hub = self
        self.max_plies = max_plies
        self.max_ai_games = max_ai_games
        self.ai_cap: AIGames | None = None
        """``max_ai_games`` over every process (cluster mode: :func:`qipan.server.shared.share`)."""
        self.writer = Writer(store)
        self.ai_delay = ai_delay
        self.ai_pool = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="qipan-ai")
        self.ai_processes = AIProcesses(ai_workers, all_ai_workers) if ai_processes else None
        self.expiry = expiry or Expiry()
        self.games: dict[str, LiveGame] = {}
        self.unavailable: dict[str, dict[str, Any]] = {}
        """Games set aside because they cannot be resumed: id -> what the lobby shows of them."""
        self.watchers: list[Callable[[], None]] = []
        """Called after any game changed (moves, seats, who is connected) or was created: the lobby."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._loading = asyncio.Lock()
        self._expiry: asyncio.Task[None] | None = None

    def spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def touched(self) -> None:
        """Tell the watchers that some game changed."""
        for watcher in self.watchers:
            watcher()

    async def close(self) -> None:
        """Stop every game and the workers; in cluster mode, leave the cluster first and close
        the connections with 1012, so that they reconnect to the process taking the games over."""
        if self.cluster is not None:
            await self.cluster.close()
            await self.lose_all()
        for live in list(self.games.values()):
            live.stop()
            for client in list(live.clients):
                await client.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.ai_pool.shutdown(wait=False, cancel_futures=True)
        if self.ai_processes is not None:
            await asyncio.to_thread(self.ai_processes.close)
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    # -- creating and loading ----------------------------------------------------------------------

    async def create(
        self, game: Game[Any, Any], specs: list[dict[str, Any]], creator: int | None, name: str | None = None,
        public: bool = False, clock: TimeControl | None = None, hints: bool = False,
    ) -> tuple[LiveGame, str | None, dict[int, str]]:
        """Start a game with these seats (from :func:`seat_specs`). The ``creator``'s seat gets a
        token (and their nickname ``name``), every other human seat an invitation; returns the
        game, the creator's token (None when they take no seat) and each invited seat's code.
        A ``public`` game is listed in the lobby and anyone may take its free seats. ``clock``:
        the time control (None: untimed, or the game's own time limit). ``hints``: its one human
        may ask the engine for hints (:func:`check_hints`)."""
        if hints:
            check_hints(specs)
        records, token, invites = new_seats(specs, creator, name)
        live = await self._start(game, records, public=public, clock=clock, hints=hints)
        return live, token, invites

    def ai_games(self) -> int:
        """Unfinished games in which every seat is an AI."""
        return sum(1 for live in self.games.values()
                   if not live.match.over and all(seat["kind"] == "ai" for seat in live.row.seats))

    async def _start(self, game: Game[Any, Any], seats: list[SeatRecord], rematch_of: LiveGame | None = None,
                     public: bool = False, clock: TimeControl | None = None, hints: bool = False) -> LiveGame:
        """Create, save and start a game with these seat records (hashes only)."""
        if all(seat["kind"] == "ai" for seat in seats) and (
                self.ai_games() >= self.max_ai_games
                or (self.ai_cap is not None and not await self.ai_cap.admit(self.max_ai_games))):
            raise Busy(f"the server is running as many games between AIs as it allows ({self.max_ai_games}); "
                       "try again when one ends, or seat a person")
        now = time.time()
        # a fresh secret: the server never takes seeds
        match = Match(game, clock=time.time, started=now, time_control=clock)
        row = GameRow(
            id=new_game_id(),
            game=game.name,
            variant=game.variant,
            options=dict(game.config),
            seed=match.seed,
            seats=seats,
            created=now,
            started=now,
            clock=stored_clock(match),
            public=public,
            hints=hints,
        )
        rows = [(str(m.player), m.text, m.time) for m in match.moves]  # opening chance outcomes
        result = match.result()
        if result is not None:
            row.finished, row.result = now, result

        owner = None if self.cluster is None else self.cluster.id

        def job(conn: Any) -> None:
            self.store.create_game(row, conn=conn, owner=owner)
            self.store.append_moves(row.id, 0, rows, conn=conn)
            if rematch_of is not None:
                self.store.set_rematch(rematch_of.id, row.id, conn=conn)

        if rematch_of is not None:
            await self.write(rematch_of.id, job)
        else:
            await self.writer.write(job)
        if self.cluster is not None:
            self.cluster.fences[row.id] = 1
        live = LiveGame(self, row, match)
        self.games[row.id] = live
        live.after_change()
        self.touched()
        return live

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the database if needed (NotFound if none,
        SetAside if it cannot be loaded). In cluster mode a game not held here is taken first:
        Elsewhere if another live process owns it."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        if self.cluster is not None and game_id not in self.unavailable:
            # A game another live process owns is answered without waiting for the loading
            # lock: every relayed WebSocket and operation asks here, and would otherwise queue
            # behind each other's database round trips (after a crash, all at once).
            exists, owner = await self.cluster.locate(game_id)
            if not exists:
                raise NotFound(f"there is no game {brief(game_id, 40)}")
            if owner is not None and owner != self.cluster.id:
                raise Elsewhere(owner)
        async with self._loading:
            live = self.games.get(game_id)
            if live is not None:
                return live
            if game_id in self.unavailable:
                raise SetAside(self.unavailable[game_id])
            if self.cluster is not None:
                await self._take(game_id)
            row: GameRow | None = None
            try:
                row = await asyncio.to_thread(self.store.game, game_id)
                if row is None:
                    raise NotFound(f"there is no game {brief(game_id, 40)}")
                live = await self._load(row)
            except NotFound:
                raise
            except StorageUnavailable:
                if self.cluster is not None:  # taken, not loaded: its sweeper loads it (nobody else will)
                    self.cluster.retry_later(game_id)
                raise
            except Fenced:  # taken by another process while it loaded
                raise await self._refusal(game_id) from None
            except Exception as exc:
                raise SetAside(self.set_aside(game_id, exc, row)) from None
            self.games[game_id] = live
            if not live.match.over:
                live.after_change()  # an unfinished game not resumed at start-up starts now
        return live

    async def _take(self, game_id: str) -> None:
        """Take ``game_id`` for this process (cluster mode), or raise why not."""
        assert self.cluster is not None
        if await self.cluster.acquire(game_id) is None:
            raise await self._refusal(game_id)

    async def _refusal(self, game_id: str) -> Exception:
        """Why this process cannot take ``game_id``: NotFound, Elsewhere (another live process owns
        it), or Rejoining (nobody does, yet it could not be taken: this process's own lease is
        lapsing, or the owner was just going away; trying again settles it)."""
        from qipan.server.cluster import Rejoining

        assert self.cluster is not None
        exists, owner = await self.cluster.locate(game_id)
        if not exists:
            return NotFound(f"there is no game {brief(game_id, 40)}")
        if owner is not None and owner != self.cluster.id:
            return Elsewhere(owner)
        return Rejoining()

    async def write(self, game_id: str, job: Job) -> None:
        """Commit ``job``, a write for the existing game ``game_id``. In cluster mode only while
        this process still holds the game: else Fenced (nothing saved), and the game is dropped
        here (:meth:`lose`)."""
        cluster = self.cluster
        if cluster is None:
            await self.writer.write(job)
            return
        fence = cluster.fences.get(game_id)
        try:
            await self.writer.write(cluster.fenced(game_id, job))
        except Fenced:
            live = self.games.get(game_id)
            if live is not None and cluster.fences.get(game_id) == fence:  # (not since taken again)
                log.warning("game %s was taken over by another server process; dropping it here", game_id)
                # No await before raising: the caller may be the game's AI or clock task, which
                # this cancels.
                self._drop(live)
                self.spawn(self._disconnect(live))
            raise

    async def lose(self, live: LiveGame) -> None:
        """Drop a game this process no longer owns (cluster mode): stop its AI turns and clock,
        forget it (its AI workers' state too), and close its connections with 1012 so that they
        reconnect to the process that owns it now."""
        self._drop(live)
        await self._disconnect(live)

    async def lose_all(self) -> None:
        """Drop every game (this process's lease lapsed, or it is leaving the cluster), a game
        being loaded too (this waits for it)."""
        async with self._loading:
            for live in list(self.games.values()):
                await self.lose(live)
            if self.cluster is not None:
                self.cluster.fences.clear()

    def _drop(self, live: LiveGame) -> None:
        live.lost = True
        live.stop()
        if self.games.get(live.id) is live:
            del self.games[live.id]
            if self.cluster is not None:
                self.cluster.fences.pop(live.id, None)
        if self.ai_processes is not None and live.agents:
            self.ai_processes.forget(live.agent_key(seat) for seat in live.agents)

    async def _disconnect(self, live: LiveGame) -> None:
        clients = list(live.clients)
        live.clients.clear()
        for client in clients:
            with contextlib.suppress(Exception):
                await client.close(1012)  # service restart: the client reconnects
            await client.stop()
        self.touched()

    async def _load(self, row: GameRow) -> LiveGame:
        moves = await asyncio.to_thread(self.store.moves, row.id)
        record = Record(
            game=row.game,
            variant=row.variant,
            options=dict(row.options),
            seed=row.seed,
            moves=[Move(parse_player(m.player), m.text, m.time) for m in moves],
            result=row.result,
            started=row.started,
        )
        try:
            record.clock, record.clock_reset = read_clock(row.clock)
        except GameError as exc:
            raise BadRow(row.id, "its stored clock is damaged", detail=str(exc)) from None
        # Replaying a long game takes a while (about 25 µs a move): in a thread, so that the event
        # loop keeps answering everyone else meanwhile.
        match = await asyncio.to_thread(Match.from_record, record)
        if len(row.seats) != match.game.num_players:
            raise BadRow(row.id, "its stored seats do not fit the game")
        live = LiveGame(self, row, match)
        if len(match.moves) > len(moves):  # resumed at a chance node: save the new outcomes
            extra = [(str(m.player), m.text, m.time) for m in match.moves[len(moves):]]
            await self.write(row.id, lambda c: self.store.append_moves(row.id, len(moves), extra, conn=c))
        return live

    async def resume_all(self) -> int:
        """Load every unfinished game, restart its AI turns and clocks, and start watching for
        games to expire; return how many games were resumed. A game that cannot be resumed is
        set aside (logged, and shown as unavailable) and the others start. In cluster mode only
        the expiry watch starts: the cluster's sweeper resumes the games nobody owns."""
        ids: list[str] = []
        if self.cluster is None:
            try:
                ids = await asyncio.to_thread(self.store.unfinished_ids)
            except StorageUnavailable:
                log.error("could not list the unfinished games; each starts when it is first opened")
        count = 0
        for game_id in ids:
            if game_id in self.games:
                continue
            try:
                count += await self._resume(game_id)
            except StorageUnavailable as exc:  # a passing failure: the game starts when first opened
                log.error("could not resume game %s now (%s); it starts when it is first opened", game_id, exc)
        if self.unavailable:
            log.warning("%d game(s) could not be resumed and are set aside (listed as unavailable)",
                        len(self.unavailable))
        if self._expiry is None:
            self._expiry = self.spawn(watch(self, self.expiry))
        return count

    async def adopt(self, game_id: str) -> bool:
        """Resume ``game_id``, just taken over by this process (cluster mode: the sweeper): load
        it and restart its AI turns and clocks. False if it is here already, is over, or cannot
        be loaded (then it is set aside); StorageUnavailable if the database fails now."""
        async with self._loading:
            if game_id in self.games or game_id in self.unavailable:
                return False
            resumed = await self._resume(game_id)
        if resumed:
            self.touched()
        return resumed

    async def _resume(self, game_id: str) -> bool:
        """Load an unfinished game and start its AI turns and clocks; False if it is over, or
        was set aside because it cannot be loaded (StorageUnavailable: not now)."""
        live: LiveGame | None = None
        row: GameRow | None = None
        try:
            row = await asyncio.to_thread(self.store.game, game_id)
            if row is None or row.finished is not None:
                return False  # (listed from a damaged database: every game, the finished too)
            live = await self._load(row)
            self.games[game_id] = live
            live.after_change()
        except Exception as exc:
            if live is not None:
                live.stop()
                self.games.pop(game_id, None)
            if isinstance(exc, StorageUnavailable):
                raise
            if not isinstance(exc, Fenced):  # (else taken by another process meanwhile)
                self.set_aside(game_id, exc, row)
            return False
        return True

    def set_aside(self, game_id: str, exc: Exception, row: GameRow | None = None) -> dict[str, Any]:
        """Keep a game that cannot be loaded out of play, log why, and return its lobby summary."""
        if isinstance(exc, BadRow):
            reason = exc.reason
            log.warning("game %s is unavailable: %s%s", game_id, reason, f" ({exc.detail})" if exc.detail else "")
        elif isinstance(exc, GameError):
            # The lobby is public and the game unfinished: a stored move's text or why it fails
            # can show hidden information (a shuffle, a hand), so only the log gets the message.
            number = re.match(r"record move (\d+)", str(exc))
            shown = f"move {number[1]} does not replay" if number else brief_text(str(exc), 120)
            reason = f"it cannot be replayed ({shown})"
            log.warning("game %s is unavailable: it cannot be replayed (%s)", game_id, brief_text(str(exc), 300))
        else:
            reason = "it could not be restored (the server log says why)"
            log.error("game %s is unavailable: it could not be restored", game_id, exc_info=exc)
        summary = unavailable_summary(exc if isinstance(exc, BadRow) else row or BadRow(game_id, reason), reason)
        self.unavailable[game_id] = summary
        return summary

    def release(self, live: LiveGame) -> None:
        """Forget a finished game nobody is watching (it was loaded for one request)."""
        if live.match.over and not live.clients:
            self.unload(live)

    def unload(self, live: LiveGame) -> None:
        if self.games.get(live.id) is live:
            live.stop()
            del self.games[live.id]
            if self.cluster is not None:
                self.cluster.forget_later(live.id)
            if self.ai_processes is not None and live.agents and live.match.over:
                self.ai_processes.forget(live.agent_key(seat) for seat in live.agents)

    async def rematch(self, live: LiveGame, token: object, name: str | None = None) -> tuple[LiveGame, int, str]:
        """The rematch of a finished game (created on the first request); the requester's new seat
        and token there.

        Seats rotate (seat i moves to i+1). A seat of the rematch is taken by the holder of the old
        seat's token when they ask, with a token derived from theirs (:func:`derived_token`), so
        every player fetches their own and nobody gets anyone else's. A seat nobody had claimed
        starts unclaimed, with no invitation until the creator issues one. Nicknames move with
        their seats (``name``: the requester's new one); a public game's rematch is public."""
        seat = live.seat_for_token(token)
        async with live.lock:
            if not live.match.over:
                raise Conflict("the game is not over yet; a rematch can start once it ends")
            if live.row.rematch is None:
                n = len(live.row.seats)
                seats = [rematch_record(live.row.seats[(j - 1) % n]) for j in range(n)]
                new = await self._start(rotated(live.game), seats, rematch_of=live, public=live.row.public,
                                         clock=live.match.time_control, hints=live.row.hints)
                live.row.rematch = new.id
                live.broadcast()
            else:
                new = await self.get(live.row.rematch)
        new_seat = (seat + 1) % len(live.row.seats)
        assert isinstance(token, str)  # seat_for_token accepted it
        return new, new_seat, await new.take_rematch_seat(new_seat, token, name)


def unavailable_summary(row: GameRow | BadRow, reason: str) -> dict[str, Any]:
    """What the lobby shows of a game that cannot be played: its id, game, creation time and why
    (nothing else of a damaged row is trusted; its moves count as 0)."""
    if isinstance(row, BadRow):
        game_id, game, variant, created = row.game_id, row.game, "?", row.created
    else:
        game_id, game, variant, created = row.id, row.game, row.variant, row.created
    return {"id": game_id, "game": game[:64], "variant": variant[:64], "options": {}, "seats": [],
            "status": "unavailable", "reason": reason, "result": None, "moves": 0, "created": created}


def rotated(game: Game[Any, Any]) -> Game[Any, Any]:
    """``game`` for its rematch, whose seats rotate (seat i moves to i+1): what each player
    brought with their seat (``Game.seat_options``: a Sheng-Ke deck) moves with them."""
    if not game.seat_options:
        return game
    n = game.num_players
    options = dict(game.config)
    for names in game.seat_options.values():
        options.update({names[j]: game.config[names[(j - 1) % n]] for j in range(n)})
    return load(game.name, game.variant, options)


def rematch_record(old: SeatRecord) -> SeatRecord:
    """A seat's record in the rematch, from its record in the finished game."""
    if old["kind"] != "human":
        return {"kind": old["kind"], "level": old.get("level"), "token": None}
    record = human_seat(creator=bool(old.get("creator")), name=old.get("name"))
    record["rematch_of"] = old.get("token")
    return record


def check_hints(specs: list[dict[str, Any]]) -> None:
    """Refuse hints (GameError) unless the game seats exactly one human and at least one AI:
    hints are for a player against the engine, never in a game between people."""
    humans = sum(spec["kind"] == "human" for spec in specs)
    if humans != 1 or len(specs) == humans:
        reason = "there is no AI seat" if len(specs) == humans else \
            "there is no human seat" if humans == 0 else f"{humans} seats are human"
        raise GameError(f"hints are only for a game of one person against the AI; here {reason}")


def creator_seat(specs: list[dict[str, Any]], seat: object) -> int | None:
    """The seat the creator of a game takes: ``seat`` from the request, by default the first
    human seat (None when every seat is an AI)."""
    humans = [i for i, spec in enumerate(specs) if spec["kind"] == "human"]
    if seat is None:
        return humans[0] if humans else None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in humans:
        choices = ", ".join(map(str, humans)) or "none: every seat is an AI"
        raise GameError(f'"seat" must be the number of a human seat ({choices}), not {brief(seat)}')
    return seat


def seat_specs(game: Game[Any, Any], seats: object) -> list[dict[str, Any]]:
    """Check the ``seats`` of a create request; default: every seat human."""
    n = game.num_players
    if seats is None:
        return [{"kind": "human"} for _ in range(n)]
    if not isinstance(seats, list):
        raise GameError('seats must be a list like [{"kind": "human"}, {"kind": "ai", "level": "easy"}]')
    if len(seats) != n:
        raise GameError(f"{game.name} with these options seats {n} players, but {len(seats)} seats were given")
    levels = agent_levels(game)
    result = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "ai"):
            raise GameError(f'seat {i} must be {{"kind": "human"}} or {{"kind": "ai", "level": ...}}')
        if seat["kind"] == "human":
            result.append({"kind": "human"})
            continue
        level = seat.get("level", "easy" if "easy" in levels else levels[0])
        if not isinstance(level, str):
            raise GameError(f"seat {i}: level must be one of {', '.join(levels)}")
        make_agent(game, level)  # raises GameError naming the levels
        result.append({"kind": "ai", "level": level})
    return result
