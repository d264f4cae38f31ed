"""AI seats in worker processes: they play, keep their memory, and survive a worker's death."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import connect, create, until, update_with


def test_ai_against_ai_with_memory_plays_to_the_end_in_workers(process_client: TestClient) -> None:
    created = create(process_client, game="tellstones", options={"turn_limit": 8},
                     seats=[{"kind": "ai", "level": "medium"}, {"kind": "ai", "level": "easy"}])
    with connect(process_client, created, None) as ws:
        final = until(ws, lambda m: m["type"] == "update" and m["result"] is not None, limit=500)
    assert final["to_move"] is None
    record = process_client.get(f"/api/games/{created['id']}/record").json()
    assert len(record["moves"]) == len(final["moves"]) >= 3 and record["result"] == final["result"]


def test_a_killed_worker_is_restarted_and_the_ai_catches_up(process_client: TestClient) -> None:
    created = create(process_client, game="tellstones",
                     seats=[{"kind": "human"}, {"kind": "ai", "level": "medium"}])
    pool = process_client.app.state.hub.ai_processes  # type: ignore[attr-defined]
    live = process_client.app.state.hub.games[created["id"]]  # type: ignore[attr-defined]
    with connect(process_client, created, 0) as ws:
        message = until(ws, update_with(0))
        for round_ in range(3):
            n = message["ply"]
            ws.send_json({"type": "move", "move": message["legal"][0]})
            message = until(ws, lambda m, n=n: m["type"] == "update" and m["to_move"] == 0 and m["ply"] > n + 1)
            assert message["last"]["player"] == 1
            if round_ == 0:
                pool.kill_worker(pool.worker_of(f"{created['id']}:1"))
    # After the restart the new worker was sent the whole history again, and is up to date.
    assert pool.resyncs == 1
    assert live._synced[1] == message["ply"] - 1
