"""Games nobody plays any more end by themselves.

A game is *unstarted* until every human seat has made a move; one that stays unstarted for
``unstarted`` seconds is **aborted**: nobody wins or loses (returns all 0, reason ``"aborted"``).
A started game in which nobody moves for ``idle`` seconds is **lost by the player to move**
(reason ``"abandoned"``, as on lichess), or aborted if that player is an AI. Both timers count
from the game's last move (or its creation), as stored in the database, so they hold across
restarts; 0 turns a timer off. The ending is committed like any other before anyone hears of it,
and the game then leaves memory. Finished games are kept.

>>> policy = Expiry(unstarted=3600, idle=86400)
>>> policy.limit(started=False), policy.limit(started=True)
(3600, 86400)
>>> describe(259200), describe(3600), describe(90), describe(0.5)
('3 days', '1 hour', '1.5 minutes', '0.5 seconds')
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipan.core import Match
from qipan.server.errors import Fenced

if TYPE_CHECKING:
    from qipan.server.hub import Hub
    from qipan.server.live import LiveGame

log = logging.getLogger("qipan.server")

UNSTARTED = 3600.0
"""Default seconds before a game in which some human has not moved yet is aborted: invitations
are usually taken within minutes, and an abandoned lobby should not hold memory for long."""

IDLE = 3 * 86400.0
"""Default seconds without a move before a started game is lost by the player to move: long
enough for a game between friends to pause over a weekend."""

MAX_TIMER = 366 * 86400.0
"""Longest timer accepted (a year)."""

MAX_SWEEP = 60.0
"""Longest wait between two looks at every live game's deadline."""


def check_timer(name: str, seconds: float) -> float:
    """A timer from a keyword or option: 0 (never) or positive seconds up to a year."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds <= MAX_TIMER:
        raise ValueError(f"{name} must be 0 (never) or a number of seconds up to {MAX_TIMER:g}, not {seconds!r}")
    return float(seconds)


def describe(seconds: float) -> str:
    """A duration for a result text."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size, 1)
            return f"{count:g} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


@dataclass(frozen=True)
class Expiry:
    """The two timers, in seconds (0: never)."""

    unstarted: float = UNSTARTED
    idle: float = IDLE

    def __post_init__(self) -> None:
        check_timer("the unstarted-game timeout", self.unstarted)
        check_timer("the idle-game timeout", self.idle)

    def limit(self, started: bool) -> float:
        return self.idle if started else self.unstarted

    def deadline(self, live: LiveGame) -> float | None:
        """When ``live`` expires unless someone moves (None: never, or over)."""
        match = live.match
        if match.over or clock_decides(live):
            return None
        limit = self.limit(has_started(live))
        if not limit:
            return None
        return last_activity(live) + limit

    @property
    def sweep(self) -> float:
        """Seconds between two looks at the deadlines: a small share of the shortest timer."""
        timers = [t for t in (self.unstarted, self.idle) if t]
        return min([MAX_SWEEP, *(t / 4 for t in timers)])


def has_started(live: LiveGame) -> bool:
    """Whether every human seat has made a move."""
    humans = {seat for seat, info in enumerate(live.row.seats) if info["kind"] == "human"}
    if not humans:
        return True
    moved = {move.player for move in live.match.moves if isinstance(move.player, int)}
    return humans <= moved


def clock_decides(live: LiveGame) -> bool:
    """Whether a timed game's own clock ends it if nobody moves: every seat is taken and the
    human to move has a running clock or a first-move window (:meth:`LiveGame.abort_at`). The
    timers then stay out of it: a clock may hold more than the idle timeout (a week's base, or
    increments), and a first-move window more than the unstarted one."""
    match = live.match
    mover = match.to_move
    if match.time_control is None or live.seated() is None or mover is None or mover < 0:
        return False
    return live.abort_at() is not None or match.clock_running()[mover]


def last_activity(live: LiveGame) -> float:
    """The time of the game's last move, or when its last seat was taken (its first turn began
    then), or its creation (from what is stored)."""
    start = live.seated() or live.row.created
    for move in reversed(live.match.moves):
        if move.time is not None:
            return max(move.time, start)
    return start


async def expire(live: LiveGame, policy: Expiry) -> bool:
    """End ``live`` if its deadline has passed (checked again under its lock); True if it ended."""

    def end(match: Match) -> bool:
        deadline = policy.deadline(live)
        if deadline is None or deadline > time.time():
            return False  # someone moved meanwhile
        if not has_started(live):
            limit = describe(policy.unstarted)
            match.stop("aborted", f"game aborted: not every player made a move within {limit}")
            return True
        mover = match.to_move
        if mover is not None and mover >= 0 and live.row.seats[mover]["kind"] == "human":
            match.forfeit(mover, "abandoned")
        else:
            match.stop("aborted", f"game aborted: no move for {describe(policy.idle)}")
        return True

    return await live.conclude(end)


async def watch(hub: Hub, policy: Expiry) -> None:
    """Expire every live game whose time has come, until cancelled."""
    if not (policy.unstarted or policy.idle):
        return
    while True:
        now = time.time()
        wake = now + policy.sweep
        for live in list(hub.games.values()):
            deadline = policy.deadline(live)
            if deadline is None:
                continue
            if deadline > now:
                wake = min(wake, deadline)
                continue
            try:
                if await expire(live, policy):
                    log.info("game %s expired: %s", live.id, (live.match.result() or {}).get("text"))
            except Fenced:  # another process owns it now (the hub let it go): it expires it there
                pass
            except Exception:  # e.g. the database is down: the next sweep tries again
                log.exception("could not end expired game %s", live.id)
        await asyncio.sleep(max(0.01, wake - time.time()))
