"""The tutorials over HTTP: courses, a lesson judged move by move, bounded input, and nothing
but the learner's own view in any answer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipan.server import create_app
from qipan.tutorials import courses


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("tutorials") / "qipan.db"
    with TestClient(create_app(str(db), ai_processes=False)) as c:
        yield c


def test_courses_list_every_lesson_and_rule(client: TestClient) -> None:
    answer = client.get("/api/tutorials")
    assert answer.status_code == 200
    listed = answer.json()["courses"]
    assert [c["game"] for c in listed] == [c.game for c in courses()]
    abalone = listed[0]
    assert abalone["rules"]["sumito"]["zh-Hant"] == "推擠：二推一、三推一、三推二"
    assert abalone["lessons"][0] == {"id": "first-move", "title": {"en": "Your first move", "zh-Hant": "第一步"},
                                     "rules": ["start", "layouts", "board", "inline"]}


def post(client: TestClient, path: str, body: object) -> tuple[int, dict]:  # type: ignore[type-arg]
    answer = client.post(f"/api/tutorials/{path}", json=body)
    return answer.status_code, answer.json()


def test_a_lesson_judged_move_by_move(client: TestClient) -> None:
    status, start = post(client, "abalone/blocked", {})
    assert status == 200
    assert (start["step"], start["steps"], start["done"], start["seat"], start["to_move"]) == (0, 1, False, 0, 0)
    assert "g4g5" in start["legal"] and start["verdict"] is None and start["next"] == "three-max"

    status, illegal = post(client, "abalone/blocked", {"move": "E2E3"})
    assert illegal["verdict"] == {"kind": "illegal", "move": "e2e3", "explain": None, "reason": {
        "en": "illegal move e2e3: 2 marbles cannot push 2: a push needs strict majority (2>1, 3>1, 3>2)",
        "zh-Hant": "不合規則的一步 e2e3：2 顆推不動 2 顆：推擠必須以多推少（2>1、3>1、3>2）"}}
    assert illegal["view"] == start["view"] and illegal["moves"] == []

    status, wrong = post(client, "abalone/blocked", {"move": "a1b1"})
    assert wrong["verdict"]["kind"] == "wrong" and wrong["verdict"]["explain"]["en"].startswith("That move is legal")
    assert wrong["view"] == start["view"]

    status, right = post(client, "abalone/blocked", {"move": "g4g5"})
    assert right["verdict"]["kind"] == "correct" and right["done"] and right["prompt"] is None
    assert right["moves"] == ["g4g5"] and right["last"] == "g4g5" and right["legal"] == []
    assert "g7" in right["view"]["marbles"]["white"]


def test_replies_follow_a_correct_move(client: TestClient) -> None:
    status, answer = post(client, "tellstones/prove", {"move": "boast"})
    assert status == 200 and answer["last"] == "doubt" and answer["step"] == 1
    assert answer["legal"][0] == "name crown"
    status, answer = post(client, "tellstones/prove", {"moves": ["boast", "name crown", "name scale"],
                                                       "move": "name knight"})
    assert answer["done"] and answer["result"] == "player 1 won by a proof (0-0)"


def test_the_answer_holds_only_the_learners_view(client: TestClient) -> None:
    status, answer = post(client, "tellstones/challenge", {})
    assert status == 200
    assert "state" not in answer and "state" not in answer["view"]
    assert answer["view"]["lines"][0] == [None, None, "?", "scale", "?", None, None]
    assert "crown" not in json.dumps(answer["view"]) and "knight" not in json.dumps(answer["view"])
    # A peek for the partner shows the stone to the partner only, not to the learner.
    status, answer = post(client, "tellstones/round-table", {"move": "peek 4 partner"})
    assert answer["verdict"]["kind"] == "correct" and answer["view"]["revealed"] is None
    assert "scale" not in json.dumps(answer["view"]["lines"])


@pytest.mark.parametrize(("path", "body", "code", "message"), [
    ("abalone/nope", {}, 404, "the abalone course has no lesson 'nope'"),
    ("go/first", {}, 404, "there is no tutorial for 'go'; there are: abalone, tellstones, chinese-checkers, "
                          "kelighine, shengke"),
    ("abalone/sumito", {"moves": ["a1b2"]}, 400, "move 1 ('a1b2') is not an answer to step 1 of sumito"),
    ("abalone/sumito", {"moves": ["e3e4"], "move": "e4e5"}, 400, "lesson sumito is finished: it has no step 2"),
    ("abalone/sumito", {"move": "x" * 501}, 400,
     "\"move\" must be a move in the game's notation: a string of 1..500 characters"),
    ("abalone/sumito", {"moves": ["x" * 65]}, 400, "moves.0: String should have at most 64 characters"),
    ("abalone/sumito", {"moves": ["e3e4"] * 9}, 400, None),
    ("abalone/sumito", {"moves": ["e3e4"] * 2}, 400, "lesson sumito has 1 step, not 2"),
    ("abalone/sumito", {"state": {"black": []}}, 400, None),
])
def test_bad_requests_are_refused_in_one_line(client: TestClient, path: str, body: object, code: int,
                                              message: str | None) -> None:
    status, answer = post(client, path, body)
    assert status == code
    assert "\n" not in answer["error"] and len(answer["error"]) < 200
    if message is not None:
        assert answer["error"] == message


def test_a_try_longer_than_any_move_is_judged_illegal(client: TestClient) -> None:
    """(It was refused with a message naming the server's 500-character bound for moves while
    the route allowed 64.)"""
    status, answer = post(client, "abalone/sumito", {"move": "x" * 65})
    assert status == 200 and answer["moves"] == []
    assert answer["verdict"]["kind"] == "illegal"
    assert answer["verdict"]["reason"] == {"en": "a move is at most 64 characters", "zh-Hant": "一步最多 64 個字元"}


def test_a_live_game_cannot_be_reached(client: TestClient) -> None:
    """The route names a course and a lesson, never a game: a live game's id is no lesson."""
    created = client.post("/api/games", json={"game": "tellstones"}).json()
    status, answer = post(client, f"tellstones/{created['id']}", {})
    assert status == 404 and "no lesson" in answer["error"]


def test_the_learn_page_is_the_web_client(client: TestClient) -> None:
    page = client.get("/learn")
    assert page.status_code == 200 and '<main id="app">' in page.text
