"""The range table as a game option: its text form, its checks, and that play and the AI follow it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qipan.cli.deck import deck_app
from qipan.core import GameError
from qipan.core.record import Record
from qipan.games.shengke.ai import exposed
from qipan.games.shengke.elements import RANGE_CELLS, RANGES, parse_cell, parse_ranges, ranges_text

from .helpers import build, new_game, random_game

FRONT_ONLY = "8/8/8/8/8/8/8/8"


def at(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None
    return cell


def test_the_default_is_the_documented_table() -> None:
    game = new_game()
    assert game.config["ranges"] == ranges_text(RANGES) == "8/46/846/8246/7913/789123/47896/78946123"
    assert parse_ranges(game.config["ranges"]) == RANGES
    assert game.range_cells == RANGE_CELLS


def test_a_table_is_read_in_its_order_and_stored_canonically() -> None:
    game = new_game(ranges=" 8 / 64 / 846/8246/7913/789123/47896/ 78946123 ")
    assert game.config["ranges"] == "8/64/846/8246/7913/789123/47896/78946123"
    assert parse_ranges(game.config["ranges"])[2] == ("right", "left")
    # 甲 on c3: range 2 is now right then left (d3 before b3); for 乙 the sides swap.
    assert game.range_cells[0][2][at("c3")] == (at("d3"), at("b3"))
    assert game.range_cells[1][2][at("c3")] == (at("b3"), at("d3"))


@pytest.mark.parametrize("text, message", [
    ("8/46", "option ranges: the range table has 2 ranges; it needs 8 (1 to 8), separated by '/'"),
    ("8/46/846/8246/7913/789123/47896/78946123/8",
     "option ranges: the range table has 9 ranges; it needs 8 (1 to 8), separated by '/'"),
    ("8/46/856/8246/7913/789123/47896/78946123",
     "option ranges: range 3 is '856': write its cells as keypad digits around the card (5): 8 front, 2 back, "
     "4 left, 6 right, 7 9 1 3 the diagonals"),
    ("8//846/8246/7913/789123/47896/78946123", "option ranges: range 2 is '': write its cells"),
    ("8/F/846/8246/7913/789123/47896/78946123", "option ranges: range 2 is 'F': write its cells"),
    ("8/44/846/8246/7913/789123/47896/78946123", "option ranges: range 2 (44) names a cell twice"),
    ("8/" * 60, "option ranges: the range table is 120 characters long; at most 100"),
])
def test_a_bad_table_is_refused_with_one_line(text: str, message: str) -> None:
    with pytest.raises(GameError) as caught:
        new_game(ranges=text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_resolution_follows_the_chosen_table() -> None:
    # 白牙龍 metal1 has out range 7 (left, front-left, front, front-right, right): by default it
    # destroys the wood on b4 (its front-left from c3); with every range "front" only, it does not.
    field = {"b4": (1, "wood1"), "c4": (1, "wood2")}
    for ranges, destroyed in ((None, {"b4", "c4"}), (FRONT_ONLY, {"c4"})):
        game = new_game(**({} if ranges is None else {"ranges": ranges}))
        state = build(game, field=field, hands=(["metal1"], []), dice=(4, 4))
        after = game.play(state, "metal1@c3")
        assert {name for name in field if after.field[at(name)] == -1} == destroyed


def test_a_record_keeps_its_table() -> None:
    game = new_game(ranges=FRONT_ONLY)
    match = random_game(game, seed=5)
    record = Record.from_json(match.record().to_json())
    assert record.options["ranges"] == FRONT_ONLY
    assert record.replay()[-1] == match.state


def test_the_ai_reads_the_games_table() -> None:
    # 甲's wood on c3; 乙 still holds metal, which overcomes wood. By default a metal card on some
    # empty cell reaches c3. If every range is the front cell only, only a card on c4 would (乙's
    # front points towards row 1), and c4 is taken.
    field = {"c3": (0, "wood1"), "c4": (1, "fire1")}
    assert exposed(new_game(), build(new_game(), field=field), 0) == 1
    front = new_game(ranges=FRONT_ONLY)
    assert exposed(front, build(front, field=field), 0) == 0


def test_deck_show_draws_the_chosen_table() -> None:
    runner = CliRunner()
    result = runner.invoke(deck_app, ["show", "--ranges", FRONT_ONLY], terminal_width=200)
    assert result.exit_code == 0
    assert "■■■" not in result.output and "·■·" in result.output
    result = runner.invoke(deck_app, ["show", "--ranges", "8/46"], terminal_width=200)
    assert result.exit_code == 1 and "--ranges: the range table has 2 ranges" in result.output
