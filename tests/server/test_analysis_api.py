"""Analysis over HTTP (issue 21): positions, analyses, reviews of finished games, hints.

What the engine is given is captured where the server hands it over (``ai_pool.run_analysis``):
the proofs that no hidden state reaches it compare those requests for positions that look the
same to the player but differ in what is hidden."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

import qipan
from qipan.core import CHANCE, GameError, Record
from qipan.core.game import Game
from qipan.server import ai_pool, ai_turns, analysis, create_app, models
from qipan.server.ai_pool import ANALYSIS, BACKGROUND, FOREGROUND, AIProcesses, AnalysisRequest, Job, Request, Scheduler
from qipan.server.analysis import PER_CLIENT, AnalysisBusy, Analyst, Finished, footprint
from qipan.server.limits import Limits, Rate

from .helpers import GatedAgent, connect, create, until, update_with

FAST = 0.1
"""Seconds of engine time the tests ask for."""


def position(client: TestClient, **body: Any) -> dict[str, Any]:
    reply = client.post("/api/position", json=body)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    models.Stepped.model_validate(answer)
    return answer


def decided(game: Game[Any, Any], seed: int, plies: int = 0) -> Any:
    """A state of ``game`` where a player decides: chance drawn and ``plies`` random decisions
    played (with ``seed``)."""
    rng = random.Random(seed)
    state = game.initial_state()
    while True:
        mover = game.to_move(state)
        assert mover is not None
        if mover == CHANCE:
            state = game.next_state(state, game.sample_chance(state, rng))
        elif plies:
            state = game.next_state(state, rng.choice(list(game.legal_actions(state))))
            plies -= 1
        else:
            return state


def hidden_twin(game: Game[Any, Any], state: Any) -> Any:
    """A state the player to move cannot tell from ``state`` (the same view) that differs in what
    that player does not see."""
    mover = game.to_move(state)
    view = game.view(state, mover)
    for seed in range(50):
        twin = game.sample_state(view, random.Random(seed))
        if game.state_to_json(twin) != game.state_to_json(state):
            assert game.view(twin, mover) == view
            return twin
    raise AssertionError("no other state behind this view")


class Recorder:
    """Stands in for the engine: keeps every request and answers as the real one would."""

    def __init__(self) -> None:
        self.requests: list[AnalysisRequest] = []
        self.real = ai_pool.run_analysis

    def __call__(self, request: AnalysisRequest) -> tuple[str, Any]:
        self.requests.append(request)
        return self.real(request)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(ai_pool, "run_analysis", recorder)
    return recorder


# -- positions ---------------------------------------------------------------------------------------


def test_position_steps_through_moves_and_chance_outcomes(client: TestClient) -> None:
    start = position(client, game="abalone")
    assert start["to_move"] == 0 and len(start["legal"]) == 44 and start["result"] is None and "move" not in start
    after = position(client, game="abalone", state=start["state"], move="a1b2")
    assert after["move"] == "a1b2" and after["to_move"] == 1 and after["view"]["player"] == 1

    dice = position(client, game="kelighine")
    assert dice["to_move"] == "chance" and dice["legal"] and dice["view"]["player"] is None
    rolled = position(client, game="kelighine", state=dice["state"], move=dice["legal"][-1])
    assert rolled["move"] == dice["legal"][-1]

    deal = position(client, game="shengke", options={"first": "0"})
    while deal["to_move"] == "chance":  # a shuffle cannot be listed: "random" draws one
        deal = position(client, game="shengke", options={"first": "0"}, state=deal["state"], move="random")
        assert deal["move"]
    assert deal["to_move"] == 0 and deal["legal"]


def test_position_at_the_end_shows_the_result(client: TestClient) -> None:
    game = qipan.load("kelighine")
    state, rng = game.initial_state(), random.Random(1)
    for _ in range(5000):  # random play ends a game of Kelighine within a few hundred plies
        mover = game.to_move(state)
        if mover is None:
            break
        action = game.sample_chance(state, rng) if mover == CHANCE else rng.choice(list(game.legal_actions(state)))
        state = game.next_state(state, action)
    end = position(client, game="kelighine", state=game.state_to_json(state))
    assert end["to_move"] is None and end["legal"] == [] and end["result"]["text"]
    refused = client.post("/api/position", json={"game": "kelighine", "state": game.state_to_json(state), "move": "x"})
    assert refused.status_code == 400 and "over" in refused.json()["error"]


def test_hostile_positions_are_refused_with_one_short_line(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "q.db"), ai_processes=False, limits=Limits(max_body=1 << 20))) as client:
        state = position(client, game="abalone")["state"]
        bad_states = [{"x": 1}, [1, 2], "abc", 5, {**state, "black": state["black"] + ["e5"] * 3},
                      {**state, "black": 7}, {**state, "turn": 5}, {**state, "white": ["a1"]},
                      {"black": ["a1"] * 10_000}]
        for bad in bad_states:
            for path in ("/api/position", "/api/analyse"):
                reply = client.post(path, json={"game": "abalone", "state": bad})
                assert reply.status_code == 400, (bad, reply.text)
                message = reply.json()["error"]
                assert "\n" not in message and len(message) < 300 and "Traceback" not in message
        huge = client.post("/api/position", json={"game": "abalone", "state": {"black": ["a1"] * 10_000}})
        assert "at most 16384 characters" in huge.json()["error"]
        # unknown games and options: the same words as creating a game
        for body in ({"game": "chess"}, {"game": "abalone", "options": {"nope": 1}},
                     {"game": "abalone", "variant": "nope"}):
            created = client.post("/api/games", json=body)
            for path in ("/api/position", "/api/analyse"):
                reply = client.post(path, json={**body, "state": state})
                assert (reply.status_code, reply.json()) == (created.status_code, created.json())
        for move in ("z9z9", "a1a1", "i9h8"):  # unreadable, no move, the other side's marble
            reply = client.post("/api/position", json={"game": "abalone", "state": state, "move": move})
            assert reply.status_code == 400 and len(reply.json()["error"]) < 300
        too_long = client.post("/api/position", json={"game": "abalone", "move": "x" * 501})
        assert too_long.json()["error"].startswith('"move" must be a move')
        for field, value in (("lines", 6), ("lines", 0), ("time", 3), ("time", 0), ("time", "1"), ("lines", True)):
            reply = client.post("/api/analyse", json={"game": "abalone", "state": state, field: value})
            assert reply.status_code == 400 and reply.json()["error"].startswith(f'"{field}" must be'), reply.text
        missing = client.post("/api/analyse", json={"game": "abalone"})
        assert missing.status_code == 400 and missing.json()["error"].startswith('"state" must be')


# -- analyses -------------------------------------------------------------------------------------------


def test_analyse_answers_the_engine_lines_of_the_player_to_move(client: TestClient, recorder: Recorder) -> None:
    game = qipan.load("abalone")
    state = game.next_state(game.initial_state(), game.parse_action(game.initial_state(), "a1b2"))
    reply = client.post("/api/analyse", json={"game": "abalone", "state": game.state_to_json(state), "lines": 2,
                                              "time": FAST})
    assert reply.status_code == 200, reply.text
    answer = models.Analysed.model_validate(reply.json())
    assert answer.position.to_move == 1 and answer.analysis is not None and answer.analysis.player == 1
    assert len(answer.analysis.lines) == 2 and answer.analysis.lines[0].move in game.legal_texts(state)
    assert answer.analysis.lines[0].pv[0] == answer.analysis.lines[0].move
    (request,) = recorder.requests
    assert request.view == game.view(state, 1) and request.time == FAST and request.lines == 2
    assert "state" not in {f.name for f in dataclasses.fields(AnalysisRequest)}


def test_nobody_decides_at_a_chance_point_so_there_is_no_analysis(client: TestClient, recorder: Recorder) -> None:
    state = position(client, game="kelighine")["state"]
    reply = client.post("/api/analyse", json={"game": "kelighine", "state": state, "time": FAST})
    assert reply.status_code == 200 and reply.json()["analysis"] is None
    assert reply.json()["position"]["to_move"] == "chance" and recorder.requests == []


@pytest.mark.parametrize("name", ["shengke", "tellstones"])
def test_an_analysis_never_sees_what_the_player_to_move_does_not(client: TestClient, recorder: Recorder,
                                                                   name: str) -> None:
    """Two states behind one view (another deal, other stones face down): the engine is given
    exactly the same request, so nothing it answers can tell them apart."""
    game = qipan.load(name)
    state = decided(game, 5, plies=0 if name == "shengke" else 10)
    twin = hidden_twin(game, state)
    answers = []
    for each in (state, twin):
        reply = client.post("/api/analyse", json={"game": name, "state": game.state_to_json(each), "time": FAST})
        assert reply.status_code == 200, reply.text
        answers.append(reply.json())
    first, second = recorder.requests
    assert first == second
    assert answers[0]["position"] == answers[1]["position"]  # what the server shows is the view too
    assert {line["move"] for line in answers[0]["analysis"]["lines"]} <= set(game.legal_texts(state))


# -- limits --------------------------------------------------------------------------------------------


def test_analyses_and_positions_have_their_own_rate_per_client(tmp_path: Path, recorder: Recorder) -> None:
    limits = Limits(analyse_rate=Rate(2, 60.0), position_rate=Rate(3, 60.0))
    with TestClient(create_app(str(tmp_path / "q.db"), ai_processes=False, limits=limits)) as client:
        state = position(client, game="kelighine")["state"]
        analysed = [client.post("/api/analyse", json={"game": "kelighine", "state": state}) for _ in range(3)]
        assert [r.status_code for r in analysed] == [200, 200, 429]
        assert analysed[2].json()["error"].startswith("too many analyses")
        assert int(analysed[2].headers["Retry-After"]) > 0
        assert [client.post("/api/position", json={"game": "abalone"}).status_code for _ in range(3)] == [200, 200, 429]
        hint = client.post("/api/games/nope/hint", json={"token": "x"})  # hints and reviews spend the same bucket
        assert hint.status_code == 429


def test_one_client_cannot_fill_the_analysis_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()

    def slow(request: AnalysisRequest) -> tuple[str, Any]:
        assert gate.wait(30)
        return ("ok", {"lines": []})

    monkeypatch.setattr(ai_pool, "run_analysis", slow)
    pool = ThreadPoolExecutor(8)
    analyst = Analyst(SimpleNamespace(ai_processes=None, ai_pool=pool))  # type: ignore[arg-type]
    request = AnalysisRequest("abalone", "standard", {}, {}, 1, FAST)

    async def scenario() -> None:
        mine = [asyncio.create_task(analyst.run(request, "10.0.0.1")) for _ in range(PER_CLIENT)]
        await asyncio.sleep(0.05)
        with pytest.raises(AnalysisBusy, match="at most 2 analyses at once"):
            await analyst.run(request, "10.0.0.1")
        others = [asyncio.create_task(analyst.run(request, f"10.0.1.{i}")) for i in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(AnalysisBusy, match="as much as it can"):  # 4 per worker, one worker
            await analyst.run(request, "10.0.2.1")
        gate.set()
        assert [await task for task in mine + others] == [{"lines": []}] * 4
        assert not analyst.running

    asyncio.run(scenario())
    pool.shutdown()


def test_analysis_goes_after_human_games_and_before_all_ai_games_within_their_workers() -> None:
    scheduler = Scheduler(workers=2, background_workers=1)
    analysis = Job(AnalysisRequest("abalone", "standard", {}, {}, 1, FAST), ANALYSIS, owner="10.0.0.1")
    all_ai = Job(Request("g:1", "abalone", "standard", {}, "easy", 0, [], {}, b""), BACKGROUND)
    human = Job(Request("h:1", "abalone", "standard", {}, "easy", 0, [], {}, b""), FOREGROUND)
    for job in (all_ai, analysis, human):
        scheduler.submit(job)
    assert scheduler.take(0) is human
    assert scheduler.take(1) is analysis
    scheduler.done(0)
    assert scheduler.take(0) is None  # the worker analysis holds is all that all-AI games may use
    scheduler.done(1)
    assert scheduler.take(1) is all_ai
    assert "" not in scheduler.home  # an analysis holds no agent


def test_an_analysis_that_runs_over_restarts_its_worker_like_an_ai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_pool, "ANALYSIS_GRACE", 0.0)
    pool = AIProcesses(1)
    try:
        game = qipan.load("abalone")
        view = game.view(game.initial_state(), 0)

        async def ask(time: float) -> tuple[str, Any]:
            return await pool.choose(AnalysisRequest("abalone", "standard", {}, view, 1, time), ANALYSIS, "x")

        status, message = asyncio.run(ask(0.001))  # a search takes longer than a millisecond, and the pipe
        assert (status, message) == ("error", "an analysis took longer than 0.001 s")
        monkeypatch.setattr(ai_pool, "ANALYSIS_GRACE", 60.0)
        status, answer = asyncio.run(ask(FAST))  # a new worker answers the next one
        assert status == "ok" and answer["lines"][0]["move"] in game.legal_texts(game.initial_state())
    finally:
        pool.close()


# -- reviews --------------------------------------------------------------------------------------------


def finish(client: TestClient, created: dict[str, Any], moves: list[str], seats: int = 2) -> None:
    """Play ``moves`` in turn by seats 0, 1, ... (over their own WebSockets), then resign."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(client, created, seat)) for seat in range(seats)]
        for ws in sockets:
            until(ws, lambda m: m["type"] == "update")
        for ply, move in enumerate(moves):
            sockets[ply % seats].send_json({"type": "move", "move": move})
            for ws in sockets:
                until(ws, update_with(ply + 1))
        sockets[len(moves) % seats].send_json({"type": "resign"})
        until(sockets[0], lambda m: m["type"] == "update" and m["result"] is not None)


def test_a_review_of_a_finished_game_grades_one_decision(client: TestClient, recorder: Recorder) -> None:
    created = create(client)
    path = f"/api/games/{created['id']}/review"
    assert client.post(f"{path}/0", json={}).status_code == 409  # still being played
    finish(client, created, ["a1b2", "i9h8", "a2b3"])
    reply = client.post(f"{path}/1", json={"time": FAST})
    assert reply.status_code == 200, reply.text
    review = models.Reviewed.model_validate(reply.json())
    assert (review.ply, review.player, review.move, review.played.move) == (1, 1, "i9h8", "i9h8")
    assert review.verdict in (None, "inaccuracy", "mistake", "blunder")
    (request,) = recorder.requests
    game = qipan.load("abalone")
    states = [game.initial_state(), game.play(game.initial_state(), "a1b2")]
    assert request.view == game.view(states[1], 1) and request.history == (game.view(states[0], 1),)
    assert request.include == ("i9h8",) and request.review
    for ply, status in ((3, 404), (-1, 404)):
        assert client.post(f"{path}/{ply}", json={}).status_code == status
    assert client.post("/api/games/nope/review/0", json={}).status_code == 404
    assert client.post(f"{path}/0", json={"time": 5}).status_code == 400


def test_finished_games_kept_for_reviews_are_bounded_by_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    def played(name: str, plies: int) -> list[Any]:
        game, rng = qipan.load(name), random.Random(1)
        state = game.initial_state()
        states = [state]
        while len(states) < plies and game.to_move(state) is not None:
            mover = game.to_move(state)
            state = game.next_state(state, game.sample_chance(state, rng) if mover == CHANCE
                                    else rng.choice(list(game.legal_actions(state))))
            states.append(state)
        return states

    abalone, shengke = played("abalone", 30), played("shengke", 30)
    assert len(abalone) == len(shengke) == 30
    assert footprint(shengke) > 3 * footprint(abalone)  # counted by bytes, not positions
    sizes = {"a": footprint(abalone), "b": footprint(abalone), "s": footprint(shengke)}
    analyst = Analyst(SimpleNamespace(ai_processes=None, unavailable={}))  # type: ignore[arg-type]
    monkeypatch.setattr(analyst, "_read", lambda game_id: Finished(
        None, None, [], abalone if game_id != "s" else shengke, sizes[game_id]))  # type: ignore[arg-type]
    monkeypatch.setattr(analysis, "FINISHED_CACHE_BYTES", sizes["a"] + sizes["s"])
    for game_id in "abs":
        asyncio.run(analyst.finished(game_id))
    assert list(analyst._finished) == ["b", "s"]  # the Sheng-Ke game pushed the oldest out
    asyncio.run(analyst.finished("b"))
    asyncio.run(analyst.finished("a"))
    assert list(analyst._finished) == ["b", "a"]  # two Abalone games take less than one Sheng-Ke


def test_a_chance_ply_is_not_a_decision(client: TestClient) -> None:
    created = create(client, "kelighine")
    finish(client, created, [])
    reply = client.post(f"/api/games/{created['id']}/review/0", json={})
    assert (reply.status_code, reply.json()) == (400, {"error": "ply 0 is a chance outcome, not a decision"})


def test_hidden_information_is_reviewed_only_by_the_deciding_seat_from_its_view(
        client: TestClient, recorder: Recorder) -> None:
    created = create(client, "tellstones")
    game = qipan.load("tellstones", None, {})
    first = game.legal_texts(game.initial_state())[0]
    second = game.legal_texts(game.play(game.initial_state(), first))[0]
    finish(client, created, [first, second])
    path = f"/api/games/{created['id']}/review"
    tokens = created["tokens"]
    for ply, token in ((0, None), (0, tokens[1]), (1, tokens[0]), (0, "forged")):
        reply = client.post(f"{path}/{ply}", json={"time": FAST, **({"token": token} if token else {})})
        assert reply.status_code == 403, reply.text
    assert recorder.requests == []
    reply = client.post(f"{path}/1", json={"time": FAST, "token": tokens[1]})
    assert reply.status_code == 200 and reply.json()["move"] == second
    (request,) = recorder.requests
    states = [game.initial_state(), game.play(game.initial_state(), first)]
    assert request.view == game.view(states[1], 1) and request.history == (game.view(states[0], 1),)


# -- hints ----------------------------------------------------------------------------------------------


AGAINST_AI = [{"kind": "human"}, {"kind": "ai", "level": "easy"}]


def test_hints_only_in_a_game_of_one_person_against_the_ai(client: TestClient) -> None:
    refused: list[tuple[dict[str, Any], str]] = [
        ({"game": "abalone"}, "there is no AI seat"),
        ({"game": "abalone", "seats": [{"kind": "ai"}, {"kind": "ai"}]}, "there is no human seat"),
        ({"game": "chinese-checkers", "options": {"players": 3},
          "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "ai"}]}, "2 seats are human"),
    ]
    for body, reason in refused:
        reply = client.post("/api/games", json={**body, "hints": True})
        assert reply.status_code == 400 and reply.json()["error"].endswith(reason), reply.text
    assert client.post("/api/games", json={"game": "abalone", "hints": "yes"}).json()["error"] == \
        '"hints" must be true or false'
    plain = create(client, seats=AGAINST_AI)
    summary = client.get(f"/api/games/{plain['id']}").json()
    assert (summary["hints"], summary["hints_used"]) == (False, 0)
    reply = client.post(f"/api/games/{plain['id']}/hint", json={"token": plain["token"]})
    assert (reply.status_code, reply.json()) == (403, {"error": "this game was not created with hints"})


def test_a_hint_is_for_the_seat_on_its_own_turn_and_is_counted(
        db_path: Path, monkeypatch: pytest.MonkeyPatch, recorder: Recorder) -> None:
    gate = threading.Event()
    real = ai_turns.make_agent  # type: ignore[attr-defined]
    monkeypatch.setattr(ai_turns, "make_agent",
                        lambda game, level: GatedAgent(gate) if level == "random" else real(game, level))
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:
        created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}], hints=True)
        hint = f"/api/games/{created['id']}/hint"
        assert client.post(hint, json={"token": "forged"}).status_code == 403
        reply = client.post(hint, json={"token": created["token"]})
        assert reply.status_code == 200, reply.text
        answer = models.Hint.model_validate(reply.json())
        assert answer.ply == 0 and answer.analysis.player == 0 and len(answer.analysis.lines) == 3
        with connect(client, created, 0) as ws:
            until(ws, update_with(0))
            ws.send_json({"type": "move", "move": answer.analysis.lines[0].move})
            until(ws, update_with(1))
            busy = client.post(hint, json={"token": created["token"]})  # the AI is thinking
            assert (busy.status_code, busy.json()["error"]) == (409, "a hint is for your own turn; it is not your turn")
            gate.set()
            until(ws, update_with(2))
            assert client.post(hint, json={"token": created["token"]}).status_code == 200
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
        assert client.post(hint, json={"token": created["token"]}).status_code == 409
        summary = client.get(f"/api/games/{created['id']}").json()
        assert (summary["hints"], summary["hints_used"]) == (True, 2)
        record = client.get(f"/api/games/{created['id']}/record").json()
        assert record["hints"] is True and Record.from_json(record).hints
        rematch = client.post(f"/api/games/{created['id']}/rematch", json={"token": created["token"]}).json()
        again = client.get(f"/api/games/{rematch['id']}").json()
        assert (again["hints"], again["hints_used"]) == (True, 0)
        assert [r.view["player"] for r in recorder.requests] == [0, 0]
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as client:  # kept in the database
        summary = client.get(f"/api/games/{created['id']}").json()
        assert (summary["hints"], summary["hints_used"]) == (True, 2)


@pytest.mark.parametrize("name", ["shengke", "tellstones"])
def test_a_hint_never_sees_what_its_seat_does_not(client: TestClient, recorder: Recorder, name: str) -> None:
    """The live game's position is swapped for another behind the same view of the human's seat
    (Sheng-Ke: the AI's hand and the deck dealt otherwise; Tellstones: other stones face down):
    the engine gets exactly the same request."""
    created = create(client, name, options={"first": "0"} if name == "shengke" else {}, seats=AGAINST_AI,
                     hints=True)
    live = client.app.state.hub.games[created["id"]]  # type: ignore[attr-defined]
    game = live.game
    if name == "tellstones":  # a position with stones face down, the human to move
        live.match.states[-1] = decided(game, 5, plies=11)
    assert game.to_move(live.match.state) == 0
    answers = []
    for swap in (False, True):
        if swap:
            live.match.states[-1] = hidden_twin(game, live.match.state)
        reply = client.post(f"/api/games/{created['id']}/hint", json={"token": created["token"]})
        assert reply.status_code == 200, reply.text
        answers.append(reply.json())
    first, second = recorder.requests
    assert first == second and first.view == game.view(live.match.state, 0)
    assert {line["move"] for line in answers[0]["analysis"]["lines"]} <= set(game.legal_texts(live.match.state))


def test_records_keep_hints_only_when_on() -> None:
    record = Record("abalone", "standard", {}, hints=True)
    assert record.to_json()["hints"] is True and Record.from_json(record.to_json()).hints
    plain = Record("abalone", "standard", {}).to_json()
    assert "hints" not in plain and Record.from_json(plain).hints is False
    with pytest.raises(GameError, match="hints must be true or false"):
        Record.from_json({**plain, "hints": "yes"})


def test_another_method_on_an_analysis_path_is_405_with_allow_post(client: TestClient) -> None:
    """FastAPI keeps an included router as one entry: its paths were answered 404 to a GET."""
    for path in ("/api/position", "/api/analyse", "/api/games/x/review/0", "/api/games/x/hint"):
        reply = client.get(path)
        assert (reply.status_code, reply.headers["Allow"]) == (405, "POST"), path
        assert reply.json() == {"error": f"use POST for {path}"}
