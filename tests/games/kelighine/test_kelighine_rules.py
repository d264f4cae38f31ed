"""Laps, coins, promotions, version 2 (entry, double 1, clockwise, one die, back to start)."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import CHANCE, Match
from qipan.core.errors import GameError
from qipan.games.kelighine import Kelighine, State
from tests.games.kelighine.kelighine_helpers import cells, only, piece, position


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def own_turn(g: Kelighine, s: State, player: int) -> State:
    """The same position with ``player`` to roll again and no indirect cells."""
    return s._replace(turn=player, last=-1, log=(), prev_log=())


# -- the A lap ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("player", "start", "reference"), [(0, "I", "A3"), (1, "H", "A11"),
                                                           (2, "K", "A15"), (3, "L", "A7")])
def test_a_lap_from_each_start_cell(player: int, start: str, reference: str) -> None:
    g = game(players=4)
    far = {0: "A10", 1: "A2", 2: "A6", 3: "A14"}
    pieces = [[piece(far[p])] for p in range(4)]
    pieces[player] = [piece(start)]
    s = position(g, pieces, turn=player)
    for roll in (6, 6, 4):
        s = g.play(s, f"roll:{roll}")
        s = own_turn(g, g.play(s, g.legal_texts(s)[0]), player)
    p = only(g, s, player)
    assert p.done == 0  # 16 steps from the start cell: the cell before the reference cell
    s = g.play(s, "roll:1")
    s = g.play(s, g.legal_texts(s)[0])
    p = only(g, s, player)
    assert (board_name(p.cell), p.done, p.face) == (reference, 1, 1)
    assert any(e[0] == "lap" for e in s.prev_log)


def board_name(c: int) -> str:
    from qipan.games.kelighine.board import name

    return name(c)


def test_a_lap_completes_when_passing_the_reference_cell() -> None:
    g = game()
    s = position(g, [[piece("A16")], [piece("A9")]])  # first lap: reference A3 is 3 steps on
    s = g.play(g.play(s, "roll:2"), "A16+2")
    assert only(g, s, 0).done == 0  # on A2
    s = position(g, [[piece("A16")], [piece("A9")]])
    s = g.play(g.play(s, "roll:5"), "A16+5")
    assert only(g, s, 0).done == 1  # passed A3 to A5


def test_a_lap_completes_right_before_a_push() -> None:
    # reaching A3 completes the lap even though A3 is indirect and the piece is pushed away
    g = game()
    s = position(g, [[piece("A1")], [piece("A7")]], turn=0, last="A7")
    s = g.play(g.play(s, "roll:2"), "A1+2")
    p = only(g, s, 0)
    assert board_name(p.cell) == "E" and p.done == 1


def test_push_to_a_corner_keeps_the_a_lap_position() -> None:
    g = game()
    # player 1 on A2 after going round (a = 36): pushed to D it keeps 33, so D+3 -> A3 completes
    s = position(g, [[piece("A2")], [piece("A16", done=1)]], turn=1)
    assert only(g, s, 0).a == 36
    s = g.play(g.play(s, "roll:2"), "A16+2")
    assert board_name(only(g, s, 0).cell) == "D" and only(g, s, 0).a == 33
    s = g.play(g.play(own_turn(g, s, 0), "roll:3"), "D+3")
    assert only(g, s, 0).done == 1


def test_push_backwards_must_be_made_up() -> None:
    # player 1 on A3 on its first lap (a = 6); E is taken, so the push goes back to D (a = 1)
    g = game(players=3)
    s = position(g, [[piece("A3")], [piece("A1", done=1)], [piece("E")]], turn=1)
    s = g.play(g.play(s, "roll:2"), "A1+2")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.a) == ("D", 1)
    s = g.play(g.play(own_turn(g, s, 0), "roll:3"), "D+3")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done) == ("A3", 0)  # back on A3, but the lap is not done


def test_pushes_never_undo_a_completed_lap() -> None:
    # 2.3.8(a): a piece that completed B, pushed to D, need not go round B again
    g = game()
    s = position(g, [[piece("A1", done=2)], [piece("A15", done=1)]], turn=1)
    s = g.play(g.play(s, "roll:2"), "A15+2")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.face) == ("D", 2, 2)
    s = g.play(g.play(own_turn(g, s, 0), "roll:1"), "D+1")
    s = g.play(g.play(own_turn(g, s, 0), "roll:4"), "A1^B1")
    p = only(g, s, 0)
    assert board_name(p.cell) == "B1" and p.entry == -1  # no coin: the B lap is done
    s = g.play(own_turn(g, s, 0), "roll:4")
    assert "B1^C8" in g.legal_texts(s) and "B1^C1" in g.legal_texts(s)


# -- the B and C laps ---------------------------------------------------------------------------


def test_b_lap_from_its_entry_cell() -> None:
    g = game(die=4)
    s = position(g, [[piece("A4", done=1)], [piece("A12")]])
    s = g.play(g.play(s, "roll:2"), "A4^B2")
    p = only(g, s, 0)
    assert p.entry == p.cell and g.view(s, None)["coins"] == [{"player": 0, "cell": "B2"}]
    for roll in (4, 3):
        s = g.play(g.play(own_turn(g, s, 0), f"roll:{roll}"), g.legal_texts(g.play(own_turn(g, s, 0),
                                                                                    f"roll:{roll}"))[0])
    assert board_name(only(g, s, 0).cell) == "B1" and only(g, s, 0).done == 1  # 7 steps
    s = g.play(g.play(own_turn(g, s, 0), "roll:1"), "B1+1")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.entry) == ("B2", 2, -1)
    assert g.view(s, None)["coins"] == []


def test_c_lap_completes_passing_the_entry_cell() -> None:
    g = game()
    s = position(g, [[piece("C5", done=2, entry="C8")], [piece("A12")]])  # 5 steps done
    s = g.play(g.play(s, "roll:4"), "C5+4")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.face) == ("C1", 3, 3)
    s = g.play(own_turn(g, s, 0), "roll:1")
    assert g.legal_texts(s) == ["C1+1", "C1^J"]
    s = g.play(s, "C1^J")
    assert g.to_move(s) is None and g.returns(s) == (1.0, -1.0)
    assert g.result_text(s) == "player 1 won"


def test_lap_completed_before_a_push_counts() -> None:
    # 2.3.8(b): entry B6, on B5, rolls 2 to B7 and is pushed to A13: the B lap is complete
    g = game()
    s = position(g, [[piece("B5", done=1, entry="B6")], [piece("A3")]], last="A3")
    s = g.play(g.play(s, "roll:2"), "B5+2")
    assert g.legal_texts(s) == ["push:A13", "push:A14"]
    s = g.play(s, "push:A13")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.face, p.entry) == ("A13", 2, 2, -1)


def test_push_mid_lap_resets_the_lap() -> None:
    # 2.3.8(d): entered C at C8, pushed from C3 to B4: the C lap starts again at the next entry
    g = game()
    s = position(g, [[piece("C3", done=2, entry="C8")], [piece("C1", done=2, entry="C1")]], turn=1)
    s = g.play(g.play(s, "roll:2"), "C1+2")
    s = g.play(s, "push:B4")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.entry) == ("B4", 2, -1)
    s = g.play(g.play(s, "roll:2"), "B4^C4")
    p = only(g, s, 0)
    assert board_name(p.entry) == "C4"


# -- promotions ---------------------------------------------------------------------------------


def test_promotion_needs_a_completed_lap_and_is_not_possible_from_a_corner() -> None:
    g = game()
    s = g.play(position(g, [[piece("A4")], [piece("A12")]]), "roll:3")
    assert g.legal_texts(s) == ["A4+3"]
    with pytest.raises(GameError, match="has not completed its lap of tier A"):
        g.play(s, "A4^B2")
    s = g.play(position(g, [[piece("E", done=1)], [piece("A12")]]), "roll:3")
    with pytest.raises(GameError, match="cannot read"):
        g.play(s, "E^B2")


def test_promotion_onto_an_indirect_cell_is_pushed_back_down() -> None:
    g = game()
    s = position(g, [[piece("A4", done=1)], [piece("B4", done=1, entry="B4")]], last="B4")  # B2 indirect
    s = g.play(g.play(s, "roll:1"), "A4^B2")
    assert g.legal_texts(s) == ["push:A3", "push:A4"]
    s = g.play(s, "push:A4")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done, p.entry) == ("A4", 1, -1)


# -- version 2 ------------------------------------------------------------------------------------


def test_version_2_start_and_dice() -> None:
    g = game(version=2)
    s = g.initial_state()
    assert cells(g, s, 0) == ["I", "reserve", "reserve"]
    assert cells(g, s, 1) == ["H", "reserve", "reserve"]
    outcomes = g.chance_outcomes(s)
    assert outcomes is not None and len(outcomes) == 10
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict((str(a), p) for a, p in outcomes)["roll:1,3"] == pytest.approx(2 / 16)
    assert dict((str(a), p) for a, p in outcomes)["roll:2,2"] == pytest.approx(1 / 16)
    assert str(g.parse_action(s, "roll:3,1")) == "roll:1,3"


def test_version_2_entry_on_doubles_from_the_start() -> None:
    # 2.5.5(c): with one piece on the field and two in reserve, a double 2 brings one in first
    match = Match(game(version=2), chance="manual")
    g = match.game
    for move in ["roll:1,3", "I+1", "A3+3", "roll:2,3", "H+2", "A12+3", "roll:2,2"]:
        match.play(move)
    assert cells(g, match.state, 0) == ["A6", "I", "reserve"]
    assert g.view(match.state, 0)["log"][-1] == "player 1 brings a piece from the reserve to I"
    assert match.legal_texts() == ["A6+2", "I+2"]
    match.play("I+2")
    match.play("A6+2")
    assert cells(g, match.state, 0) == ["A4", "A8", "reserve"]
    assert match.to_move == CHANCE and match.state.turn == 1


def test_version_2_entry_when_no_piece_is_on_the_field() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("J", done=3), piece("reserve"), piece("reserve")],
         [piece("A13"), piece("reserve"), piece("reserve")]],
        turn=1, phase="act", dice=(2,),
    )
    s = g.play(s, "A13+2")
    assert s.turn == 0 and g.to_move(s) == CHANCE
    assert cells(g, s, 0) == ["I", "J", "reserve"]
    assert g.view(s, 0)["log"] == ["player 1 brings a piece from the reserve to I"]


@pytest.mark.parametrize(("choice", "dice"), [("ones:four", [1, 1, 1, 1]), ("ones:two", [1, 1])])
def test_double_1_use_four_or_two(choice: str, dice: list[int]) -> None:
    match = Match(game(version=2), chance="manual")
    match.play("roll:1,1")
    assert match.to_move == 0
    assert match.legal_texts() == ["ones:four", "ones:reroll", "ones:two"]
    match.play(choice)
    view = match.game.view(match.state, 0)
    assert view["dice"] == dice
    assert cells(match.game, match.state, 0) == ["I", "I", "reserve"]  # the doubles entry, once
    for _ in dice:
        match.play(match.legal_texts()[0])
    assert match.state.turn == 1


def test_double_1_reroll_offers_the_choice_again() -> None:
    match = Match(game(version=2), chance="manual")
    match.play("roll:1,1")
    match.play("ones:reroll")
    assert match.to_move == CHANCE
    assert cells(match.game, match.state, 0) == ["I", "reserve", "reserve"]  # no entry yet
    match.play("roll:1,1")
    assert match.legal_texts() == ["ones:four", "ones:reroll", "ones:two"]
    match.play("ones:reroll")
    match.play("roll:2,3")
    assert match.legal_texts() == ["I+2", "I+3"]
    assert cells(match.game, match.state, 0) == ["I", "reserve", "reserve"]


def test_each_die_is_used_on_its_own() -> None:
    # 2.5.5(e)i: a on A4 (A done), b on B3 (entry B4), c in reserve; roll 1 and 3
    g = game(version=2)
    s = position(
        g,
        [[piece("A4", done=1), piece("B3", done=1, entry="B4"), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,3")
    legal = g.legal_texts(s)
    assert "A4^B2/1" not in legal and "A4^B2/3" not in legal  # 2.5.5(g): one coin in B
    assert "A4-1" in legal and "A4-3" in legal  # A lap done: clockwise allowed
    assert "B3-1" not in legal  # B lap under way: counter-clockwise only
    with pytest.raises(GameError, match="write which one the promotion forgoes"):
        g.parse_action(s, "A4^B2")
    first = g.play(s, "B3+1")
    assert only_cell(g, first, 0, "B4").done == 2
    assert "A4^B2" in g.legal_texts(first)  # one die left: no suffix
    promoted = g.play(first, "A4^B2")
    assert cells(g, promoted, 0) == ["B2", "B4", "reserve"] and promoted.turn == 1
    other = g.play(first, "B4^C3")
    assert cells(g, other, 0) == ["A4", "C3", "reserve"]


def only_cell(g: Kelighine, s: State, player: int, cell: str) -> object:
    from qipan.games.kelighine import Piece

    (p,) = [p for p in s.pieces[player] if p.cell < 41 and board_name(p.cell) == cell]
    assert isinstance(p, Piece)
    return p


def test_coin_limit_per_tier_and_promotion_suffix() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("A4", done=1), piece("B6", done=2), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,3")
    assert {"A4^B2/1", "A4^B2/3", "B6^C5/1", "B6^C6/3"} <= set(g.legal_texts(s))
    s = g.play(s, "B6^C5/1")
    assert s.dice == (3,)
    assert "A4^B2" in g.legal_texts(s)  # coins in C and B are allowed together


def test_entry_never_needs_a_coin() -> None:
    # 2.5.5(h) [decision]: with both coins in use a reserve piece still enters on doubles
    g = game(version=2)
    s = position(
        g,
        [[piece("B4", done=1, entry="B1"), piece("C3", done=2, entry="C8"), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:2,2")
    assert cells(g, s, 0) == ["B4", "C3", "I"]
    assert "I+2" in g.legal_texts(s)


def test_clockwise_in_completed_tiers() -> None:
    # 2.5.5(d): a piece with face 1 on A15 rolling a 1 may go to A14 or A16
    g = game(version=2)
    s = position(
        g,
        [[piece("A15", done=1), piece("reserve"), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,2")
    assert g.legal_texts(s)[:4] == ["A15+1", "A15-1", "A15+2", "A15-2"]
    s = g.play(s, "A15-1")
    assert cells(g, s, 0) == ["A14", "reserve", "reserve"]
    corner = position(
        g,
        [[piece("D", done=1), piece("E"), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    corner = g.play(corner, "roll:1,3")
    assert "D-1" in g.legal_texts(corner) and "E-1" not in g.legal_texts(corner)
    assert cells(g, g.play(corner, "D-3"), 0) == ["A14", "E", "reserve"]  # A(16+1-3)
    assert cells(g, g.play(corner, "D-1"), 0) == ["A16", "E", "reserve"]


def test_version_1_moves_counter_clockwise_only() -> None:
    g = game()
    s = g.play(position(g, [[piece("A15", done=1)], [piece("A12")]]), "roll:1")
    with pytest.raises(GameError, match="counter-clockwise only in version 1"):
        g.play(s, "A15-1")


def test_one_die_rule_for_the_last_piece() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("J", done=3), piece("J", done=3), piece("A5", done=1)],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,3")
    assert s.one_die
    assert g.legal_texts(s) == ["A5+1", "A5-1", "A5+3", "A5-3", "A5^B3"]
    after = g.play(s, "A5+3")
    assert after.turn == 1 and cells(g, after, 0) == ["A8", "J", "J"]
    promoted = g.play(s, "A5^B3")
    assert promoted.turn == 1 and promoted.dice == ()
    ones = g.play(position(g, [[piece("J", done=3), piece("J", done=3), piece("A5", done=1)],
                                [piece("A12"), piece("reserve"), piece("reserve")]]), "roll:1,1")
    assert g.legal_texts(ones) == ["ones:four", "ones:reroll", "ones:two"]
    ones = g.play(ones, "ones:four")
    assert g.play(ones, "A5+1").turn == 1  # one die action only


def test_pass_only_when_no_die_can_be_used() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("J", done=3), piece("C5", done=3), piece("reserve")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,2")
    assert "pass" not in g.legal_texts(s)
    with pytest.raises(GameError, match="pass is only allowed when no die can be used"):
        g.play(s, "pass")
    s = g.play(s, "C5^J/2")
    assert g.legal_texts(s) == ["pass"]
    s = g.play(s, "pass")
    assert s.turn == 1 and g.view(s, 0)["previous_log"][-1] == "player 1 cannot use the dice and passes"


def test_back_to_start_when_no_corner_is_free() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("D", done=1), piece("E"), piece("A2", done=1)],
         [piece("F"), piece("G"), piece("A16", done=2)]],
        turn=1,
    )
    s = g.play(s, "roll:2,3")
    line = g.describe_action(s, g.parse_action(s, "A16+2"))
    assert "A2 → back to start I (direct, player 2 moved onto A2) [no free corner, all progress lost]" in line
    s = g.play(s, "A16+2")
    home = [p for p in s.pieces[0] if board_name(p.cell) == "I"]
    assert len(home) == 1 and home[0].done == 0 and home[0].face == 6 and home[0].a == 5


def test_start_cells_hold_several_pieces_and_cannot_be_pushed() -> None:
    g = game(version=2)
    match = Match(g, chance="manual")
    match.play("roll:2,2")
    assert cells(g, match.state, 0) == ["I", "I", "reserve"]
    assert match.legal_texts() == ["I+2"]


def test_game_ends_when_the_third_piece_reaches_j() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("J", done=3), piece("J", done=3), piece("C4", done=3)],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(g.play(s, "roll:2,3"), "C4^J")
    assert g.to_move(s) is None and s.winner == 0
    assert g.legal_actions(s) == []
    with pytest.raises(GameError, match="game is over"):
        g.play(s, "pass")


@pytest.mark.parametrize(("start", "roll", "target"), [("I", 2, "A4"), ("I", 1, "A3"), ("E", 2, "A6"),
                                                       ("D", 1, "A1"), ("H", 6, "A16"), ("K", 4, "A2")])
def test_entering_a_from_a_corner_or_start_cell(start: str, roll: int, target: str) -> None:
    g = game(players=3)
    pieces = [[piece("A12")], [piece("A9")], [piece("A7")]]
    owner = {"H": 1, "K": 2}.get(start, 0)
    pieces[owner] = [piece(start)]
    s = position(g, pieces, turn=owner)
    s = g.play(g.play(s, f"roll:{roll}"), f"{start}+{roll}")
    assert cells(g, s, owner) == [target]


def test_pushed_forward_past_the_reference_cell_completes_at_the_next_move() -> None:
    # player 1 on A1 after going round (a = 34, reference A3 at 38); F, D taken, pushed to E (a = 41)
    g = game(players=4)
    s = position(g, [[piece("A1")], [piece("A16", done=1)], [piece("D")], [piece("F")]], turn=1)
    assert only(g, s, 0).a == 34
    s = g.play(g.play(s, "roll:1"), "A16+1")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.a, p.done) == ("E", 41, 0)  # past A3, but not checked yet
    s = g.play(g.play(own_turn(g, s, 0), "roll:1"), "E+1")
    assert only(g, s, 0).done == 1


def test_coin_limit_in_c() -> None:
    # 2.5.5(g) for tier C: a piece in the middle of its C lap blocks another promotion into C,
    # but not one into C by a piece that has already completed C (no coin needed)
    g = game(version=2)
    s = position(
        g,
        [[piece("C3", done=2, entry="C8"), piece("B6", done=2), piece("B2", done=3)],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,3")
    legal = g.legal_texts(s)
    assert not any(t.startswith("B6^") for t in legal)
    assert {"B2^C1/1", "B2^C1/3", "B2^C2/1", "B2^C2/3"} <= set(legal)
    with pytest.raises(GameError, match="already has a piece in the middle of a lap of tier C"):
        g.play(s, "B6^C5/1")
    s = g.play(s, "C3+3")  # C3 -> C6: 6 steps from C8, the lap is still under way
    assert not any(t.startswith("B6^") for t in g.legal_texts(s))


def test_b_lap_done_on_the_entry_cell_offers_both_c_cells() -> None:
    # 2.2.4: entered B at B2, went round and stopped on B2: go on in B, or promote to C1 or C2
    g = game()
    s = position(g, [[piece("B8", done=1, entry="B2")], [piece("A12")]])
    s = g.play(g.play(s, "roll:2"), "B8+2")
    p = only(g, s, 0)
    assert (board_name(p.cell), p.done) == ("B2", 2)
    s = g.play(own_turn(g, s, 0), "roll:3")
    assert g.legal_texts(s) == ["B2+3", "B2^C1", "B2^C2"]


def test_the_movers_indirect_push_cannot_use_the_last_pieces_cell() -> None:
    # footnote 11: last piece on A5, b moves onto B3 (indirect): b cannot be pushed to A5, so
    # it goes to A6 without a choice
    g = game()
    s = position(g, [[piece("A5")], [piece("B1", done=2)]], turn=1, last="A5")
    s = g.play(g.play(s, "roll:2"), "B1+2")
    assert g.to_move(s) == CHANCE and s.turn == 0
    assert cells(g, s, 1) == ["A6"] and cells(g, s, 0) == ["A5"]
