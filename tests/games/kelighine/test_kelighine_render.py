"""The terminal board (qipan.cli.boards.kelighine)."""

from __future__ import annotations

from rich.console import Console

import qipan
from qipan.cli.boards import renderer
from qipan.cli.boards.kelighine import LAYOUT, render
from qipan.games.kelighine import Kelighine
from tests.games.kelighine.kelighine_helpers import piece, position


def text_of(game: Kelighine, view: dict[str, object], last: str | None = None) -> str:
    console = Console(record=True, width=120)
    console.print(render(game, view, last))  # type: ignore[arg-type]
    return console.export_text()


def test_every_cell_has_its_own_place() -> None:
    assert len(LAYOUT) == 41
    spans = []
    for label, (x, y) in LAYOUT.items():
        spans.append((y, x - 2, x + 4, label))
    for i, (y, a, b, label) in enumerate(spans):
        for y2, a2, b2, other in spans[i + 1:]:
            assert not (y == y2 and a < b2 and a2 < b), f"{label} overlaps {other}"


def test_board_shows_pieces_faces_coins_and_indirect_cells() -> None:
    g = qipan.load("kelighine", players=3)
    assert isinstance(g, Kelighine)
    s = position(g, [[piece("A5")], [piece("B2", done=1, entry="B3")], [piece("A6", done=1)]],
                 turn=1, last="A5")
    text = text_of(g, g.view(s, None), last="A4+1")
    assert renderer(g) is render
    assert "A5●6" in text and "B2●1" in text and "A6●1" in text
    assert "B3$" in text
    assert "indirect-push cells this turn (last piece on A5): A1 A9 A13 B1 B3 B5 B7 C1 C3 C5 C7" in text
    assert "B2 face 1 (A done, B 7/8, coin B3)" in text
    assert "A5 face 6 (A 2/16)" in text
    assert "last move: A4+1" in text
    for label in ("A1", "A16", "B8", "C8", "D", "E", "F", "G", "H", "I", "K", "L", "J"):
        assert label in text


def test_board_shows_a_pending_push_and_the_turn_log() -> None:
    g = qipan.load("kelighine")
    assert isinstance(g, Kelighine)
    s = position(g, [[piece("A7")], [piece("C2", done=2, entry="C2")]], turn=1, last="A7")
    s = g.play(g.play(s, "roll:1"), "C2+1")
    text = text_of(g, g.view(s, 0))
    assert "player 2 chooses where the piece pushed from C3 goes (indirect): push:B3 push:B4" in text
    assert "this turn:" in text and "player 2: C2+1 → C3" in text
    assert "C3 face 2 (AB done) being pushed" in text
    s = g.play(g.play(s, "push:B3"), "push:A5")
    text = text_of(g, g.view(s, 0))
    assert "previous turn:" in text
    assert "B3 → pushed to A5 (indirect, last piece on A7)" in text


def test_version_2_start_cells_reserve_and_winner() -> None:
    g = qipan.load("kelighine", version=2)
    assert isinstance(g, Kelighine)
    s = g.play(g.initial_state(), "roll:2,2")
    text = text_of(g, g.view(s, 0))
    assert "I●2" in text  # two of player 1's pieces wait on I
    assert "one die only" not in text
    s = position(g, [[piece("J", done=3), piece("J", done=3), piece("C4", done=3)],
                     [piece("A12"), piece("reserve"), piece("reserve")]])
    s = g.play(g.play(s, "roll:2,3"), "C4^J")
    text = text_of(g, g.view(s, None))
    assert "player 1 wins after 1 turns" in text
    assert "J●3" in text


def test_two_players_coins_on_one_cell_both_show() -> None:
    # entry cells are free once the piece moves on, so two players' coins can share a cell
    g = qipan.load("kelighine", players=3)
    assert isinstance(g, Kelighine)
    s = position(g, [[piece("B5", done=1, entry="B3")], [piece("B6", done=1, entry="B3")], [piece("A9")]])
    assert g.view(s, None)["coins"] == [{"player": 0, "cell": "B3"}, {"player": 1, "cell": "B3"}]
    assert "B3$$" in text_of(g, g.view(s, None))
