"""The puzzles over HTTP (issue 22): the catalogue, the puzzle of the day, a puzzle replayed and
judged move by move (stateless), bounded hints, hostile input and the rate limits."""

from __future__ import annotations

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipan.puzzles import attempt, capture
from qipan.puzzles.attempt import solution, start
from qipan.puzzles.catalogue import catalogue, find, puzzle_of_the_day
from qipan.puzzles.eject import shipped
from qipan.server import create_app
from qipan.server.limits import Limits, Rate
from qipan.server.puzzles import MAX_MOVES


def test_the_puzzle_of_the_day_is_todays_entry_in_both_languages(client: TestClient) -> None:
    answer = client.get("/api/puzzles/today")
    assert answer.status_code == 200
    data = answer.json()
    day = datetime.date.fromisoformat(data["date"])
    entry = puzzle_of_the_day(day)
    assert data["id"] == entry.id and data["rating"] == entry.rating and data["par"] == entry.par
    assert data["title"] == {"en": entry.title, "zh-Hant": entry.title_zh}
    assert data["command"] == f"qipan puzzle play {entry.id}"
    assert data["url"] == f"/puzzles/{entry.id}"
    assert abs((day - datetime.datetime.now(datetime.UTC).date()).days) <= 1


def test_it_is_read_only(client: TestClient) -> None:
    assert client.post("/api/puzzles/today", json={}).status_code == 405


def test_the_catalogue_says_which_par_is_proved(client: TestClient) -> None:
    listed = {p["id"]: p for p in client.get("/api/puzzles").json()["puzzles"]}
    assert list(listed) == [e.id for e in catalogue()]
    assert listed["crossing"]["optimal"] and listed["crossing"]["par"] == 27
    assert not listed["crossing-long"]["optimal"] and listed["crossing-long"]["par"] == 20
    assert client.get("/puzzles/crossing").status_code == 200  # the page is the web client


def test_an_eject_in_3_judged_try_by_try(client: TestClient) -> None:
    hard = next(p for p in shipped() if p.n == 3)
    line = solution(find(hard.id))
    url = f"/api/puzzles/{hard.id}/play"
    first = client.post(url, json={}).json()
    assert first["moves"] == [] and not first["done"] and first["legal"] and first["verdict"] is None
    at = start(find(hard.id))
    wrong = next(at.game.action_text(at.state, m) for m in at.game.legal_actions(at.state)
                 if at.game.action_text(at.state, m) != hard.solution)
    refused = client.post(url, json={"move": wrong}).json()
    assert refused["verdict"]["kind"] == "wrong" and refused["moves"] == [] and refused["view"] == first["view"]
    assert refused["verdict"]["reason"]["zh-Hant"] == "剩下的步數內無法逼出對方的棋子。"
    illegal = client.post(url, json={"move": "a1a9"}).json()["verdict"]
    assert illegal["kind"] == "illegal" and illegal["move"] is None and illegal["reason"]["en"]
    played = client.post(url, json={"move": line[0]}).json()
    assert played["verdict"] == {"kind": "played", "move": line[0], "reason": None}
    assert played["line"] == [{"move": line[0], "reply": line[1]}] and played["last"] == line[1]
    done = client.post(url, json={"moves": [line[0], line[2]], "move": line[4]}).json()
    assert done["done"] and done["solved"] and done["legal"] == []
    over = client.post(url, json={"moves": [line[0], line[2], line[4]], "move": line[0]})
    assert over.status_code == 400 and over.json()["error"].startswith("the puzzle is over")


def test_moves_that_do_not_replay_are_refused_naming_the_move(client: TestClient) -> None:
    hard = next(p for p in shipped() if p.n == 3)
    answer = client.post(f"/api/puzzles/{hard.id}/play", json={"moves": [hard.solution, "zz"]})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("move 2: cannot read move 'zz'")
    assert "take the move back" in answer.json()["error"]


def test_a_crossing_finished_and_the_long_one_not_called_optimal(client: TestClient) -> None:
    moves = solution(find("crossing"))
    done = client.post("/api/puzzles/crossing/play", json={"moves": moves[:-1], "move": moves[-1]}).json()
    assert done["solved"] and done["in_target"] == 10 and len(done["moves"]) == 27
    halfway = client.post("/api/puzzles/crossing/play", json={"moves": moves[:10]}).json()
    assert not halfway["done"] and halfway["in_target"] < 10 and halfway["verdict"] is None
    hint = client.post("/api/puzzles/crossing/hint", json={"moves": moves[:3]}).json()
    assert hint == {"status": "unavailable", "move": None, "nodes": 0}


def test_shiqi_pieces_left_and_a_hint_that_keeps_a_finish(client: TestClient) -> None:
    moves = solution(find("shiqi"))[:20]
    state = client.post("/api/puzzles/shiqi/play", json={"moves": moves}).json()
    rules = capture.game()
    position = rules.initial_state()
    for move in moves:
        position = rules.next_state(position, rules.parse_action(position, move))
    assert state["pieces_left"] == rules.pieces_left(position) < 60
    hint = client.post("/api/puzzles/shiqi/hint", json={"moves": moves}).json()
    assert hint["status"] == "found" and 0 < hint["nodes"] <= attempt.HINT_NODES
    after = client.post("/api/puzzles/shiqi/play", json={"moves": moves, "move": hint["move"]}).json()
    assert after["verdict"]["kind"] == "played"


def test_a_hint_search_stops_at_its_budget_and_says_so(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("qipan.server.puzzles.HINT_NODES", 5)
    moves = solution(find("shiqi"))[:10]
    hint = client.post("/api/puzzles/shiqi/hint", json={"moves": moves}).json()
    assert hint == {"status": "budget", "move": None, "nodes": 5}


@pytest.mark.parametrize(("body", "error"), [
    ({"moves": ["x" * 101]}, "moves.0: String should have at most 100 characters"),
    ({"move": "x" * 501}, '"move" must be a move in the game\'s notation: a string of 1..500 characters'),
    ({"moves": ["d1-e6"] * (MAX_MOVES + 1)}, f"moves: List should have at most {MAX_MOVES} items"),
    ({"moves": "d1-e6"}, "moves"),
])
def test_hostile_bodies_get_one_line(client: TestClient, body: dict[str, object], error: str) -> None:
    answer = client.post("/api/puzzles/crossing/play", json=body)
    assert answer.status_code == 400 and answer.json()["error"].startswith(error)
    assert "x" * 60 not in answer.json()["error"]


def test_a_try_too_long_for_a_puzzle_is_illegal_in_one_line(client: TestClient) -> None:
    verdict = client.post("/api/puzzles/crossing/play", json={"move": "x" * 300}).json()["verdict"]
    assert verdict["kind"] == "illegal" and verdict["reason"]["en"] == "a move is at most 100 characters"
    assert verdict["reason"]["zh-Hant"] == "一步最多 100 個字元"


def test_an_unknown_puzzle_is_404_without_echoing_it(client: TestClient) -> None:
    answer = client.post("/api/puzzles/" + "n" * 40 + "/play", json={})
    assert answer.status_code == 404 and "n" * 41 not in answer.json()["error"]
    assert client.post("/api/puzzles/" + "n" * 41 + "/play", json={}).status_code in (400, 404, 422)


def test_playing_spends_positions_and_hints_analyses(tmp_path: Path) -> None:
    limits = Limits(analyse_rate=Rate(1, 60.0), position_rate=Rate(2, 60.0))
    with TestClient(create_app(str(tmp_path / "q.db"), ai_processes=False, limits=limits)) as client:
        assert [client.post("/api/puzzles/shiqi/play", json={}).status_code for _ in range(3)] == [200, 200, 429]
        hints = [client.post("/api/puzzles/shiqi/hint", json={}) for _ in range(2)]
        assert [h.status_code for h in hints] == [200, 429]
        assert hints[1].json()["error"].startswith("too many analyses")


def test_one_client_has_one_shiqi_search_at_a_time_and_the_process_two(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worst-case 食棋 hint (no finish, the whole budget) takes about a second of one core: at the
    analyse rate (120 a minute) one client could keep two cores searching without this bound."""
    started, release = threading.Semaphore(0), threading.Event()
    searched = attempt.Shiqi.search

    def slow(self: attempt.Shiqi, max_nodes: int = attempt.HINT_NODES) -> capture.Finish:
        started.release()
        release.wait(30)
        return searched(self, max_nodes)

    monkeypatch.setattr(attempt.Shiqi, "search", slow)
    app = create_app(str(tmp_path / "q.db"), ai_processes=False)
    with TestClient(app, client=("192.0.2.1", 1)) as one, TestClient(app, client=("192.0.2.2", 1)) as two, \
            TestClient(app, client=("192.0.2.3", 1)) as three, ThreadPoolExecutor(2) as pool:
        first = pool.submit(one.post, "/api/puzzles/shiqi/hint", json={})
        assert started.acquire(timeout=30)
        again = one.post("/api/puzzles/shiqi/hint", json={})
        assert again.status_code == 503 and again.json()["error"].startswith("at most 1 hint search at once")
        assert one.post("/api/puzzles/abalone-003/hint", json={}).status_code == 200  # not a search
        other = pool.submit(two.post, "/api/puzzles/shiqi/hint", json={})
        assert started.acquire(timeout=30)
        full = three.post("/api/puzzles/shiqi/hint", json={})
        assert full.status_code == 503 and full.headers["retry-after"] == "2"
        release.set()
        assert first.result().json()["status"] == "found" and other.result().status_code == 200
        assert one.post("/api/puzzles/shiqi/hint", json={}).status_code == 200
