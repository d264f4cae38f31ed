"""AI work is scheduled so that a game with a human waiting never queues behind all-AI games,
and workers let go of the agents of finished games."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import qipan
from qipan.core.chance import event_key
from qipan.server import create_app
from qipan.server.ai_pool import BACKGROUND, FOREGROUND, AIProcesses, Job, Request, Scheduler

from .helpers import connect, create, until, update_with


def job(key: str, priority: int, owner: str = "") -> Job:
    request = Request(key, "abalone", "standard", {}, "easy", 0, [], {}, b"")
    return Job(request, priority, owner=owner)


def test_a_human_games_request_goes_before_every_queued_all_ai_request() -> None:
    scheduler = Scheduler(workers=1, background_workers=1)
    queued = [job(f"ai-{i}", BACKGROUND) for i in range(3)]
    for j in queued:
        scheduler.submit(j)
    human = job("human", FOREGROUND)
    scheduler.submit(human)
    served = []
    while (taken := scheduler.take(0)) is not None:
        served.append(taken)
        scheduler.done(0)
    assert served == [human, *queued]


def test_one_client_with_many_games_cannot_starve_another() -> None:
    """Jobs of owners with fewer jobs running go first; among equals, the oldest."""
    scheduler = Scheduler(workers=2, background_workers=1)
    flood = [job(f"flood-{i}", FOREGROUND, "10.0.0.1") for i in range(6)]
    for j in flood:
        scheduler.submit(j)
    other = job("other", FOREGROUND, "10.0.0.2")
    scheduler.submit(other)
    assert scheduler.take(0) is flood[0]  # nobody runs anything yet: the oldest
    assert scheduler.take(1) is other  # the flooder has one running, the other client none
    scheduler.done(1)
    assert scheduler.take(1) is flood[1]


def test_all_ai_games_never_hold_every_worker() -> None:
    scheduler = Scheduler(workers=3, background_workers=2)
    for i in range(10):
        scheduler.submit(job(f"ai-{i}", BACKGROUND))
    assert scheduler.take(0) is not None and scheduler.take(1) is not None
    assert scheduler.take(2) is None  # two of three workers think for all-AI games at most
    human = job("human", FOREGROUND)
    scheduler.submit(human)
    assert scheduler.take(2) is human  # the free worker answers the human at once
    scheduler.done(0)
    assert scheduler.take(0).priority == BACKGROUND  # type: ignore[union-attr]


def test_a_request_waits_for_the_free_worker_that_holds_its_agent_and_moves_when_that_one_is_busy() -> None:
    scheduler = Scheduler(workers=2, background_workers=1)
    first = job("g:1", FOREGROUND)
    scheduler.submit(first)
    assert scheduler.take(1) is first
    scheduler.done(1)  # worker 1 now holds agent g:1
    again = job("g:1", FOREGROUND)
    scheduler.submit(again)
    assert scheduler.take(0) is None  # worker 1 is free: it takes its own agent's request
    busy = job("other", FOREGROUND)
    scheduler.submit(busy)
    assert scheduler.take(1) is again
    assert scheduler.take(0) is busy
    scheduler.done(0)
    third = job("g:1", FOREGROUND)
    scheduler.submit(third)
    assert scheduler.take(0) is third  # worker 1 is busy: a human should not wait for it
    assert scheduler.home["g:1"] == 0


def test_cancelled_requests_leave_the_queue_and_finished_games_agents_are_dropped() -> None:
    scheduler = Scheduler(workers=2, background_workers=1)
    gone = job("g:1", FOREGROUND)
    scheduler.submit(gone)
    scheduler.cancel(gone)
    assert scheduler.take(0) is None
    scheduler.home["g:1"] = 1
    scheduler.drop(["g:1"])
    assert "g:1" not in scheduler.home
    assert scheduler.forgotten(0) == ("g:1",) and scheduler.forgotten(1) == ("g:1",)
    assert scheduler.forgotten(0) == ()


def test_background_workers_must_be_between_one_and_the_number_of_workers(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"background_workers must be 1\.\.2"):
        Scheduler(workers=2, background_workers=3)
    for wrong in (0, 3):
        with pytest.raises(ValueError, match=r"all_ai_workers must be 1\.\.2"):
            create_app(str(tmp_path / "x.db"), ai_workers=2, all_ai_workers=wrong)


def test_worker_processes_serve_the_human_before_the_queued_all_ai_requests() -> None:
    game = qipan.load("abalone")
    view = game.view(game.initial_state(), 0)

    def request(key: str) -> Request:
        return Request(key, "abalone", "standard", {}, "easy", 0, [], view, event_key(1, "ai", 0))

    async def run() -> list[str]:
        pool = AIProcesses(1)
        served: list[str] = []

        async def ask(key: str, priority: int) -> None:
            status, _ = await pool.choose(request(key), priority)
            assert status == "ok"
            served.append(key)

        try:
            with pool._locks[0]:  # the worker is busy: whatever the feeder took waits here
                tasks = [asyncio.create_task(ask(f"ai-{i}", BACKGROUND)) for i in range(3)]
                tasks.append(asyncio.create_task(ask("human", FOREGROUND)))
                await asyncio.sleep(0)  # every task submits its request (the lock makes the order certain)
            await asyncio.gather(*tasks)
        finally:
            await asyncio.to_thread(pool.close)
        return served

    # In a thread of its own: the browser tests' Playwright keeps an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        served = thread.submit(asyncio.run, run()).result()
    # At most one all-AI request (taken before the human's arrived) goes first; the rest wait.
    assert served in (["human", "ai-0", "ai-1", "ai-2"], ["ai-0", "human", "ai-1", "ai-2"])


def test_the_random_level_answers_without_queueing_and_finished_games_free_their_agents(
        process_client: TestClient) -> None:
    hub = process_client.app.state.hub  # type: ignore[attr-defined]
    pool: AIProcesses = hub.ai_processes
    random_game = create(process_client, seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}])
    easy_game = create(process_client, seats=[{"kind": "human"}, {"kind": "ai", "level": "easy"}])
    for created in (random_game, easy_game):
        with connect(process_client, created, 0) as ws:
            message = until(ws, update_with(0))
            ws.send_json({"type": "move", "move": message["legal"][0]})
            until(ws, update_with(2))  # the AI answered
            ws.send_json({"type": "resign"})
            until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    assert pool.worker_of(f"{random_game['id']}:1") is None  # never sent to a worker
    easy_key = f"{easy_game['id']}:1"
    assert easy_game["id"] not in hub.games and pool.worker_of(easy_key) is None
    assert all(easy_key in pending for pending in pool.scheduler.forget)  # dropped with the next request
