"""``qipan serve`` wiring, the default database location, and failed writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import platformdirs
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qipan.server import create_app
from qipan.server.store import Store, normalise_url

from .helpers import connect, create, until, update_with


def test_qipan_serve_is_a_command_with_host_port_and_db() -> None:
    from qipan.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for flag in ("--host", "--port", "--db"):
        assert flag in result.output


def test_default_database_is_a_sqlite_file_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / name))
    assert normalise_url(None) == f"sqlite:///{tmp_path / 'qipan' / 'qipan.db'}"
    with TestClient(create_app(None)) as client:
        create(client)
    assert (tmp_path / "qipan" / "qipan.db").is_file()
    assert normalise_url("postgresql://u:p@h:5/d") == "postgresql+psycopg://u:p@h:5/d"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_a_move_that_cannot_be_saved_is_refused_and_undone(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(client)
    with connect(client, created, 0) as black, connect(client, created, 1) as white:
        until(black, lambda m: all(s["connected"] for s in m["seats"]))
        until(white, update_with(0))

        def broken(*args: Any, **kwargs: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(Store, "append_moves", broken)
        black.send_json({"type": "move", "move": "a1b2"})
        reply = black.receive_json()
        assert reply == {"type": "error", "error": "the server could not save that; please try again"}
        match = client.app.state.hub.games[created["id"]].match  # type: ignore[attr-defined]
        assert match.moves == [] and match.to_move == 0
        monkeypatch.undo()
        black.send_json({"type": "move", "move": "a1b2"})
        # White never heard of the failed move: its next message is the saved one.
        assert white.receive_json()["moves"] == [{"ply": 1, "player": 0, "text": "a1b2"}]
    assert client.get(f"/api/games/{created['id']}").json()["moves"] == 1
