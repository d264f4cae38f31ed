"""WebSocket play: hello, the update messages (full and delta), seats and tokens, hostile
messages, hidden information, AI seats, clocks. Every check reads the actual messages a
connection receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

import qipan
from qipan.server import ai_turns
from qipan.server import socket as socket_module

from .helpers import GatedAgent, History, Message, connect, create, hello, until, update_with


def server_match(client: TestClient, game_id: str) -> Any:
    return client.app.state.hub.games[game_id].match  # type: ignore[attr-defined]


def test_update_messages_carry_the_seat_view_and_legal_moves_only_for_the_mover(client: TestClient) -> None:
    created = create(client)
    game = qipan.load("abalone")
    start = game.initial_state()
    with connect(client, created, 0) as black, connect(client, created, 1) as white, \
            connect(client, created, None) as spectator:
        b = until(black, lambda m: all(s["connected"] for s in m["seats"]))
        w = until(white, update_with(0))
        s = until(spectator, update_with(0))
        assert set(b) == {"type", "game", "seat", "ply", "first", "moves", "history", "last", "view", "legal",
                          "to_move", "clock", "clocks", "clock_running", "abort_at", "now", "abortable", "offers",
                          "can", "result", "seats", "rematch"}
        assert b["seat"] == 0 and w["seat"] == 1 and s["seat"] is None
        assert b["view"] == game.view(start, 0) and w["view"] == game.view(start, 1)
        assert s["view"] == game.view(start, None)
        assert b["legal"] == game.legal_texts(start) and w["legal"] == [] and s["legal"] == []
        assert b["to_move"] == 0 and b["moves"] == [] and b["last"] is None and b["ply"] == b["first"] == 0
        assert b["clocks"] is None and b["result"] is None and b["history"] is True
        black.send_json({"type": "move", "move": "A1B2"})  # notation is case-insensitive
        after = {seat: until(ws, update_with(1)) for seat, ws in ((0, black), (1, white), (None, spectator))}
        for message in after.values():
            assert message["moves"] == [{"ply": 1, "player": 0, "text": "a1b2"}]
            assert message["last"] == message["moves"][0]
            assert message["to_move"] == 1
        assert after[0]["legal"] == [] and after[None]["legal"] == []
        assert after[1]["legal"] == game.legal_texts(game.play(start, "a1b2"))
    assert client.get(f"/api/games/{created['id']}").json()["moves"] == 1


def play_shuttle(black: WebSocketTestSession, white: WebSocketTestSession, plies: int,
                 *watchers: WebSocketTestSession) -> list[Message]:
    """Black and white move a marble out and back; every update each socket received, in order."""
    cycle = ["a1b2", "i5h5", "b2a1", "h5i5"]
    seen: list[Message] = []
    for ply in range(plies):
        mover = black if ply % 2 == 0 else white
        mover.send_json({"type": "move", "move": cycle[ply % 4]})
        for ws in (black, white, *watchers):
            seen.append(until(ws, update_with(ply + 1)))
    return seen


def test_updates_after_a_move_carry_only_the_new_move_and_a_new_connection_gets_the_history(
    client: TestClient,
) -> None:
    created = create(client)
    with connect(client, created, 0) as black:
        with connect(client, created, 1) as white:
            until(black, lambda m: all(s["connected"] for s in m["seats"]))
            until(white, update_with(0))
            for message in play_shuttle(black, white, 6):
                assert message["first"] == message["ply"] - 1 and len(message["moves"]) == 1
                assert message["moves"][0]["ply"] == message["ply"] and message["last"] == message["moves"][0]
            with connect(client, created, None) as late:
                full = until(late, update_with(6))
                assert full["first"] == 0
                assert [m["text"] for m in full["moves"]] == ["a1b2", "i5h5", "b2a1", "h5i5", "a1b2", "i5h5"]
                late.send_json({"type": "sync"})
                again = late.receive_json()
                assert again["first"] == 0 and again["moves"] == full["moves"] and again["view"] == full["view"]
        # White leaving is news for black: an update with no moves (first == ply).
        gone = black.receive_json()
        assert gone["seats"][1]["connected"] is False
        assert gone["moves"] == [] and gone["first"] == gone["ply"] == 6 and gone["last"] == full["moves"][-1]


def test_a_client_rebuilds_the_history_from_deltas_and_a_gap_is_visible(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white, \
            connect(client, created, None) as spectator:
        copies = {ws: History() for ws in (black, white, spectator)}
        for ws, copy in copies.items():
            copy.add(until(ws, lambda m: all(s["connected"] for s in m["seats"])))
        for message, ws in zip(play_shuttle(black, white, 8, spectator), [black, white, spectator] * 8, strict=True):
            copies[ws].add(message)
        record = [m.text for m in server_match(client, created["id"]).moves]
        for copy in copies.values():
            assert [m["text"] for m in copy.moves] == record
        # A client that missed the last update can tell: its copy ends before the next "first".
        stale = History()
        stale.moves = copies[spectator].moves[:-1]
        black.send_json({"type": "move", "move": "a1b2"})
        news = until(spectator, update_with(9))
        with pytest.raises(AssertionError, match="a gap"):
            stale.add(news)
        spectator.send_json({"type": "sync"})
        stale.add(spectator.receive_json())
        assert len(stale.moves) == 9


def test_ping_and_sync(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, None) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["type"] == "update"


def closed_with(ws: WebSocketTestSession) -> tuple[Message, int]:
    error = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as info:
        ws.receive_json()
    return error, info.value.code


@pytest.mark.parametrize(
    ("greeting", "reason"),
    [
        ({"type": "hello", "seat": 0, "token": "guess"}, "wrong or missing token"),
        ({"type": "hello", "seat": 0}, "wrong or missing token"),
        ({"type": "hello", "seat": 0, "token": ""}, "wrong or missing token"),
        ({"type": "hello", "seat": 0, "token": ["{token0}"]}, "wrong or missing token"),
        ({"type": "hello", "seat": 1, "token": "{token0}"}, "wrong or missing token"),
        ({"type": "hello", "seat": 2, "token": "{token0}"}, "seat must be 0..1"),
        ({"type": "hello", "seat": -1, "token": "{token0}"}, "seat must be 0..1"),
        ({"type": "hello", "seat": "0", "token": "{token0}"}, "seat must be a seat number"),
        ({"type": "hello", "seat": True, "token": "{token0}"}, "seat must be a seat number"),
        ({"type": "hello", "seat": 10**30, "token": "{token0}"}, "seat must be 0..1"),
    ],
)
def test_a_bad_hello_gets_an_error_and_close_4403(client: TestClient, greeting: Message, reason: str) -> None:
    created = create(client)
    text = json.dumps(greeting).replace("{token0}", created["tokens"][0])
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_text(text)
        error, code = closed_with(ws)
    assert error["type"] == "error" and reason in error["error"]
    assert code == 4403
    assert created["tokens"][0] not in error["error"]


def test_an_ai_seat_or_an_unclaimed_one_cannot_be_taken_and_unknown_games_close_4404(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}])
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": "x"})
        error, code = closed_with(ws)
    assert "played by the AI" in error["error"] and code == 4403
    invited = client.post("/api/games", json={"game": "abalone"}).json()  # seat 1 is still an invitation
    with client.websocket_connect(f"/ws/games/{invited['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": invited["token"]})
        error, code = closed_with(ws)
    assert "nobody has claimed seat 1" in error["error"] and code == 4403
    with client.websocket_connect("/ws/games/nosuchgame") as ws:
        ws.send_json({"type": "hello"})
        error, code = closed_with(ws)
    assert "no game" in error["error"] and code == 4404


def test_nothing_is_sent_before_hello_and_other_first_messages_are_answered(client: TestClient) -> None:
    created = create(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        for message in ({"type": "sync"}, {"type": "move", "move": "a1b2"}, "not json"):
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error" and '{"type": "hello"' in reply["error"], reply
        ws.send_json(hello(created, 0))
        first = ws.receive_json()
        assert first["type"] == "update" and first["seat"] == 0
    assert server_match(client, created["id"]).moves == []


def test_a_token_in_the_url_is_ignored(client: TestClient) -> None:
    """Query strings reach access logs: a token there never opens a seat."""
    created = create(client)
    path = f"/ws/games/{created['id']}?seat=0&token={created['tokens'][0]}"
    with client.websocket_connect(path) as ws:
        ws.send_json({"type": "move", "move": "a1b2"})
        assert "must say hello" in ws.receive_json()["error"]
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "move", "move": "a1b2"})
        assert "spectators cannot play" in ws.receive_json()["error"]
    assert server_match(client, created["id"]).moves == []


def test_a_connection_without_hello_is_closed(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_module, "HELLO_TIMEOUT", 0.2)
    created = create(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        error, code = closed_with(ws)
    assert "no hello within 0.2 seconds" in error["error"] and code == 4408


HOSTILE: list[tuple[str | bytes, str]] = [
    ("not json at all", "must be JSON objects"),
    ("[1, 2, 3]", "must be JSON objects"),
    ('"move"', "must be JSON objects"),
    ("{}", "unknown message type"),
    ('{"type": "teleport"}', "unknown message type 'teleport'"),
    ('{"type": ["move"]}', "unknown message type"),
    ('{"type": "hello", "seat": 1, "token": "x"}', "said hello already"),
    ('{"type": "move"}', 'needs "move"'),
    ('{"type": "move", "move": 5}', 'needs "move"'),
    ('{"type": "move", "move": "   "}', 'needs "move"'),
    ('{"type": "move", "move": "zz99"}', "is not a cell"),
    ('{"type": "move", "move": "a1a2"}', "illegal move"),
    ('{"type": "move", "move": "' + "a" * 9000 + '"}', "message too long"),
    ('{"type": "move", "move": "' + "a" * 8000 + '"}', "at most 200 characters"),
    ("[" * 1500 + "]" * 1500, "nested deeper"),
    ('{"type": "move", "move": ' + "9" * 5000 + "}", "number too long"),
    ('{"type": "move", "move": NaN}', "finite"),
    (b"\xff\x00binary", "UTF-8"),
    (b'{"type": "ping"}', ""),
]


def test_hostile_messages_are_answered_with_errors_and_change_nothing(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white, \
            connect(client, created, None) as spectator:
        until(black, lambda m: all(s["connected"] for s in m["seats"]))
        until(white, lambda m: all(s["connected"] for s in m["seats"]))
        until(spectator, lambda m: all(s["connected"] for s in m["seats"]))
        for raw, reason in HOSTILE:
            if isinstance(raw, bytes):
                black.send_bytes(raw)
            else:
                black.send_text(raw)
            reply = black.receive_json()
            if reason:
                assert reply["type"] == "error" and reason in reply["error"], (raw[:40], reply)
                assert len(reply["error"]) < 300
            else:
                assert reply == {"type": "pong"}
        white.send_json({"type": "move", "move": "i5h5"})
        reply = white.receive_json()
        assert reply["type"] == "error" and "not your turn" in reply["error"]
        for message in ({"type": "move", "move": "a1b2"}, {"type": "resign"}):
            spectator.send_json(message)
            reply = spectator.receive_json()
            assert reply["type"] == "error" and "spectators cannot play" in reply["error"]
        match = server_match(client, created["id"])
        assert match.moves == [] and not match.over
        # Nobody else heard about any of it, and a good move still works.
        black.send_json({"type": "move", "move": "a1b2"})
        assert white.receive_json()["moves"] == [{"ply": 1, "player": 0, "text": "a1b2"}]
    assert client.get(f"/api/games/{created['id']}").json()["moves"] == 1


def test_resigning_ends_the_game_and_later_moves_are_refused(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 1) as white:
        until(white, update_with(0))
        white.send_json({"type": "resign"})  # resigning is allowed out of turn
        done = until(white, lambda m: m["result"] is not None)
        assert done["result"]["reason"] == "resignation" and done["result"]["returns"] == [1.0, -1.0]
        assert done["to_move"] is None and done["legal"] == []
        for message in ({"type": "resign"}, {"type": "move", "move": "i5h5"}):
            white.send_json(message)
            reply = white.receive_json()
            assert reply["type"] == "error" and "over" in reply["error"]


def test_two_connections_on_one_seat_both_follow_and_connected_flags_track(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as tab1:
        with connect(client, created, 0) as tab2:
            until(tab2, update_with(0))
            tab2.send_json({"type": "move", "move": "a1b2"})
            assert until(tab1, update_with(1))["moves"][0]["text"] == "a1b2"
        summary = client.get(f"/api/games/{created['id']}").json()
        assert [s["connected"] for s in summary["seats"]] == [True, False]
    summary = client.get(f"/api/games/{created['id']}").json()
    assert [s["connected"] for s in summary["seats"]] == [False, False]


def test_ai_seat_answers_a_move(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "easy"}])
    with connect(client, created, 0) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "move", "move": "a1b2"})
        reply = until(ws, update_with(2))
        assert reply["last"]["player"] == 1 and reply["to_move"] == 0 and reply["legal"]


def test_a_thinking_ai_does_not_block_other_games(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = ai_turns.make_agent
    monkeypatch.setattr(ai_turns, "make_agent",
                        lambda game, level: GatedAgent(gate) if level == "random" else real(game, level))
    slow = create(client, seats=[{"kind": "ai", "level": "random"}, {"kind": "human"}])
    other = create(client)
    with connect(client, other, 0) as black, connect(client, other, 1) as white:
        for n, ws in enumerate([black, white, black, white]):
            m = until(ws, lambda m, n=n: m["type"] == "update" and m["ply"] == n and m["legal"])
            ws.send_json({"type": "move", "move": m["legal"][0]})
            until(ws, update_with(n + 1))
    assert client.get(f"/api/games/{slow['id']}").json()["moves"] == 0  # still thinking
    gate.set()
    with connect(client, slow, 1) as ws:
        assert until(ws, update_with(1))["to_move"] == 1


def test_clock_runs_out_on_the_server(client: TestClient) -> None:
    created = create(client, options={"time_limit": 1})
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        first = until(black, update_with(0))
        assert first["clocks"] == [1, 1] and first["clock_running"] == [False, False]
        assert first["clock"] == {"base": 1, "increment": 0}
        black.send_json({"type": "move", "move": "a1b2"})  # first moves are free: the clocks start with them
        until(white, update_with(1))
        white.send_json({"type": "move", "move": "i5h5"})
        second = until(black, update_with(2))
        assert second["clock_running"] == [True, True] and second["clocks"][1] == 1
        done = until(black, lambda m: m["result"] is not None)  # black does not move: the clock task ends it
    assert done["result"]["reason"] == "time" and done["result"]["loser"] == 0
    assert done["clocks"][0] == 0 and done["clocks"][1] == 1
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["result"]["reason"] == "time" and record["clock"] == {"base": 1, "increment": 0}


def drain(ws: WebSocketTestSession, seen: list[Message], moves: int) -> Message:
    """Read updates (keeping them in ``seen``) until the one with ``moves`` plies."""
    while True:
        message = ws.receive_json()
        seen.append(message)
        if message["type"] == "update" and message["ply"] == moves:
            return message


def test_shengke_hands_and_shuffles_never_reach_the_other_seat(client: TestClient) -> None:
    created = create(client, game="shengke")
    game = qipan.load("shengke")
    match = server_match(client, created["id"])
    seen: dict[int | None, list[Message]] = {0: [], 1: [], None: []}
    with connect(client, created, 0) as ws0, connect(client, created, 1) as ws1, \
            connect(client, created, None) as spec:
        sockets = {0: ws0, 1: ws1, None: spec}
        for seat, ws in sockets.items():
            seen[seat].append(ws.receive_json())  # the whole history, then news of the others
            while not all(s["connected"] for s in seen[seat][-1]["seats"]):
                seen[seat].append(ws.receive_json())
        for _ in range(14):
            mover = match.to_move
            if mover is None:
                break
            mine = seen[mover][-1]
            assert mine["to_move"] == mover and mine["legal"] == match.legal_texts()
            n = mine["ply"]
            sockets[mover].send_json({"type": "move", "move": mine["legal"][-1]})
            ack = until(sockets[mover], lambda m, n=n: m["type"] == "update" and m["ply"] > n)
            seen[mover].append(ack)
            for seat, ws in sockets.items():
                if seat != mover:
                    drain(ws, seen[seat], ack["ply"])
    shuffles = [m.text for m in match.moves if m.player == "chance" and m.text.startswith("shuffle")]
    assert shuffles, "the game shuffled decks"
    hands_seen = {0: False, 1: False}
    for seat, messages in seen.items():
        history = History()
        for message in messages:
            if message.get("view") is None:
                continue
            history.add(message)
            text = json.dumps(message, ensure_ascii=False)
            assert all(s not in text for s in shuffles), "a shuffle's order leaked"
            assert all(token not in text for token in created["tokens"].values())
            state = match.states[message["ply"]]
            assert message["view"] == game.view(state, seat)
            for other in (0, 1):
                hand = message["view"]["players"][other]["hand"]
                if other == seat:
                    hands_seen[other] |= bool(hand)
                else:
                    assert hand is None, f"seat {seat} saw the hand of seat {other}"
        for move in history.moves:
            assert move["player"] != "chance" or not move["text"].startswith("shuffle")
    assert hands_seen == {0: True, 1: True}


def test_tellstones_face_down_stone_and_peek_stay_with_the_peeker(client: TestClient) -> None:
    created = create(client, game="tellstones")
    with connect(client, created, 0) as ws0, connect(client, created, 1) as ws1, \
            connect(client, created, None) as spec:
        for ws in (ws0, ws1, spec):
            until(ws, lambda m: all(s["connected"] for s in m["seats"]))
        ws0.send_json({"type": "move", "move": "place shield 3"})
        ws1.send_json({"type": "move", "move": "hide 4"})  # queued: read after seat 0's move lands
        for ws in (ws0, ws1, spec):
            hidden = until(ws, update_with(2))
            assert hidden["view"]["lines"][0][3] == "?"
            assert "scale" not in json.dumps(hidden), "a face-down stone leaked"
        ws0.send_json({"type": "move", "move": "peek 4"})
        peeker = until(ws0, update_with(3))
        other = until(ws1, update_with(3))
        watcher = until(spec, update_with(3))
    assert peeker["view"]["revealed"] == {"slot": "4", "stone": "scale"}
    for message in (other, watcher):
        assert message["view"]["lines"][0][3] == "?"
        assert "scale" not in json.dumps(message), "the peeked stone leaked"
    assert client.get(f"/api/games/{created['id']}/record").status_code == 409


def test_tellstones_sends_no_history_while_it_is_played(client: TestClient) -> None:
    """Which stone went where is for the players to remember: no update before the end holds an
    earlier move than the newest, for the seats or for a spectator, on connect, sync or after a
    move; the replay endpoint refuses too. After the end the whole history is there."""
    created = create(client, game="tellstones")
    game_id = created["id"]
    match = server_match(client, game_id)
    seen: list[Message] = []
    with connect(client, created, 0) as ws0, connect(client, created, 1) as ws1, \
            connect(client, created, None) as spec:
        sockets = {0: ws0, 1: ws1, None: spec}
        for ws in sockets.values():
            seen.append(until(ws, lambda m: all(s["connected"] for s in m["seats"])))
        for _ in range(8):
            mover = match.to_move
            ply = len(match.moves)
            quiet = [t for t in match.legal_texts() if t.split()[0] in ("place", "hide", "swap", "peek")]
            sockets[mover].send_json({"type": "move", "move": quiet[0]})
            for ws in sockets.values():
                seen.append(until(ws, lambda m, ply=ply: m["type"] == "update" and m["ply"] > ply))
        assert client.get(f"/api/games/{game_id}/replay/1").status_code == 409
        with connect(client, created, None) as late:
            seen.append(late.receive_json())
            late.send_json({"type": "sync"})
            seen.append(late.receive_json())
        spec.send_json({"type": "sync"})
        seen.append(until(spec, lambda m: m["type"] == "update" and m["first"] == m["ply"]))
        texts = [m.text for m in match.moves]
        for message in seen:
            assert message["result"] is None and message["history"] is False
            ply = message["ply"]
            assert message["moves"] in ([], [message["last"]]) and message["first"] >= ply - 1
            newest = {"ply": ply, "player": match.moves[ply - 1].player, "text": texts[ply - 1]} if ply else None
            assert message["last"] == newest
            earlier = {t for t in texts[:max(ply - 1, 0)] if newest is None or t != newest["text"]}
            sent = json.dumps({k: v for k, v in message.items() if k != "legal"})  # legal: what may come
            assert not [t for t in earlier if t in sent], "an earlier move was sent"
        assert seen[-1]["moves"] == [] and seen[-2]["moves"] == []  # sync and connect: no moves at all
        ws0.send_json({"type": "resign"})
        final = until(spec, lambda m: m["type"] == "update" and m["result"] is not None)
    assert final["history"] is True and final["first"] == 0
    assert [m["text"] for m in final["moves"]] == [m.text for m in match.moves]
    assert client.get(f"/api/games/{game_id}/replay/1").status_code == 200


ALL_GAMES = [
    ("abalone", None, {}),
    ("chinese-checkers", None, {"players": 3}),
    ("kelighine", None, {"players": 3}),
    ("kelighine", None, {"version": 2}),
    ("shengke", None, {}),
    ("tellstones", None, {}),
    ("tellstones", "round-table", {}),
]


@pytest.mark.parametrize(("name", "variant", "options"), ALL_GAMES)
def test_every_game_plays_over_websockets_with_its_own_view_per_seat(
    client: TestClient, name: str, variant: str | None, options: dict[str, Any]
) -> None:
    game = qipan.load(name, variant, options)
    body: dict[str, Any] = {"variant": variant, "options": options}
    created = create(client, game=name, **body)
    assert len(created["seats"]) == game.num_players
    match = server_match(client, created["id"])
    seats: list[int | None] = [*range(game.num_players), None]
    copies = {s: History() for s in seats}
    with contextlib.ExitStack() as stack:
        sockets = {s: stack.enter_context(connect(client, created, s)) for s in seats}

        def read(seat: int | None, test: Any) -> Message:
            """Messages to ``seat`` until one passes ``test``; its copy of the history follows."""
            while True:
                message: Message = sockets[seat].receive_json()
                if message["type"] == "update":
                    if message["history"]:
                        copies[seat].add(message)
                    else:
                        assert not game.public_history and message["result"] is None
                        assert message["moves"] in ([], [message["last"]])
                if test(message):
                    return message

        for seat in seats:
            read(seat, lambda m: m["type"] == "update")
        for _ in range(12):
            if match.to_move is None:
                break
            mover = match.to_move
            n = len(match.moves)
            sockets[mover].send_json({"type": "move", "move": match.legal_texts()[-1]})
            target = read(mover, lambda m, n=n: m["type"] == "update" and m["ply"] > n)["ply"]
            state = match.states[target]
            for seat in seats:
                message = read(seat, update_with(target)) if seat != mover else None
                if message is None:
                    continue
                assert message["view"] == game.view(state, seat)
                assert message["legal"] == (match.legal_texts() if match.to_move == seat else [])
                expected_to_move = "chance" if match.to_move == qipan.CHANCE else match.to_move
                assert message["to_move"] == expected_to_move
        for seat, ws in sockets.items():
            ws.send_json({"type": "sync"})
            synced = read(seat, lambda m: m["type"] == "update" and m["ply"] == len(match.moves) and m["first"] in
                          (0, m["ply"]))
            assert synced["view"] == game.view(match.state, seat)
            if synced["history"]:
                assert synced["first"] == 0 and copies[seat].moves == synced["moves"]
    assert len(match.moves) >= 1


@pytest.mark.parametrize(("name", "options"), [("tellstones", {"turn_limit": 6}), ("shengke", {"turns": 2})])
def test_ai_against_ai_plays_to_the_end_while_a_spectator_watches(
    client: TestClient, name: str, options: dict[str, Any]
) -> None:
    created = create(client, game=name, options=options,
                     seats=[{"kind": "ai", "level": "easy"}, {"kind": "ai", "level": "random"}])
    assert created["seat"] is None and created["token"] is None
    assert all("token" not in s and "invite" not in s for s in created["seats"])
    with connect(client, created, None) as ws:
        final = until(ws, lambda m: m["type"] == "update" and m["result"] is not None, limit=500)
    assert final["to_move"] is None and final["legal"] == []
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert len(record["moves"]) == final["ply"]
    assert record["result"] == final["result"]


def test_resigning_while_the_ai_thinks_ends_the_game_cleanly(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    real = ai_turns.make_agent
    monkeypatch.setattr(ai_turns, "make_agent",
                        lambda game, level: GatedAgent(gate) if level == "random" else real(game, level))
    created = create(client, seats=[{"kind": "ai", "level": "random"}, {"kind": "human"}])
    live = client.app.state.hub.games[created["id"]]  # type: ignore[attr-defined]
    with connect(client, created, 1) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "resign"})
        done = until(ws, lambda m: m["result"] is not None)
        task = live._ai_task
        gate.set()
        assert task is not None
        client.portal.call(asyncio.wait_for, asyncio.shield(task), 10)  # type: ignore[union-attr]
    assert task.done() and task.exception() is None
    assert done["ply"] == 0 and done["result"]["loser"] == 1
    assert client.get(f"/api/games/{created['id']}").json()["moves"] == 0
