"""The terminal board shows only what its viewer may see; the easy AI plays from views."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from qipan.ai import make_agent
from qipan.cli.boards.shengke import render
from qipan.core import Match
from qipan.games.shengke import elements
from qipan.games.shengke.ai import evaluate
from qipan.games.shengke.elements import ANY, EARTH, FIRE, METAL, WATER, WOOD

from .helpers import build, new_game


def text_of(game, view, last=None) -> str:  # type: ignore[no-untyped-def]
    console = Console(record=True, width=120)
    console.print(render(game, view, last))
    return console.export_text()


def test_the_board_shows_the_viewers_hand_only() -> None:
    game = new_game()
    state = build(game, field={"c3": (0, "metal1"), "b4": (1, "earth2")}, hands=(["water5"], ["wood5"]),
                  discards=(["fire4"], []), dice=(5, 5))
    mine = text_of(game, game.view(state, 0), "metal1@c3")
    assert "玄牙鯨" in mine and "青爪虎" not in mine  # own water5 shown, 乙's wood5 hidden
    assert "1 card: 木×1" in mine
    assert "白牙龍" in mine and "黃甲龜" in mine and "赤尾狐" in mine  # field and discards are public
    assert "last: metal1@c3" in mine and "甲's turn" in mine and "水 water" in mine
    theirs = text_of(game, game.view(state, 1))
    assert "青爪虎" in theirs and "玄牙鯨" not in theirs
    spectator = text_of(game, game.view(state, None))
    assert "玄牙鯨" not in spectator and "青爪虎" not in spectator


def test_the_board_is_seen_from_the_viewers_side() -> None:
    game = new_game()
    state = build(game, field={"a1": (0, "metal1")})
    rows = [line.split()[0] for line in text_of(game, game.view(state, 0)).splitlines()
            if line.strip()[:1] in "12345" and line.strip()[:1]]
    assert rows == ["5", "4", "3", "2", "1"]
    rows = [line.split()[0] for line in text_of(game, game.view(state, 1)).splitlines()
            if line.strip()[:1] in "12345" and line.strip()[:1]]
    assert rows == ["1", "2", "3", "4", "5"]


def test_the_board_lists_the_last_resolution() -> None:
    game = new_game()
    state = build(game, field={"b4": (1, "wood1")}, hands=(["metal1"], []), dice=(4, 4))
    after = game.play(state, "metal1@c3")
    text = text_of(game, game.view(after, 1))
    assert "白牙龍 at c3: 行剋 destroys 青翼龍 at b4" in text


def test_evaluate_prefers_more_cards_on_the_field() -> None:
    game = new_game()
    ahead = build(game, field={"a1": (0, "wood1"), "b1": (0, "wood2")})
    behind = build(game, field={"a1": (1, "wood1"), "b1": (1, "wood2"), "c1": (1, "wood3")})
    assert evaluate(game, ahead, 0) > evaluate(game, behind, 0)
    assert evaluate(game, build(game, phase="over"), 0) == 102.0  # a win, 0–0 plus 甲's bonus


def test_easy_beats_random_and_plays_from_its_view() -> None:
    game = new_game(first="random", turns=10)
    wins = 0
    for seed in range(6):
        match = Match(game, seed=seed)
        seats = {seed % 2: make_agent(game, "easy"), 1 - seed % 2: make_agent(game, "random")}
        rng = random.Random(seed)
        while not match.over:
            mover = match.to_move
            assert mover is not None and mover >= 0
            view = game.view(match.state, mover)
            match.play(seats[mover].choose(game, view, rng), player=mover)
        wins += match.result()["returns"][seed % 2] > 0  # type: ignore[index]
    assert wins >= 5


def test_the_dice_faces_follow_the_dice_table(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    state = build(game, hands=(["water5", "wood5"], []), dice=(1, 5))
    assert "dice 1木 5水" in text_of(game, game.view(state, 0))
    # A corrected dice table is a one-line change in elements.py: the board follows it.
    monkeypatch.setattr(elements, "DICE", (WATER, FIRE, EARTH, METAL, WOOD, ANY))
    assert "dice 1水 5木" in text_of(game, game.view(state, 0))
