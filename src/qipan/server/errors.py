"""The server's error types; each maps to an HTTP status and a WebSocket close code."""

from __future__ import annotations

from qipan.core import GameError


class AuthError(GameError):
    """A seat token that does not match (HTTP 403, WebSocket close code 4403)."""


class Conflict(GameError):
    """A request that does not fit the game's status (HTTP 409)."""


class NotFound(GameError):
    """No game with that id (HTTP 404)."""
