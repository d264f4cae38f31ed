"""Clocks on the server: chosen at creation for any game, each starting with its player's first
move; a timed game whose first moves do not come is aborted, not lost; players may abort until
everyone has moved; nobody's turn starts before every seat is taken."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from qipan.core import clock

from .helpers import connect, create, until, update_with


def finished(message: dict[str, object]) -> bool:
    return message["type"] == "update" and message["result"] is not None


def test_a_clock_is_chosen_at_creation_for_any_game(client: TestClient) -> None:
    created = create(client, game="chinese-checkers", clock={"base": 300, "increment": 3})
    with connect(client, created, 0) as red:
        first = until(red, update_with(0))
    assert first["clock"] == {"base": 300, "increment": 3} and first["clocks"] == [300, 300]
    assert first["clock_running"] == [False, False] and first["abortable"] is True
    assert first["abort_at"] == pytest.approx(created_at(client, created["id"]) + clock.FIRST_MOVE_WINDOW, abs=1)
    assert first["can"] == {"takeback": False, "draw": True, "abort": True} and first["offers"] == []
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["clock"] == {"base": 300, "increment": 3}
    untimed = create(client)
    with connect(client, untimed, 0) as black:
        plain = until(black, update_with(0))
    assert plain["clock"] is None and plain["clocks"] is None and plain["abort_at"] is None


def test_every_update_says_the_servers_time(client: TestClient) -> None:
    """``now`` lets a client whose clock is off still count down to ``abort_at`` rightly."""
    before = time.time()
    created = create(client, clock={"base": 60, "increment": 0})
    with connect(client, created, 0) as black:
        first = until(black, update_with(0))
    untimed = create(client)
    with connect(client, untimed, 0) as white:
        plain = until(white, update_with(0))
    after = time.time()
    assert before <= first["now"] <= plain["now"] <= after
    assert first["abort_at"] - first["now"] == pytest.approx(clock.FIRST_MOVE_WINDOW, abs=1)


def created_at(client: TestClient, game_id: str) -> float:
    created: float = client.get(f"/api/games/{game_id}").json()["created"]
    return created


@pytest.mark.parametrize("bad", [{"base": 0}, {"base": 604801}, {"base": 60, "increment": 3601},
                                 {"base": "60"}, {"base": 60, "extra": 1}, {"increment": 2}, [60, 2], True])
def test_bad_clocks_are_refused_with_a_clear_message(client: TestClient, bad: object) -> None:
    reply = client.post("/api/games", json={"game": "abalone", "clock": bad})
    assert reply.status_code == 400
    message = reply.json()["error"]
    assert "clock" in message and len(message) < 160


def test_an_untouched_timed_game_is_aborted_not_lost(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "FIRST_MOVE_WINDOW", 0.3)
    created = create(client, clock={"base": 1, "increment": 0})
    with connect(client, created, 0) as black:
        done = until(black, finished)
    result = done["result"]
    assert result["reason"] == "aborted" and result["returns"] == [0, 0] and "loser" not in result
    assert done["clocks"] == [1, 1] and done["ply"] == 0  # the first move was never charged


def test_the_second_players_missing_first_move_aborts_too(client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "FIRST_MOVE_WINDOW", 0.5)
    created = create(client, clock={"base": 1, "increment": 0})
    with connect(client, created, 0) as black:
        until(black, update_with(0))
        black.send_json({"type": "move", "move": "a1b2"})
        moved = until(black, update_with(1))
        assert moved["abort_at"] is not None and moved["clock_running"] == [True, False]
        done = until(black, finished)
    assert done["result"]["reason"] == "aborted" and "white" in done["result"]["text"]


def test_a_timed_game_is_lost_on_time_once_both_have_moved(client: TestClient) -> None:
    created = create(client, game="chinese-checkers", clock={"base": 1, "increment": 0})
    with connect(client, created, 0) as red, connect(client, created, 1) as green:
        first = until(red, update_with(0))
        red.send_json({"type": "move", "move": first["legal"][0]})
        second = until(green, lambda m: m["type"] == "update" and m["ply"] == 1 and bool(m["legal"]))
        green.send_json({"type": "move", "move": second["legal"][0]})
        running = until(red, update_with(2))
        assert running["clock_running"] == [True, True] and running["abort_at"] is None
        assert running["abortable"] is False and running["can"]["abort"] is False
        done = until(red, finished)
    assert done["result"]["reason"] == "time" and done["result"]["loser"] == 0
    assert done["clocks"][0] == 0 and done["clocks"][1] == 1


def test_a_player_aborts_until_everyone_has_moved(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        until(white, update_with(0))
        black.send_json({"type": "move", "move": "a1b2"})
        until(white, update_with(1))
        white.send_json({"type": "move", "move": "i5h5"})
        until(black, update_with(2))
        black.send_json({"type": "abort"})
        refused = until(black, lambda m: m["type"] == "error")
        assert "can no longer be aborted" in refused["error"]
    other = create(client)
    with connect(client, other, 0) as black, connect(client, other, None) as spectator:
        until(black, update_with(0))
        spectator.send_json({"type": "abort"})
        assert "spectators" in until(spectator, lambda m: m["type"] == "error")["error"]
        black.send_json({"type": "move", "move": "a1b2"})
        until(black, update_with(1))
        black.send_json({"type": "abort"})  # white has not moved yet
        done = until(black, finished)
    assert done["result"]["reason"] == "aborted" and done["result"]["returns"] == [0, 0]
    assert "aborted by black" in done["result"]["text"]


def test_nobody_moves_before_every_seat_is_taken(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "abalone", "clock": {"base": 60}})
    created = reply.json()
    created["tokens"] = {0: created["token"]}
    with connect(client, created, 0) as black:
        waiting = until(black, update_with(0))
        assert waiting["legal"] == [] and waiting["abort_at"] is None  # no turn has started
        black.send_json({"type": "move", "move": "a1b2"})
        assert "every player" in until(black, lambda m: m["type"] == "error")["error"]
        invite = created["seats"][1]["invite"]
        assert client.post(f"/api/games/{created['id']}/claim", json={"invite": invite}).status_code == 200
        seated = until(black, lambda m: m["type"] == "update" and bool(m["legal"]))
        assert seated["abort_at"] is not None
        black.send_json({"type": "move", "move": "a1b2"})
        assert until(black, update_with(1))["to_move"] == 1


def test_an_ai_waits_for_every_human_to_take_their_seat(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "chinese-checkers", "options": {"players": 3}, "seats": [
        {"kind": "ai", "level": "random"}, {"kind": "human"}, {"kind": "human"}]})
    created = reply.json()
    created["tokens"] = {1: created["token"]}
    with connect(client, created, 1) as me:
        until(me, update_with(0))
        for _ in range(5):  # time enough for an AI that did not wait to have moved
            me.send_json({"type": "ping"})
            until(me, lambda m: m["type"] == "pong")
        me.send_json({"type": "sync"})
        assert until(me, lambda m: m["type"] == "update")["ply"] == 0
        invite = created["seats"][2]["invite"]
        assert client.post(f"/api/games/{created['id']}/claim", json={"invite": invite}).status_code == 200
        assert until(me, lambda m: m["type"] == "update" and m["ply"] >= 1)["to_move"] == 1
