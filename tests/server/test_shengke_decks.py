"""Sheng-Ke decks on the server: they travel inline (never as a path), are validated by the one
deck validator, and the stored record carries them, so it replays anywhere."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qipan.cli.main import app as cli
from qipan.core.options import MAX_TEXT
from qipan.core.record import Record
from qipan.games.shengke.cards import deck_from_data, deck_json, deck_problems, default_deck_text

from .helpers import connect, create, until, wait_for

AI = [{"kind": "ai", "level": "random"}] * 2


def custom_data() -> dict[str, Any]:
    """The built-in deck with other ids and names: moves written with these ids parse only
    with this deck."""
    data = tomllib.loads(default_deck_text())
    data["name"] = "新牌組"
    for number, card in enumerate(data["cards"], 1):
        card["id"], card["name"] = f"n{number}", "新" + card["name"]
    return data


def custom_deck() -> str:
    return json.dumps(custom_data(), ensure_ascii=False)


def test_an_inline_deck_is_accepted_and_played(client: TestClient) -> None:
    described = client.post("/api/describe", json={"game": "shengke", "options": {"deck_1": custom_deck()}})
    assert described.status_code == 200, described.text
    inline = deck_json(deck_from_data(custom_data()))
    assert described.json()["options"]["deck_1"] == inline
    created = create(client, "shengke", options={"deck_0": custom_deck(), "first": "0"}, seats=AI)
    summary = wait_for(lambda: (s := client.get(f"/api/games/{created['id']}").json())["status"] == "finished"
                       and s, "the AI game to end")
    assert summary["options"]["deck_0"] == inline and summary["options"]["deck_1"] == "default"
    record = client.get(f"/api/games/{created['id']}/record").json()
    placed = [m["move"] for m in record["moves"] if m["player"] == 0 and "@" in m["move"]]
    assert placed and all(move.startswith("n") for move in placed)  # 甲 played the inline deck's cards


def test_a_server_record_with_custom_decks_replays_from_anywhere(client: TestClient, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client, "shengke", options={"deck_0": custom_deck(), "deck_1": custom_deck(), "turns": 6},
                     seats=AI, public=True)
    wait_for(lambda: client.get(f"/api/games/{created['id']}").json()["status"] == "finished", "the AI game to end")
    record = client.get(f"/api/games/{created['id']}/record").json()
    path = tmp_path / "saved" / "game.json"
    path.parent.mkdir()
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(cli, ["replay", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "result:" in result.output and "新" in result.output  # the custom names on the board
    states = Record.load(path).replay()
    assert len(states) == len(record["moves"]) + 1
    # The lobby lists the finished game from its stored row, inline decks and all.
    listed = next(g for g in client.get("/api/games?status=finished").json() if g["id"] == created["id"])
    assert listed["status"] == "finished" and len(listed["seats"]) == 2


def test_illegal_decks_are_refused_with_the_messages_of_deck_check(client: TestClient, tmp_path: Path) -> None:
    data = custom_data()
    data["cards"][0]["in"] = 9
    data["cards"][3]["element"] = "fire"
    data["cards"][4]["id"] = "N1"
    problems = deck_problems(data)
    assert len(problems) >= 4
    for url in ("/api/describe", "/api/games"):
        response = client.post(url, json={"game": "shengke", "options": {"deck_1": json.dumps(data)}})
        assert response.status_code == 400
        assert response.json()["error"] == "option deck_1: illegal deck: " + "; ".join(problems)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    checked = CliRunner().invoke(cli, ["deck", "check", str(bad)], terminal_width=300)
    assert checked.exit_code == 1
    assert [line[4:] for line in checked.output.splitlines() if line.startswith("  - ")] == problems


@pytest.mark.parametrize("spelling", ["4.0", "4e0", "4.00", "40e-1"])
def test_a_whole_number_written_as_a_float_is_refused_in_every_file_and_inline(client: TestClient, tmp_path: Path,
                                                                            spelling: str) -> None:
    """JSON and TOML tell ``4.0`` from ``4`` (a float, never a card's whole number), as the deck
    workshop's own reader does (tests/e2e/test_deckshop.py sends the same spellings through it)."""
    legal = deck_json(deck_from_data(custom_data()))
    assert '"in":4,' in legal  # the first card's in number
    text = legal.replace('"in":4,', f'"in":{spelling},', 1)
    problem = "card 1 (n1): in number 4.0 must be a whole number from 1 to 8"
    expected = [problem, "the in numbers add up to 96; they must add up to exactly 100"]
    reply = client.post("/api/games", json={"game": "shengke", "options": {"deck_0": text}})
    assert reply.status_code == 400 and reply.json()["error"] == "option deck_0: illegal deck: " + "; ".join(expected)
    assert client.post("/api/games", json={"game": "shengke", "options": {"deck_0": legal}}).status_code == 201
    toml = tmp_path / "deck.toml"
    toml.write_text("".join(f'[[cards]]\nid = "{c["id"]}"\nname = "{c["name"]}"\nelement = "{c["element"]}"\n'
                            f'in = {spelling if i == 0 else c["in"]}\nout = {c["out"]}\n'
                            for i, c in enumerate(json.loads(legal)["cards"])), encoding="utf-8")
    as_json = tmp_path / "deck.json"
    as_json.write_text(text, encoding="utf-8")
    for file in (toml, as_json):
        checked = CliRunner().invoke(cli, ["deck", "check", str(file)], terminal_width=300)
        assert checked.exit_code == 1
        assert [line[4:] for line in checked.output.splitlines() if line.startswith("  - ")] == expected


@pytest.mark.parametrize("path", ["/etc/passwd", "mine.toml", "../decks/x.json"])
def test_a_path_is_refused_without_being_opened(client: TestClient, path: str) -> None:
    response = client.post("/api/games", json={"game": "shengke", "options": {"deck_0": path}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "never opens files" in error and "JSON text" in error and path not in error


@pytest.mark.parametrize("options", [
    {"deck_0": "default", "deck-0": "/etc/passwd"},
    {"deck-0": "default", "deck_0": "/etc/passwd"},
    {"deck-1": "/etc/passwd"},
])
def test_a_path_under_either_spelling_is_refused(client: TestClient, options: dict[str, str]) -> None:
    # The game reads deck_0 and deck-0 alike (the last one given wins): the server checks both.
    for url in ("/api/describe", "/api/games"):
        response = client.post(url, json={"game": "shengke", "options": options})
        assert response.status_code == 400
        error = response.json()["error"]
        assert "never opens files" in error and "/etc/passwd" not in error and "not valid JSON" not in error


@pytest.mark.parametrize("value, message", [
    ('{"cards": "' + "Z" * (MAX_TEXT + 100) + '"}',
     f"option deck_0: a text of {MAX_TEXT + 113} characters is longer than {MAX_TEXT} characters"),
    ("{" + "Z" * (3 * MAX_TEXT),
     f"option 'deck_0': values must be numbers, true/false or strings of at most {MAX_TEXT} characters"),
    ('{"cards": [{"id": "Z', "option deck_0: the inline deck is not valid JSON (Unterminated string "
                            "starting at character 18)"),
    ('{"ZZZZ": 1}', "option deck_0: illegal deck: the deck has no 'cards' list"),
])
def test_oversized_or_garbage_decks_are_refused_without_an_echo(client: TestClient, value: str,
                                                                message: str) -> None:
    response = client.post("/api/games", json={"game": "shengke", "options": {"deck_0": value}})
    assert response.status_code == 400
    assert response.json()["error"] == message


def test_the_range_table_is_an_option_checked_at_the_edge(client: TestClient) -> None:
    shengke = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "shengke")
    option = next(o for o in shengke["options"] if o["name"] == "ranges")
    assert option["default"] == "8/46/846/8246/7913/789123/47896/78946123" and not option["local_file"]
    described = client.post("/api/describe", json={"game": "shengke", "options": {"ranges": "8/ 8/8/8/8/8/8/8"}})
    assert described.status_code == 200 and described.json()["options"]["ranges"] == "8/8/8/8/8/8/8/8"
    refused = client.post("/api/games", json={"game": "shengke", "options": {"ranges": "8/46/5"}})
    assert refused.status_code == 400
    assert refused.json()["error"] == ("option ranges: the range table has 3 ranges; it needs 8 (1 to 8), "
                                       "separated by '/'")


def other_data() -> dict[str, Any]:
    """A second custom deck: ids o1..o25."""
    data = custom_data()
    data["name"] = "另一副"
    for number, card in enumerate(data["cards"], 1):
        card["id"] = f"o{number}"
    return data


def invite_of(created: dict[str, Any], seat: int) -> str:
    invite: str = next(s["invite"] for s in created["seats"] if s["seat"] == seat)
    return invite


def test_a_player_brings_their_own_deck_with_an_invitation(client: TestClient, tmp_path: Path) -> None:
    reply = client.post("/api/games", json={"game": "shengke", "options": {"deck_0": custom_deck()}})
    assert reply.status_code == 201
    created = reply.json()
    before = client.get(f"/api/games/{created['id']}").json()["options"]
    assert before["deck_1"] == "default"
    claim = client.post(f"/api/games/{created['id']}/claim",
                        json={"invite": invite_of(created, 1), "options": {"deck": json.dumps(other_data())}})
    assert claim.status_code == 200, claim.text
    assert claim.json()["seat"] == 1
    after = client.get(f"/api/games/{created['id']}").json()["options"]
    assert after["deck_0"] == before["deck_0"]  # the creator's deck is theirs still
    assert after["deck_1"] == deck_json(deck_from_data(other_data()))
    # The game goes on with both decks, and its record (decks inline) replays anywhere.
    with connect(client, {**created, "tokens": {0: created["token"]}}, 0) as ws:
        until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["options"]["deck_1"] == after["deck_1"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    game = Record.load(path).make_game()
    assert [c.id for c in game.decks[1].cards][:2] == ["o1", "o2"]  # type: ignore[attr-defined]
    assert len(Record.load(path).replay()) == len(record["moves"]) + 1


def test_a_player_joining_a_public_game_brings_their_deck(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "shengke", "public": True, "seats": [{"kind": "human"}] * 2})
    created = reply.json()
    joined = client.post(f"/api/games/{created['id']}/join", json={"options": {"deck": json.dumps(other_data())}})
    assert joined.status_code == 200, joined.text
    options = client.get(f"/api/games/{created['id']}").json()["options"]
    assert options["deck_0"] == "default" and json.loads(options["deck_1"])["name"] == "另一副"


def test_what_a_player_brings_is_checked_and_nothing_changes(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "shengke"}).json()
    url = f"/api/games/{created['id']}/claim"
    invite = invite_of(created, 1)
    data = other_data()
    data["cards"][0]["in"] = 9
    refusals = [
        ({"deck": json.dumps(data)}, "option deck_1: illegal deck: " + "; ".join(deck_problems(data))),
        ({"deck": "/etc/passwd"}, "option deck_1 names a file, and the server never opens files a client names; "
                                  "send 'default' or the file's content itself as JSON text (qipan deck json FILE "
                                  "prints it)"),
        ({"decks": "default"}, "shengke has no option 'decks' to bring with a seat; a player brings: deck"),
        ({"deck": "{" + "Z" * 5000}, "option deck_1: a text of 5001 characters is longer than 4096 characters"),
    ]
    for options, message in refusals:
        response = client.post(url, json={"invite": invite, "options": options})
        assert response.status_code == 400
        assert response.json()["error"] == message
    abalone = client.post("/api/games", json={"game": "abalone"}).json()
    response = client.post(f"/api/games/{abalone['id']}/claim",
                           json={"invite": invite_of(abalone, 1), "options": {"deck": "default"}})
    assert response.status_code == 400
    assert response.json()["error"] == "abalone has no option 'deck' to bring with a seat; a player brings: nothing"
    # Nothing was taken or changed: the invitation still works, with a legal deck.
    assert client.get(f"/api/games/{created['id']}").json()["options"]["deck_1"] == "default"
    assert client.post(url, json={"invite": invite, "options": {"deck": "default"}}).status_code == 200
    shengke = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "shengke")
    assert shengke["seat_options"] == ["deck"]


def test_a_deck_cannot_be_brought_once_the_game_has_begun(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "shengke", "options": {"first": "0"}, "public": True,
                                              "seats": [{"kind": "human"}] * 2}).json()
    live = client.app.state.hub.games[created["id"]]  # type: ignore[attr-defined]
    decision = next(a for a in live.game.legal_actions(live.match.state))
    live.match.play(decision)  # as if seat 0 had moved (a seat of a two-human game cannot, yet)
    response = client.post(f"/api/games/{created['id']}/join", json={"options": {"deck": custom_deck()}})
    assert response.status_code == 409
    assert "the game has begun" in response.json()["error"]
    assert client.get(f"/api/games/{created['id']}").json()["options"]["deck_1"] == "default"


def test_a_failed_write_leaves_neither_the_seat_nor_its_deck(client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # The brought deck and the seat are saved in one transaction: when it fails, the seat stays
    # free with the deck it had, and whoever takes it next without a deck plays that one.
    created = client.post("/api/games", json={"game": "shengke", "public": True,
                                              "seats": [{"kind": "human"}] * 2}).json()
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    set_seats = store.set_seats

    def fail(*args: Any, **kwargs: Any) -> None:
        raise sa.exc.OperationalError("UPDATE games", {}, Exception("disk I/O error"))

    monkeypatch.setattr(store, "set_seats", fail)
    response = client.post(f"/api/games/{created['id']}/join", json={"options": {"deck": custom_deck()}})
    assert response.status_code == 503 and "nothing was changed" in response.json()["error"]
    assert client.get(f"/api/games/{created['id']}").json()["options"]["deck_1"] == "default"
    assert store.game(created["id"]).options["deck_1"] == "default"
    monkeypatch.setattr(store, "set_seats", set_seats)
    joined = client.post(f"/api/games/{created['id']}/join", json={})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert client.get(f"/api/games/{created['id']}").json()["options"]["deck_1"] == "default"


def test_decks_move_with_their_players_in_the_rematch(client: TestClient) -> None:
    # Seats rotate in a rematch (the human of seat 0 plays seat 1): their deck goes with them,
    # and the AI keeps the built-in deck.
    created = create(client, "shengke", options={"deck_0": custom_deck()},
                     seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}])
    with connect(client, created, 0) as ws:
        until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    new = client.post(f"/api/games/{created['id']}/rematch", json={"token": created["token"]}).json()
    assert new["seat"] == 1 and [s["kind"] for s in new["seats"]] == ["ai", "human"]
    options = client.get(f"/api/games/{new['id']}").json()["options"]
    assert options["deck_1"] == deck_json(deck_from_data(custom_data())) and options["deck_0"] == "default"
