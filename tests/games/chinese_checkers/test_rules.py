"""Chinese Checkers rules: the board, start positions, every jump rule and option, winning."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import GameError
from qipan.games.chinese_checkers import PASS, ChineseCheckers, Move
from qipan.games.chinese_checkers.board import (
    CENTRE,
    HOLES,
    NAMES,
    NEIGHBOURS,
    POINT_HOLES,
    POINT_OF,
    REGION15,
    ROW_LENGTHS,
    hole_index,
    hole_name,
    opposite_point,
)
from qipan.games.chinese_checkers.moves import single_jumps
from tests.games.chinese_checkers import reference
from tests.games.chinese_checkers.helpers import cube, ends, position


def cc(**options: object) -> ChineseCheckers:
    game = qipan.load("chinese-checkers", options=options)
    assert isinstance(game, ChineseCheckers)
    return game


# -- the board ---------------------------------------------------------------------------------


def test_board_shape_and_notation() -> None:
    assert len(HOLES) == 121
    assert ROW_LENGTHS == (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
    assert NAMES[CENTRE] == "i5" and HOLES[CENTRE] == (0, 0, 0)
    assert [hole_index(hole_name(h)) for h in range(121)] == list(range(121))
    assert hole_index(" Q1 ") == 120
    for point in range(1, 7):
        assert len(POINT_HOLES[point]) == 10
        assert len(REGION15[point]) == 15
        assert set(POINT_HOLES[point]) < set(REGION15[point])
    assert sum(1 for h in range(121) if POINT_OF[h] == 0) == 61
    assert [opposite_point(p) for p in range(1, 7)] == [4, 5, 6, 1, 2, 3]
    assert sorted(NAMES[h] for h in POINT_HOLES[1]) == ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4"]
    # Points counter-clockwise: point 2 is the lower right one (right end of rows e..h).
    assert {NAMES[h] for h in POINT_HOLES[2]} == {"e10", "e11", "e12", "e13", "f10", "f11", "f12", "g10",
                                                 "g11", "h10"}
    # 156 edges in the hexagon, 18 inside each point and 8 joining it to the hexagon.
    assert sum(len(n) for n in NEIGHBOURS) == 2 * (156 + 6 * (18 + 8))


@pytest.mark.parametrize("bad", ["a2", "r1", "e14", "i", "5", "", "i0"])
def test_bad_hole_names(bad: str) -> None:
    with pytest.raises(GameError, match="no hole"):
        hole_index(bad)


# -- start positions -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_start_has_14_moves_for_every_seat(players: int) -> None:
    game = cc(players=players)
    start = game.initial_state()
    for p in range(players):
        state = start._replace(turn=p)
        moves = game.legal_actions(state)
        assert len(moves) == 14
        assert all(start.board[m.start] == p + 1 for m in moves)
        assert all(POINT_OF[m.start] == game.home_point(p) for m in moves)


@pytest.mark.parametrize(("players", "homes"), [(2, (1, 4)), (3, (1, 3, 5)), (4, (1, 2, 4, 5)),
                                                (6, (1, 2, 3, 4, 5, 6))])
def test_seating(players: int, homes: tuple[int, ...]) -> None:
    game = cc(players=players)
    assert tuple(game.home_point(p) for p in range(players)) == homes
    assert all(game.target_point(p) == opposite_point(homes[p]) for p in range(players))
    board = game.initial_state().board
    for p in range(players):
        assert sorted(h for h in range(121) if board[h] == p + 1) == sorted(POINT_HOLES[homes[p]])


@pytest.mark.parametrize("players", [2, 3])
def test_fifteen_piece_start(players: int) -> None:
    game = cc(players=players, pieces=15)
    state = game.initial_state()
    for p in range(players):
        camp = REGION15[game.home_point(p)]
        assert sorted(h for h in range(121) if state.board[h] == p + 1) == sorted(camp)
        assert len(game.target_holes(p)) == 15
    moves = [str(m) for m in game.legal_actions(state)]
    # Row d jumps over row e into row f (8), row e steps (12) and jumps along itself into
    # e4 and e10 (2); nothing further back can move.
    assert moves == [
        "d1-f4", "d1-f6", "d2-f5", "d2-f7", "d3-f6", "d3-f8", "d4-f7", "d4-f9",
        "e5-e4", "e5-f4", "e5-f5", "e6-e4", "e6-f5", "e6-f6", "e7-f6", "e7-f7",
        "e8-e10", "e8-f7", "e8-f8", "e9-e10", "e9-f8", "e9-f9",
    ]


@pytest.mark.parametrize("players", [4, 6])
def test_fifteen_pieces_refused_with_four_or_six(players: int) -> None:
    with pytest.raises(GameError, match="15 pieces per player need 2 or 3 players"):
        cc(players=players, pieces=15)


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_refused(players: int) -> None:
    with pytest.raises(GameError, match="seats 2, 3, 4 or 6 players"):
        cc(players=players)


def test_bad_option_values() -> None:
    with pytest.raises(GameError, match="jump"):
        cc(jump="far")
    with pytest.raises(GameError, match="no option"):
        cc(colour="red")


# -- jumps ---------------------------------------------------------------------------------------


def test_step_and_adjacent_jump() -> None:
    game = cc()
    state = position({"i5": 0, "i6": 1})
    # Steps to five empty neighbours, and a jump over i6 to i7.
    assert ends(game, state, "i5") == ["h5", "h6", "i4", "i7", "j5", "j6"]


def test_long_jump_distance_two_and_three() -> None:
    game = cc()
    # e1 over e4 (distance 3) to e7.
    state = position({"e1": 0, "e4": 1})
    assert "e7" in ends(game, state, "e1")
    assert game.move_path(state, Move(hole_index("e1"), hole_index("e7"))) == ["e1", "e7"]
    # i5 over i7 (distance 2) to i9.
    state = position({"i5": 0, "i7": 1})
    assert "i9" in ends(game, state, "i5")
    # Adjacent rule: neither is a jump.
    adjacent = cc(jump="adjacent")
    assert "e7" not in ends(adjacent, position({"e1": 0, "e4": 1}), "e1")
    assert ends(adjacent, position({"i5": 0, "i7": 1}), "i5") == ["h5", "h6", "i4", "i6", "j5", "j6"]


def test_long_jump_blocked_paths() -> None:
    game = cc()
    # A piece beyond the pivot before the landing hole blocks the jump.
    assert "e7" not in ends(game, position({"e1": 0, "e4": 1, "e6": 1}), "e1")
    # The landing hole must be empty.
    assert "e7" not in ends(game, position({"e1": 0, "e4": 1, "e7": 1}), "e1")
    # The first piece on the line is the pivot: e2 is jumped, e4 is not.
    got = ends(game, position({"e1": 0, "e2": 1, "e4": 1}), "e1")
    assert "e3" in got and "e7" not in got
    # The landing must be on the board: over i6 (distance 5) would land 10 holes away.
    assert ends(game, position({"i1": 0, "i6": 1}), "i1") == ["h1", "h2", "i2", "j1", "j2"]


def test_jump_along_one_of_six_lines_only() -> None:
    game = cc()
    # h6 is not on a line through g5 and a hole two away... a knight-like "jump" does not exist.
    state = position({"i5": 0, cube(1, -2): 1})
    assert all(HOLES[hole_index(e)] in {HOLES[n] for n in NEIGHBOURS[CENTRE]} for e in ends(game, state, "i5"))


def test_chain_through_the_start_hole() -> None:
    game = cc()
    # i5 over h5 to g5, over h4 to i3; then along row i over the emptied start i5 and over i6
    # (distance 3 from i3) to i9.
    pieces = {"i5": 0, "h5": 1, "h4": 1, "i6": 1}
    state = position(pieces)
    got = ends(game, state, "i5")
    assert {"g5", "i3", "i9"} <= set(got)
    assert game.move_path(state, Move(hole_index("i5"), hole_index("i9"))) == ["i5", "g5", "i3", "i9"]
    # Without i6 the piece cannot pivot on itself (its start is empty): no i3-i7 jump.
    state = position({"i5": 0, "h5": 1, "h4": 1})
    got = ends(game, state, "i5")
    assert "i3" in got and "i7" not in got


def test_chain_may_land_on_the_start_but_not_end_there() -> None:
    game = cc()
    state = position({"i5": 0, "i6": 1})
    got = ends(game, state, "i5")
    assert "i5" not in got and "i7" in got  # i7 and back over i6 lands on i5 again


def test_one_move_per_start_and_end() -> None:
    game = cc()
    # Two chains reach g7: over i6 to i7 then over h7, and over h5 to g5 then over g6.
    state = position({"i5": 0, "i6": 1, "h7": 1, "h5": 1, "g6": 1})
    cells = list(state.board)
    cells[hole_index("i5")] = 0
    assert hole_index("g7") in single_jumps(cells, hole_index("i7"), True)
    assert hole_index("g7") in single_jumps(cells, hole_index("g5"), True)
    moves = game.legal_actions(state)
    assert len(moves) == len(set(moves))
    assert [str(m) for m in moves].count("i5-g7") == 1
    assert game.move_path(state, game.parse_action(state, "i5-g7")) in (["i5", "i7", "g7"], ["i5", "g5", "g7"])
    assert game.parse_action(state, "i5-i7-g7") == game.parse_action(state, "i5-g5-g7")


def test_chain_false_allows_one_jump() -> None:
    game = cc(chain=False)
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    got = ends(game, state, "i5")
    assert "g5" in got and "i7" in got
    assert "i3" not in got and "i9" not in got
    with pytest.raises(GameError, match="chain=false"):
        game.play(state, "i5-i3")


def test_adjacent_chain() -> None:
    game = cc(jump="adjacent")
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    got = ends(game, state, "i5")
    assert {"g5", "i3", "i7"} <= set(got)
    assert "i9" not in got


# -- other corners -------------------------------------------------------------------------------


def corner_position() -> dict[str, int]:
    # Red (home 1, target 4) on e5; blue pivots e4 (in point 6) and f3 (point 6).
    return {"e5": 0, "e4": 1, "f3": 1}


def test_other_corners_allowed() -> None:
    got = ends(cc(), position(corner_position()), "e5")
    assert "e3" in got and "g3" in got
    # Stepping into point 6 is fine too.
    assert POINT_OF[hole_index("e4")] == 6 and "e4" in ends(cc(), position({"e5": 0}), "e5")


def test_other_corners_pass_only() -> None:
    game = cc(other_corners="pass-only")
    state = position(corner_position())
    got = ends(game, state, "e5")
    assert "g3" in got  # jumped through e3 in point 6
    assert "e3" not in got
    assert "e4" not in ends(game, position({"e5": 0}), "e5")
    assert game.move_path(state, Move(hole_index("e5"), hole_index("g3"))) == ["e5", "e3", "g3"]
    with pytest.raises(GameError, match=r"point 6.*pass-only"):
        game.play(state, "e5-e3")


def test_other_corners_forbidden() -> None:
    game = cc(other_corners="forbidden")
    state = position(corner_position())
    got = ends(game, state, "e5")
    assert "g3" not in got and "e3" not in got
    with pytest.raises(GameError, match=r"point 6.*forbidden"):
        game.play(position({"e5": 0}), "e5-e4")


def test_other_corners_never_restrict_home_or_target() -> None:
    game = cc(other_corners="forbidden")
    # Red may step back into its home point 1 and into its target point 4.
    assert "d1" in ends(game, position({"e5": 0}), "e5")
    assert "n1" in ends(game, position({"m5": 0}), "m5")


# -- winning ---------------------------------------------------------------------------------------

TARGET4 = [NAMES[h] for h in POINT_HOLES[4]]


def test_filling_the_target_wins() -> None:
    game = cc()
    pieces = {name: 0 for name in TARGET4 if name != "n1"}
    pieces["m5"] = 0
    pieces.update({name: 1 for name in ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4"]})
    state = position(pieces)
    assert game.to_move(state) == 0
    end = game.play(state, "m5-n1")
    assert game.to_move(end) is None
    assert end.finished == (0,)
    assert game.returns(end) == (1.0, -1.0)
    assert game.result_text(end) == "red won"


def blocked_position() -> dict[str, int]:
    # Blue parks on q1 inside red's target; red fills the rest but n1, and has m5 ready.
    pieces = {name: 0 for name in TARGET4 if name not in ("n1", "q1")}
    pieces.update({"m5": 0, "m6": 0, "q1": 1})
    blue = ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3"]
    pieces.update({name: 1 for name in blue})
    return pieces


def test_blocked_target_counts_as_filled() -> None:
    game = cc()
    end = game.play(position(blocked_position()), "m5-n1")
    assert end.finished == (0,) and game.to_move(end) is None


def test_blocked_target_off_requires_own_pieces_everywhere() -> None:
    game = cc(blocked_target=False)
    end = game.play(position(blocked_position()), "m5-n1")
    assert end.finished == () and game.to_move(end) == 1


@pytest.mark.parametrize(("own", "finishes"), [(1, False), (4, False), (5, True), (9, True)])
def test_blocked_target_needs_half_of_it_own(own: int, finishes: bool) -> None:
    # Red steps into n1, the last empty hole of its target, which then holds ``own`` red pieces
    # and blue's (home) pieces elsewhere. The contract's "at least one" would finish red with one
    # piece, which ended four- and six-player games within a few moves (see the game's docs).
    others = [name for name in TARGET4 if name != "n1"]
    pieces = {name: 0 for name in others[: own - 1]}
    pieces.update({name: 1 for name in others[own - 1:]})
    pieces.update({"m5": 0, "e5": 1})
    end = cc().play(position(pieces), "m5-n1")
    assert (end.finished == (0,)) is finishes
    assert (cc().to_move(end) is None) is finishes


def test_blocked_target_with_fifteen_pieces_needs_eight() -> None:
    game = cc(pieces=15)
    target = [NAMES[h] for h in game.target_holes(0)]
    for own, finishes in [(7, False), (8, True)]:
        pieces = {name: (0 if k < own else 1) for k, name in enumerate(target)}
        assert game._filled(position(pieces).board, 0) is finishes


def test_blocked_target_filled_by_the_opponent() -> None:
    # Red has nine pieces in its target and n1 is empty; blue steps into n1 and red finishes.
    game = cc()
    pieces = {name: 0 for name in TARGET4 if name != "n1"}
    pieces["e5"] = 0
    pieces.update({"m5": 1, "a1": 1, "b1": 1, "b2": 1, "c1": 1, "c2": 1, "c3": 1, "d1": 1, "d2": 1, "d3": 1})
    state = position(pieces, turn=1)
    end = game.play(state, "m5-n1")
    assert end.finished == (0,)
    assert game.returns(end) == (1.0, -1.0)


def test_a_full_target_of_only_foreign_pieces_is_not_filled() -> None:
    game = cc()
    pieces = {name: 1 for name in TARGET4 if name != "n1"}
    pieces.update({"m5": 1, "a1": 0})
    state = position(pieces, turn=1)
    end = game.play(state, "m5-n1")
    assert end.finished == ()


def test_play_on_ranks_everyone() -> None:
    game = cc(players=3, play_on=True)
    # Player 1 (blue, home 3 -> target 6) finishes; the others play on.
    target6 = [NAMES[h] for h in POINT_HOLES[6]]
    pieces = {name: 1 for name in target6 if name != "e4"}
    pieces["e5"] = 1
    red_home = [NAMES[h] for h in POINT_HOLES[1]]
    green_home = [NAMES[h] for h in POINT_HOLES[5]]
    pieces.update({n: 0 for n in red_home})
    pieces.update({n: 2 for n in green_home})
    state = position(pieces, turn=1)
    after = game.play(state, "e5-e4")
    assert after.finished == (1,)
    assert game.to_move(after) == 2
    after = game.play(after, game.action_text(after, game.legal_actions(after)[0]))
    assert game.to_move(after) == 0  # blue is skipped from now on
    # Ending with one player left: a finished ranking.
    done = after._replace(finished=(1, 0), turn=None)
    assert game.returns(done) == (0.0, 1.0, -1.0)
    assert game.result_text(done) == "1st blue, 2nd red, 3rd green"


def test_play_on_ends_when_one_player_is_left() -> None:
    game = cc(players=3, play_on=True)
    # Blue has finished (all of point 6); red fills its target with m5-n1 and takes 2nd place.
    pieces = {NAMES[h]: 1 for h in POINT_HOLES[6]}
    pieces.update({name: 0 for name in TARGET4 if name != "n1"})
    pieces.update({"m5": 0})
    pieces.update({NAMES[h]: 2 for h in POINT_HOLES[5]})
    state = game.state_from_json(game.state_to_json(position(pieces, finished=(1,))))
    assert game.to_move(state) == 0
    end = game.play(state, "m5-n1")
    assert end.finished == (1, 0) and game.to_move(end) is None
    assert game.returns(end) == (0.0, 1.0, -1.0)
    assert game.result_text(end) == "1st blue, 2nd red, 3rd green"


def test_without_play_on_the_first_finisher_ends_the_game() -> None:
    game = cc(players=3)
    done = game.initial_state()._replace(finished=(2,), turn=None)
    assert game.returns(done) == (-0.5, -0.5, 1.0)
    assert game.result_text(done) == "green won"


# -- passing ---------------------------------------------------------------------------------------


def stuck_position() -> dict[str, int]:
    # Red fills its home; blue blocks every step (row e) and green every jump landing (row f).
    pieces = {NAMES[h]: 0 for h in POINT_HOLES[1]}
    pieces.update({name: 1 for name in ["e5", "e6", "e7", "e8", "e9"]})
    pieces.update({name: 2 for name in ["f4", "f5", "f6", "f7", "f8", "f9"]})
    return pieces


def test_a_player_without_moves_passes() -> None:
    game = cc(players=3)
    state = position(stuck_position())
    assert game.legal_actions(state) == [PASS]
    after = game.play(state, "pass")
    assert game.to_move(after) == 1 and after.passes == 1
    assert game.describe_action(state, PASS) == "red passes (no legal move)"
    # A real move resets the count.
    blue = game.legal_actions(after)[0]
    assert game.next_state(after, blue).passes == 0
    # Two passes of three players do not end the game.
    assert game.to_move(game.next_state(after, PASS)) == 2


def test_pass_refused_while_moves_exist() -> None:
    game = cc()
    with pytest.raises(GameError, match="only pass when you have no move"):
        game.play(game.initial_state(), "pass")


def test_everyone_passing_ends_in_a_draw() -> None:
    game = cc()
    state = game.initial_state()._replace(passes=1)
    end = game.next_state(state, PASS)
    assert game.to_move(end) is None
    assert game.returns(end) == (0.0, 0.0)
    assert game.result_text(end) == "draw: nobody can move"


def test_move_limit() -> None:
    game = cc(max_moves=30)
    state = game.initial_state()._replace(ply=29)
    end = game.play(state, "d2-e6")
    assert game.to_move(end) is None and end.ply == 30
    assert game.returns(end) == (0.0, 0.0)
    assert game.result_text(end) == "draw: move limit reached"
    ranked = cc(players=3, play_on=True, max_moves=30)
    done = ranked.next_state(ranked.initial_state()._replace(ply=29, finished=(1,)), PASS)
    assert ranked.to_move(done) is None
    assert ranked.returns(done) == (-0.5, 1.0, -0.5)
    assert ranked.result_text(done) == "1st blue, 2nd red and green (shared: move limit reached)"
    unlimited = cc(max_moves=0)
    assert unlimited.to_move(unlimited.play(unlimited.initial_state()._replace(ply=10**6), "d2-e6")) == 1
    with pytest.raises(GameError, match="max_moves"):
        cc(max_moves=-1)


def test_ply_counts_every_move_and_pass() -> None:
    game = cc(players=3)
    state = game.play(game.initial_state(), "d2-e6")
    assert state.ply == 1
    assert game.next_state(position(stuck_position()), PASS).ply == 1


# -- notation and errors ---------------------------------------------------------------------------


def test_parse_forms() -> None:
    game = cc()
    state = game.initial_state()
    move = Move(hole_index("d2"), hole_index("e6"))
    for text in ["d2-e6", "D2-E6", " d2 e6 ", "d2e6", "d2xe6"]:
        assert game.parse_action(state, text) == move
    assert game.action_text(state, move) == "d2-e6"
    assert game.parse_action(state, "PASS") == PASS


@pytest.mark.parametrize("text", ["a1 " * 166 + "!", "a1 - " * 99 + "x", "a1  " * 124 + "a"])
def test_a_long_unreadable_path_is_refused_at_once(text: str) -> None:
    """Each run of spaces between holes could be split two ways by the notation's pattern, so a
    path of n holes that fails at its end was tried 2^n ways (never answered, at 200 characters)."""
    with pytest.raises(GameError, match="cannot read move"):
        cc().parse_action(cc().initial_state(), text)


def test_parse_path() -> None:
    game = cc()
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    assert game.parse_action(state, "i5-g5-i3-i9") == Move(hole_index("i5"), hole_index("i9"))
    with pytest.raises(GameError, match="g5-i9 is not a jump"):
        game.parse_action(state, "i5-g5-i9")


def test_contract_notation_example_d2_f3() -> None:
    """The contract writes a move as ``d2-f3``. d2 and f3 are not on one line, so it is no step
    or single jump; it is a two-jump chain (d2 over e6 to f5, then over f4 to f3) where those
    pivots stand. The contract's path ``d2-f2-h4`` can never be a path: d2-f2 is no line."""
    game = cc()
    state = position({"d2": 0, "e6": 1, "f4": 1})
    move = game.parse_action(state, "d2-f3")
    assert move in game.legal_actions(state)
    assert game.move_path(state, move) == ["d2", "f5", "f3"]
    assert game.describe_action(state, move) == "red: d2-f5-f3 (2 jumps)"
    assert "f3" not in ends(game, position({"d2": 0, "e6": 1}), "d2")
    with pytest.raises(GameError, match="d2-f2 is not a jump"):
        game.parse_action(state, "d2-f2-h4")


def test_parse_path_respects_the_options() -> None:
    # A written path must be a real chain under the options: no landing in a forbidden point...
    forbidden = cc(other_corners="forbidden")
    # e5-g3 is legal (over f5 to g5, over g4 to g3), but not through e3 in point 6.
    state = position({"e5": 0, "e4": 1, "f3": 1, "f5": 1, "g4": 1})
    assert forbidden.move_path(state, forbidden.parse_action(state, "e5-g3")) == ["e5", "g5", "g3"]
    assert forbidden.parse_action(state, "e5-g5-g3") == Move(hole_index("e5"), hole_index("g3"))
    with pytest.raises(GameError, match="e3 is in point 6"):
        forbidden.parse_action(state, "e5-e3-g3")
    # ...and only one jump with chain=false.
    single = cc(chain=False)
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    with pytest.raises(GameError, match="chain=false"):
        single.parse_action(state, "i5-g5-i3")
    assert single.parse_action(state, "i5-g5") == Move(hole_index("i5"), hole_index("g5"))


@pytest.mark.parametrize("text", [None, 5, b"d2-e6"])
def test_parse_non_text(text: object) -> None:
    with pytest.raises(GameError, match="cannot read move"):
        cc().parse_action(cc().initial_state(), text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "d2", "d2-", "z2-e6", "d2-e66", "hello", "d9-e6"])
def test_parse_errors(text: str) -> None:
    with pytest.raises(GameError):
        cc().parse_action(cc().initial_state(), text)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("e5-f5", "no piece on e5"),
        ("n1-m5", "is blue's; red is to move"),
        ("c1-d1", "d1 is occupied"),
        ("a1-e5", "no step or chain of jumps leads from a1 to e5"),
        ("d2-d2", "ends where it started is not a move"),
    ],
)
def test_explain_illegal(move: str, reason: str) -> None:
    game = cc()
    with pytest.raises(GameError, match=f"illegal move {move}: .*{reason}"):
        game.play(game.initial_state(), move)


def test_non_moves_are_refused() -> None:
    game = cc()
    state = game.initial_state()
    for bad in [Move(121, 0), Move(-1, 3), (0, 1), "d2-e6"]:
        with pytest.raises(GameError, match="is not a move"):
            game.apply(state, bad)  # type: ignore[arg-type]


def test_perft_numbers() -> None:
    """Leaf counts from the start, the deepest level cross-checked with the reference generator."""
    game = cc()
    start = game.initial_state()
    level = [start]
    counts = []
    for _ in range(2):
        level = [game.next_state(s, m) for s in level for m in game.legal_actions(s)]
        counts.append(len(level))
    leaves = 0
    for state in level:
        occupied = {HOLES[h] for h, v in enumerate(state.board) if v}
        for h, v in enumerate(state.board):
            if v == 1:
                leaves += len(reference.ends(occupied, HOLES[h]))
    assert [*counts, leaves] == [14, 196, 5348]


def test_illegal_move_changes_nothing() -> None:
    game = cc()
    state = game.initial_state()
    before = game.state_to_json(state)
    with pytest.raises(GameError):
        game.play(state, "a1-e5")
    assert game.state_to_json(state) == before


def test_describe_action() -> None:
    game = cc()
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    assert game.describe_action(state, game.parse_action(state, "i5-i9")) == "red: i5-g5-i3-i9 (3 jumps)"
    assert game.describe_action(state, game.parse_action(state, "i5-j5")) == "red: i5-j5 (step)"
    assert game.move_path(state, PASS) == []


def test_move_path_after_the_move() -> None:
    game = cc()
    state = position({"i5": 0, "h5": 1, "h4": 1, "i6": 1})
    move = game.parse_action(state, "i5-i9")
    assert game.move_path(game.next_state(state, move), move) == game.move_path(state, move)


def test_action_ids() -> None:
    game = cc()
    state = game.initial_state()
    ids = game.legal_action_ids(state)
    assert len(set(ids)) == 14
    assert [game.action_from_id(state, i) for i in ids] == game.legal_actions(state)
    assert game.action_from_id(state, game.num_distinct_actions - 1) == PASS
    with pytest.raises(GameError, match="action id"):
        game.action_from_id(state, game.num_distinct_actions)


# -- JSON and views ----------------------------------------------------------------------------------


def test_json_round_trip_and_validation() -> None:
    game = cc(players=3)
    state = game.initial_state()
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    bad = [
        "nope",
        {**data, "rows": data["rows"][:-1]},
        {**data, "rows": ["2", *data["rows"][1:]]},
        {**data, "rows": ["4", *data["rows"][1:]]},
        {**data, "rows": [".", *data["rows"][1:]]},
        {**data, "to_move": 3},
        {**data, "to_move": True},
        {**data, "to_move": None},
        {**data, "finished": [0, 0]},
        {**data, "passes": -1},
        {**data, "finished": [1]},
        {**data, "ply": -1},
        {**data, "ply": 1000},
    ]
    for item in bad:
        with pytest.raises(GameError):
            game.state_from_json(item)


def test_json_finished_must_match_the_board() -> None:
    game = cc(players=3, play_on=True)
    start = game.state_to_json(game.initial_state())
    # Red listed as finished while still at home; blue to move.
    with pytest.raises(GameError, match="red has not filled"):
        game.state_from_json({**start, "finished": [0], "to_move": 1})
    # Blue's target (point 6) full, with blue on it, yet blue not listed as finished.
    pieces = {NAMES[h]: 1 for h in POINT_HOLES[6]}
    pieces.update({NAMES[h]: 0 for h in POINT_HOLES[1]})
    pieces.update({NAMES[h]: 2 for h in POINT_HOLES[5]})
    data = game.state_to_json(position(pieces, turn=2))
    with pytest.raises(GameError, match="blue has filled"):
        game.state_from_json(data)
    done = game.state_from_json({**data, "finished": [1]})
    assert done.finished == (1,) and game.to_move(done) == 2
    # With blocked_target a finished player keeps only needing one own piece in the target.
    pieces = {NAMES[h]: 0 for h in POINT_HOLES[4]}
    pieces.update({"n1": 1, "m5": 0})
    pieces.update({name: 1 for name in ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3"]})
    blocked = cc(play_on=True)
    ended = blocked.state_to_json(position(pieces, turn=None, finished=(0,)))
    assert blocked.state_from_json(ended).finished == (0,)
    # ... but at least half of it: a finished player's own pieces never leave.
    few = {name: (0 if k < 4 else 1) for k, name in enumerate(TARGET4)}
    few.update({"a1": 0, "b1": 0, "b2": 0, "c1": 0, "c2": 0, "c3": 0, "e5": 1, "e6": 1, "e7": 1, "e8": 1})
    with pytest.raises(GameError, match="red has not filled"):
        blocked.state_from_json(blocked.state_to_json(position(few, turn=None, finished=(0,))))


def test_view_contents() -> None:
    game = cc(players=4)
    state = game.initial_state()
    view = game.view(state, 2)
    assert view["player"] == 2 and view["to_move"] == 0
    assert view["players"] == ["red", "blue", "green", "yellow"]
    assert view["homes"] == [1, 2, 4, 5] and view["targets"] == [4, 5, 1, 2]
    assert len(view["pieces"]) == 40 and view["pieces"]["a1"] == 0
    assert view["in_target"] == [0, 0, 0, 0]
    assert game.view(state, None)["player"] is None
    with pytest.raises(GameError):
        game.view(state, 4)
