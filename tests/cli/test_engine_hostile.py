"""``qipan engine`` against hostile lines: each one answered with a short error that changes nothing.

Every case here crashed, hung or answered with a megabyte before the protocol was hardened.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pytest

from qipan.cli.engine import MAX_ERROR_CHARS, MAX_LINE_BYTES, EngineSession, _dump, read_lines
from qipan.games.shengke.cards import MAX_DECK_BYTES, default_deck_text


def ask(session: EngineSession, line: str | dict[str, Any]) -> dict[str, Any]:
    answer = session.handle(line if isinstance(line, str) else json.dumps(line))
    assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert 0 < len(answer["error"]) <= MAX_ERROR_CHARS and "Traceback" not in answer["error"]
    return answer


def refused(session: EngineSession, line: str | dict[str, Any], fragment: str) -> str:
    """``line`` is answered with an error holding ``fragment``, and the game is as it was."""
    before = session.handle('{"cmd": "state"}')
    answer = ask(session, line)
    assert answer["ok"] is False, answer
    assert fragment in answer["error"], answer["error"]
    assert session.handle('{"cmd": "state"}') == before
    error: str = answer["error"]
    return error


@pytest.fixture
def session() -> EngineSession:
    s = EngineSession()
    assert s.handle('{"cmd": "new", "game": "abalone", "seed": 1}')["ok"]
    assert s.handle('{"cmd": "play", "move": "a1b2"}')["ok"]
    return s


def test_a_command_name_that_is_not_a_string(session: EngineSession) -> None:
    """{"cmd": ["new"]} raised TypeError (unhashable) out of the engine."""
    refused(session, '{"cmd": ["new"]}', "unknown command ['new']; commands: new, legal")
    refused(session, '{"cmd": {}}', "unknown command {}")
    refused(session, '{"cmd": null}', "unknown command None")
    refused(session, '{"cmd": 3}', "unknown command 3")
    refused(session, '{"command": ["x"]}', "unknown command ['x']")
    refused(session, '{"cmd": "legal", "command": "undo"}', '"cmd" or "command", not both')


def test_huge_numbers_deep_nesting_and_non_finite_numbers(session: EngineSession) -> None:
    """A 5,000-digit integer (ValueError) or 1,000 nested arrays (RecursionError) crashed it."""
    refused(session, '{"cmd": "new", "game": "abalone", "seed": ' + "9" * 5000 + "}", "JSON number too long")
    refused(session, '{"cmd": "view", "player": ' + "1" * 4400 + "}", "JSON number too long")
    refused(session, "[" * 1000 + "]" * 1000, "nested deeper than 32 levels")
    refused(session, '{"cmd": "load", "state": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper")
    refused(session, '{"cmd": "ai", "time": NaN}', "finite")
    refused(session, '{"cmd": "ai", "time": Infinity}', "finite")
    refused(session, '{"cmd": "ai", "time": 1e999}', "finite")


def test_abalone_clock_beyond_a_week_is_refused_before_play(session: EngineSession) -> None:
    """time_limit=1e308 was accepted and play then raised OverflowError (and 10**400 as well)."""
    for value in ("1e308", "1.7e308", '"1e999"', '"nan"', '"' + "9" * 400 + '"', "604801"):
        refused(session, '{"cmd": "new", "game": "abalone", "options": {"time_limit": ' + value + "}}",
                "option time_limit: ")
    new = ask(session, {"cmd": "new", "game": "abalone", "options": {"time_limit": 604800}})
    assert new["ok"] and new["options"]["time_limit"] == 604800
    assert ask(session, {"cmd": "play", "move": "a1b2"})["ok"]


def test_deck_paths_are_checked_and_never_hang(session: EngineSession, tmp_path: Path) -> None:
    """deck_0 with a NUL byte raised ValueError; /dev/zero (or a FIFO) blocked forever."""
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": "a\u0000b"}},
            "a file path cannot hold a NUL character")
    if os.path.exists("/dev/zero"):
        refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_1": "/dev/zero"}},
                "'/dev/zero': it is not a regular file")
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "deck.toml"
        os.mkfifo(fifo)
        refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(fifo)}},
                "it is not a regular file")
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(tmp_path)}},
            "it is not a regular file")
    big = tmp_path / "big.toml"
    big.write_text(default_deck_text() + "#" * MAX_DECK_BYTES, encoding="utf-8")
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(big)}}, "larger than 64 KiB")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(deep)}}, "not valid JSON")
    nested = tmp_path / "nested.toml"
    nested.write_text("a = " + "[" * 5000 + "]" * 5000, encoding="utf-8")
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(nested)}}, "not valid TOML")
    digits = tmp_path / "digits.toml"
    digits.write_text("a = " + "9" * 5000, encoding="utf-8")
    refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(digits)}}, "not valid TOML")
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"cards": [{"id": "x" * 500, "element": "y" * 500, "in": 10**30}] * 40}))
    error = refused(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(cards)}},
                    "illegal deck: the deck has 40 cards")
    assert len(error) <= MAX_ERROR_CHARS
    good = tmp_path / "good.toml"
    good.write_text(default_deck_text(), encoding="utf-8")
    assert ask(session, {"cmd": "new", "game": "shengke", "options": {"deck_0": str(good)}})["ok"]


def test_an_illegal_deck_lists_a_few_problems_and_deck_check_lists_all(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from qipan.cli.deck import deck_app
    from qipan.core import GameError, load

    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"cards": [{"id": f"c{i}", "name": "x", "element": "wood", "in": 1, "out": 99}
                                          for i in range(40)]}))
    more = r"the deck has 40 cards.*; and 40 more \('qipan deck check FILE' lists them\)$"
    with pytest.raises(GameError, match=more) as caught:
        load("shengke", deck_0=str(path))
    assert str(caught.value).count(" is outside 1..8") == 7  # eight problems named in all
    result = CliRunner().invoke(deck_app, ["check", str(path)], terminal_width=200)
    assert result.exit_code == 1 and "card 40 (c39): out number 99 is outside 1..8" in result.output
    result = CliRunner().invoke(deck_app, ["check", "/dev/zero"], terminal_width=200)
    assert result.exit_code == 1 and "not a regular file" in result.output


def test_error_messages_quote_little_of_the_input(session: EngineSession) -> None:
    """A 1 MB move was echoed twice: a 2 MB error line."""
    huge = "x" * 1_000_000
    refused(session, {"cmd": "play", "move": huge}, "a move is at most 500 characters, not 1000000")
    refused(session, {"cmd": "new", "game": huge}, "game must be a name of at most 40 characters")
    refused(session, {"cmd": "new", "game": "abalone", "variant": huge}, "variant must be a name")
    refused(session, {"cmd": "new", "game": "abalone", "options": {huge: 1}}, "abalone has no option 'xxx")
    refused(session, {"cmd": "new", "game": "abalone", "options": {"time_limit": huge}}, "is not a whole number")
    refused(session, {"cmd": "ai", "level": huge}, "level must be a name")
    refused(session, {"cmd": "legal", huge: 1}, "legal takes no other field; not 'xxx")
    refused(session, {"cmd": huge}, "unknown command 'xxx")
    refused(session, {"cmd": "new", "game": "abalone", "seed": huge}, "seed must be a string of 1..128")
    refused(session, json.dumps({"cmd": "play", "move": "x" * 400}), "cannot read move")


FILL = "q" * 400
UNREADABLE = {
    "abalone": ["a1b2" + FILL, FILL, "a1 e9 " + FILL[:300]],
    "chinese-checkers": ["a1 " * 160 + "!", "d2-" + "e6-" * 150 + "e6", "d2-e6-" + FILL],
    "kelighine": ["roll:" + FILL, "ones:" + FILL, "push:" + FILL, FILL + "+1"],
    "shengke": ["roll " + FILL, "pick " + FILL, "coin " + FILL, "shuffle " + FILL, "wood1@" + FILL, FILL + "@c3"],
    "tellstones": [FILL, "place " + FILL, "place crown " + FILL, "peek 1 " + FILL, "name " + FILL, "swap 1 " + FILL],
}


@pytest.mark.parametrize("game", sorted(UNREADABLE))
def test_a_game_quotes_a_long_move_briefly(game: str) -> None:
    """The games' notation errors quoted the whole move (cut only at 300 characters here, and up
    to the server's 200-character move limit there); now at most about 80 characters of it."""
    for chance in ("manual", "auto"):
        session = EngineSession()
        assert session.handle(json.dumps({"cmd": "new", "game": game, "chance": chance}))["ok"]
        for move in UNREADABLE[game]:
            error = refused(session, {"cmd": "play", "move": move}, "")
            quoted = SequenceMatcher(None, error, move, autojunk=False).find_longest_match(
                0, len(error), 0, len(move)).size
            assert quoted <= 80, error


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({"cmd": "new", "game": 7}, "game must be a name"),
        ({"cmd": "new", "game": ["abalone"]}, "game must be a name"),
        ({"cmd": "new", "game": "abalone", "variant": {"a": 1}}, "variant must be a name"),
        ({"cmd": "new", "game": "abalone", "options": [1, 2]}, "options must be a JSON object"),
        ({"cmd": "new", "game": "abalone", "options": "time_limit=3"}, "options must be a JSON object"),
        ({"cmd": "new", "game": "abalone", "options": {"time_limit": [3]}}, "options must be a JSON object of"),
        ({"cmd": "new", "game": "abalone", "options": {"time_limit": None}}, "options must be a JSON object of"),
        ({"cmd": "new", "game": "abalone", "seed": 1.5}, "seed must be a whole number or a string"),
        ({"cmd": "new", "game": "abalone", "seed": True}, "seed must be a whole number or a string"),
        ({"cmd": "new", "game": "abalone", "seed": 2**128}, "seed must be a whole number of at most 38 digits"),
        ({"cmd": "new", "game": "abalone", "chance": "sometimes"}, 'chance must be "auto" or "manual"'),
        ({"cmd": "new", "game": "abalone", "chance": ["auto"]}, 'chance must be "auto" or "manual"'),
        ({"cmd": "new", "game": "abalone", "colour": "red"}, "new takes game, variant, options, seed, chance"),
        ({"cmd": "play", "move": 12}, 'play needs "move"'),
        ({"cmd": "play", "move": ["a1b2"]}, 'play needs "move"'),
        ({"cmd": "play", "move": "b6b5", "player": "white"}, "player must be a seat number"),
        ({"cmd": "play", "move": "b6b5", "player": True}, "player must be a seat number"),
        ({"cmd": "play", "move": "b6b5", "player": 7}, "player must be 0..1"),
        ({"cmd": "play", "move": "b6b5", "player": -1}, "player must be 0..1"),
        ({"cmd": "view", "player": 2}, "player must be 0..1"),
        ({"cmd": "view", "player": [0]}, "player must be a seat number"),
        ({"cmd": "view", "player": 0.0}, "player must be a seat number"),
        ({"cmd": "ai", "level": 3}, "level must be a name"),
        ({"cmd": "ai", "level": None}, "level must be a name"),
        ({"cmd": "new", "game": None}, "game must be a name"),
        ({"cmd": "ai", "level": "grandmaster"}, "abalone has no AI level 'grandmaster'"),
        ({"cmd": "ai", "level": "random", "time": "1"}, "time must be a number of seconds"),
        ({"cmd": "ai", "level": "random", "time": 601}, "time must be a number of seconds"),
        ({"cmd": "ai", "level": "random", "seed": [1]}, "seed must be a whole number or a string"),
        ({"cmd": "ai", "level": "random", "seed": ""}, "seed must be a string of 1..128"),
        ({"cmd": "ai", "level": "random", "play": "yes"}, "play must be true or false"),
        ({"cmd": "ai", "level": "random", "play": 1}, "play must be true or false"),
        ({"cmd": "load"}, 'load needs "state"'),
        ({"cmd": "undo", "moves": 2}, "undo takes no other field; not 'moves'"),
        ({"cmd": "state", "player": 0}, "state takes no other field"),
    ],
)
def test_every_field_is_type_checked(session: EngineSession, request_: dict[str, Any], fragment: str) -> None:
    refused(session, request_, fragment)


def test_an_unexpected_exception_is_an_internal_error_that_changes_nothing(
    session: EngineSession, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The last net: a bug answers "internal error in <cmd>", and the game is put back as it was."""
    before = session.handle('{"cmd": "state"}')
    moves = session.handle('{"cmd": "record"}')["record"]["moves"]

    def broken(*args: Any) -> None:
        raise IndexError("tuple index out of range")

    assert session.match is not None
    monkeypatch.setattr(session.match.game, "view", broken)
    assert session.handle('{"cmd": "view", "player": 0}') == {"ok": False, "error": "internal error in view"}
    # play changes the game, then fails while showing the agents their views: the move is taken back
    assert session.handle('{"cmd": "ai", "level": "random", "play": true}') == {
        "ok": False, "error": "internal error in ai"}
    monkeypatch.undo()
    session.agents.clear()
    monkeypatch.setattr(session, "_observe", broken)
    assert session.handle('{"cmd": "play", "move": "i5h5"}') == {"ok": False, "error": "internal error in play"}
    monkeypatch.undo()
    assert session.handle('{"cmd": "state"}') == before
    assert session.handle('{"cmd": "record"}')["record"]["moves"] == moves
    assert "IndexError" in caplog.text or not caplog.records  # logged at debug level only
    assert session.handle('{"cmd": "play", "move": "i5h5"}')["ok"]


def test_undo_at_a_chance_opening_keeps_the_roll() -> None:
    """undo at the start of Kelighine removed the opening roll; play roll:6 was then accepted."""
    session = EngineSession()
    new = ask(session, {"cmd": "new", "game": "kelighine", "seed": 3})
    assert new["ok"] and new["to_move"] == 0
    refused(session, '{"cmd": "undo"}', "nothing to undo")
    refused(session, '{"cmd": "play", "move": "roll:6"}', "")
    assert len(session.handle('{"cmd": "record"}')["record"]["moves"]) == 1  # the opening roll


def test_long_lines_are_skipped_without_being_held_whole() -> None:
    limit = 16
    stream = io.BytesIO(b'{"cmd": "games"}\n' + b"x" * 100 + b"\n" + b"y" * 17 + b"\n" + b"z" * 16 + b"\n"
                        + b"w" * 17)
    assert list(read_lines(stream, limit)) == [b'{"cmd": "games"}\n', None, None, b"z" * 16 + b"\n", None]
    assert MAX_LINE_BYTES == 1 << 20


def test_an_answer_quoting_a_lone_surrogate_is_still_valid_json() -> None:
    line = _dump({"ok": False, "error": "unknown command '\ud800'"})
    assert json.loads(line.decode("utf-8")) == {"ok": False, "error": "unknown command '\ud800'"}
    assert _dump({"ok": True, "game": "生剋棋"}) == '{"ok": true, "game": "生剋棋"}\n'.encode()


def test_the_engine_process_survives_hostile_lines() -> None:
    """A real ``qipan engine``: every hostile line gets one JSON answer, then a game goes on."""
    hostile = [
        b'{"cmd": ["new"]}',
        b'{"cmd": {}}',
        b'{"cmd": "new", "game": "abalone", "seed": ' + b"9" * 5000 + b"}",
        b"[" * 1500 + b"]" * 1500,
        b'{"cmd": "new", "game": "abalone", "options": {"time_limit": 1e308}}',
        b'{"cmd": "new", "game": "shengke", "options": {"deck_0": "a\\u0000b"}}',
        b'{"cmd": "new", "game": "shengke", "options": {"deck_0": "/dev/zero"}}',
        b'{"cmd": "play", "move": "' + b"x" * 1_000_000 + b'"}',
        b"x" * (MAX_LINE_BYTES + 10),
        b"\xff\xfe not utf-8",
        b'{"cmd": "\\ud800"}',
        b'{"cmd": "new", "game": "kelighine", "seed": 2}',
        b'{"cmd": "undo"}',
        b'{"cmd": "play", "move": "roll:6"}',
        b'{"cmd": "legal"}',
        b'{"cmd": "quit"}',
    ]
    out = subprocess.run([sys.executable, "-m", "qipan", "engine"], input=b"\n".join(hostile) + b"\n",
                         capture_output=True, timeout=120)
    assert out.returncode == 0 and out.stderr == b""
    answers = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert len(answers) == len(hostile)
    assert all(a["ok"] is False and len(a["error"]) <= MAX_ERROR_CHARS for a in answers[:11])
    assert "longer than 1048576 bytes" in answers[8]["error"] and "UTF-8" in answers[9]["error"]
    assert answers[11]["ok"] and answers[12]["error"] == "nothing to undo" and not answers[13]["ok"]
    assert answers[14]["ok"] and answers[15] == {"ok": True, "bye": True}


def test_load_at_a_chance_node_draws_it_in_automatic_mode() -> None:
    session = EngineSession()
    session.handle('{"cmd": "new", "game": "kelighine", "seed": 4}')
    start = session.handle('{"cmd": "state"}')["state"]
    session.handle('{"cmd": "new", "game": "kelighine", "seed": 4, "chance": "manual"}')
    state = session.handle('{"cmd": "state"}')["state"]  # the opening roll is still to come
    session.handle('{"cmd": "new", "game": "kelighine", "seed": 4}')
    loaded = session.handle(json.dumps({"cmd": "load", "state": state}))
    assert loaded["ok"] and loaded["to_move"] != "chance" and loaded["chance"]
    assert session.handle('{"cmd": "play", "move": "roll:6"}')["ok"] is False
    assert session.handle(json.dumps({"cmd": "load", "state": start}))["to_move"] != "chance"
