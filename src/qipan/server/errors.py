"""The server's error types; each maps to an HTTP status and a WebSocket close code."""

from __future__ import annotations

from typing import Any

from qipan.core import GameError


class AuthError(GameError):
    """A seat token that does not match (HTTP 403, WebSocket close code 4403)."""


class Conflict(GameError):
    """A request that does not fit the game's status (HTTP 409)."""


class NotFound(GameError):
    """No game with that id (HTTP 404)."""


class Busy(GameError):
    """The server is at a limit that frees itself (HTTP 503 with Retry-After: ``retry_after``
    seconds), e.g. as many all-AI games running as it allows."""

    retry_after = 60


class SetAside(Conflict):
    """A game the server set aside because it cannot be resumed (HTTP 409, WebSocket close code
    4409); ``summary`` is what the lobby shows of it (status "unavailable" and the reason)."""

    def __init__(self, summary: dict[str, Any]):
        super().__init__(f"this game is unavailable: {summary['reason']}")
        self.summary = summary


class Elsewhere(GameError):
    """A game another live server process owns (cluster mode): the request goes to ``owner``,
    that process's id (see :mod:`qipan.server.cluster`)."""

    def __init__(self, owner: str):
        super().__init__("this game is played on another server process")
        self.owner = owner


class Fenced(GameError):
    """A write refused because this process no longer owns the game: another process took it
    over (its fencing token moved on). Nothing of the write was saved; the game is dropped here
    and its connections reconnect to the new owner."""

    def __init__(self, message: str = "this game moved to another server; reconnecting"):
        super().__init__(message)
