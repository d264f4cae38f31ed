"""What the command line says to people: numbers it cannot read, seats counted from 1, databases
``qipan serve`` cannot use, and the terminal's words."""

from __future__ import annotations

import re
import socket
import sys
from pathlib import Path

import platformdirs
import pytest
from rich.console import Console
from typer.testing import CliRunner

import qipan
from qipan.cli.main import app
from qipan.cli.play import PlayLoop, Seat
from qipan.cli.seats import rules_options
from qipan.core import Match, Record
from qipan.server.cli import check_redis, open_database
from qipan.server.store import Store, StoreError


def run(*args: str) -> tuple[int, str]:
    """Exit code and output, rich's error box drawn away and lines joined."""
    result = CliRunner().invoke(app, list(args))
    text = re.sub(r"[│╭╮╰╯─]", " ", result.output)
    return result.exit_code, " ".join(text.split())


def test_tellstones_says_challenged_and_peeked() -> None:
    console = Console(record=True, width=120, color_system=None)
    loop = PlayLoop(Match(qipan.load("tellstones"), seed=1), [Seat("human"), Seat("human")], console)
    lines = iter(["", "challenge 4", "peek 4", "quit"])
    loop.run(lambda prompt: next(lines))
    text = console.export_text()
    assert "only face-down stones can be challenged" in text and "only face-down stones can be peeked" in text
    assert "challengeed" not in text and "peeked" in text


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(qipan.load("abalone"), seed=1)
    match.play("a1b2")
    path = tmp_path_factory.mktemp("records") / "game.json"
    match.record().save(path)
    return path


NUMBERS = [
    (["arena", "abalone", "--a", "easy", "--b", "easy", "--games", "ten"],
     "'--games' / '-n': 'ten' is not a whole number"),
    (["arena", "abalone", "--a", "easy", "--b", "easy", "-t", "nan"], "'nan' is not a finite number"),
    (["arena", "abalone", "--a", "easy", "--b", "easy", "--seed", "1.5"], "'1.5' is not a whole number"),
    (["simulate", "abalone", "--games", "0"], "'--games' / '-n': must be at least 1, not 0"),
    (["simulate", "kelighine", "--players", "two"], "'--players': 'two' is not a whole number"),
    (["perft", "abalone", "--depth", "deep"], "'--depth' / '-d': 'deep' is not a whole number"),
    (["perft", "abalone", "--depth", "9" * 500], "is not a whole number of at most 40 characters"),
    (["serve", "--port", "99999"], "'--port': must be from 1 to 65535, not 99999"),
    (["serve", "--port", "http"], "'--port': 'http' is not a whole number"),
    (["serve", "--ai-delay", "soon"], "'--ai-delay': 'soon' is not a number"),
    (["serve", "--idle-timeout", "-1"], "'--idle-timeout': must be from 0 to"),
    (["play", "abalone", "--seed", "ten"], "'--seed': 'ten' is not a whole number"),
]


@pytest.mark.parametrize(("args", "message"), NUMBERS, ids=[" ".join(a)[:40] for a, _ in NUMBERS])
def test_a_number_the_command_line_cannot_read_gets_one_clear_message(args: list[str], message: str) -> None:
    code, text = run(*args)
    assert code == 2, text
    assert message in text, text
    assert "Traceback" not in text and "valid integer" not in text and "Input should" not in text
    assert len(text) < 400  # a 500-digit number is not echoed back


def test_replay_to_reads_a_whole_number(record_file: Path) -> None:
    code, text = run("replay", str(record_file), "--to", "ten")
    assert code == 2 and "'--to': 'ten' is not a whole number" in text, text
    code, text = run("replay", str(record_file), "--to", "-1")
    assert code == 2 and "'--to': must be at least 0, not -1" in text, text


# -- seats count from 1 ----------------------------------------------------------------------------


def test_first_player_counts_from_1_like_seat(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, text = run("play", "tellstones", "--first-player", "2", "--seat", "1=ai:random", "--seat", "2=ai:random",
                     "--turn-limit", "2", "--seed", "3", "--record", str(record))
    assert code == 0, text
    assert re.findall(r"player \d plays", text)[:2] == ["player 2 plays", "player 1 plays"]  # the second seat first
    assert Record.load(record).options["first_player"] == "1"  # the rules count from 0


@pytest.mark.parametrize(("args", "message"), [
    (["play", "tellstones", "--first-player", "0"],
     "first-player: '0' is not a seat of this game; choose 1, 2 or random"),
    (["play", "tellstones", "--first-player", "3"], "choose 1, 2 or random (seats count from 1)"),
    (["play", "tellstones", "--first-player", "dealer"], "'dealer' is not a seat of this game"),
    (["play", "shengke", "--first", "3"], "first: '3' is not a seat of this game; choose 1, 2 or random"),
    (["perft", "tellstones", "-d", "1", "-o", "first_player=3"], "choose 1, 2 or random"),
    (["simulate", "shengke", "-n", "1", "-o", "first=0"], "'0' is not a seat of this game"),
    (["arena", "shengke", "--a", "random", "--b", "random", "-n", "1", "--no-records", "-o", "first=3"],
     "'3' is not a seat of this game"),
])
def test_a_seat_that_is_not_there_is_refused_counted_from_1(args: list[str], message: str) -> None:
    code, text = run(*args)
    assert code == 2, text
    assert message in text, text


def test_options_typed_by_people_become_the_rules_seats() -> None:
    assert rules_options("tellstones", "round-table", {"first-player": "4"}) == {"first_player": "3"}
    assert rules_options("tellstones", None, {"first_player": "random"}) == {"first_player": "random"}
    assert rules_options("shengke", None, {"first": "2", "turns": "10"}) == {"first": "1", "turns": "10"}
    assert qipan.load("shengke", None, rules_options("shengke", None, {"first": "1"})).config["first"] == "0"


def test_games_and_help_show_seats_from_1() -> None:
    code, text = run("games")
    assert code == 0
    assert "first_player='1' (one of 1, 2, 3, 4, random)" in text and "seats count from 1" in text
    assert "first='random' (one of random, 1, 2)" in text
    code, text = run("play", "shengke", "--help")
    assert "seats count from 1: random, 1, 2; default random" in text, text


# -- qipan serve --db ------------------------------------------------------------------------------


def test_serve_with_an_unsupported_database_says_so_in_one_line() -> None:
    result = CliRunner().invoke(app, ["serve", "--db", "mysql://qipan:s3cret@db.example/qipan"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("qipan: --db: qipan keeps games in SQLite or PostgreSQL, not 'mysql'")
    assert "s3cret" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("url", "message"), [
    ("foo://x", "not 'foo'; use a SQLite file (a path, or sqlite:///FILE) or postgresql://"),
    ("postgresql://u:pw@host:port/db", "is not a database URL"),
    ("postgresql+asyncpg://u:pw@127.0.0.1:1/db", "the database driver 'asyncpg' is not installed"),
    ("postgresql://u:pw@127.0.0.1:1/db", "cannot open the database postgresql+psycopg://***@127.0.0.1:1/db: "),
    ("/proc/qipan/games.db", "cannot open the database sqlite:////proc/qipan/games.db: unable to open"),
])
def test_a_database_that_cannot_be_used_is_one_line(url: str, message: str) -> None:
    with pytest.raises(StoreError) as caught:
        open_database(url)
    text = str(caught.value)
    assert message in text and "\n" not in text and "pw" not in text, text


def test_a_read_only_sqlite_file_is_refused_before_serving(tmp_path: Path) -> None:
    Store(f"sqlite:///{tmp_path / 'q.db'}").close()
    with pytest.raises(StoreError, match=r"cannot write to the database .*readonly"):
        open_database(f"sqlite:///file:{tmp_path / 'q.db'}?mode=ro&uri=true")
    assert open_database(str(tmp_path / "q.db")) == f"sqlite:///{tmp_path / 'q.db'}"


def test_a_default_folder_that_cannot_be_made_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: f"/proc/no-such/{name}")
    with pytest.raises(StoreError, match=r"cannot create the folder for the database: .*choose one with --db"):
        open_database(None)


# -- qipan serve --redis ---------------------------------------------------------------------------


def test_serve_with_redis_refuses_sqlite_before_making_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / "default" / name))
    for db in (["--db", str(tmp_path / "q.db")], ["--db", f"sqlite:///{tmp_path / 'q.db'}"], []):
        code, text = run("serve", *db, "--redis", "redis://:s3cret@127.0.0.1:1/0")
        assert (code, text) == (1, "qipan: --redis needs a PostgreSQL --db (several processes share it)")
    assert not (tmp_path / "q.db").exists() and not (tmp_path / "default").exists()


def test_serve_with_redis_but_without_redis_py_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # import redis fails as if it were not installed
    code, text = run("serve", "--db", "postgresql://qipan:pw@127.0.0.1:1/qipan", "--redis", "redis://127.0.0.1:1/0")
    assert (code, text) == (1, "qipan: --redis needs redis-py: pip install 'qipan[scale]'")


def test_serve_reads_the_database_and_redis_from_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A command line is visible to every user of the machine (ps); the environment is not.
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)  # were the variables ignored: no server ...
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / "default" / name))  # ... no file
    monkeypatch.setenv("QIPAN_REDIS", "redis://:s3cret@127.0.0.1:1/0")
    monkeypatch.setenv("QIPAN_DB", str(tmp_path / "q.db"))
    code, text = run("serve")
    assert (code, text) == (1, "qipan: --redis needs a PostgreSQL --db (several processes share it)")
    assert not (tmp_path / "q.db").exists() and not (tmp_path / "default").exists()

    monkeypatch.setitem(sys.modules, "redis", None)
    monkeypatch.setenv("QIPAN_DB", "postgresql://qipan:pw@127.0.0.1:1/qipan")
    code, text = run("serve")
    assert (code, text) == (1, "qipan: --redis needs redis-py: pip install 'qipan[scale]'")
    code, text = run("serve", "--help")
    assert "QIPAN_DB" in text and "QIPAN_REDIS" in text and "s3cret" not in text and ":pw@" not in text


@pytest.mark.parametrize(("url", "message"), [
    ("http://:s3cret@127.0.0.1/0", "--redis http://***@127.0.0.1/0 is not a Redis URL; use redis://"),
    ("redis://:s3cret@127.0.0.1:{port}/0", "cannot reach Redis at redis://***@127.0.0.1:{port}/0: "),
    ("redis://:s3cret@127.0.0.1:port/0", "cannot reach Redis at redis://***@127.0.0.1:port/0: "),
    # redis-py (and libpq) take the password from the query too
    ("redis://127.0.0.1:{port}/0?password=s3cret", "cannot reach Redis at redis://127.0.0.1:{port}/0?password=***: "),
    ("redis://:s3cret@127.0.0.1:{port}/0?colour=blue",  # an option redis-py does not know
     "cannot reach Redis at redis://***@127.0.0.1:{port}/0?colour=blue: "),
])
def test_a_redis_that_cannot_be_used_is_one_line_without_its_password(url: str, message: str) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError) as caught:
        check_redis(url.format(port=port), "postgresql://qipan@127.0.0.1:1/qipan")
    text = str(caught.value)
    assert text.startswith(message.format(port=port)) and "\n" not in text and "s3cret" not in text, text
