"""The HTTP and WebSocket edge: Origin and content type, security headers, sizes, rates, caps,
timeouts and logs, in process (TestClient) and against a real ``qipan serve`` over raw sockets."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketDenialResponse
from typer.testing import CliRunner

from qipan.server import create_app
from qipan.server.cli import serve_command
from qipan.server.edge import CONTENT_SECURITY_POLICY, DOCS_POLICY, RedactSecrets
from qipan.server.limits import Limits, MemoryRateLimiter, Rate, TokenBucket, client_key

from .helpers import create, hello
from .server_process import ServerProcess

ABALONE = {"game": "abalone", "public": True}  # public: the lobby lists it, so games() counts it


@pytest.fixture
def app_with(db_path: Path) -> Iterator[Any]:
    """``app_with(limits=..., allow_origins=...)``: a started app with these settings."""
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False, **settings))
        clients.append(client)
        return client.__enter__()

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def games(client: TestClient) -> list[Any]:
    listed: list[Any] = client.get("/api/games").json()
    return listed


# -- Origin and content type ----------------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_that_is_not_json_is_refused_415_and_changes_nothing(client: TestClient, content_type: str) -> None:
    reply = client.post("/api/games", content=json.dumps(ABALONE).encode(), headers={"Content-Type": content_type})
    assert reply.status_code == 415
    assert "application/json" in reply.json()["error"]
    assert games(client) == []


def test_a_foreign_origin_may_not_change_state_but_may_read(client: TestClient) -> None:
    evil = {"Origin": "https://evil.example"}
    refused = client.post("/api/games", json=ABALONE, headers=evil)
    assert refused.status_code == 403 and "Origin" in refused.json()["error"]
    assert client.post("/api/describe", json=ABALONE, headers={"Origin": "null"}).status_code == 403
    assert games(client) == []
    assert client.get("/api/meta", headers=evil).status_code == 200
    assert client.post("/api/games", json=ABALONE, headers={"Origin": "http://testserver"}).status_code == 201
    assert client.post("/api/games", json=ABALONE).status_code == 201  # scripts send no Origin
    assert len(games(client)) == 2


def test_allowed_origins_may_change_state(app_with: Any) -> None:
    client = app_with(allow_origins=["https://Games.Example.org/"])
    assert client.post("/api/games", json=ABALONE, headers={"Origin": "https://games.example.org"}).status_code == 201
    assert client.post("/api/games", json=ABALONE, headers={"Origin": "http://games.example.org"}).status_code == 403


def test_a_rebound_host_name_is_refused_when_hosts_are_listed(app_with: Any) -> None:
    """DNS rebinding: evil.example made to resolve to 127.0.0.1 is 'same origin' with its Host."""
    client = app_with(allow_hosts=["localhost", "127.0.0.1", "::1"])
    rebound = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
    refused = client.post("/api/games", json=ABALONE, headers=rebound)
    assert refused.status_code == 400 and "host name" in refused.json()["error"]
    assert client.get("/api/games", headers=rebound).status_code == 400
    with pytest.raises(WebSocketDenialResponse), client.websocket_connect("/ws/games/x", headers=rebound):
        pass
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        origin = {"Host": host, "Origin": f"http://{host}"}
        assert client.post("/api/games", json=ABALONE, headers=origin).status_code == 201
    assert len(client.get("/api/games", headers={"Host": "localhost"}).json()) == 3


def test_a_foreign_origin_cannot_open_a_websocket(client: TestClient) -> None:
    created = create(client)
    with pytest.raises(WebSocketDenialResponse) as refused, \
            client.websocket_connect(f"/ws/games/{created['id']}", headers={"Origin": "https://evil.example"}):
        pass
    assert refused.value.status_code == 403
    assert "Origin" in refused.value.json()["error"]
    with client.websocket_connect(f"/ws/games/{created['id']}", headers={"Origin": "http://testserver"}) as ws:
        ws.send_json(hello(created, None))
        assert ws.receive_json()["type"] == "update"


# -- headers --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/static/js/app.js", "/api/meta", "/api/games/nosuchgame", "/api/nowhere"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self';" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"


def test_refusals_and_the_api_docs_carry_headers_too(client: TestClient) -> None:
    refused = client.post("/api/games", content=b"x", headers={"Content-Type": "text/plain"})
    assert refused.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert refused.headers["referrer-policy"] == "no-referrer"
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and docs.headers["content-security-policy"] == DOCS_POLICY


def test_the_web_pages_have_no_inline_script() -> None:
    """The policy runs only the server's own script files: no page may carry script in itself."""
    web = Path(__file__).resolve().parents[2] / "src" / "qipan" / "web"
    pages = [web / "index.html", *sorted((web / "rules").glob("*.html"))]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for tag, content in re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.DOTALL | re.IGNORECASE):
            assert "src=" in tag and not content.strip(), page.name
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html, flags=re.IGNORECASE), page.name
        assert "javascript:" not in html.lower(), page.name


# -- sizes ----------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_413(app_with: Any) -> None:
    client = app_with(limits=Limits(max_body=1024))
    padded = {**ABALONE, "variant": "standard", "options": {"time_limit": 60}}
    padded_text = json.dumps(padded) + " " * 2000
    reply = client.post("/api/games", content=padded_text.encode(), headers={"Content-Type": "application/json"})
    assert reply.status_code == 413 and "1024 bytes" in reply.json()["error"]
    assert client.post("/api/games", json=padded).status_code == 201


def test_too_many_headers_are_refused_431(client: TestClient) -> None:
    headers = {f"x-filler-{i}": "1" for i in range(100)}
    reply = client.get("/api/meta", headers=headers)
    assert reply.status_code == 431 and "headers" in reply.json()["error"]


def test_hostile_json_is_refused_400_with_a_short_message(client: TestClient) -> None:
    deep = b"[" * 5000 + b"]" * 5000
    long_number = b'{"game": "abalone", "options": {"time_limit": 1' + b"0" * 5000 + b"}}"
    long_key = json.dumps({"game": "abalone", "options": {"k" * 10_000: 1}}).encode()
    for body in (deep, long_number, long_key, b'{"game": NaN}'):
        reply = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert reply.status_code == 400, reply.text
        assert len(reply.json()["error"]) < 200
    assert games(client) == []


def test_a_body_that_does_not_fit_the_model_is_400_not_422(client: TestClient) -> None:
    for body, words in [({"game": "abalone", "colour": "red"}, "unknown field 'colour'"),
                        ({"game": "abalone", "seats": [{"kind": "human"}] * 17}, "at most 16"),
                        ({"game": "a" * 500}, '"game" must be'),
                        ({"game": "abalone", "options": {"time_limit": [1]}}, "option 'time_limit'")]:
        reply = client.post("/api/games", json=body)
        assert reply.status_code == 400, reply.text
        assert words in reply.json()["error"] and len(reply.json()["error"]) < 200


def test_an_unknown_field_inside_a_seat_is_named(client: TestClient) -> None:
    # It was reported as "unknown field 'seats'", which a client cannot act on.
    body = {"game": "abalone", "seats": [{"kind": "human", "token": "x"}, {"kind": "human"}]}
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 400 and reply.json()["error"] == "seat 0: unknown field 'token'"


def test_a_method_the_path_does_not_serve_is_405_with_allow(client: TestClient) -> None:
    describe = client.get("/api/describe")
    assert describe.status_code == 405 and describe.headers["allow"] == "POST"
    games_path = client.request("OPTIONS", "/api/games")
    assert games_path.status_code == 405 and games_path.headers["allow"] == "GET, POST"
    assert client.post("/api/meta").status_code == 405


# -- rates and caps -------------------------------------------------------------------------------


def test_creations_are_rate_limited_per_client(app_with: Any) -> None:
    client = app_with(limits=Limits(create_rate=Rate(3, 60.0)))
    assert [client.post("/api/games", json=ABALONE).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/api/games", json=ABALONE)
    assert refused.status_code == 429 and "too many games" in refused.json()["error"]
    assert 1 <= int(refused.headers["retry-after"]) <= 20  # one token comes back every 20 s
    other = TestClient(client.app, client=("10.1.2.3", 40000))
    assert other.post("/api/games", json=ABALONE).status_code == 201
    assert len(games(client)) == 4


def test_websocket_connects_and_claims_are_rate_limited(app_with: Any) -> None:
    client = app_with(limits=Limits(join_rate=Rate(3, 60.0)))
    reply = client.post("/api/games", json=ABALONE)
    created = reply.json()
    invite = next(seat["invite"] for seat in created["seats"] if seat.get("invite"))
    assert client.post(f"/api/games/{created['id']}/claim", json={"invite": invite}).status_code == 200
    for _ in range(2):
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "update"
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(f"/ws/games/{created['id']}"):
        pass
    assert refused.value.status_code == 429 and int(refused.value.headers["retry-after"]) >= 1
    again = client.post(f"/api/games/{created['id']}/claim", json={"invite": invite})
    assert again.status_code == 429


def test_websocket_messages_are_rate_limited_and_the_connection_stays(app_with: Any) -> None:
    client = app_with(limits=Limits(message_rate=Rate(3, 60.0)))
    created = client.post("/api/games", json=ABALONE).json()
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "update"
        answers = []
        for _ in range(4):
            ws.send_json({"type": "ping"})
            answers.append(ws.receive_json())
        assert answers[:2] == [{"type": "pong"}] * 2  # the hello spent the first token
        assert answers[2]["type"] == "error" and "too many messages" in answers[2]["error"]
        assert answers[3]["type"] == "error"


def test_connections_per_client_are_capped(app_with: Any) -> None:
    client = app_with(limits=Limits(client_connections=2))
    created = client.post("/api/games", json=ABALONE).json()
    path = f"/ws/games/{created['id']}"
    with client.websocket_connect(path) as first, client.websocket_connect(path) as second:
        for ws in (first, second):
            ws.send_json({"type": "hello"})
            ws.receive_json()
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(path):
            pass
        assert refused.value.status_code == 429 and "too many connections" in refused.value.json()["error"]
        assert client.get("/api/meta").status_code == 429
        other = TestClient(client.app, client=("10.9.9.9", 1))
        assert other.get("/api/meta").status_code == 200
    assert client.get("/api/meta").status_code == 200  # closed connections no longer count


def test_total_connections_are_capped(app_with: Any) -> None:
    client = app_with(limits=Limits(total_connections=1))
    created = client.post("/api/games", json=ABALONE).json()
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        other = TestClient(client.app, client=("10.9.9.9", 1))
        busy = other.get("/api/meta")
        assert busy.status_code == 503 and busy.headers["retry-after"]


# -- the token bucket -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(count=st.integers(1, 20), seconds=st.floats(0.5, 100),
       gaps=st.lists(st.floats(0, 10, allow_nan=False), min_size=1, max_size=200))
def test_a_bucket_never_allows_more_than_its_burst_plus_its_refill(count: int, seconds: float,
                                                                   gaps: list[float]) -> None:
    """Over any stretch of time T, at most count + count*T/seconds events pass, and a refused
    event passes once it has waited the time it was told."""
    rate = Rate(count, seconds)
    bucket = TokenBucket(rate, now=0.0)
    now, allowed = 0.0, []
    for gap in gaps:
        now += gap
        wait = bucket.take(now)
        if wait == 0.0:
            allowed.append(now)
        else:
            assert wait > 0
            probe = TokenBucket(rate, now=0.0)
            probe.tokens, probe.stamp = bucket.tokens, bucket.stamp
            assert probe.take(now + wait + 1e-9) == 0.0
    for i, start in enumerate(allowed):
        for j in range(i, len(allowed)):
            assert j - i + 1 <= count + (allowed[j] - start) * count / seconds + 1e-6


def test_the_limiter_forgets_the_least_recent_clients_beyond_its_bound() -> None:
    limiter = MemoryRateLimiter(max_clients=100, clock=lambda: 0.0)

    async def take_all() -> float:
        for i in range(1000):
            await limiter.take("create", f"10.0.{i // 256}.{i % 256}", Rate(1, 60.0))
        return await limiter.take("create", "10.0.3.231", Rate(1, 60.0))

    last = asyncio.run(take_all())
    assert len(limiter) == 100
    assert last == 60.0  # the last client is remembered


def test_a_client_is_its_address_and_an_ipv6_client_its_network() -> None:
    assert client_key({"client": ("2001:db8:1:2:aaaa::1", 1)}) == client_key({"client": ("2001:db8:1:2::9", 2)})
    assert client_key({"client": ("2001:db8:1:3::1", 1)}) == "2001:db8:1:3::/64"
    assert client_key({"client": ("::ffff:10.0.0.1", 1)}) == "10.0.0.1"
    assert client_key({"client": None}) == "unknown"


def test_nonsense_limits_are_refused() -> None:
    for bad in [{"max_body": 0}, {"body_timeout": -1.0}, {"client_connections": -1}, {"max_headers": True}]:
        with pytest.raises(ValueError):
            Limits(**bad)
    for text in ["5", "0/60", "3/0", "x/y", "-1/5"]:
        with pytest.raises(ValueError):
            Rate.parse(text)
    assert Rate.parse(" OFF ") is None and Rate.parse("30/60") == Rate(30, 60.0)


# -- qipan serve ----------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--port", "99999"], ["--port", "0"], ["--create-limit", "5"],
                                  ["--max-body", "10"], ["--head-timeout", "0"], ["--log-level", "loud"],
                                  ["--client-connections", "-1"]])
def test_qipan_serve_refuses_nonsense_options(args: list[str]) -> None:
    app = typer.Typer()
    app.command()(serve_command)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Invalid value" in result.output


def test_the_log_filter_hides_tokens_and_invitations() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, "", 0, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5000", "/ws/games/abc?seat=0&token=s3cr3t&invite=inv1T3"), None)
    RedactSecrets().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "WebSocket /ws/games/abc?seat=0&token=***&invite=***" [accepted]'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``qipan serve`` with one-second head and body deadlines and an access log."""
    root = tmp_path_factory.mktemp("edge")
    server = ServerProcess(str(root / "qipan.db"), root / "server.log", "--head-timeout", "1", "--body-timeout", "1",
                           "--log-level", "info")
    server.start()
    yield server
    server.stop()


def exchange(server: ServerProcess, data: bytes) -> bytes:
    """Send raw bytes, then read one answer (the socket times out after 30 s: a server that
    holds the connection fails the test)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        if data:
            sock.sendall(data)
        return read_answer(sock)


def read_answer(sock: socket.socket) -> bytes:
    """An HTTP answer's bytes: up to the end of its head and Content-Length bytes of body."""
    received = b""
    while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < length(received):
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def length(raw: bytes) -> int:
    for line in raw.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def answer(raw: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)


def test_a_slow_request_head_is_cut_off(served: ServerProcess) -> None:
    status, body = answer(exchange(served, b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
    assert status == 408 and "request head" in body["error"]
    assert answer(exchange(served, b""))[0] == 408  # a connection that never says anything


def test_answers_from_the_http_parser_carry_the_security_headers_too(served: ServerProcess) -> None:
    # The 408 for a slow head and the 400 for a malformed one are written below the app; they
    # had none of the headers "every answer" carries.
    for request in (b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"GARBAGE\r\n\r\n"):
        head = exchange(served, request).partition(b"\r\n\r\n")[0].lower()
        for name in (b"content-security-policy: ", b"referrer-policy: no-referrer", b"x-content-type-options: nosniff",
                     b"x-frame-options: deny"):
            assert name in head, (request, name)


def test_a_slow_request_body_is_cut_off(served: ServerProcess) -> None:
    head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n")
    status, body = answer(exchange(served, head + b'{"game": '))
    assert status == 408 and "request body" in body["error"]


def test_a_huge_body_is_refused_before_it_is_sent(served: ServerProcess) -> None:
    """A declared 64 MiB body is refused from its head: the answer comes after 1 KiB was sent."""
    head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 67108864\r\n\r\n")
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(head + b" " * 1024)
        status, body = answer(read_answer(sock))
    assert status == 413 and "too large" in body["error"]


def test_an_oversized_request_head_is_refused(served: ServerProcess) -> None:
    """Refused whole (431), or by the parser before it ends (400)."""
    filler = b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: " + b"a" * 40_000
    status, body = answer(exchange(served, filler + b"\r\n\r\n"))
    assert status == 431 and "too long" in body["error"]
    status, body = answer(exchange(served, filler[:17_000]))  # no end of head yet: the parser's limit
    assert status == 400 and "too long" in body["error"]


def test_the_access_log_never_records_a_token(served: ServerProcess) -> None:
    exchange(served, b"GET /play/abc?seat=0&token=SECRET-TOKEN-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Connection: close\r\n\r\n")
    exchange(served, b"GET /?invite=SECRET-INVITE-2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    served.get("/api/meta")  # one more request, so the lines above are flushed
    log = served.log.read_text()
    assert "token=***" in log and "invite=***" in log
    assert "SECRET-TOKEN-1" not in log and "SECRET-INVITE-2" not in log


def test_a_server_on_loopback_answers_only_localhost_names(served: Any) -> None:
    status, body = answer(exchange(served, b"GET /api/meta HTTP/1.1\r\nHost: rebound.example:8000\r\n"
                                           b"Connection: close\r\n\r\n"))
    assert status == 400 and "host name" in body["error"]
    status, _ = answer(exchange(served, b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
    assert status == 200


@pytest.mark.parametrize("path", ["/", "/api/meta", "/static/js/app.js"])
def test_head_is_answered_like_get_without_the_body(client: TestClient, path: str) -> None:
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]
    assert client.head("/api/games/nosuchgame").status_code == 404
