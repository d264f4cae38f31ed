"""Fuzzing the engine protocol: any line, any value in any field, random sessions in every game.

Whatever arrives, :meth:`EngineSession.handle` answers one JSON object with ``ok``; an error is
short, names no Python internals, and leaves the game exactly as it was (the ``state`` answer
before and after are equal). Example counts: :data:`LINES`, :data:`FIELD_VALUES`, :data:`SESSIONS`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipan.ai.agent import agent_levels
from qipan.cli.engine import FIELDS, MAX_ERROR_CHARS, EngineSession, _dump
from qipan.core import load
from qipan.core.registry import game_class

LINES = 1000
"""Examples of raw lines (bytes, text, JSON of the wrong shape, hostile numbers and nesting)."""

FIELD_VALUES = 1000
"""Examples of one hostile value in one field of one command."""

SESSIONS = 150
"""Examples of random sessions (up to 30 commands each) across the five games."""

GAMES: dict[str, dict[str, Any]] = {
    "abalone": {},
    "chinese-checkers": {"max_moves": 200},
    "kelighine": {},
    "shengke": {"turns": 6},
    "tellstones": {"turn_limit": 30},
}

FAST_LEVELS = ("random", "easy")
"""Levels that never search (a hostile but valid ``time`` makes a searching level think for it)."""

SEARCHING_LEVELS = {level for name in GAMES for level in agent_levels(load(name))} - set(FAST_LEVELS)

INTERNALS = ("Traceback", "object is not", "NoneType", "unhashable", "object has no attribute", "index out of")

# -- hostile values, as JSON text (Python's json.dumps cannot write every one of them) ----------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["", "abalone", "default", "random", "easy", "auto", "manual", "roll:6", "a1b2", "pass",
                     "\u0000", "\ud800", "../../etc/passwd", "/dev/zero", "1e999", "nan", "-1", "0", "1"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)


def _depth(n: int) -> str:
    return "[" * n + "]" * n


RAW_VALUES = st.one_of(
    VALUES.map(json.dumps),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1e308", "2e308", "0.0", "-0",
                     "1" * 41, "9" * 4301, "-" + "9" * 5000, "1." + "0" * 400, _depth(33), _depth(1000),
                     _depth(5000), "{" * 40 + "}" * 40, '"' + "x" * 100_000 + '"', '"\\ud800\\udfff"']),
    st.integers(min_value=0, max_value=2_000_000).map(lambda n: '"' + "m" * n + '"'),
)


def _state(session: EngineSession) -> dict[str, Any]:
    return session.handle('{"cmd": "state"}')


def check(session: EngineSession, line: str | bytes) -> dict[str, Any]:
    """Send ``line``: one JSON object with ok; an error is short, plain, and changes nothing."""
    before = _state(session)
    answer = session.handle(line)
    assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool), answer
    written = _dump(answer)
    assert written.endswith(b"\n") and b"\n" not in written[:-1]
    assert json.loads(written) == json.loads(json.dumps(answer))
    if not answer["ok"]:
        error = answer["error"]
        assert isinstance(error, str) and 0 < len(error) <= MAX_ERROR_CHARS, error
        assert not any(word in error for word in INTERNALS), error
        assert "internal error" not in error, (line[:300], error)
        after = _state(session)
        if "ran out of time" in error:  # a time-out ends the game: only the position must stay
            before, after = before.get("state"), after.get("state")
        assert after == before, (line[:300], error)
    return answer


def new_session(name: str) -> EngineSession:
    session = EngineSession()
    assert session.handle(json.dumps({"cmd": "new", "game": name, "seed": 7, "options": GAMES[name]}))["ok"]
    legal = session.handle('{"cmd": "legal"}')["moves"]
    if legal:
        assert session.handle(json.dumps({"cmd": "play", "move": legal[0]}))["ok"]
    return session


SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(SLOW, max_examples=LINES)
@given(
    name=st.sampled_from(sorted(GAMES)),
    line=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300),
        VALUES.map(json.dumps),
        RAW_VALUES,
        st.tuples(VALUES.map(json.dumps), RAW_VALUES).map(lambda kv: "{" + kv[0] + ": " + kv[1] + "}"),
        st.tuples(RAW_VALUES, RAW_VALUES).map(lambda kv: '{"cmd": ' + kv[0] + ', "game": ' + kv[1] + "}"),
    ),
)
def test_any_line_gets_one_short_answer_and_an_error_changes_nothing(name: str, line: str | bytes) -> None:
    check(new_session(name), line)


def _field_line(command: str, field: str, raw: str, name: str) -> str:
    """``{"cmd": command, field: raw}`` with the command's other fields valid where it matters."""
    base: dict[str, Any] = {"new": {"game": name}, "play": {"move": "pass"}, "ai": {"level": "random"}}.get(command, {})
    base.pop(field, None)
    body = json.dumps({"cmd": command, **base})[:-1]
    return f'{body}, "{field}": {raw}}}'


@settings(SLOW, max_examples=FIELD_VALUES)
@given(data=st.data(), name=st.sampled_from(sorted(GAMES)), raw=RAW_VALUES)
def test_a_hostile_value_in_any_field_of_any_command(data: st.DataObject, name: str, raw: str) -> None:
    command = data.draw(st.sampled_from(sorted(FIELDS)), label="command")
    field = data.draw(st.sampled_from([*FIELDS[command], "cmd", "command", "extra"]), label="field")
    if command == "ai" and field == "level" and raw.strip('"') in SEARCHING_LEVELS:
        return  # a real searching level with a hostile but valid time could think for minutes
    session = new_session(name)
    if field == "options" or (command == "new" and data.draw(st.booleans(), label="in an option")):
        option = data.draw(st.sampled_from([o.name for o in game_class(name).options] + ["x"]), label="option")
        raw = "{" + json.dumps(option) + ": " + raw + "}"
        field = "options"
    check(session, _field_line(command, field, raw, name))


# -- random sessions ---------------------------------------------------------------------------

ACTIONS = st.one_of(
    st.tuples(st.just("legal"), st.integers(min_value=0, max_value=10_000)),
    st.tuples(st.just("play"), RAW_VALUES),
    st.tuples(st.just("ai"), st.sampled_from(FAST_LEVELS), st.booleans(), st.integers(0, 3)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("view"), st.sampled_from(["null", "0", "1", "3", "-1", "7", '"0"', "true", "1.5"])),
    st.tuples(st.just("reload")),
    st.tuples(st.just("load"), RAW_VALUES),
    st.tuples(st.just("corrupt"), st.integers(min_value=0, max_value=10_000), RAW_VALUES),
    st.tuples(st.just("record")),
    st.tuples(st.just("new"), st.sampled_from(sorted(GAMES)), st.sampled_from(["auto", "manual"])),
    st.tuples(st.just("raw"), RAW_VALUES),
)


def _session_line(session: EngineSession, action: tuple[Any, ...]) -> str:
    kind = action[0]
    if kind == "legal":  # a legal move (or, when none can be listed, a refused one)
        moves = session.handle('{"cmd": "legal"}').get("moves") or ["pass"]
        return json.dumps({"cmd": "play", "move": moves[action[1] % len(moves)]})
    if kind == "play":
        return '{"cmd": "play", "move": ' + action[1] + "}"
    if kind == "ai":
        return json.dumps({"cmd": "ai", "level": action[1], "play": action[2], "seed": action[3]})
    if kind == "view":
        return '{"cmd": "view", "player": ' + action[1] + "}"
    if kind == "reload":  # the current state, round trip
        state = session.handle('{"cmd": "state"}').get("state")
        return json.dumps({"cmd": "load", "state": state})
    if kind == "load":
        return '{"cmd": "load", "state": ' + action[1] + "}"
    if kind == "corrupt":  # the current state with one value replaced by a hostile one
        text = json.dumps(session.handle('{"cmd": "state"}').get("state"))
        values = list(re.finditer(r'-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|true|false|null', text))
        if not values:
            return '{"cmd": "load", "state": ' + action[2] + "}"
        hit = values[action[1] % len(values)]
        return '{"cmd": "load", "state": ' + text[: hit.start()] + action[2] + text[hit.end() :] + "}"
    if kind == "new":
        return json.dumps({"cmd": "new", "game": action[1], "chance": action[2], "options": GAMES[action[1]]})
    if kind == "raw":
        return action[1]
    return json.dumps({"cmd": kind})


@settings(SLOW, max_examples=SESSIONS)
@given(name=st.sampled_from(sorted(GAMES)), actions=st.lists(ACTIONS, max_size=30))
def test_random_sessions_in_every_game(name: str, actions: list[tuple[Any, ...]]) -> None:
    session = new_session(name)
    for action in actions:
        listed = session.handle('{"cmd": "legal"}').get("moves")
        answer = check(session, _session_line(session, action))
        if (action[0] == "legal" and listed) or action[0] == "reload":
            assert answer["ok"], answer  # a listed move is played; the current state loads
