"""Deck files: the default deck, every kind of violation, TOML and JSON, and ``qipan deck``."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipan.cli.deck import deck_app, range_picture
from qipan.core import GameError
from qipan.games.shengke.cards import (
    MAX_CARD_NAME,
    MAX_DECK_NAME,
    MAX_INLINE_DECK,
    deck_from_data,
    deck_from_option,
    deck_json,
    deck_problems,
    default_deck,
    default_deck_text,
    load_deck,
)

from .helpers import new_game


def default_data() -> dict:  # type: ignore[type-arg]
    return tomllib.loads(default_deck_text())


def test_the_default_deck_is_legal_and_has_the_posts_cards() -> None:
    deck = default_deck()
    assert deck_problems(default_data()) == []
    assert len(deck.cards) == 25 and [len(p) for p in deck.piles] == [5] * 5
    assert sum(c.range_in for c in deck.cards) == 100 == sum(c.range_out for c in deck.cards)
    labels = {c.label() for c in deck.cards}
    assert {"白牙龍 (metal 2/7)", "黃趾龍 (earth 1/6)", "青翼龍 (wood 4/3)"} <= labels
    colours = "青赤黃白玄"
    assert all(c.name[0] == colours[c.element] for c in deck.cards)


def test_every_violation_is_reported() -> None:
    data = default_data()
    cards = data["cards"]
    cards[0]["in"] = 9  # out of range (and left out of the sum)
    cards[1]["element"] = "fire"  # 4 wood, 6 fire
    cards[2]["id"] = cards[3]["id"]
    cards[4]["out"] = 0
    del cards[5]["name"]
    problems = deck_problems(data)
    assert problems == [
        "card 1 (wood1): in number 9 is outside 1..8",
        "card 4 (wood4): duplicate id (card 3 has it too)",
        "card 5 (wood5): out number 0 is outside 1..8",
        "card 6 (fire1) lacks name",
        "the deck has 4 wood cards; it needs exactly 5",
        "the deck has 6 fire cards; it needs exactly 5",
        "the in numbers add up to 96; they must add up to exactly 100",
        "the out numbers add up to 94; they must add up to exactly 100",
    ]


@pytest.mark.parametrize("card_id", ["wood1\n", "wood1\r\n", "\nwood1", "wo od1", "wood1\u0660"])
def test_an_id_with_a_line_break_or_other_characters_is_refused(card_id: str) -> None:
    # An id ending in a newline once passed ("$" matches before it): its moves ("wood1\n@a5") could
    # not be read back, so the game's record did not replay and the server could not resume it.
    data = default_data()
    data["cards"][0]["id"] = card_id
    assert deck_problems(data) == [f"card 1: id {card_id!r} must be 1-24 letters, digits, '-' or '_'"]
    with pytest.raises(GameError, match="must be 1-24 letters"):
        new_game(deck_0=json.dumps(data))


def test_a_card_with_many_unknown_fields_is_not_echoed_back() -> None:
    data = default_data()
    data["cards"][0].update({f"f{i:03d}": 1 for i in range(200)})
    assert deck_problems(data) == ["card 1 (wood1) has unknown field(s) 'f000', 'f001', 'f002' and 197 more"]
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    assert len(text) <= MAX_INLINE_DECK  # read and checked, not refused for its length
    with pytest.raises(GameError) as caught:
        new_game(deck_0=text)
    assert str(caught.value) == "option deck_0: illegal deck: " + deck_problems(data)[0]


def test_sums_and_counts() -> None:
    data = default_data()
    data["cards"][0]["in"] = 5
    assert deck_problems(data) == ["the in numbers add up to 101; they must add up to exactly 100"]
    data["cards"].pop()
    assert "the deck has 24 cards; it needs exactly 25 (5 of each element)" in deck_problems(data)
    assert deck_problems([]) == ["a deck file must hold a table with a 'cards' list"]
    assert deck_problems({"cards": [{"id": "x y", "name": "", "element": "air", "in": "3", "out": 3}]})[1:4] == [
        "card 1: id 'x y' must be 1-24 letters, digits, '-' or '_'",
        "card 1: name must be a non-empty string of at most 24 characters, none of them control or invisible",
        "card 1: element 'air' is not one of wood, fire, earth, metal, water (or 木火土金水)",
    ]


def test_deck_files_in_toml_and_json(tmp_path: Path) -> None:
    data = default_data()
    data["cards"][0]["name"] = "青雲龍"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_deck(path).cards[0].name == "青雲龍"
    toml = tmp_path / "mine.toml"
    toml.write_text(default_deck_text().replace("青翼龍", "青雲龍"), encoding="utf-8")
    assert load_deck(toml).cards[0].name == "青雲龍"
    game = new_game(deck_1=str(toml))
    assert game.decks[1].cards[0].name == "青雲龍" and game.decks[0].cards[0].name == "青翼龍"
    (tmp_path / "broken.toml").write_text("cards = [", encoding="utf-8")
    with pytest.raises(GameError, match="not valid TOML"):
        load_deck(tmp_path / "broken.toml")
    data["cards"][0]["in"] = 8
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameError, match=r"option deck_0: .*illegal deck: the in numbers add up to 104"):
        new_game(deck_0=str(path))


def test_deck_check_command(tmp_path: Path) -> None:
    runner = CliRunner()
    good = tmp_path / "good.toml"
    good.write_text(default_deck_text(), encoding="utf-8")
    result = runner.invoke(deck_app, ["check", str(good)])
    assert result.exit_code == 0 and "legal deck" in result.output
    data = default_data()
    data["cards"][0]["in"] = 9
    data["cards"][1]["id"] = "wood3"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(deck_app, ["check", str(bad)], terminal_width=200)
    assert result.exit_code == 1
    assert "in number 9 is outside 1..8" in result.output
    assert "duplicate id" in result.output
    assert "add up to 96" in result.output
    result = runner.invoke(deck_app, ["check", str(tmp_path / "missing.toml")])
    assert result.exit_code == 1 and "cannot read deck file" in result.output


def test_deck_show_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(deck_app, ["show"], terminal_width=120)
    assert result.exit_code == 0
    assert "白牙龍" in result.output and "100" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": []}', encoding="utf-8")
    result = runner.invoke(deck_app, ["show", str(bad)], terminal_width=200)
    assert result.exit_code == 1 and "qipan deck check" in result.output


def test_range_pictures() -> None:
    assert range_picture(2) == "···\n■◆■\n···"
    assert range_picture(8) == "■■■\n■◆■\n■■■"


def test_numbers_that_are_not_whole_numbers_are_named_as_such() -> None:
    data = default_data()
    data["cards"][0]["in"] = 3.0
    data["cards"][1]["out"] = "5"
    data["cards"][2]["in"] = True
    problems = deck_problems(data)
    assert "card 1 (wood1): in number 3.0 must be a whole number from 1 to 8" in problems
    assert "card 2 (wood2): out number '5' must be a whole number from 1 to 8" in problems
    assert "card 3 (wood3): in number True must be a whole number from 1 to 8" in problems


def test_a_deck_file_that_is_not_utf8_is_refused_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00 not text")
    with pytest.raises(GameError, match=r"cannot read deck file .*not UTF-8 text"):
        load_deck(path)
    result = CliRunner().invoke(deck_app, ["check", str(path)], terminal_width=200)
    assert result.exit_code == 1 and "not UTF-8 text" in result.output
    with pytest.raises(GameError, match="option deck_0: cannot read deck file"):
        new_game(deck_0=str(path))


def inline(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def test_an_inline_deck_is_played_and_stored_as_itself() -> None:
    data = default_data()
    data["name"] = "mine"
    data["cards"][0]["name"] = "青雲龍"
    game = new_game(deck_1=inline(data))
    assert game.decks[1].cards[0].name == "青雲龍" and game.decks[0] == default_deck()
    assert game.config["deck_0"] == "default"
    assert json.loads(game.config["deck_1"])["cards"][0] == {
        "id": "wood1", "name": "青雲龍", "element": "wood", "in": 4, "out": 3}
    again = new_game(deck_1=game.config["deck_1"])
    assert again.decks == game.decks
    # Played: 乙's cards are the inline deck's.
    state = game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    state = game.play(state, "roll 1-1")
    state = game.play(game.play(state, "wood1@a1"), "wood2@c1")
    state = game.play(state, "roll 1-3")
    assert "wood1@a2" in game.legal_texts(state)
    assert "青雲龍" in game.describe_action(state, game.parse_action(state, "wood1@a2"))


def test_a_game_from_a_deck_file_stores_the_deck_not_the_path(tmp_path: Path) -> None:
    toml = tmp_path / "mine.toml"
    toml.write_text(default_deck_text().replace("青翼龍", "青雲龍"), encoding="utf-8")
    game = new_game(deck_0=str(toml))
    assert str(tmp_path) not in game.config["deck_0"]
    assert deck_from_option(game.config["deck_0"]).cards[0].name == "青雲龍"
    toml.unlink()
    assert new_game(deck_0=game.config["deck_0"]).decks == game.decks


def test_inline_decks_are_refused_with_the_problems_deck_check_names(tmp_path: Path) -> None:
    data = default_data()
    data["cards"][0]["in"] = 9
    data["cards"][1]["id"] = "wood3"
    with pytest.raises(GameError) as caught:
        new_game(deck_0=inline(data))
    message = str(caught.value)
    assert message.startswith("option deck_0: illegal deck: ")
    problems = deck_problems(data)
    assert message == "option deck_0: illegal deck: " + "; ".join(problems)
    bad = tmp_path / "bad.json"
    bad.write_text(inline(data), encoding="utf-8")
    result = CliRunner().invoke(deck_app, ["check", str(bad)], terminal_width=300)
    listed = [line.removeprefix("  - ") for line in result.output.splitlines() if line.startswith("  - ")]
    assert result.exit_code == 1 and listed == problems


@pytest.mark.parametrize("text, fragment", [
    ("{" + '"cards": [' * 40, "the inline deck is not valid JSON: JSON nested deeper than 32 levels"),
    ('{"cards": [1, 2,', "the inline deck is not valid JSON (Expecting value at character 16)"),
    ('{"cards": "' + "Z" * 5000 + '"}', "the inline deck is 5013 characters long; at most 4096"),
    ('{"name": "' + "Z" * 3000 + '", "cards": []}', "the deck's name must be a string of 1-40 characters"),
    ('{"cards": [' + ",".join(['{"id": "a", "name": "\\u0007x", "element": "wood", "in": 1, "out": 1}'] * 25) + "]}",
     "card 1 (a): name must be a non-empty string of at most 24 characters, none of them control or invisible"),
])
def test_garbage_and_oversized_inline_decks_are_refused_without_an_echo(text: str, fragment: str) -> None:
    with pytest.raises(GameError) as caught:
        deck_from_option(text)
    message = str(caught.value)
    assert fragment in message and "\n" not in message
    assert "ZZZZ" not in message and len(message) < 1200  # eight problems at most


def test_the_longest_legal_deck_still_travels_inline() -> None:
    """Names are bounded so that every legal deck's inline form fits the option: a record of any
    game replays."""
    data = default_data()
    data["name"] = '"' * MAX_DECK_NAME
    for number, card in enumerate(data["cards"]):
        card["id"] = f"{number:02d}" + "x" * 22
        card["name"] = '\\"' * (MAX_CARD_NAME // 2)
    assert deck_problems(data) == []
    text = deck_json(deck_from_data(data))
    assert len(text) <= MAX_INLINE_DECK
    assert new_game(deck_0=text, deck_1=text).decks[0] == deck_from_data(data)
    data["cards"][0]["name"] += "x"
    assert deck_problems(data) == [
        "card 1 (00xxxxxxxxxxxxxxxxxxxxxx): name must be a non-empty string of at most 24 characters, none of "
        "them control or invisible"]


def test_deck_json_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(deck_app, ["json"])
    assert result.exit_code == 0 and deck_from_option(result.output.strip()) == default_deck()
    assert "\n" not in result.output.strip()
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": []}', encoding="utf-8")
    result = runner.invoke(deck_app, ["json", str(bad)], terminal_width=200)
    assert result.exit_code == 1 and "qipan deck check" in result.output
