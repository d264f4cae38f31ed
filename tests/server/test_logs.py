"""What a real ``qipan serve`` writes to its log never holds a seat token or an invitation code."""

from __future__ import annotations

from pathlib import Path

from .server_process import ServerProcess, play_alternately


def test_the_access_log_never_holds_a_token_or_an_invitation(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(str(tmp_path / "logs.db"), log, "--log-level", "info")
    server.start()
    try:
        created = server.post("/api/games", {"game": "abalone"})
        secrets = [created["token"], created["seats"][1]["invite"]]
        players = {seat: server.seat(created, seat) for seat in (0, 1)}  # seat 1 claims its invitation
        secrets += [server.token(created, 1)]
        play_alternately(players, 4)
        spectator = server.seat(created, None)
        spectator.recv()
        players[0].send({"type": "resign"})
        players[0].until_moves(4)
        rematch = server.post(f"/api/games/{created['id']}/rematch", {"token": created["token"]})
        other = server.post(f"/api/games/{created['id']}/rematch", {"token": server.token(created, 1)})
        secrets += [rematch["token"], other["token"]]
        spare = server.post("/api/games", {"game": "abalone"})
        again = server.post(f"/api/games/{spare['id']}/invites", {"token": spare["token"]}, 200)
        secrets += [spare["token"], spare["seats"][1]["invite"], again["invites"][0]["invite"]]
        for player in (*players.values(), spectator):
            player.close()
    finally:
        server.stop()
    text = log.read_text()
    assert f'"POST /api/games/{created["id"]}/claim HTTP/1.1" 200' in text  # the access log was on
    assert f"/ws/games/{created['id']}" in text
    leaked = [secret for secret in secrets if secret in text]
    assert not leaked, f"{len(leaked)} secret(s) in the server's log"
    assert "token=" not in text and "invite=" not in text
