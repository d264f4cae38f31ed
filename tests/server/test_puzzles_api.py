"""GET /api/puzzles/today: the puzzle of the day, read-only, in English and 繁體中文."""

from __future__ import annotations

import datetime

from fastapi.testclient import TestClient

from qipan.puzzles.catalogue import puzzle_of_the_day


def test_the_puzzle_of_the_day_is_todays_entry_in_both_languages(client: TestClient) -> None:
    answer = client.get("/api/puzzles/today")
    assert answer.status_code == 200
    data = answer.json()
    day = datetime.date.fromisoformat(data["date"])
    entry = puzzle_of_the_day(day)
    assert data["id"] == entry.id and data["rating"] == entry.rating and data["par"] == entry.par
    assert data["title"] == {"en": entry.title, "zh-Hant": entry.title_zh}
    assert data["command"] == f"qipan puzzle play {entry.id}"
    assert abs((day - datetime.datetime.now(datetime.UTC).date()).days) <= 1


def test_it_is_read_only(client: TestClient) -> None:
    assert client.post("/api/puzzles/today", json={}).status_code == 405
