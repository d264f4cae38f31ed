"""Public games, open seats anyone can take, and the lobby lists (HTTP and /ws/lobby)."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from qipan.games.shengke.cards import deck_json, default_deck
from qipan.server import create_app
from qipan.server.limits import Limits, Rate
from qipan.server.lobby import IN_PLAY_IDLE, LOBBY_LIST, open_games, playing_games

from .helpers import Message, connect, create, until, update_with

AI = {"kind": "ai", "level": "random"}


def listed(client: TestClient, status: str | None = None) -> list[str]:
    reply = client.get("/api/games", params={} if status is None else {"status": status})
    assert reply.status_code == 200, reply.text
    return [g["id"] for g in reply.json()]


def make(client: TestClient, **body: Any) -> Message:
    reply = client.post("/api/games", json={"game": "abalone", **body})
    assert reply.status_code == 201, reply.text
    data: Message = reply.json()
    return data


def resign(client: TestClient, created: Message, seat: int = 0) -> None:
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello", "seat": seat, "token": created["token"]})
        until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)


def test_invite_only_games_are_listed_nowhere(client: TestClient) -> None:
    private = create(client)  # both seats taken
    waiting = make(client)  # a free seat
    for status in (None, "open", "playing", "finished"):
        assert listed(client, status) == []
    with connect(client, private, 0) as ws:
        until(ws, update_with(0))
        assert listed(client, "playing") == []
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    assert listed(client, "finished") == [] and listed(client) == []
    # Its link still lets anyone watch.
    assert client.get(f"/api/games/{waiting['id']}").json()["public"] is False


def test_a_public_game_is_open_until_its_seats_are_taken_then_in_play_then_finished(client: TestClient) -> None:
    game = make(client, public=True, name="Mei")
    assert listed(client, "open") == [game["id"]] and listed(client, "playing") == []
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200
    seat, token = joined.json()["seat"], joined.json()["token"]
    assert seat == 1 and joined.json()["url"] == f"/play/{game['id']}#seat=1&token={token}"
    assert listed(client, "open") == []
    assert listed(client, "playing") == []  # every seat taken, but nobody moved or is here
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": token})
        until(ws, update_with(0))
        assert listed(client, "playing") == [game["id"]]  # a player is here
    assert listed(client, "playing") == []
    resign(client, game)
    assert listed(client, "finished") == [game["id"]] == listed(client)
    assert listed(client, "playing") == listed(client, "open") == []


def test_defect_12_abandoned_and_never_started_games_are_not_in_play(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    idle = create(client, public=True)  # every seat taken, 0 moves, nobody here
    moved = create(client, public=True)
    with connect(client, moved, 0) as black:
        until(black, update_with(0))
        black.send_json({"type": "move", "move": "a1b2"})
        until(black, update_with(1))
    assert listed(client, "playing") == [moved["id"]]  # a move within IN_PLAY_IDLE
    later = time.time() + IN_PLAY_IDLE + 1
    assert [g["id"] for g in playing_games(hub, 50, now=later)] == []  # abandoned: gone from the list
    assert idle["id"] not in listed(client, "playing")
    assert {g["id"] for g in open_games(hub, 50)} == set()


def test_open_games_age_out_with_the_unstarted_expiry(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    game = make(client, public=True)
    assert [g["id"] for g in open_games(hub, 50)] == [game["id"]]
    assert open_games(hub, 50, now=time.time() + hub.expiry.unstarted + 1) == []


def test_join_refusals(client: TestClient) -> None:
    private = make(client)
    refused = client.post(f"/api/games/{private['id']}/join", json={})
    assert refused.status_code == 403 and "invite-only" in refused.json()["error"]
    three = make(client, game="chinese-checkers", options={"players": 3}, public=True,
                 seats=[{"kind": "human"}, AI, {"kind": "human"}])
    for seat, why in ((1, "human seat (0, 2)"), (7, "human seat"), ("2", "seat")):
        reply = client.post(f"/api/games/{three['id']}/join", json={"seat": seat})
        assert reply.status_code == 400 and why in reply.json()["error"], reply.text
    taken = client.post(f"/api/games/{three['id']}/join", json={"seat": 0})
    assert taken.status_code == 409 and "seat 0 is taken; free: 2" in taken.json()["error"]
    assert client.post(f"/api/games/{three['id']}/join", json={"seat": 2}).json()["seat"] == 2
    full = client.post(f"/api/games/{three['id']}/join", json={})
    assert full.status_code == 409 and "every seat" in full.json()["error"]
    # The invitation of a seat taken from the lobby has been used.
    used = client.post(f"/api/games/{three['id']}/claim", json={"invite": three["seats"][2]["invite"]})
    assert used.status_code == 409
    over = make(client, public=True)
    resign(client, over)
    late = client.post(f"/api/games/{over['id']}/join", json={})
    assert late.status_code == 409 and "over" in late.json()["error"]
    assert client.post("/api/games/nosuchgame/join", json={}).status_code == 404
    assert client.post(f"/api/games/{over['id']}/join", json={"token": "x"}).status_code == 400


def test_joining_is_rate_limited_like_claiming(db_path: Path) -> None:
    limits = Limits(join_rate=Rate(2, 3600.0), create_rate=None)
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False, limits=limits)) as client:
        games = [make(client, public=True) for _ in range(3)]
        assert [client.post(f"/api/games/{g['id']}/join", json={}).status_code for g in games] == [200, 200, 429]
        assert listed(client, "open") == [games[2]["id"]]  # the refused join took nothing


def test_finished_public_games_are_listed_newest_first(client: TestClient) -> None:
    first, second = make(client, public=True), make(client, public=True)
    for game in (first, second):
        client.post(f"/api/games/{game['id']}/join", json={})
        resign(client, game)
    assert listed(client, "finished") == [second["id"], first["id"]]


# -- /ws/lobby --------------------------------------------------------------------------------------


def lobby_message(ws: WebSocketTestSession, test: Any = lambda m: True) -> Message:
    return until(ws, lambda m: m["type"] == "lobby" and test(m))


def ids(games: list[Message]) -> list[str]:
    return [g["id"] for g in games]


def test_the_lobby_socket_sends_the_lists_at_once_and_when_they_change(client: TestClient) -> None:
    old = make(client, public=True)
    with client.websocket_connect("/ws/lobby") as lobby:
        first = lobby_message(lobby)
        assert ids(first["open"]) == [old["id"]] and first["playing"] == []
        new = make(client, public=True, name="Mei")
        opened = lobby_message(lobby, lambda m: len(m["open"]) == 2)
        assert ids(opened["open"]) == [new["id"], old["id"]]
        assert opened["open"][0]["seats"][0]["name"] == "Mei"
        token = client.post(f"/api/games/{new['id']}/join", json={}).json()["token"]
        with client.websocket_connect(f"/ws/games/{new['id']}") as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": token})
            until(ws, update_with(0))
            playing = lobby_message(lobby, lambda m: m["playing"])
            assert ids(playing["playing"]) == [new["id"]] and ids(playing["open"]) == [old["id"]]
        lobby.send_json({"type": "ping"})
        assert until(lobby, lambda m: m["type"] != "lobby") == {"type": "pong"}
        lobby.send_text("{nope")
        assert "JSON" in until(lobby, lambda m: m["type"] != "lobby")["error"]
        lobby.send_json({"type": "move", "move": "a1b2"})
        assert "ping" in until(lobby, lambda m: m["type"] != "lobby")["error"]


def test_lobby_lists_hold_at_most_fifty_games(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False,
                               limits=Limits(create_rate=None))) as client:
        made = [make(client, public=True)["id"] for _ in range(LOBBY_LIST + 5)]
        assert len(listed(client, "open")) == LOBBY_LIST + 5
        with client.websocket_connect("/ws/lobby") as lobby:
            first = lobby_message(lobby)
            assert ids(first["open"]) == made[::-1][:LOBBY_LIST]


def test_no_token_or_invitation_ever_appears_in_lobby_traffic(client: TestClient) -> None:
    secrets: list[str] = []
    traffic: list[str] = []
    with client.websocket_connect("/ws/lobby") as lobby:
        traffic.append(lobby.receive_text())
        game = make(client, public=True, name="Mei",
                    seats=[{"kind": "human"}, {"kind": "human"}])
        secrets += [game["token"], game["seats"][1]["invite"]]
        traffic.append(lobby.receive_text())
        joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bo"}).json()
        secrets.append(joined["token"])
        traffic.append(lobby.receive_text())
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello", "seat": 0, "token": game["token"]})
            until(ws, update_with(0))
            ws.send_json({"type": "move", "move": "a1b2"})
            until(ws, update_with(1))
            while '"moves":1' not in traffic[-1]:
                traffic.append(lobby.receive_text())
        http = [client.get("/api/games", params={"status": s}).text for s in ("open", "playing", "finished")]
    assert any(game["id"] in text for text in traffic)
    for text in traffic + http:
        for secret in secrets:
            assert secret not in text
        assert '"token"' not in text and "invite" not in text


def test_public_games_stay_public_across_a_restart(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        public, private = make(client, public=True), make(client)
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        assert listed(client, "open") == [public["id"]] == listed(client)
        assert client.get(f"/api/games/{private['id']}").json()["public"] is False


def test_listed_games_name_their_inline_decks_and_their_summary_holds_them(client: TestClient) -> None:
    deck = json.loads(deck_json(default_deck()))
    deck["name"] = "長名牌組"
    mine, theirs = json.dumps(deck, ensure_ascii=False, separators=(",", ":")), deck_json(default_deck())
    game = make(client, game="shengke", public=True, options={"deck_0": mine, "deck_1": theirs})
    named = {"deck_0": {"name": "長名牌組", "sha256": hashlib.sha256(mine.encode()).hexdigest()[:16]},
             "deck_1": {"name": "五行 default", "sha256": hashlib.sha256(theirs.encode()).hexdigest()[:16]}}
    with client.websocket_connect("/ws/lobby") as lobby:
        text = lobby.receive_text()
    options = json.loads(text)["open"][0]["options"]
    assert {k: options[k] for k in named} == named
    assert '"cards"' not in text and len(text) < 2000  # with the two decks: over 5,000 characters
    for status in ("open", None):
        reply = client.get("/api/games", params={} if status is None else {"status": status})
        assert '"cards"' not in reply.text
        assert {k: reply.json()[0]["options"][k] for k in named} == named
    # The game's own summary holds the decks whole: what a player joining it reads.
    options = client.get(f"/api/games/{game['id']}").json()["options"]
    assert options["deck_0"] == mine and options["deck_1"] == theirs
