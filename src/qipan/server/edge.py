"""The HTTP and WebSocket edge: who may send what, and the headers every answer carries.

:class:`Edge` is ASGI middleware around the whole app. For every HTTP request and WebSocket
handshake it counts the connection against the caps, refuses too many or too long headers, a
``Host`` the server does not answer to (when it has a host list) and a foreign ``Origin`` (on
requests that change state and on every WebSocket), and spends a ``join`` token for each
WebSocket. A request body is read here in full before the app sees it: no more than ``max_body``
bytes, within ``body_timeout`` seconds; one sent with a request that changes state must be JSON,
parsed with :func:`qipan.core.jsonsafe.loads` (bounded nesting and numbers). Every refusal is JSON
``{"error": "..."}``.
:class:`RedactSecrets` keeps tokens out of the server's logs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from fastapi import Depends
from starlette.requests import Request

from qipan.core import GameError
from qipan.core.jsonsafe import loads
from qipan.server.limits import Guard, client_key, retry_after

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

def limited(name: str) -> Any:
    """A route dependency spending one of the client's ``name`` tokens (``create``, ``join``,
    ``analyse``, ``position``: :class:`qipan.server.limits.Limits`); 429 when there is none."""
    async def check(request: Request) -> None:
        guard: Guard = request.app.state.guard
        if refused := await guard.refusal(name, request.scope):
            raise refused
    return Depends(check)


CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The web client loads only its own scripts; it sets ``style`` attributes, hence the inline styles."""

DOCS_POLICY = (
    "default-src 'none'; script-src https://cdn.jsdelivr.net 'unsafe-inline'; "
    "style-src https://cdn.jsdelivr.net 'unsafe-inline'; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; frame-ancestors 'none'"
)
"""FastAPI's Swagger page at /api/docs loads Swagger UI from a CDN and starts it inline."""

SECURITY_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


def normalise_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without a trailing slash.

    >>> normalise_origin("HTTPS://Example.org/")
    'https://example.org'
    """
    return origin.strip().rstrip("/").lower()


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names a server listening on loopback answers to (``qipan serve`` default)."""


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without the port, in lower case.

    >>> host_name("[::1]:8000"), host_name("LocalHost:80"), host_name("example.org")
    ('::1', 'localhost', 'example.org')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Edge:
    """The middleware; ``guard`` holds the limits and the state enforcing them, ``allow_origins``
    the origins besides the server's own that may send requests and open WebSockets,
    ``allow_hosts`` the host names requests may be addressed to (None: any).

    A host list stops DNS rebinding: a web page whose name is made to resolve to 127.0.0.1 would
    otherwise be "same origin" with a server on this machine."""

    def __init__(self, app: ASGIApp, guard: Guard, allow_origins: Iterable[str] = (), docs_path: str = "/api/docs",
                 allow_hosts: Iterable[str] | None = None):
        self.app = app
        self.guard = guard
        self.allow_origins = frozenset(normalise_origin(o) for o in allow_origins)
        self.allow_hosts = None if allow_hosts is None else frozenset(host_name(h) for h in allow_hosts)
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope.get("method") == "HEAD":
            # HEAD is GET without the body (link previews and monitors ask it); the routes serve GET.
            scope, send = {**scope, "method": "GET"}, _headers_only(send)
        client = client_key(scope)
        websocket = scope["type"] == "websocket"
        refuse = self._refuse_websocket if websocket else self._refuse_http
        refused_by = await self.guard.connect(client)
        if refused_by is not None:
            if refused_by == "client":
                await refuse(scope, receive, send, 429, "too many connections from your address; close some first",
                             [(b"retry-after", b"10")])
            else:
                await refuse(scope, receive, send, 503, "the server is at its connection limit; try again soon",
                             [(b"retry-after", b"10")])
            return
        try:
            await self._admit(scope, receive, send, client, websocket)
        finally:
            self.guard.disconnect(client)

    async def _admit(self, scope: Scope, receive: Receive, send: Send, client: str, websocket: bool) -> None:
        refuse = self._refuse_websocket if websocket else self._refuse_http
        headers = scope.get("headers") or []
        limits = self.guard.limits
        if len(headers) > limits.max_headers:
            await refuse(scope, receive, send, 431, f"too many headers (at most {limits.max_headers})")
            return
        head = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + \
            sum(len(name) + len(value) + 4 for name, value in headers)
        if head > limits.max_head:
            await refuse(scope, receive, send, 431, f"request head too long (at most {limits.max_head} bytes)")
            return
        if self.allow_hosts is not None and host_name(_header(scope, b"host") or "") not in self.allow_hosts:
            await refuse(scope, receive, send, 400, "this server does not answer to that host name (Host)")
            return
        method = scope.get("method", "GET")
        changing = method in CHANGING_METHODS
        if (websocket or changing) and not self.origin_allowed(scope):
            await refuse(scope, receive, send, 403, "requests from other web sites are refused (Origin)")
            return
        if websocket:
            if refused := await self.guard.refusal("join", scope):
                await refuse(scope, receive, send, 429, str(refused),
                             [(b"retry-after", retry_after(refused.wait).encode())])
                return
            await self.app(scope, receive, self._with_headers(scope, send))
            return
        length = _header(scope, b"content-length")
        has_body = (length is not None and length.strip() != "0") or _header(scope, b"transfer-encoding") is not None
        typed = _header(scope, b"content-type") is not None
        if has_body or typed:
            # What a request that changes state sends must be JSON (an empty, untyped body is
            # left to the route: 400 where one is required, 405 where the method is not served).
            body = await self._read_body(scope, receive, send, needs_json=changing)
            if body is None:
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, self._with_headers(scope, send))

    # -- checks --------------------------------------------------------------------------------------

    def origin_allowed(self, scope: Scope) -> bool:
        """True without an ``Origin`` header (scripts), or for the server's own or an allowed origin."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        origin = normalise_origin(origin)
        if origin in self.allow_origins:
            return True
        host = _header(scope, b"host")
        if host is None:
            return False
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        return origin == normalise_origin(f"{scheme}://{host}")

    async def _read_body(self, scope: Scope, receive: Receive, send: Send, needs_json: bool) -> bytes | None:
        """The whole body, or None after answering why not (415, 413, 408 or 400)."""
        limits = self.guard.limits
        too_large = f"request body too large (at most {limits.max_body} bytes)"
        if needs_json and not _is_json(_header(scope, b"content-type")):
            await self._refuse_http(scope, receive, send, 415,
                                    "request bodies must be JSON (Content-Type: application/json)")
            return None
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limits.max_body:
            await self._refuse_http(scope, receive, send, 413, too_large)
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(limits.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limits.max_body:
                        await self._refuse_http(scope, receive, send, 413, too_large)
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await self._refuse_http(scope, receive, send, 408,
                                    f"request body not received within {limits.body_timeout:g} s")
            return None
        body = b"".join(chunks)
        if needs_json:
            try:
                loads(body.decode("utf-8"), max_chars=limits.max_body)
            except UnicodeDecodeError:
                await self._refuse_http(scope, receive, send, 400, "the request body must be UTF-8 JSON")
                return None
            except GameError as exc:
                await self._refuse_http(scope, receive, send, 400, f"the request body must be JSON: {exc}")
                return None
        return body

    # -- answers -------------------------------------------------------------------------------------

    def _policy(self, scope: Scope) -> bytes:
        docs = scope.get("path") == self.docs_path
        return (DOCS_POLICY if docs else CONTENT_SECURITY_POLICY).encode()

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        extra = [(b"content-security-policy", self._policy(scope)), *SECURITY_HEADERS]

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in extra if h[0] not in names)]
            await send(message)

        return send_with_headers

    async def _refuse_http(self, scope: Scope, receive: Receive, send: Send, status: int, error: str,
                           headers: list[tuple[bytes, bytes]] | None = None) -> None:
        head, body = error_answer(error, headers or [])
        send = self._with_headers(scope, send)
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": body})

    async def _refuse_websocket(self, scope: Scope, receive: Receive, send: Send, status: int, error: str,
                                headers: list[tuple[bytes, bytes]] | None = None) -> None:
        """Refuse a handshake with an HTTP answer where the server can send one, else close it."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008, "reason": error[:120]})
            return
        head, body = error_answer(error, headers or [])
        send = self._with_headers(scope, send)
        await send({"type": "websocket.http.response.start", "status": status, "headers": head})
        await send({"type": "websocket.http.response.body", "body": body})


def error_answer(error: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers (``headers`` last) and body of a JSON ``{"error": ...}`` answer."""
    body = json.dumps({"error": error}).encode()
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers], body


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _is_json(content_type: str | None) -> bool:
    if content_type is None:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _headers_only(send: Send) -> Send:
    """``send`` for a HEAD request: the answer's status and headers, its body left out."""

    async def send_head(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {"type": "http.response.body", "body": b"", "more_body": message.get("more_body", False)}
        await send(message)

    return send_head


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then waits for the disconnect."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


# -- logs ----------------------------------------------------------------------------------------------

_SECRET_VALUE = re.compile(r"(?i)\b(token|invite)=[^&\s\"']*")


class RedactSecrets(logging.Filter):
    """Replaces the value of every ``token=`` and ``invite=`` in a log line by ``***``.

    >>> record = logging.LogRecord("uvicorn.access", 20, "", 0, '%s - "GET %s"', ("1.2.3.4", "/ws?token=abc&x=1"), None)
    >>> RedactSecrets().filter(record), record.getMessage()
    (True, '1.2.3.4 - "GET /ws?token=***&x=1"')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _SECRET_VALUE.search(message):
            record.msg, record.args = _SECRET_VALUE.sub(lambda m: f"{m.group(1)}=***", message), None
        return True


SERVER_LOGGERS = ("uvicorn.access", "uvicorn.error", "qipan.server")


def redact_logs(names: Iterable[str] = SERVER_LOGGERS) -> None:
    """Put :class:`RedactSecrets` on the server's loggers and their handlers (once)."""
    for name in names:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactSecrets) for f in target.filters):
                target.addFilter(RedactSecrets())
