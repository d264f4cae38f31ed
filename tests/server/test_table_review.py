"""Defects a hostile review of issue 19's server side found (names, lobby, chat, clocks, offers),
each pinned by a test that failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipan.ai.agent import RandomAgent
from qipan.core import GameError
from qipan.server import live as live_module
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
    monkeypatch.setattr(live_module, "QUICK_THINK", 1e9)
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
