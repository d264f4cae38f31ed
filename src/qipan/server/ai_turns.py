"""AI turns in a live game: each AI seat's agent, its think time, and its moves, chosen in this
process or in a worker process.

:class:`AITurns` is a part of :class:`qipan.server.live.LiveGame`, which holds the state it reads
and plays the moves it chooses.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from qipan.ai import make_agent
from qipan.ai.agent import Agent, RandomAgent, choose_within
from qipan.core import GameError, Match
from qipan.core.chance import KeyedRandom, event_key
from qipan.core.clock import QUICK_THINK, think_time
from qipan.core.game import Game
from qipan.server.ai_pool import BACKGROUND, FOREGROUND, Request
from qipan.server.store import GameRow

if TYPE_CHECKING:
    from qipan.server.hub import Hub

log = logging.getLogger("qipan.server")


class AITurns:
    """A live game's AI seats: their agents and their turns."""

    hub: Hub
    row: GameRow
    match: Match
    game: Game[Any, Any]
    agents: dict[int, Agent]
    epoch: int
    ai_owner: str | None
    _ai_task: asyncio.Task[None] | None
    _synced: dict[int, int]

    if TYPE_CHECKING:  # LiveGame's
        @property
        def id(self) -> str: ...
        def after_change(self) -> None: ...
        async def act(self, seat: int | None, kind: str, text: str | None = None, ply: int | None = None,
                      epoch: int | None = None) -> None: ...

    def _seat_agents(self) -> None:
        """Give every AI seat a new agent; agents with memory (Tellstones) in this process rebuild
        it from every view they would have seen."""
        for seat, info in enumerate(self.row.seats):
            if info["kind"] == "ai":
                self.agents[seat] = make_agent(self.game, info["level"])
        if self.agents and self.hub.ai_processes is None:
            for state in self.match.states[1:]:
                self._observe(state)

    def _restart_agents(self) -> None:
        """After a takeback: every agent starts again from the whole (shorter) history."""
        self._synced.clear()  # worker-process agents get it with their next request
        if self.hub.ai_processes is None:
            self._seat_agents()

    def _observe(self, state: Any) -> None:
        if self.hub.ai_processes is not None:
            return  # worker-process agents get their views with the next request
        for seat, agent in self.agents.items():
            try:
                agent.observe(self.game, self.game.view(state, seat))
            except Exception:
                log.exception("AI %s (seat %d) failed to observe in game %s", agent.name, seat, self.id)

    def _think_time(self, seat: int) -> float | None:
        """Seconds the AI at ``seat`` may think, by its running clock (None: its own budget)."""
        match = self.match
        clocks = match.clocks()
        if match.time_control is None or clocks is None or not match.clock_running()[seat]:
            return None
        return think_time(clocks[seat], match.time_control.increment)

    async def _ai_turn(self, seat: int, ply: int) -> None:
        epoch = self.epoch
        think = self._think_time(seat)
        quick = think is not None and think < QUICK_THINK  # short of time: no pause, no search
        delay = self.hub.ai_delay if think is None else 0.0 if quick else min(self.hub.ai_delay, think / 4)
        if delay:
            await asyncio.sleep(delay)
        state = self.match.state
        if len(self.match.moves) != ply or self.epoch != epoch:
            return
        if think is not None:
            think = self._think_time(seat)
        agent = self.agents[seat]
        key = event_key(self.row.seed, "ai", ply)
        rng = KeyedRandom(key)
        view = self.game.view(state, seat)
        text: str | None = None
        try:
            if quick:
                action = RandomAgent().choose(self.game, view, rng)
            elif isinstance(agent, RandomAgent):
                action = agent.choose(self.game, view, rng)  # as cheap as the fallback: never queued
            elif self.hub.ai_processes is not None:
                action = await self._choose_in_worker(seat, view, key, think)
            else:
                action = await asyncio.get_running_loop().run_in_executor(
                    self.hub.ai_pool, choose_within, agent, think, self.game, view, rng
                )
            text = self.game.action_text(state, action)
        except Exception:
            log.exception("AI %s failed in game %s; playing a random legal move", agent.name, self.id)
        # else: resigned, timed out or taken back meanwhile
        if len(self.match.moves) == ply and self.epoch == epoch and not self.match.over:
            legal = self.match.legal_texts()
            if text is None or text not in legal:
                text = rng.choice(legal)
            try:
                await self.act(seat, "move", text, ply=ply, epoch=epoch)
            except GameError as exc:
                log.warning("AI move %s in game %s was refused: %s", text, self.id, exc)
                await asyncio.sleep(1.0)  # e.g. the database is down: retry, but not in a tight loop
        if self._ai_task is asyncio.current_task():
            self._ai_task = None
        self.after_change()

    def agent_key(self, seat: int) -> str:
        """The name of an AI seat's agent in the worker processes."""
        return f"{self.id}:{seat}"

    async def _choose_in_worker(self, seat: int, view: dict[str, Any], rng_key: bytes, think: float | None) -> Any:
        """The AI's choice from its worker process (within ``think`` seconds, if given), sending
        the views it has not seen yet."""
        pool = self.hub.ai_processes
        assert pool is not None
        deadline = None if think is None else time.time() + think
        for _ in range(2):
            first = self._synced.get(seat, 0)
            views = [self.game.view(s, seat) for s in self.match.states[1 + first:]]
            request = Request(self.agent_key(seat), self.game.name, self.game.variant, dict(self.game.config),
                              self.row.seats[seat]["level"], first, views, view, rng_key, think=think,
                              deadline=deadline)
            # A game with a human seat has someone waiting for this move: it goes first.
            human = any(info["kind"] == "human" for info in self.row.seats)
            status, value = await pool.choose(request, FOREGROUND if human else BACKGROUND, self.ai_owner or self.id)
            if status == "ok":
                self._synced[seat] = first + len(views)
                return value
            self._synced[seat] = 0
            if status == "resync":
                pool.resyncs += 1
                continue
            raise GameError(f"the AI failed: {value}")
        raise GameError("the AI worker could not be brought up to date")
