"""The terminal board: hidden stones stay hidden; the practice aid only when asked for."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from qipan.cli.boards import renderer
from qipan.cli.boards.tellstones import PRACTICE_LABEL, render
from qipan.games.tellstones import Tellstones


def text(game: Tellstones, view: dict[str, Any], **kwargs: Any) -> str:
    console = Console(record=True, width=120)
    console.print(render(game, view, **kwargs))
    return console.export_text()


def test_registered_renderer() -> None:
    assert renderer(Tellstones()) is render


def test_face_down_stones_are_hidden_and_a_peek_shows_once() -> None:
    game = Tellstones()
    state = game.play(game.play(game.initial_state(), "place crown 3"), "hide 3")
    board = text(game, game.view(state, 0))
    assert "▒▒▒" in board and "crown(王冠)" not in board and "crown" not in board.split("pool")[0]
    assert "scale" in board and "player 1 to act" in board
    peeked = game.play(state, "peek 3")
    assert "the stone on 3 is the crown" in text(game, game.view(peeked, 0))
    assert "crown" not in text(game, game.view(peeked, 1)).split("pool")[0]
    later = game.play(peeked, "place sword 2")
    assert "crown" not in text(game, game.view(later, 0)).split("pool")[0]


def test_practice_mode_is_off_by_default_and_labelled_when_on() -> None:
    game = Tellstones()
    practice: dict[str, Any] = {}
    state = game.initial_state()
    for move in ["place crown 3", "hide 3", "swap 3 4", "place sword 5"]:
        state = game.play(state, move)
        board = text(game, game.view(state, 1), practice=practice)
    assert PRACTICE_LABEL in board
    assert "crown" in board.split("pool")[0]  # the aid remembers the stone now on 4
    plain = text(game, game.view(state, 1))
    assert PRACTICE_LABEL not in plain and "crown" not in plain.split("pool")[0]


def test_prompts_follow_the_phase() -> None:
    game = Tellstones(variant="round-table")
    state = game.initial_state()
    for move in ["place crown 3", "hide 3", "challenge 3"]:
        state = game.play(state, move)
    assert "player 4 (team B) must name the stone on 3" in text(game, game.view(state, 3))
    state = game.play(game.play(game.play(state, "crown"), "hide 4"), "boast")
    board = text(game, game.view(state, None), last="boast")
    assert "must believe, doubt or counter" in board and "last: boast" in board
    assert "team A (players 1, 3): 0" in board and "team B (players 2, 4): 1" in board


def test_two_lines_board_and_game_over() -> None:
    game = Tellstones(variant="two-lines")
    state = game.initial_state()
    for move in ["place crown a3", "hide a3", "boast", "doubt", "name crown"]:
        state = game.play(state, move)
    board = text(game, game.view(state, 0))
    assert "pool a:" in board and "pool b:" in board and "player 1 won by a proof" in board
