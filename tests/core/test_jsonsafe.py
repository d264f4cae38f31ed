"""Bounded JSON parsing of untrusted text: nesting counted outside strings, in one pass."""

from __future__ import annotations

import pytest

from qipan.cli.engine import MAX_LINE_BYTES, EngineSession
from qipan.core import GameError
from qipan.core.jsonsafe import loads, nesting_depth


@pytest.mark.parametrize(("text", "depth"), [
    ('{"a": [1, {"b": "[[["}]}', 3),
    ('["\\"[", [[]]]', 3),  # an escaped quote does not end the string
    ('["\\\\", [[]]]', 3),  # an escaped backslash does not escape the quote after it
    ('[[["]]]"]]', 3),
    ('"\\u005b" [', 1),
    ("[" * 5 + '"\\', 5),  # a string that never closes holds no bracket
])
def test_nesting_is_counted_outside_strings(text: str, depth: int) -> None:
    assert nesting_depth(text) == depth


@pytest.mark.parametrize("unit", ['\\"', '"\\', '\\"['])
def test_a_line_of_unclosed_strings_is_refused_at_once(unit: str) -> None:
    """Every quote of ``\\"\\"\\"...`` starts a string that never closes: scanning each one to the
    end of the line again made a 1 MiB line take most of an hour (the engine's, and the server's
    8 KiB WebSocket messages 0.2 s of CPU each)."""
    line = unit * (MAX_LINE_BYTES // len(unit))
    with pytest.raises(GameError, match=r"not valid JSON|nested deeper"):
        loads(line, max_chars=MAX_LINE_BYTES)
    answer = EngineSession().handle(line)
    assert answer["ok"] is False and answer["error"].startswith("malformed JSON")


def test_a_long_infinite_number_is_quoted_briefly_and_whole() -> None:
    """``brief(...)[1:-1]`` stripped the quotes of a short value but, of a shortened one, its first
    quote and the closing parenthesis of '(42 characters)'."""
    literal = "1" + "0" * 35 + "e999"  # 40 characters: as long as a number may be, and infinite
    with pytest.raises(GameError) as caught:
        loads(f'{{"a": {literal}}}')
    message = str(caught.value)
    assert message == "JSON numbers must be finite, not 1000000000000000000000000000000… (42 characters)"


def test_an_unterminated_string_is_named_once_with_its_position() -> None:
    with pytest.raises(GameError) as refused:
        loads('{"a": "unclosed')
    assert str(refused.value) == "not valid JSON (Unterminated string starting at character 6)"
