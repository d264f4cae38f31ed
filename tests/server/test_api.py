"""The HTTP API: metadata, creating games, summaries, records, replays, rematches, static files."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

import qipan
from qipan.core import Record
from qipan.server.meta import available_games

from .helpers import Message, connect, create, until, update_with


def test_meta_lists_every_game_with_options_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    names = [g["name"] for g in meta["games"]]
    assert names == available_games()
    assert {"abalone", "shengke", "tellstones"} <= set(names)
    abalone = next(g for g in meta["games"] if g["name"] == "abalone")
    assert abalone["players"] == 2
    assert [v["name"] for v in abalone["variants"]] == ["standard", "belgian-daisy", "german-daisy"]
    limit = next(o for o in abalone["options"] if o["name"] == "time_limit")
    assert limit == {"name": "time_limit", "type": "int", "default": 0, "help": limit["help"],
                     "choices": None, "minimum": 0, "maximum": 604800, "local_file": False, "seat": False}
    assert abalone["levels"][:2] == ["random", "easy"]
    # Options whose choices are seats (counted from 0 here, shown from 1 to people) say so.
    seats = {(g["name"], o["name"]) for g in meta["games"] for o in g["options"] if o["seat"]}
    assert seats == {("tellstones", "first_player"), ("shengke", "first")}
    for game in meta["games"]:
        players = game["players"]
        assert isinstance(players, int) or players["min"] < players["max"]


def test_describe_counts_players_and_explains_bad_options(client: TestClient) -> None:
    reply = client.post("/api/describe", json={"game": "abalone", "options": {"tournament": True}})
    assert reply.status_code == 200
    data = reply.json()
    assert data["num_players"] == 2
    assert data["player_names"] == ["black", "white"]
    assert data["time_limit"] == 900
    bad = client.post("/api/describe", json={"game": "abalone", "options": {"time_limit": -5}})
    assert bad.status_code == 400
    assert "minimum" in bad.json()["error"]


def test_levels_follow_the_configuration(client: TestClient) -> None:
    """Chinese Checkers offers ``max`` only to two players: describe says so, and a game asking
    for it with three players is refused with the levels it may choose."""
    def levels(players: int) -> list[str]:
        reply = client.post("/api/describe", json={"game": "chinese-checkers", "options": {"players": players}})
        assert reply.status_code == 200
        names: list[str] = reply.json()["levels"]
        return names

    assert levels(2) == ["random", "easy", "medium", "hard", "max"]
    assert levels(3) == ["random", "easy", "medium", "hard"]
    seats = [{"kind": "human"}, {"kind": "ai", "level": "max"}, {"kind": "ai", "level": "easy"}]
    refused = client.post("/api/games", json={"game": "chinese-checkers", "options": {"players": 3}, "seats": seats})
    assert refused.status_code == 400
    assert "random, easy, medium, hard" in refused.json()["error"] and "max" in refused.json()["error"]


def test_describe_offers_only_the_choices_of_the_configuration(client: TestClient) -> None:
    """The lobby offered Tellstones' first player 0-3 in a two-player game: describe now lists
    the choices each configuration accepts."""
    def choices(body: dict[str, object]) -> dict[str, list[object]]:
        reply = client.post("/api/describe", json=body)
        assert reply.status_code == 200
        found: dict[str, list[object]] = reply.json()["choices"]
        return found

    assert choices({"game": "tellstones"})["first_player"] == ["0", "1", "random"]
    assert choices({"game": "tellstones", "variant": "round-table"})["first_player"] == ["0", "1", "2", "3", "random"]
    assert choices({"game": "chinese-checkers"})["players"] == [2, 3, 4, 6]
    assert choices({"game": "chinese-checkers", "variant": "capture"})["players"] == [1, 2, 3, 4, 5, 6]
    assert "deck_0" not in choices({"game": "shengke"})


def test_describe_offers_kelighine_version_2_and_its_die(client: TestClient) -> None:
    """Kelighine version 2 could not be chosen in the lobby: its choices were tried with version 1's
    resolved die (6), which version 2 refuses. Only the options the client set are carried over."""
    def choices(options: dict[str, object]) -> dict[str, list[object]]:
        reply = client.post("/api/describe", json={"game": "kelighine", "options": options})
        assert reply.status_code == 200, reply.text
        found: dict[str, list[object]] = reply.json()["choices"]
        return found

    assert choices({})["version"] == [1, 2]
    assert choices({"die": 4})["version"] == [1, 2]
    assert choices({"version": 2}) == {"version": [1, 2], "die": [4]}
    assert choices({"players": 3})["version"] == [1]  # version 2 is for two players
    assert choices({"version": "2"})["die"] == [4]  # given values are read as the option reads them
    assert choices({"die": 6})["version"] == [1]  # a die the client chose is kept: version 2 refuses it


def test_create_gives_the_creator_their_own_seat_and_an_invitation_for_each_other_seat(
    client: TestClient,
) -> None:
    reply = client.post("/api/games", json={"game": "chinese-checkers", "options": {"players": 3},
                                            "seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"},
                                                      {"kind": "human"}]})
    assert reply.status_code == 201
    created = reply.json()
    me, ai, invited = created["seats"]
    assert created["seat"] == 0 and len(created["token"]) >= 20
    assert created["url"] == f"/play/{created['id']}#seat=0&token={created['token']}"
    assert me == {"seat": 0, "side": "red", "name": "red", "kind": "human", "level": None, "claimed": True}
    assert ai == {"seat": 1, "side": ai["side"], "name": ai["side"], "kind": "ai", "level": "easy", "claimed": True}
    assert invited["claimed"] is False and len(invited["invite"]) >= 20
    assert invited["url"] == f"/play/{created['id']}#invite={invited['invite']}"
    assert created["spectator_url"] == f"/play/{created['id']}"
    # Every secret travels in a fragment (never sent to the server), none in a path or query.
    for url in (created["url"], invited["url"], created["spectator_url"]):
        path = url.partition("#")[0]
        assert "?" not in path and created["token"] not in path and invited["invite"] not in path
    # The creator holds no token of the invited seat: the one its claim mints is not in the answer.
    claim = client.post(f"/api/games/{created['id']}/claim", json={"invite": invited["invite"]}).json()
    assert claim["seat"] == 2 and claim["token"] not in reply.text
    assert claim["url"] == f"/play/{created['id']}#seat=2&token={claim['token']}"
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["status"] == "playing"
    assert summary["moves"] == 0
    assert "seed" not in summary and "token" not in str(summary) and "invite" not in str(summary)
    assert [s["claimed"] for s in summary["seats"]] == [True, True, True]
    assert [s["connected"] for s in summary["seats"]] == [False, True, False]


def test_the_creator_may_pick_their_seat_or_none(client: TestClient) -> None:
    second = create(client, seat=1)
    assert second["seat"] == 1 and second["seats"][0]["invite"] and "invite" not in second["seats"][1]
    watcher = client.post("/api/games", json={"game": "abalone", "seats": [{"kind": "ai", "level": "random"}] * 2})
    assert watcher.json()["seat"] is None and watcher.json()["token"] is None and watcher.json()["url"] is None
    for seat, reason in ((1, "human seat (0)"), (2, "human seat (0)"), ("0", "seat"), (True, "seat")):
        reply = client.post("/api/games", json={"game": "abalone", "seat": seat,
                                                "seats": [{"kind": "human"}, {"kind": "ai"}]})
        assert reply.status_code == 400 and reason in reply.json()["error"], (seat, reply.text)


def test_an_invitation_works_once_and_only_for_its_game(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "abalone"}).json()
    other = client.post("/api/games", json={"game": "abalone"}).json()
    code = reply["seats"][1]["invite"]
    claim = f"/api/games/{reply['id']}/claim"
    for bad in ("guess", other["seats"][1]["invite"], reply["token"]):
        refused = client.post(claim, json={"invite": bad})
        assert refused.status_code == 403 and "not valid" in refused.json()["error"]
    first = client.post(claim, json={"invite": code})
    assert first.status_code == 200 and first.json()["seat"] == 1
    second = client.post(claim, json={"invite": code})
    assert second.status_code == 409 and "has been used" in second.json()["error"]
    assert first.json()["token"] not in second.text
    for body in ({}, {"invite": 5}, {"invite": "x" * 5000}, {"invite": "a", "seat": 1}):
        assert client.post(claim, json=body).status_code == 400, body
    assert client.post("/api/games/nosuchgame/claim", json={"invite": code}).status_code == 404
    # The claimed token opens the seat; the creator's token does not.
    created = {**reply, "tokens": {0: reply["token"], 1: first.json()["token"]}}
    with connect(client, created, 1) as ws:
        assert until(ws, lambda m: m["type"] == "update")["seat"] == 1
    with client.websocket_connect(f"/ws/games/{reply['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": reply["token"]})
        assert "wrong or missing token" in ws.receive_json()["error"]


def test_a_seat_cannot_be_claimed_once_the_game_is_over(client: TestClient) -> None:
    # A seat claimed after the end (before or after its rematch was made) had a rematch answer
    # 201 with a token that opened nothing: the rematch seat had been made unclaimed.
    reply = client.post("/api/games", json={"game": "abalone"}).json()
    resign(client, {**reply, "tokens": {0: reply["token"]}}, 0)
    late = client.post(f"/api/games/{reply['id']}/claim", json={"invite": reply["seats"][1]["invite"]})
    assert late.status_code == 409 and "over" in late.json()["error"] and "token" not in late.json()
    assert client.post(f"/api/games/{reply['id']}/claim", json={"invite": "guess"}).status_code == 403
    assert client.get(f"/api/games/{reply['id']}").json()["seats"][1]["claimed"] is False


def test_the_creator_can_replace_lost_invitations_of_unclaimed_seats(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "chinese-checkers", "options": {"players": 3}}).json()
    game_id = reply["id"]
    old = {s["seat"]: s["invite"] for s in reply["seats"] if s.get("invite")}
    assert sorted(old) == [1, 2]
    taken = client.post(f"/api/games/{game_id}/claim", json={"invite": old[1]}).json()
    refused = client.post(f"/api/games/{game_id}/invites", json={"token": taken["token"]})
    assert refused.status_code == 403 and "created the game" in refused.json()["error"]
    assert client.post(f"/api/games/{game_id}/invites", json={"token": "guess"}).status_code == 403
    fresh = client.post(f"/api/games/{game_id}/invites", json={"token": reply["token"]})
    assert fresh.status_code == 200
    invites = fresh.json()["invites"]
    assert [(i["seat"], i["url"]) for i in invites] == [(2, f"/play/{game_id}#invite={invites[0]['invite']}")]
    assert client.post(f"/api/games/{game_id}/claim", json={"invite": old[2]}).status_code == 403
    assert client.post(f"/api/games/{game_id}/claim", json={"invite": invites[0]["invite"]}).status_code == 200
    assert client.post(f"/api/games/{game_id}/invites", json={"token": reply["token"]}).json() == {"invites": []}


BAD_BODIES: list[tuple[Any, str]] = [
    ({"game": "chess"}, "unknown game"),
    ({}, '"game" must be'),
    ({"game": 7}, '"game" must be'),
    ({"game": "abalone", "variant": "nope"}, "no variant"),
    ({"game": "abalone", "variant": 3}, '"variant" must be'),
    ({"game": "abalone", "options": []}, '"options" must be'),
    ({"game": "abalone", "options": {"colour": "red"}}, "no option"),
    ({"game": "abalone", "options": {"time_limit": "soon"}}, "time_limit"),
    ({"game": "abalone", "seats": [{"kind": "human"}]}, "seats 2 players"),
    ({"game": "abalone", "seats": "two"}, "seats must be a list"),
    ({"game": "abalone", "seats": [{"kind": "robot"}, {"kind": "human"}]}, "seat 0 must be"),
    ({"game": "abalone", "seats": [1, 2]}, "seat 0 must be"),
    ({"game": "abalone", "seats": [{"kind": "ai", "level": "godlike"}, {"kind": "human"}]}, "no AI level"),
    ({"game": "abalone", "seats": [{"kind": "ai", "level": 5}, {"kind": "human"}]}, "level must be"),
    ({"game": "abalone", "seed": 1}, '"seed" is not accepted'),
    ([1, 2], "JSON object"),
    ("abalone", "JSON object"),
]


@pytest.mark.parametrize(("body", "message"), BAD_BODIES)
def test_bad_create_requests_get_400_with_the_reason(client: TestClient, body: Any, message: str) -> None:
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 400, reply.text
    assert message in reply.json()["error"]


def test_unreadable_bodies_and_unknown_things_are_clear_errors(client: TestClient) -> None:
    as_json = {"Content-Type": "application/json"}
    assert client.post("/api/games", content=b"{not json", headers=as_json).status_code == 400
    assert client.post("/api/games", content=b"\xff\xfe", headers=as_json).status_code == 400
    missing = client.get("/api/games/nosuchgame")
    assert missing.status_code == 404 and "no game" in missing.json()["error"]
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/api/games?status=lost").status_code == 400
    assert client.get("/api/games?limit=0").status_code == 400
    assert client.get("/api/games?limit=many").status_code == 400


def test_lists_filter_by_status(client: TestClient) -> None:
    playing = create(client, public=True)
    done = create(client, public=True)
    with connect(client, playing, 0) as ws:  # a game is listed as in play once someone moved in it
        until(ws, update_with(0))
        ws.send_json({"type": "move", "move": "a1b2"})
        until(ws, update_with(1))
    with connect(client, done, 0) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    finished_ids = [g["id"] for g in client.get("/api/games?status=finished").json()]
    playing_ids = [g["id"] for g in client.get("/api/games?status=playing").json()]
    assert done["id"] in finished_ids and done["id"] not in playing_ids
    assert playing["id"] in playing_ids and playing["id"] not in finished_ids
    both = client.get("/api/games").json()
    assert {g["id"] for g in both} >= {done["id"], playing["id"]}
    summary = next(g for g in both if g["id"] == done["id"])
    assert summary["result"]["reason"] == "resignation"
    assert summary["seats"][0]["name"] == "black"


def test_record_only_after_the_end_and_it_replays(client: TestClient) -> None:
    created = create(client, game="shengke")
    assert client.get(f"/api/games/{created['id']}/record").status_code == 409
    with connect(client, created, None) as spectator:
        mover = until(spectator, lambda m: m["type"] == "update")["to_move"]
    with connect(client, created, mover) as ws:
        first = until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "move", "move": first["legal"][0]})
        until(ws, lambda m: m["type"] == "update" and m["ply"] > first["ply"])
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["format"] == "qipan-record/1"
    assert re.fullmatch("[0-9a-f]{64}", record["seed"])  # the 256-bit secret, served only now
    assert record["result"]["reason"] == "resignation"
    states = Record.from_json(record).replay()
    assert len(states) == len(record["moves"]) + 1


def test_replay_frames_show_each_position_as_a_spectator_sees_it(client: TestClient) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        for n, ws in enumerate([black, white, black]):
            m = until(ws, lambda m, n=n: m["type"] == "update" and m["ply"] == n and m["legal"])
            ws.send_json({"type": "move", "move": m["legal"][-1]})
            until(ws, update_with(n + 1))
    with connect(client, created, None) as ws:
        last = until(ws, update_with(3))
    game = qipan.load("abalone")
    state = game.initial_state()
    for ply in range(4):
        frame = client.get(f"/api/games/{created['id']}/replay/{ply}").json()
        assert frame["ply"] == ply
        assert frame["view"] == game.view(state, None)
        assert frame["last"] == (last["moves"][ply - 1] if ply else None)
        if ply < 3:
            state = game.play(state, last["moves"][ply]["text"])
    assert client.get(f"/api/games/{created['id']}/replay/4").status_code == 404
    assert client.get(f"/api/games/{created['id']}/replay/-1").status_code == 404


def resign(client: TestClient, created: Message, seat: int) -> None:
    with connect(client, created, seat) as ws:
        until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)


def test_rematch_rotates_seats_and_each_player_gets_only_their_own_token(client: TestClient) -> None:
    created = create(client, options={"quiet_move_limit": 50})
    tokens = created["tokens"]
    early = client.post(f"/api/games/{created['id']}/rematch", json={"token": tokens[0]})
    assert early.status_code == 409
    with connect(client, created, 1) as white:
        until(white, update_with(0))
        white.send_json({"type": "resign"})
        until(white, lambda m: m["result"] is not None)
        bad = client.post(f"/api/games/{created['id']}/rematch", json={"token": "guess"})
        assert bad.status_code == 403
        first = client.post(f"/api/games/{created['id']}/rematch", json={"seat": 0, "token": tokens[0]})
        assert first.status_code == 201
        again = client.post(f"/api/games/{created['id']}/rematch", json={"token": tokens[1]})
        notice = until(white, lambda m: m.get("rematch") is not None)
    new, other = first.json(), again.json()
    assert other["id"] == new["id"] and notice["rematch"] == {"id": new["id"]}
    assert new["seat"] == 1 and other["seat"] == 0
    assert new["token"] != other["token"]
    assert new["token"] not in again.text and other["token"] not in first.text
    assert new["url"] == f"/play/{new['id']}#seat=1&token={new['token']}"
    assert all("token" not in s and "invite" not in s for s in new["seats"] + other["seats"])
    assert [s["claimed"] for s in new["seats"]] == [True, True]
    summary = client.get(f"/api/games/{new['id']}").json()
    assert summary["options"]["quiet_move_limit"] == 50
    # The tokens work: the old black player is white now, and the old white player black.
    rematch = {**new, "tokens": {1: new["token"], 0: other["token"]}}
    for seat in (0, 1):
        with connect(client, rematch, seat) as ws:
            assert until(ws, lambda m: m["type"] == "update")["seat"] == seat
    # The old creator (black) is the rematch's creator: only their token issues invitations.
    assert client.post(f"/api/games/{new['id']}/invites", json={"token": new["token"]}).json() == {"invites": []}
    assert client.post(f"/api/games/{new['id']}/invites", json={"token": other["token"]}).status_code == 403


def test_a_seat_nobody_claimed_is_an_invitation_in_the_rematch(client: TestClient) -> None:
    reply = client.post("/api/games", json={"game": "abalone"}).json()
    resign(client, {**reply, "tokens": {0: reply["token"]}}, 0)
    new = client.post(f"/api/games/{reply['id']}/rematch", json={"token": reply["token"]}).json()
    assert new["seat"] == 1 and [s["claimed"] for s in new["seats"]] == [False, True]
    invites = client.post(f"/api/games/{new['id']}/invites", json={"token": new["token"]}).json()["invites"]
    assert [i["seat"] for i in invites] == [0]
    claimed = client.post(f"/api/games/{new['id']}/claim", json={"invite": invites[0]["invite"]})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 0


def test_rematch_with_an_ai_keeps_the_ai_in_its_rotated_seat(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "ai", "level": "random"}])
    resign(client, created, 0)
    new = client.post(f"/api/games/{created['id']}/rematch", json={"token": created["token"]}).json()
    assert [s["kind"] for s in new["seats"]] == ["ai", "human"]
    assert new["seats"][0]["level"] == "random"


def test_static_files_are_served_and_nothing_outside(client: TestClient, tmp_path: Any) -> None:
    from qipan.server.app import WEB_DIR

    page = client.get("/")
    if (WEB_DIR / "index.html").is_file():
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert client.get("/play/abc").text == page.text
    css = sorted(WEB_DIR.rglob("*.css"))
    if css:
        path = css[0].relative_to(WEB_DIR).as_posix()
        assert client.get(f"/static/{path}").status_code == 200
    for sneaky in ("/static/../server/app.py", "/static/%2e%2e/server/app.py", "/..%2fserver/app.py",
                   "/static//etc/passwd"):
        reply = client.get(sneaky)
        assert reply.status_code == 404 or "create_app" not in reply.text, sneaky


def test_impossible_file_names_are_404_with_a_short_message(client: TestClient) -> None:
    # A name longer than the file system allows raised OSError, a NUL ValueError: both were 500s
    # (with the whole path in the log's traceback).
    for path in ("/static/" + "a" * 3000, "/" + "b" * 3000, "/static/a%00b", "/a%00b", "/static/js/" + "c" * 300):
        reply = client.get(path)
        assert reply.status_code == 404, path
        assert len(reply.json()["error"]) < 160, path


def test_static_files_from_a_given_directory(db_path: Any, tmp_path: Any) -> None:
    from qipan.server import create_app

    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<html>hello</html>")
    (web / "js" / "app.js").write_text("export {}")
    with TestClient(create_app(str(db_path), web_dir=web)) as c:
        assert c.get("/").text == "<html>hello</html>"
        assert c.get("/play/x?seat=0&token=y").text == "<html>hello</html>"
        assert c.get("/static/js/app.js").text == "export {}"
        assert c.get("/js/app.js").text == "export {}"
        assert c.get("/static/js/nothing.js").status_code == 404
    empty = tmp_path / "empty"
    empty.mkdir()
    with TestClient(create_app(str(db_path), web_dir=empty)) as c:
        assert c.get("/").status_code == 404
        assert "not installed" in c.get("/").json()["error"]


def test_finished_games_leave_memory_when_nobody_watches(client: TestClient) -> None:
    created = create(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with connect(client, created, 0) as ws:
        until(ws, update_with(0))
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["result"] is not None)
        assert created["id"] in hub.games  # watched
    assert created["id"] not in hub.games
    assert client.get(f"/api/games/{created['id']}").json()["status"] == "finished"
    assert client.get(f"/api/games/{created['id']}/replay/0").status_code == 200
    assert created["id"] not in hub.games
    with connect(client, created, None) as ws:
        assert until(ws, lambda m: m["type"] == "update")["result"]["reason"] == "resignation"
    assert created["id"] not in hub.games


@pytest.mark.parametrize("path", ["/etc/passwd", "/nonexistent/deck.toml", "default-deck.toml"])
def test_the_server_never_opens_a_file_a_client_names(client: TestClient, path: str) -> None:
    """Sheng-Ke's deck options name files: the server refuses them without touching the path."""
    for url in ("/api/describe", "/api/games"):
        body = {"game": "shengke", "options": {"deck_0": path}}
        if url == "/api/games":
            body["seats"] = [{"kind": "human"}] * 2
        response = client.post(url, json=body)
        assert response.status_code == 400
        error = response.json()["error"]
        assert "never opens files" in error and "passwd" not in error.replace(path, "")
    assert client.post("/api/describe", json={"game": "shengke", "options": {"deck_0": "default"}}).status_code == 200
    shengke = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "shengke")
    assert {o["name"] for o in shengke["options"] if o["local_file"]} == {"deck_0", "deck_1"}


def test_a_database_from_before_game_secrets_is_migrated(tmp_path: Any) -> None:
    import sqlalchemy as sa

    from qipan.server.store import GameRow, Store

    path = tmp_path / "old.db"
    old = sa.create_engine(f"sqlite:///{path}")
    with old.begin() as c:
        c.execute(sa.text("CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, "
                          "variant VARCHAR(64) NOT NULL, options JSON NOT NULL, seed BIGINT NOT NULL, "
                          "seats JSON NOT NULL, created FLOAT NOT NULL, started FLOAT NOT NULL, finished FLOAT, "
                          "result JSON, rematch VARCHAR(32))"))
        c.execute(sa.text("INSERT INTO games VALUES ('old', 'abalone', 'standard', '{}', 42, '[]', 1, 1, "
                          "NULL, NULL, NULL)"))
        c.execute(sa.text("INSERT INTO games VALUES ('done', 'abalone', 'standard', '{}', 43, '[]', 1, 1, "
                          "5, '{\"returns\": [1.0, -1.0], \"text\": \"black won\", \"reason\": \"rules\"}', NULL)"))
    old.dispose()
    store = Store(f"sqlite:///{path}")
    store.create_game(GameRow("new", "abalone", "standard", {}, "ab" * 32, [], 2.0, 2.0))
    seeds = {game_id: store.game(game_id).seed for game_id in store.unfinished_ids()}  # type: ignore[union-attr]
    finished = store.game("done")
    store.close()
    # An unfinished game's 32-bit seed could be brute-forced from its outcomes: it gets a secret.
    assert re.fullmatch("[0-9a-f]{64}", str(seeds["old"])) and seeds["new"] == "ab" * 32 and len(seeds) == 2
    assert finished is not None and finished.seed == 43  # a finished game keeps the seed it played with


def test_seats_stored_before_invitations_still_load_and_play(tmp_path: Any) -> None:
    """Rows written before invitations hold only kind, level and token hash per seat."""
    import time

    from qipan.server import create_app
    from qipan.server.auth import hash_token
    from qipan.server.store import GameRow, Store

    path = tmp_path / "old-seats.db"
    store = Store(f"sqlite:///{path}")
    seats = [{"kind": "human", "level": None, "token": hash_token("black-token-0123456789")},
             {"kind": "ai", "level": "random", "token": None}]
    store.create_game(GameRow("oldseats", "abalone", "standard", {}, "cd" * 32, seats, time.time(), time.time()))
    store.close()
    with TestClient(create_app(str(path), ai_delay=0.0, ai_processes=False)) as client:
        summary = client.get("/api/games/oldseats").json()
        assert [s["claimed"] for s in summary["seats"]] == [True, True]
        old = {"id": "oldseats", "tokens": {0: "black-token-0123456789"}}
        with connect(client, old, 0) as ws:
            assert until(ws, lambda m: m["type"] == "update")["legal"]
            ws.send_json({"type": "move", "move": "a1b2"})
            assert until(ws, update_with(2))["to_move"] == 0
        assert client.post("/api/games/oldseats/invites", json={"token": "black-token-0123456789"}).status_code == 403


def test_rematch_tokens_cannot_be_computed_from_the_database(client: TestClient) -> None:
    """The database keeps token hashes only; a rematch token is keyed by the player's own token."""
    from qipan.server.auth import derived_token, hash_token

    created = create(client)
    tokens = created["tokens"]
    resign(client, created, 0)
    first = client.post(f"/api/games/{created['id']}/rematch", json={"token": tokens[0]}).json()
    second = client.post(f"/api/games/{created['id']}/rematch", json={"token": tokens[1]}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    stored = [seat["token"] for seat in hub.store.game(created["id"]).seats]
    assert stored == [hash_token(tokens[0]), hash_token(tokens[1])]
    from_database = {derived_token(h, "rematch") for h in stored}
    assert first["token"] not in from_database and second["token"] not in from_database
    # The same player asking again gets the same seat and token; a stranger's token gets nothing.
    again = client.post(f"/api/games/{created['id']}/rematch", json={"token": tokens[1]}).json()
    assert (again["seat"], again["token"]) == (second["seat"], second["token"])
    rows = hub.store.game(first["id"]).seats
    assert [r["token"] for r in rows] == [hash_token(second["token"]), hash_token(first["token"])]
