"""Options are bounded: numbers declare a range, and parsing raises only a short GameError."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qipan
from qipan.core import GameError
from qipan.core.options import MAX_TEXT, Option, Variant, resolve_options
from qipan.core.registry import game_class


def every_option() -> list[tuple[str, Option]]:
    return [(name, option) for name in qipan.game_names() for option in game_class(name).options]


NUMERIC = [(name, o) for name, o in every_option() if o.kind in (int, float)]


def test_a_number_cannot_be_declared_without_a_range() -> None:
    with pytest.raises(TypeError, match="declare its choices, or both a minimum and a maximum"):
        Option("turns", 20, "turns")
    with pytest.raises(TypeError, match="both a minimum and a maximum"):
        Option("turns", 20, "turns", minimum=0)
    with pytest.raises(TypeError, match="both a minimum and a maximum"):
        Option("speed", 1.5, "speed", maximum=3)
    with pytest.raises(TypeError, match="finite, in order"):
        Option("speed", 1.5, "speed", minimum=0, maximum=math.inf)
    with pytest.raises(TypeError, match="finite, in order"):
        Option("turns", 20, "turns", minimum=50, maximum=2)
    with pytest.raises(TypeError, match="the default is not allowed"):
        Option("turns", 60, "turns", minimum=2, maximum=50)
    with pytest.raises(TypeError, match="every choice must be a int"):
        Option("dice", 6, "faces", choices=(4, "6"))
    assert Option("dice", 6, "faces", choices=(4, 6)).parse(4.0) == 4
    assert Option("flag", False, "a flag").parse("YES") is True  # booleans need no range


@pytest.mark.parametrize(("game", "option"), NUMERIC, ids=[f"{g}.{o.name}" for g, o in NUMERIC])
def test_every_numeric_option_of_every_game_is_bounded(game: str, option: Option) -> None:
    assert option.choices is not None or (option.minimum is not None and option.maximum is not None)
    allowed = list(option.choices) if option.choices else [option.minimum, option.maximum]
    for value in allowed:
        assert option.parse(value) == value and option.parse(str(int(value))) == value  # type: ignore[arg-type]
    for hostile in (10**400, -(10**400), 1e308, -1e308, math.inf, -math.inf, math.nan,
                    "1e999", "inf", "nan", "-inf", "9" * 400, "9" * 5000, 2**63):
        with pytest.raises(GameError) as caught:
            option.parse(hostile)
        message = str(caught.value)
        assert message.startswith(f"option {option.name}: ") and len(message) < 120 + len(option.help)


def test_abalone_clock_and_quiet_move_limit_have_ranges() -> None:
    """A 400-digit time_limit once bricked the server (its float overflowed at every start)."""
    with pytest.raises(GameError, match=r"option time_limit: a number of about 400 digits is above the maximum 604800"):
        qipan.load("abalone", time_limit=10**399)
    with pytest.raises(GameError, match="above the maximum 604800"):
        qipan.load("abalone", time_limit=1e308)
    with pytest.raises(GameError, match="above the maximum 10000"):
        qipan.load("abalone", quiet_move_limit=10_001)
    assert qipan.load("abalone", time_limit=604800).time_limit() == 604800.0
    assert qipan.load("abalone", time_limit="900").time_limit() == 900.0
    assert qipan.load("abalone", tournament=True).config["time_limit"] == 900


def test_a_float_option_refuses_non_finite_numbers_and_keeps_huge_ints_exact() -> None:
    speed = Option("speed", 1.0, "how fast", minimum=0.5, maximum=4)
    assert speed.parse("2.5") == 2.5 and speed.parse(3) == 3.0 and type(speed.parse(3)) is float
    for bad in ("nan", "inf", "1e999", math.nan, math.inf, True, [1], None):
        with pytest.raises(GameError, match="is not a finite number"):
            speed.parse(bad)
    with pytest.raises(GameError, match="above the maximum 4"):
        speed.parse(10**400)  # float(10**400) would raise OverflowError


def test_messages_quote_little_of_the_value() -> None:
    turns = Option("turns", 20, "turns", minimum=2, maximum=50)
    path = Option("deck", "default", "a deck file", local_file=True)
    for option, value, fragment in [
        (turns, "x" * 100_000, "is not a whole number"),
        (turns, 10**5000, "a number of about 5001 digits is above the maximum 50"),
        (turns, {"a": [1] * 10_000}, "is not a whole number"),
        (path, "x" * (MAX_TEXT + 1), f"is longer than {MAX_TEXT} characters"),
        (path, ["x" * 10_000], "is not a string"),
    ]:
        with pytest.raises(GameError, match=fragment) as caught:
            option.parse(value)
        assert len(str(caught.value)) < 160


def test_resolve_options_refuses_odd_mappings() -> None:
    declared = (Option("turns", 20, "turns", minimum=2, maximum=50),)
    standard = Variant("standard", "the game")
    for odd in ([["turns", 3]], "turns=3", 7):
        with pytest.raises(GameError, match="options must be a mapping"):
            resolve_options("toy", declared, standard, odd)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="toy has no option 3; its options are: turns"):
        resolve_options("toy", declared, standard, {3: 4})  # type: ignore[dict-item]
    with pytest.raises(GameError, match=r"toy has no option 'yyyy.*characters\); its options are: turns"):
        resolve_options("toy", declared, standard, {"y" * 10_000: 4})
    assert resolve_options("toy", declared, standard, {"turns": "8"}) == {"turns": 8}


def test_describe_shows_the_range() -> None:
    option = game_class("abalone").options[0]
    assert option.describe().startswith("time_limit=0 (0..604800): seconds on each player's clock")


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=50),
    st.sampled_from(["1e999", "-1e999", "nan", "inf", "0x10", " 3 ", "3.0", "1_000", "٣", "true", "off",
                     "random", "default", "long", "pass-only", "round-table"]),
)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


def _option_values(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Mappings of a game's real option names (deck files left out) to any JSON value."""
    names = [o.name for o in game_class(name).options if not o.local_file]
    good = st.one_of(*(st.sampled_from(o.choices) for o in game_class(name).options if o.choices),
                     st.integers(min_value=-2, max_value=12), st.booleans())
    return st.dictionaries(st.sampled_from(names), st.one_of(good, JSON_VALUES), max_size=len(names))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_loading_a_game_with_any_options_raises_only_game_error(data: st.DataObject) -> None:
    """Option parsing and every game's check_options, on any combination of values."""
    name = data.draw(st.sampled_from(qipan.game_names()))
    variant = data.draw(st.sampled_from([v.name for v in game_class(name).variants]))
    options = data.draw(_option_values(name))
    try:
        game = qipan.load(name, variant, options)
    except GameError as exc:
        assert len(str(exc)) < 400
        return
    assert game.num_players >= 1
    for option in game_class(name).options:
        value = game.config[option.name]
        assert type(value) is option.kind
        if option.minimum is not None and option.maximum is not None:
            assert option.minimum <= value <= option.maximum
