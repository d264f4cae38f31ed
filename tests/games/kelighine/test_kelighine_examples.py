"""Every rulebook example listed in the rules contract (section 4 and the rules it cites)."""

from __future__ import annotations

import pytest
from kelighine_helpers import cells, only, piece, position

import qipan
from qipan.core import Match
from qipan.core.errors import GameError
from qipan.games.kelighine import Kelighine, board


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def test_last_piece_on_a5_gives_eleven_indirect_cells_from_the_start() -> None:
    match = Match(game(), chance="manual")
    match.play("roll:3")
    match.play("I+3")  # player 1 to A5 (rulebook 2.2.2: I+1 -> A3, so I+3 -> A5)
    view = match.game.view(match.state, 1)
    assert view["last_piece"] == "A5"
    assert view["indirect"] == ["A1", "A9", "A13", "B1", "B3", "B5", "B7", "C1", "C3", "C5", "C7"]


def test_last_piece_on_a5_moving_onto_b1_is_pushed_to_a1_or_a2_by_choice() -> None:
    g = game()
    # player 2 in the middle of its B lap on B8 (entry B8); player 1's last piece on A5
    s = position(g, [[piece("A5")], [piece("B8", done=1, entry="B8")]], turn=1, last="A5")
    s = g.play(s, "roll:1")
    s = g.play(s, "B8+1")
    assert g.to_move(s) == 1
    assert g.legal_texts(s) == ["push:A1", "push:A2"]
    view = g.view(s, None)
    assert view["pending_push"] == {"player": 1, "from": "B1", "cause": "indirect", "options": ["A1", "A2"]}
    s2 = g.play(s, "push:A2")
    assert cells(g, s2, 1) == ["A2"]
    assert only(g, s2, 1).entry == -1  # the B lap (and its coin) is lost
    assert g.explain_pushes(s, g.parse_action(s, "push:A2")) == [
        "B1 → pushed to A2 (indirect, last piece on A5) [owner's choice]"
    ]


def test_last_piece_on_a5_moving_onto_a9_is_pushed_to_f() -> None:
    g = game()
    s = position(g, [[piece("A5")], [piece("A7", done=1)]], turn=1, last="A5")
    s = g.play(s, "roll:2")
    texts = g.explain_pushes(s, g.parse_action(s, "A7+2"))
    assert texts == ["A9 → pushed to F (indirect, last piece on A5)"]
    s = g.play(s, "A7+2")
    assert cells(g, s, 1) == ["F"]
    assert g.to_move(s) == -1  # no choice: player 1 rolls next


def test_moving_onto_b3_with_a5_and_a6_taken_is_pushed_to_e() -> None:
    g = game(players=3)
    s = position(
        g, [[piece("A5")], [piece("B2", done=1, entry="B2")], [piece("A6")]], turn=1, last="A5"
    )
    s = g.play(s, "roll:1")
    assert g.explain_pushes(s, g.parse_action(s, "B2+1")) == [
        "B3 → pushed to E (indirect, last piece on A5) [A5 and A6 taken, nearest free corner]"
    ]
    s = g.play(s, "B2+1")
    assert cells(g, s, 1) == ["E"]


def test_piece_on_a2_pushed_directly_goes_to_d_from_the_start() -> None:
    g = game(players=3)
    match = Match(g, chance="manual")
    for move in ["roll:1", "I+1", "roll:6", "H+6", "roll:4", "K+4", "roll:1", "A3+1", "roll:2"]:
        match.play(move)
    assert cells(g, match.state, 2) == ["A2"]
    before = match.state
    line = g.describe_action(before, g.parse_action(before, "A16+2"))
    assert line == "player 2: A16+2 → A2; player 3's piece A2 → pushed to D (direct, player 2 moved onto A2)"
    match.play("A16+2")
    assert cells(g, match.state, 2) == ["D"]
    assert cells(g, match.state, 1) == ["A2"]


def test_piece_on_c1_pushed_directly_goes_to_b1_or_b2_by_its_owner() -> None:
    g = game()
    s = position(g, [[piece("C1", done=2, entry="C1")], [piece("C8", done=2, entry="C8")]], turn=1)
    s = g.play(s, "roll:1")
    s = g.play(s, "C8+1")
    assert s.turn == 1 and g.to_move(s) == 0  # player 1 decides during player 2's turn
    assert g.legal_texts(s) == ["push:B1", "push:B2"]
    with pytest.raises(GameError, match="choose one of B1, B2"):
        g.play(s, "C1+1")
    s = g.play(s, "push:B2")
    assert cells(g, s, 0) == ["B2"] and only(g, s, 0).done == 2
    assert g.to_move(s) == -1 and s.turn == 0  # player 2's turn is over


def test_a4_with_lap_complete_cannot_promote_while_b2_is_occupied() -> None:
    g = game()
    s = position(g, [[piece("A4", done=1)], [piece("B2", done=1, entry="B2")]])
    s = g.play(s, "roll:3")
    assert g.legal_texts(s) == ["A4+3"]
    with pytest.raises(GameError, match="B2 is occupied, and a promotion can never push"):
        g.play(s, "A4^B2")
    free = position(g, [[piece("A4", done=1)], [piece("B3", done=1, entry="B3")]])
    assert g.legal_texts(g.play(free, "roll:3")) == ["A4+3", "A4^B2"]


def test_last_piece_on_a7_moving_onto_c3_pushed_to_b3_is_pushed_again_to_a5_or_a6() -> None:
    g = game()
    s = position(g, [[piece("A7")], [piece("C2", done=2, entry="C2")]], turn=1, last="A7")
    s = g.play(s, "roll:1")
    s = g.play(s, "C2+1")
    assert g.legal_texts(s) == ["push:B3", "push:B4"]
    s = g.play(s, "push:B3")
    assert g.to_move(s) == 1 and g.legal_texts(s) == ["push:A5", "push:A6"]
    action = g.parse_action(s, "push:A5")
    assert g.explain_pushes(s, action)[0].startswith("B3 → pushed to A5 (indirect, last piece on A7)")
    s = g.play(s, "push:A5")
    assert cells(g, s, 1) == ["A5"]
    log = g.view(s, None)["previous_log"]
    assert log[-2:] == [
        "player 2's piece C3 → pushed to B3 (indirect, last piece on A7) [owner's choice]",
        "player 2's piece B3 → pushed to A5 (indirect, last piece on A7) [pushed again; owner's choice]",
    ]


def test_direct_push_comes_before_the_movers_indirect_push() -> None:
    # 2.3.5: a moves B2 -> B3, B3 is indirect and holds b: b is pushed first, then a
    g = game(players=3)
    s = position(
        g,
        [[piece("A1")], [piece("B2", done=2)], [piece("B3", done=1, entry="B3")]],
        turn=1, last="A1",
    )
    s = g.play(s, "roll:1")
    s = g.play(s, "B2+1")
    assert g.to_move(s) == 2 and g.legal_texts(s) == ["push:A5", "push:A6"]
    s = g.play(s, "push:A6")
    # then player 2's own piece leaves B3 (indirect) to A5, itself indirect (last piece on A1),
    # and on again to E (persistence)
    assert cells(g, s, 1) == ["E"] and cells(g, s, 2) == ["A6"]
    pushes = [(board.name(e[2]), board.name(e[3])) for e in s.prev_log if e[0] == "push"]
    assert pushes == [("B3", "A6"), ("B3", "A5"), ("A5", "E")]


def test_pushed_piece_is_passive_and_never_pushes() -> None:
    g = game(players=3)
    s = position(g, [[piece("A1", a=34)], [piece("D")], [piece("A16", done=1)]], turn=2)
    s = g.play(s, "roll:1")
    s = g.play(s, "A16+1")  # pushes player 1 from A1: D is taken, so the next free corner
    assert cells(g, s, 0) == ["E"] and cells(g, s, 1) == ["D"]


def test_last_piece_is_the_previous_players_piece_in_version_1() -> None:
    # footnote 9: player 4 pushes player 2's piece; for player 1 player 4's piece counts
    g = game(players=4)
    s = position(g, [[piece("A12")], [piece("A5")], [piece("A9")], [piece("A3", done=1)]], turn=3)
    s = g.play(s, "roll:2")
    s = g.play(s, "A3+2")
    assert cells(g, s, 1) == ["E"]
    assert s.turn == 0
    assert g.view(s, 0)["last_piece"] == "A5"


def test_last_piece_is_the_own_piece_pushed_last_in_version_2() -> None:
    # footnote 9, second example: player 2 pushes its own piece as its last action
    g = game(version=2)
    s = position(
        g,
        [[piece("A1"), piece("reserve"), piece("reserve")],
         [piece("A13", done=1), piece("A15", done=1), piece("reserve")]],
        turn=1,
    )
    s = g.play(s, "roll:2,4")
    s = g.play(s, "A13+4")  # A17 = A1: pushes player 1's piece to D
    s = g.play(s, "A15+2")  # onto A1, its own piece, pushed to the nearest free corner E
    assert g.to_move(s) == -1 and s.turn == 0
    assert cells(g, s, 0) == ["D", "reserve", "reserve"]
    assert cells(g, s, 1) == ["A1", "E", "reserve"]
    assert g.view(s, None)["last_piece"] == "E"
