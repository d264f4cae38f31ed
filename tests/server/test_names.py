"""Nicknames: checked at the edge, shown on seats, kept in records and across restarts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipan.core import GameError
from qipan.server import create_app
from qipan.server.names import MAX_NAME, check_name

from .helpers import connect, create, until, update_with

HOSTILE = {
    "empty": ("", "empty"),
    "spaces": ("   \t ", "empty"),
    "too long": ("M" * (MAX_NAME + 1), "at most 24 characters"),
    "bidi override": ("Mei\u202egnaW", "U+202E"),
    "bidi isolate": ("\u2066Mei", "U+2066"),
    "zero width": ("Me\u200bi", "U+200B"),
    "byte order mark": ("\ufeffMei", "U+FEFF"),
    "bell": ("Mei\x07", "U+0007"),
    "escape": ("\x1b[31mMei", "U+001B"),
    "newline inside": ("Mei\nWang", "U+000A"),
    "line separator": ("Mei\u2028Wang", "U+2028"),
    "private use": ("Mei\ue000", "U+E000"),
    "unassigned": ("Mei\u0378", "U+0378"),
    "lone surrogate": ("Mei\ud800", "U+D800"),
    "not a string": (42, "must be a string"),
}


@pytest.mark.parametrize("value", ["Mei", "  Mei  ", "王小明", "Zoë 🎲", "M" * MAX_NAME, "a b"])
def test_names_are_stripped_and_kept(value: str) -> None:
    assert check_name(value) == value.strip()


@pytest.mark.parametrize(("value", "why"), HOSTILE.values(), ids=HOSTILE.keys())
def test_bad_names_are_refused_with_a_reason_that_does_not_repeat_them(value: Any, why: str) -> None:
    with pytest.raises(GameError) as refused:
        check_name(value)
    message = str(refused.value)
    assert why in message and len(message) < 100
    if isinstance(value, str) and len(value.strip()) > 2:
        assert value.strip() not in message and "Mei" not in message


def names(summary: dict[str, Any]) -> list[tuple[str, str]]:
    return [(seat["side"], seat["name"]) for seat in summary["seats"]]


def test_names_on_create_claim_and_join_show_on_every_seat(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "abalone", "name": " Mei ", "public": True})
    assert reply.status_code == 201
    created = reply.json()
    assert [(s["side"], s["name"]) for s in created["seats"]] == [("black", "Mei"), ("white", "white")]
    claimed = client.post(f"/api/games/{created['id']}/claim", json={"invite": created["seats"][1]["invite"],
                                                                      "name": "Bo"})
    assert claimed.status_code == 200
    assert names(client.get(f"/api/games/{created['id']}").json()) == [("black", "Mei"), ("white", "Bo")]
    other = client.post("/api/games", json={"game": "abalone", "public": True}).json()
    joined = client.post(f"/api/games/{other['id']}/join", json={"name": "Cy"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert names(client.get(f"/api/games/{other['id']}").json()) == [("black", "black"), ("white", "Cy")]


@pytest.mark.parametrize(("value", "why"), [HOSTILE["bidi override"], HOSTILE["too long"], HOSTILE["bell"],
                                            ("x" * 10_000, '"name" must be a nickname')])
def test_a_bad_name_is_a_400_and_changes_nothing(client: TestClient, value: str, why: str) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    refused = client.post("/api/games", json={"game": "abalone", "name": value})
    assert refused.status_code == 400 and why in refused.json()["error"]
    assert not hub.games
    created = client.post("/api/games", json={"game": "abalone", "public": True}).json()
    invite = created["seats"][1]["invite"]
    for path, body in (("claim", {"invite": invite, "name": value}), ("join", {"name": value})):
        reply = client.post(f"/api/games/{created['id']}/{path}", json=body)
        assert reply.status_code == 400 and why in reply.json()["error"]
        assert value[:30] not in reply.json()["error"]
    seats = client.get(f"/api/games/{created['id']}").json()["seats"]
    assert seats[1]["claimed"] is False  # the invitation still works
    assert client.post(f"/api/games/{created['id']}/claim", json={"invite": invite}).status_code == 200


def test_a_hello_names_the_seat_and_a_bad_one_keeps_the_old_name(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, None) as spectator:
        until(spectator, update_with(0))
        with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": created["tokens"][1], "name": "Bo"})
            first = until(ws, update_with(0))
            assert first["seats"][1]["name"] == "Bo"
        seen = until(spectator, lambda m: m["type"] == "update" and m["seats"][1]["name"] == "Bo")
        assert seen["seats"][1]["side"] == "white"
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": created["tokens"][1], "name": "B\u202eo"})
        assert until(ws, update_with(0))["seats"][1]["name"] == "Bo"
        problem = until(ws, lambda m: m["type"] == "error")["error"]
        assert "U+202E" in problem and "keep your name" in problem
        ws.send_json({"type": "ping"})  # the connection stays
        assert until(ws, lambda m: m["type"] == "pong")


def test_a_hello_after_the_end_does_not_rename_the_finished_games_record(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    players = client.get(f"/api/games/{created['id']}/record").json()["players"]
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": created["tokens"][1], "name": "Impostor"})
        assert until(ws, update_with(0))["seats"][1]["name"] != "Impostor"
    assert client.get(f"/api/games/{created['id']}/record").json()["players"] == players


def test_names_persist_across_a_restart_and_fill_the_record_and_the_rematch(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        reply = client.post("/api/games", json={"game": "abalone", "name": "Mei"}).json()
        invite = reply["seats"][1]["invite"]
        token = client.post(f"/api/games/{reply['id']}/claim", json={"invite": invite, "name": "Bo"}).json()["token"]
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        assert names(client.get(f"/api/games/{reply['id']}").json()) == [("black", "Mei"), ("white", "Bo")]
        with client.websocket_connect(f"/ws/games/{reply['id']}") as ws:
            ws.send_json({"type": "hello", "seat": 0, "token": reply["token"]})
            until(ws, update_with(0))
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
        record = client.get(f"/api/games/{reply['id']}/record").json()
        assert record["players"] == ["Mei", "Bo"]
        # The rematch: seats rotate and names move with them; Bo picks a new name as he asks.
        again = client.post(f"/api/games/{reply['id']}/rematch", json={"token": token, "name": "Bob"})
        assert again.status_code == 201
        summary = client.get(f"/api/games/{again.json()['id']}").json()
        assert names(summary) == [("black", "Bob"), ("white", "Mei")]
        first = client.post(f"/api/games/{reply['id']}/rematch", json={"token": reply["token"]}).json()
        assert first["seat"] == 1 and names(client.get(f"/api/games/{first['id']}").json())[1] == ("white", "Mei")
