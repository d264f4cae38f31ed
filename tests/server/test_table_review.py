"""Defects a hostile review of issue 19's server side found (names, lobby, chat, clocks, offers),
each pinned by a test that failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipan.ai.agent import RandomAgent
from qipan.core import GameError
from qipan.server import ai_turns
from qipan.server.chat import MAX_TEXT
from qipan.server.names import check_name, check_text

from .helpers import connect, create, until


class CountingAgent(RandomAgent):
    """Plays like the random level and counts how often it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, game: Any, view: Any, rng: Any) -> Any:
        self.asked += 1
        return super().choose(game, view, rng)


def test_an_ai_short_of_time_plays_at_once_instead_of_searching(client: TestClient,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A search costs tens of milliseconds whatever its budget: at 1+0 two hard Abalone AIs whose
    budget shrank geometrically flagged at move 72. Below ``QUICK_THINK`` seconds of budget the
    AI plays at once (here every budget counts as short, so only its free first move searches)."""
    monkeypatch.setattr(ai_turns, "QUICK_THINK", 1e9)
    created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "easy"}],
                     clock={"base": 600, "increment": 0})
    agent = CountingAgent()
    client.app.state.hub.games[created["id"]].agents[1] = agent  # type: ignore[attr-defined]
    with connect(client, created, 0) as black:
        until(black, lambda m: m["type"] == "update")
        black.send_json({"type": "move", "move": "a1b2"})
        answered = until(black, lambda m: m["type"] == "update" and m["ply"] == 2)
        assert agent.asked == 1  # the AI's first move is free: it thinks as long as it likes
        black.send_json({"type": "move", "move": answered["legal"][0]})
        second = until(black, lambda m: m["type"] == "update" and m["ply"] == 4)
    assert agent.asked == 1 and second["result"] is None and second["clock_running"] == [True, True]


LOOKS_EMPTY = {
    "hangul filler": "\u3164",
    "halfwidth hangul filler": "\uffa0\uffa0",
    "choseong filler": "\u115f",
    "braille blank": "\u2800\u2800\u2800",
    "a filler after a name": "Mei\u3164",
    "only combining marks": "\u0301\u0301",
    "marks and spaces": " \u0301 \u0302 ",
}


@pytest.mark.parametrize("value", LOOKS_EMPTY.values(), ids=LOOKS_EMPTY.keys())
def test_names_and_messages_that_look_empty_are_refused(client: TestClient, value: str) -> None:
    """A nickname of Hangul fillers or blank Braille passed the C* check, yet shows nothing (or
    "Mei" and "Mei\u3164" look alike)."""
    with pytest.raises(GameError):
        check_name(value)
    with pytest.raises(GameError):
        check_text(value, "a chat message", MAX_TEXT)
    reply = client.post("/api/games", json={"game": "abalone", "name": value})
    assert reply.status_code == 400 and value.strip() not in reply.json()["error"]


def test_stacked_combining_marks_are_refused_but_real_scripts_pass() -> None:
    """Zalgo text (dozens of marks on one letter) spills over the chat lines around it."""
    for text in ("a" + "\u0301" * 5, "\u0e01" + "\u0e47" * 24):
        with pytest.raises(GameError, match="stack"):
            check_text(text, "a chat message", MAX_TEXT)
    for name in ("Việt", "क्षि", "e\u0301" * 12, "王小明", "Zoë 🎲"):
        assert check_name(name) == name


def test_a_declined_offer_may_be_repeated_after_a_move_made_after_a_takeback(client: TestClient) -> None:
    """The refusal remembered the move count at the decline; after a takeback to an earlier move
    the player's next moves came before that count, so they could not offer again until the game
    grew past it, although they had moved since."""
    from .test_offers import play, update

    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        update(black), update(white)
        play(black, white, ["a1b2", "i5h5", "b2c3", "i9h9", "a3b4", "i8h8"])
        black.send_json({"type": "offer", "offer": "draw"})
        update(white, lambda m: bool(m["offers"]))
        white.send_json({"type": "decline", "offer": "draw"})
        assert update(black, lambda m: not m["offers"])["can"]["draw"] is False
        black.send_json({"type": "offer", "offer": "takeback"})
        update(white, lambda m: bool(m["offers"]))
        white.send_json({"type": "accept", "offer": "takeback"})
        update(black, lambda m: m["ply"] == 4)
        black.send_json({"type": "move", "move": "a4b5"})
        moved = update(black, lambda m: m["ply"] == 5)
    assert moved["can"]["draw"] is True


def test_the_unstarted_timer_counts_from_when_the_last_seat_was_taken(client: TestClient) -> None:
    """The lobby lists an open game for the whole unstarted timeout (1 hour); a player who joined
    it after 59 minutes saw it aborted a minute later, before anyone could have moved: the first
    turn starts when the last seat is taken, and so does the wait for the first moves."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    reply = client.post("/api/games", json={"game": "abalone", "public": True})
    created = reply.json()
    live = hub.games[created["id"]]
    live.row.created -= 3540  # made 59 minutes ago
    assert client.post(f"/api/games/{created['id']}/join", json={"name": "Bo"}).status_code == 200
    deadline = hub.expiry.deadline(live)
    assert deadline is not None and deadline >= live.seated() + hub.expiry.unstarted


def test_a_timed_games_clock_not_the_idle_timer_decides_when_nobody_moves(client: TestClient) -> None:
    """With a week's base (or hours of increments) a clock may hold more than the 3-day idle
    timeout: the timer forfeited a player as "abandoned" while their clock showed days left.
    Likewise a long game's first-move window (a tenth of the base) outlasted the 1-hour
    unstarted timer, which aborted the game before ``abort_at``."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    created = create(client, clock={"base": 604800, "increment": 0})
    live = hub.games[created["id"]]
    assert live.abort_at() is not None and hub.expiry.deadline(live) is None  # the window decides
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        until(black, lambda m: m["type"] == "update")
        for ply, (ws, move) in enumerate([(black, "a1b2"), (white, "i5h5"), (black, "b2c3")], 1):
            ws.send_json({"type": "move", "move": move})
            until(ws, lambda m, n=ply: m["type"] == "update" and m["ply"] == n)
    assert live.match.clock_running() == [True, True] and hub.expiry.deadline(live) is None
    untimed = create(client)
    assert hub.expiry.deadline(hub.games[untimed["id"]]) is not None  # the timers still keep the others


def test_one_client_cannot_fill_the_lobby_with_open_games(client: TestClient) -> None:
    """The creation rate (30 a minute) let one client put 30 open public games at the top of the
    lobby's list of 50 at once, and a few more minutes hid every other game."""
    from qipan.server.lobby import OPEN_PER_CLIENT

    made = [client.post("/api/games", json={"game": "abalone", "public": True}) for _ in range(OPEN_PER_CLIENT)]
    assert [reply.status_code for reply in made] == [201] * OPEN_PER_CLIENT
    refused = client.post("/api/games", json={"game": "abalone", "public": True})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "open public games" in refused.json()["error"]
    assert len(client.get("/api/games?status=open").json()) == OPEN_PER_CLIENT
    assert client.post("/api/games", json={"game": "abalone"}).status_code == 201  # invite-only: no limit
    joined = client.post(f"/api/games/{made[0].json()['id']}/join", json={})
    assert joined.status_code == 200  # that game is no longer open: another may be
    assert client.post("/api/games", json={"game": "abalone", "public": True}).status_code == 201
