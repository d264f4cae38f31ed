"""uvicorn's HTTP/1.1 protocol (h11) with a deadline for request heads and JSON parse errors.

uvicorn times out idle keep-alive connections but waits forever for a request head that arrives
slowly (or never): a few hundred such sockets would hold the server's file descriptors. Here a
connection that has not sent a complete request head within ``head_timeout`` seconds of its
first byte (or of opening) is answered 408 and closed. Heads longer than uvicorn's
``h11_max_incomplete_event_size`` are answered 400 in JSON.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from qipan.server.edge import CONTENT_SECURITY_POLICY, SECURITY_HEADERS, error_answer


def _raw_reply(status: int, reason: str, error: str) -> bytes:
    """A whole JSON answer, with the security headers every answer carries (the app never sees
    these requests, so its middleware cannot add them)."""
    headers, body = error_answer(error, [(b"connection", b"close"),
                                         (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                                         *SECURITY_HEADERS])
    head = f"HTTP/1.1 {status} {reason}\r\n".encode()
    return head + b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n" + body


class TimedH11Protocol(H11Protocol):
    """H11Protocol with :attr:`head_timeout`; set it with :func:`timed_protocol`."""

    head_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm_head_timer()  # a head under way (or a new one on a kept-alive connection)
        else:
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._cancel_head_timer()  # the keep-alive timer watches the idle connection now

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self.transport.write(_raw_reply(400, "Bad Request",
                                        "invalid HTTP request (malformed, or its head is too long)"))
        self.transport.close()

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.write(_raw_reply(408, "Request Timeout",
                                            f"request head not received within {self.head_timeout:g} s"))
            self.transport.close()


def timed_protocol(head_timeout: float) -> type[TimedH11Protocol]:
    """A protocol class for ``uvicorn.run(http=...)`` with this head deadline."""
    attributes: dict[str, Any] = {"head_timeout": head_timeout}
    return type("QipanH11Protocol", (TimedH11Protocol,), attributes)
