"""Sheng-Ke decks on the server: they travel inline (never as a path), are validated by the one
deck validator, and the stored record carries them, so it replays anywhere."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qipan.cli.main import app as cli
from qipan.core.options import MAX_TEXT
from qipan.core.record import Record
from qipan.games.shengke.cards import deck_from_data, deck_json, deck_problems, default_deck_text

from .helpers import create, wait_for

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


@pytest.mark.parametrize("path", ["/etc/passwd", "mine.toml", "../decks/x.json"])
def test_a_path_is_refused_without_being_opened(client: TestClient, path: str) -> None:
    response = client.post("/api/games", json={"game": "shengke", "options": {"deck_0": path}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "never opens files" in error and "JSON text" in error and path not in error


@pytest.mark.parametrize("value, message", [
    ('{"cards": "' + "Z" * (MAX_TEXT + 100) + '"}',
     f"option deck_0: a text of {MAX_TEXT + 113} characters is longer than {MAX_TEXT} characters"),
    ("{" + "Z" * (3 * MAX_TEXT),
     f"option 'deck_0': values must be numbers, true/false or strings of at most {MAX_TEXT} characters"),
    ('{"cards": [{"id": "Z', "option deck_0: the inline deck is not valid JSON: not valid JSON (Unterminated string "
                            "starting at at character 18)"),
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
