"""The terminal star board."""

from __future__ import annotations

from rich.console import Console

import qipan
from qipan.cli.boards.chinese_checkers import render
from tests.games.chinese_checkers.helpers import position


def text_of(renderable: object) -> str:
    console = Console(record=True, width=120, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_start_board_has_rows_numbers_and_pieces() -> None:
    game = qipan.load("chinese-checkers", players=3)
    text = text_of(render(game, game.view(game.initial_state(), 0)))
    lines = text.splitlines()
    labelled = [line for line in lines if line[:1] in "abcdefghijklmnopq" and line.strip()]
    assert [line[0] for line in labelled] == list("qponmlkjihgfedcba")
    assert "a                            R1  a" in text
    assert "d                      R1  R2  R3  R4  d" in text
    assert "m    G1  G2  G3  G4   5   6   7   8   9 B10 B11 B12 B13  m" in text
    assert "i             1   2   3   4   5   6   7   8   9  i" in text
    assert "red   home point 1 -> target point 4   in target 0/10" in text
    assert "red to move" in text


def test_last_move_path_and_result() -> None:
    game = qipan.load("chinese-checkers")
    pieces = {"i5": 0, "h5": 1, "h4": 1, "i6": 1}
    pieces.update({name: 0 for name in ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3"]})
    pieces.update({name: 1 for name in ["q1", "p1", "p2", "o1", "o2", "o3", "n1"]})
    state = position(pieces)
    after = game.play(state, "i5-i9")
    text = text_of(render(game, game.view(after, None), last="i5-i9"))
    assert "last move: i5-g5-i3-i9" in text
    assert "blue to move" in text
    done = game.initial_state()._replace(finished=(1,), turn=None)
    text = text_of(render(game, game.view(done, None)))
    assert "blue won" in text and "finished 1st" in text


def test_capture_board() -> None:
    game = qipan.load("chinese-checkers", variant="capture", players=2)
    state = game.play(game.initial_state(), "g5-i5")
    text = text_of(render(game, game.view(state, 1), last="g5-i5"))
    assert "i            o1  o2  o3  o4  o5  o6  o7  o8  o9  i" in text
    assert "h           1  o2  o3  o4   5  o6  o7  o8  o9  10  h" in text
    assert "pieces left 59   captures: red 1  blue 0" in text
    assert "last move: g5-i5" in text
