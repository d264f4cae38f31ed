"""Every rulebook example listed in the rules contract (section 4 and the rules it cites)."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import Match
from qipan.core.errors import GameError
from qipan.games.kelighine import Kelighine, board
from tests.games.kelighine.kelighine_helpers import cells, only, piece, position


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


def test_last_piece_on_a5_moving_onto_b1_is_pushed_to_a1_or_a2_by_choice_from_the_start() -> None:
    g = game()
    match = Match(g, chance="manual")
    for move in [
        "roll:4", "I+4", "roll:6", "H+6", "roll:2", "A6+2", "roll:6", "A16+6", "roll:6", "F+6",
        "roll:6", "A6+6", "roll:4", "G+4", "roll:6", "A12+6", "roll:5", "D+5", "roll:2",
    ]:
        match.play(move)
    assert g.view(match.state, 1)["last_piece"] == "A5"
    assert cells(g, match.state, 1) == ["A2"] and only(g, match.state, 1).done == 1
    match.play("A2^B1")  # player 2 promotes onto B1, an indirect-push cell
    s = match.state
    assert g.to_move(s) == 1
    assert g.legal_texts(s) == ["push:A1", "push:A2"]
    view = g.view(s, None)
    assert view["pending_push"] == {
        "player": 1, "from": "B1", "cause": "indirect", "options": ["A1", "A2"],
        "piece": {"player": 1, "cell": "B1", "face": 1, "laps": {"A": True, "B": False, "C": False},
                  "coin": None, "lap_progress": None},  # a pushed piece has lost its lap under way
    }
    assert "B1" not in [p["cell"] for p in view["pieces"]]
    assert g.explain_pushes(s, g.parse_action(s, "push:A2")) == [
        "B1 → pushed to A2 (indirect, last piece on A5) [owner's choice]"
    ]
    match.play("push:A2")
    assert cells(g, match.state, 1) == ["A2"]
    assert only(g, match.state, 1).entry == -1  # the B lap (and its coin) is lost


def test_last_piece_on_a5_moving_onto_a9_is_pushed_to_f_from_the_start() -> None:
    g = game()
    match = Match(g, chance="manual")
    match.play("roll:1")
    match.play("I+1")  # player 1 on A3
    match.play("roll:5")
    match.play("H+5")  # player 2 onto A15, indirect (last piece on A3): pushed to D
    assert cells(g, match.state, 1) == ["D"]
    for move in ["roll:4", "A3+4", "roll:5", "D+5", "roll:2"]:  # player 1 on A7, player 2 on A5
        match.play(move)
    assert g.view(match.state, 0)["last_piece"] == "A5"
    before = match.state
    assert g.explain_pushes(before, g.parse_action(before, "A7+2")) == [
        "A9 → pushed to F (indirect, last piece on A5)"
    ]
    match.play("A7+2")
    assert cells(g, match.state, 0) == ["F"]
    assert match.to_move == -1  # a single destination: no choice, player 2 rolls next


def test_moving_onto_b3_with_a5_and_a6_taken_is_pushed_to_e_from_the_start() -> None:
    g = game(players=3)
    match = Match(g, chance="manual")
    for move in [
        "roll:2", "I+2", "roll:3", "H+3", "roll:5", "K+5", "roll:4", "A4+4", "roll:2", "A13+2",
        "roll:6", "A3+6", "roll:2", "A8+2", "roll:1", "A15+1", "roll:6", "A9+6", "roll:6", "A10+6",
        "roll:3", "D+3", "roll:4", "A15^B8", "roll:6", "A16+6", "roll:2", "A3+2", "roll:3",
    ]:
        match.play(move)
    view = g.view(match.state, 2)
    assert view["last_piece"] == "A5" and "B3" in view["indirect"]
    assert cells(g, match.state, 0) == ["A6"] and cells(g, match.state, 1) == ["A5"]
    assert cells(g, match.state, 2) == ["B8"]
    before = match.state
    assert g.explain_pushes(before, g.parse_action(before, "B8+3")) == [
        "B3 → pushed to E (indirect, last piece on A5) [A5 and A6 taken, nearest free corner]"
    ]
    match.play("B8+3")
    assert cells(g, match.state, 2) == ["E"]
    assert g.view(match.state, 0)["coins"] == []  # the B lap under way is lost with its coin


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


def test_piece_on_c1_pushed_directly_goes_to_b1_or_b2_by_its_owner_from_the_start() -> None:
    g = game()
    match = Match(g, chance="manual")
    for move in [
        "roll:1", "I+1", "roll:6", "H+6", "roll:3", "A3+3", "roll:2", "A16+2", "roll:3", "A6+3",
        "roll:5", "D+5", "roll:4", "A9+4", "roll:4", "E+4", "roll:6", "A13+6", "roll:3", "A8+3",
        "roll:2", "A3^B2", "roll:5", "G+5", "roll:2", "B2+2", "roll:5", "A1^B1", "roll:6", "B4+6",
        "roll:6", "B1+6", "roll:4", "B2+4", "roll:2", "B7+2", "roll:4", "B6^C6", "roll:4", "B1^C1",
        "roll:3",
    ]:
        match.play(move)
    assert cells(g, match.state, 0) == ["C6"] and cells(g, match.state, 1) == ["C1"]
    match.play("C6+3")
    s = match.state
    assert s.turn == 0 and g.to_move(s) == 1  # player 2 decides during player 1's turn
    assert g.legal_texts(s) == ["push:B1", "push:B2"]
    with pytest.raises(GameError, match="choose one of B1, B2"):
        match.play("C1+1")
    with pytest.raises(GameError, match="it is not your turn"):
        match.play("push:B2", player=0)
    match.play("push:B2", player=1)
    p = only(g, match.state, 1)
    assert (board.name(p.cell), p.done, p.entry) == ("B2", 2, -1)  # C lap and coin lost, B kept
    assert g.to_move(match.state) == -1 and match.state.turn == 1


def test_a4_with_lap_complete_cannot_promote_while_b2_is_occupied_from_the_start() -> None:
    g = game()
    match = Match(g, chance="manual")
    for move in [
        "roll:4", "I+4", "roll:5", "H+5", "roll:5", "A6+5", "roll:5", "A15+5", "roll:2", "G+2",
        "roll:6", "A4+6", "roll:3", "A14+3", "roll:6", "F+6", "roll:3", "A1+3", "roll:1", "A14^B7",
        "roll:2", "A4^B2", "roll:3", "B7+3", "push:A4", "roll:1",
    ]:
        match.play(move)
    s = match.state
    assert cells(g, s, 0) == ["A4"] and only(g, s, 0).done == 1
    assert cells(g, s, 1) == ["B2"]
    assert g.legal_texts(s) == ["A4+1"]
    with pytest.raises(GameError, match="B2 is occupied, and a promotion can never push"):
        g.play(s, "A4^B2")
    free = position(g, [[piece("A4", done=1)], [piece("B3", done=1, entry="B3")]])
    assert g.legal_texts(g.play(free, "roll:3")) == ["A4+3", "A4^B2"]


def test_last_piece_on_a7_moving_onto_c3_pushed_to_b3_is_pushed_again_from_the_start() -> None:
    g = game()
    match = Match(g, chance="manual")
    for move in [
        "roll:4", "I+4", "roll:5", "H+5", "roll:5", "A6+5", "roll:5", "A15+5", "roll:5", "G+5",
        "roll:4", "A4+4", "roll:4", "A1+4", "roll:6", "A8+6", "roll:3", "A5^B3", "roll:1", "A14+1",
        "roll:1", "B3+1", "roll:6", "A15+6", "roll:6", "B4+6", "roll:2", "A5^B3", "roll:1", "B2+1",
        "push:A5", "roll:2", "A5+2", "roll:1",
    ]:
        match.play(move)
    assert g.view(match.state, 0)["last_piece"] == "A7"
    assert cells(g, match.state, 0) == ["B3"] and only(g, match.state, 0).done == 2
    match.play("B3^C3")  # onto C3, an indirect-push cell: pushed to B3 or B4
    assert match.legal_texts() == ["push:B3", "push:B4"]
    match.play("push:B3")  # B3 is indirect too: pushed again, to A5 or A6
    assert match.to_move == 0 and match.legal_texts() == ["push:A5", "push:A6"]
    s = match.state
    action = g.parse_action(s, "push:A5")
    assert g.explain_pushes(s, action)[0].startswith("B3 → pushed to A5 (indirect, last piece on A7)")
    match.play("push:A5")
    assert cells(g, match.state, 0) == ["A5"]
    log = g.view(match.state, None)["previous_log"]
    assert log[-2:] == [
        "player 1's piece C3 → pushed to B3 (indirect, last piece on A7) [owner's choice]",
        "player 1's piece B3 → pushed to A5 (indirect, last piece on A7) [pushed again; owner's choice]",
    ]


def test_c3_b3_persistence_from_a_built_position() -> None:
    g = game()
    s = position(g, [[piece("A7")], [piece("C2", done=2, entry="C2")]], turn=1, last="A7")
    s = g.play(g.play(s, "roll:1"), "C2+1")
    assert g.legal_texts(s) == ["push:B3", "push:B4"]
    s = g.play(s, "push:B3")
    assert g.to_move(s) == 1 and g.legal_texts(s) == ["push:A5", "push:A6"]
    assert cells(g, g.play(s, "push:A6"), 1) == ["A6"]


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
