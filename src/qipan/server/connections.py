"""One WebSocket connection as the game sees it: its seat and a bounded queue of outgoing messages."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("qipan.server")

MAX_SEND_QUEUE = 256


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (None: spectator) and its queue of outgoing messages."""

    seat: int | None
    send: Callable[[str], Any]
    close: Callable[[int], Any]
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(MAX_SEND_QUEUE))
    task: asyncio.Task[None] | None = None
    dropped: bool = False
    closing: asyncio.Future[Any] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, message: str) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            # A client this far behind is gone or hostile; it can reconnect and catch up.
            log.warning("dropping a connection whose send queue is full")
            self.dropped = True
            self.closing = asyncio.ensure_future(self.close(1013))

    async def _pump(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                await self.send(message)
            except Exception:
                return

    async def stop(self) -> None:
        """Stop sending (what is still queued is dropped) and wait for the sender to end."""
        if self.task is not None:
            self.task.cancel()
            # asyncio.wait raises neither the sender's cancellation nor its error, yet lets a
            # cancellation of the caller through: swallowing it here once kept a cancelled
            # lease heartbeat (dropping its games' connections) running, and the shutdown
            # waiting for it, for ever.
            await asyncio.wait([self.task])


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON for the wire."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
