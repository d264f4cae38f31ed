"""Fuzzing the WebSocket: random and hostile messages on one seat's connection. Each gets exactly
one answer (an error, unless it is a well-formed ping or sync), the connection stays open, and the
game is exactly as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qipan.core import GameError, jsonsafe
from qipan.server import create_app
from qipan.server.limits import Limits

from .helpers import connect, create, until, update_with

EXAMPLES = 2000

KINDS = ["move", "ping", "sync", "hello", "error", "update", "MOVE", "", "resign ", None, 0, True, [], {}]
"""Message types to try: every real one but resign (it would end the game), near misses, wrong types."""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
moves = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"[a-iA-I][0-9]{1,2}([a-iA-I][0-9]{1,2}){1,3}", fullmatch=True),  # cell-like, rarely legal
    st.text(alphabet="a1b2c3 -", max_size=12),
    json_values,
)
objects = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS)},
    optional={"move": moves, "seat": json_values, "token": json_values, "extra": json_values},
).map(json.dumps)


def nested(depth: int, opener: str) -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + closer * depth


hostile = st.one_of(
    st.builds(nested, st.integers(30, 3000), st.sampled_from("[{")),
    st.integers(300, 6000).map(lambda n: '{"type": "move", "move": ' + "9" * n + "}"),
    st.integers(300, 6000).map(lambda n: '{"type": "sync", "n": 1' + "0" * n + ".5}"),
    st.sampled_from(["NaN", "Infinity", "-Infinity", '{"type": "move", "move": NaN}', '{"type": Infinity}',
                     '{"type": "ping", "x": 1e999}']),
    st.integers(8000, 70000).map(lambda n: '{"type": "move", "move": "' + "a" * n + '"}'),
    st.text(min_size=1, max_size=200).map(lambda t: '{"type": "move", "move": ' + json.dumps(t)[:-1]),  # cut off
    st.just('{"type": "ping", "type": "teleport"}'),  # duplicate keys: the last wins
)
messages = st.one_of(
    st.text(max_size=300),
    objects,
    json_values.map(json.dumps),
    hostile,
    st.binary(max_size=300),
    objects.map(lambda text: text.encode("utf-8")),
)


def expected(data: str | bytes) -> str:
    """The answer's type: pong or update for a well-formed ping or sync, else an error."""
    try:
        message: Any = jsonsafe.loads(data)
    except GameError:
        return "error"
    if len(data) > 8192 or not isinstance(message, dict):
        return "error"
    kind = message.get("type")
    return {"ping": "pong", "sync": "update"}.get(kind, "error") if isinstance(kind, str) else "error"


def test_random_and_hostile_messages_are_answered_and_change_nothing(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "fuzz.db"), ai_delay=0.0, ai_processes=False, limits=Limits(message_rate=None))
    sent: list[str | bytes] = []
    with TestClient(app) as client:
        created = create(client)
        match = client.app.state.hub.games[created["id"]].match  # type: ignore[attr-defined]

        def playable(data: str | bytes) -> bool:
            """Whether the server would (rightly) play this message's move."""
            try:
                message = jsonsafe.loads(data)
                move = message["move"].strip() if message.get("type") == "move" else None
                return move is not None and match.game.play(match.state, move) is not None
            except (GameError, AttributeError, TypeError, KeyError):
                return False
        with connect(client, created, 0) as black, connect(client, created, 1) as white:
            until(black, lambda m: all(s["connected"] for s in m["seats"]))
            until(white, lambda m: all(s["connected"] for s in m["seats"]))

            @settings(max_examples=EXAMPLES, deadline=None, database=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
            @given(messages)
            def answer_each(data: str | bytes) -> None:
                assume(not playable(data))
                if isinstance(data, str):
                    black.send_text(data)
                else:
                    black.send_bytes(data)
                sent.append(data)
                reply = black.receive_json()
                assert reply["type"] == expected(data), (data[:80], reply)
                if reply["type"] == "error":
                    assert len(reply["error"]) <= 400, reply
                    assert "Traceback" not in reply["error"] and "NoneType" not in reply["error"]
                assert match.moves == [] and not match.over

            answer_each()
            # Still open, nothing happened: white's next message is black's real move.
            black.send_json({"type": "ping"})
            assert black.receive_json() == {"type": "pong"}
            black.send_json({"type": "move", "move": "a1b2"})
            assert white.receive_json()["moves"] == [{"ply": 1, "player": 0, "text": "a1b2"}]
            assert until(black, update_with(1))["ply"] == 1
    kinds = {"binary": sum(isinstance(d, bytes) for d in sent), "text": sum(isinstance(d, str) for d in sent)}
    print(f"websocket fuzz: {len(sent)} messages answered ({kinds['text']} text, {kinds['binary']} binary)")
    assert len(sent) >= EXAMPLES // 2 and kinds["binary"] and kinds["text"]

