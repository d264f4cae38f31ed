"""The clocks of a live game: the time each player has left, the window for a first move, how a
game's clock is stored, and the task that ends a game when the player to move runs out of time.

:class:`Clocks` is a part of :class:`qipan.server.live.LiveGame`, which holds the state it reads
and the lock and commits it uses. The clocks themselves are :class:`qipan.core.Match`'s; this is
only what the server adds: the watch that acts on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from qipan.core import GameError, Match
from qipan.core.clock import Reset, TimeControl
from qipan.server.errors import Fenced
from qipan.server.expiry import describe
from qipan.server.store import GameRow

log = logging.getLogger("qipan.server")


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


class Clocks:
    """A live game's clocks: what they show, and the watch that ends the game on time."""

    row: GameRow
    match: Match
    lock: asyncio.Lock
    changed: asyncio.Event

    if TYPE_CHECKING:  # the rest of LiveGame
        @property
        def id(self) -> str: ...
        def seat_name(self, seat: int) -> str: ...
        def seated(self) -> float | None: ...
        def _snapshot(self) -> tuple[int, tuple[Any, ...]]: ...
        async def _commit(self, before: tuple[int, tuple[Any, ...]]) -> None: ...

    def clocks(self) -> list[float] | None:
        """Seconds left on each clock (never below 0); once the game is over, as it ended."""
        clocks = self.match.clocks()
        return None if clocks is None else [max(0.0, c) for c in clocks]

    def abort_at(self) -> float | None:
        """When the server aborts this timed game unless the human to move makes their first
        move (None: it does not)."""
        match = self.match
        control, mover, seated = match.time_control, match.to_move, self.seated()
        if control is None or mover is None or mover < 0 or seated is None or mover in match.moved() \
                or self.row.seats[mover]["kind"] != "human":
            return None
        return max(match.turn_started(), seated) + control.first_move_window()

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
                    except Fenced:
                        return  # the game moved to another process, which ends it (the hub said so)
                    except GameError:
                        log.warning("could not save the end of game %s (time); retrying", self.id)
                        wait = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(max(wait, 0.01), 60.0))
