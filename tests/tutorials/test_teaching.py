"""What the lessons say about a try is true of it: every move that does what a step asks is
accepted, and the explanation of a wrong one describes what that move really does."""

from __future__ import annotations

from qipan.core import load
from qipan.games.chinese_checkers import ChineseCheckers
from qipan.tutorials import course, judge, replay
from qipan.tutorials.shengke import WATER, table


def test_a_forward_step_that_stays_in_the_hexagon_is_accepted() -> None:
    lesson = course("chinese-checkers").lesson("other-corners")
    for move in ("f9-g8", "f9-g9"):  # (f9's two neighbours up the board, both in the central hexagon)
        assert judge(lesson, [], move).kind == "correct", move


def test_what_an_option_lesson_invites_to_try_is_refused_by_that_option() -> None:
    """A move the lesson asks to try must be a real move that only the lesson's option forbids,
    else the learner is taught a wrong reason for the refusal."""
    for lesson in course("chinese-checkers").lessons:
        if not lesson.options or lesson.variant:
            continue
        plain = load(lesson.game, None, {k: v for k, v in lesson.options.items() if k in ("players", "pieces")})
        state = plain.state_from_json(dict(lesson.state))
        for step in lesson.steps:
            for move in step.refused:
                assert plain.is_legal(state, plain.parse_action(state, move)), f"{lesson.id}: {move}"


def test_pushing_with_two_is_not_called_no_push() -> None:
    lesson = course("abalone").lesson("three-max")
    verdict = judge(lesson, [], "e4e5")  # (two push one: a push, just not with three)
    assert verdict.kind == "wrong" and verdict.explain is not None
    assert "does not push" not in verdict.explain.en and "two" in verdict.explain.en


def test_the_last_turn_says_how_each_wrong_placement_ends() -> None:
    lesson = course("shengke").lesson("end")
    at = replay(lesson, [])
    for move in at.game.legal_texts(at.state):
        verdict = judge(lesson, [], move)
        if verdict.kind != "wrong":
            continue
        assert verdict.explain is not None
        result = at.game.result_text(at.game.play(at.state, move))
        drawn = result.startswith("draw")
        assert ("7–7" in verdict.explain.en) == drawn, f"{move}: {result} explained as {verdict.explain.en}"
        assert ("乙 would win" in verdict.explain.en) == result.startswith("乙 won"), move


def test_a_push_past_the_reference_cell_completes_no_lap_until_the_pieces_own_move() -> None:
    lesson = course("kelighine").lesson("lap-after-push")
    pushed = replay(lesson, ["A1+1"])
    piece = next(p for p in pushed.game.view(pushed.state, 0)["pieces"] if p["player"] == 0 and p["cell"] == "E")
    assert piece["face"] == 6 and not piece["laps"]["A"]
    moved = replay(lesson, ["A1+1", "E+3"])
    piece = next(p for p in moved.game.view(moved.state, 0)["pieces"] if p["player"] == 0 and p["cell"] == "A7")
    assert piece["face"] == 1 and piece["laps"]["A"]


def test_the_indirect_push_cells_outlive_the_last_piece() -> None:
    lesson = course("kelighine").lesson("fixed-cells")
    at = replay(lesson, ["A5+3"])
    view = at.game.view(at.state, 0)
    assert "A8" not in [p["cell"] for p in view["pieces"] if p["player"] == 1] and "A12" in view["indirect"]
    after = at.game.play(at.state, "A8+4")  # (what the lesson says a wrong try does)
    assert "G" in [p["cell"] for p in at.game.view(after, 0)["pieces"] if p["player"] == 0]


def test_equally_near_corners_are_offered_to_the_owner() -> None:
    lesson = course("kelighine").lesson("corner-tie")
    at = replay(lesson, ["C8+1"])
    assert at.game.legal_texts(at.state) == ["push:D", "push:E"] and at.game.to_move(at.state) == 0


def test_a_target_holding_blue_pieces_is_no_finish_without_blocked_target() -> None:
    lesson = course("chinese-checkers").lesson("no-blocked-target")
    at = replay(lesson, ["m8-n4"])
    assert at.game.to_move(at.state) is not None and at.game.view(at.state, None)["finished"] == []
    usual = load("chinese-checkers")
    state = usual.state_from_json(dict(lesson.state))
    assert usual.result_text(usual.play(state, "m8-n4")).startswith("red won")


def test_a_card_destroyed_by_its_in_range_draws_nothing_it_would_otherwise_draw() -> None:
    lesson = course("shengke").lesson("destroy-and-destroyed")
    game, state, _ = lesson.start()
    texts = [e["text"] for e in game.view(game.play(state, "metal1@c3"), 0)["events"]]
    assert any("行剋" in t for t in texts) and any("剋行" in t for t in texts) and not any("生行" in t for t in texts)
    alone = game.state_from_json(table(("metal1",), {"c4": (1, "wood1"), "d3": (1, "earth1")}, (4, 5), discard=WATER))
    texts = [e["text"] for e in game.view(game.play(alone, "metal1@c3"), 0)["events"]]
    assert any("生行" in t for t in texts), texts  # (the earth card on its right would have drawn one)


def test_a_first_card_that_leaves_the_second_die_nowhere_is_refused() -> None:
    lesson = course("shengke").lesson("compulsory")
    assert judge(lesson, [], "fire5@a1").kind == "illegal"
    for first in ("wood5@a2", "wood5@b1"):
        at = replay(lesson, [first])
        assert len(at.game.legal_texts(at.state)) == 1


def test_back_from_a_corner_lands_where_the_lesson_says() -> None:
    at = replay(course("kelighine").lesson("corner-back"), ["F-3"])
    cells = [(p["player"], p["cell"]) for p in at.game.view(at.state, 0)["pieces"]]
    assert (0, "A6") in cells and (1, "E") in cells


def test_the_chain_to_i1_flies_across_its_own_start_hole() -> None:
    lesson = course("chinese-checkers").lesson("start-hole")
    game, state, _ = lesson.start()
    assert isinstance(game, ChineseCheckers)
    path = game.move_path(state, game.parse_action(state, "i5-i1"))
    assert path == ["i5", "k7", "i7", "i1"]  # (the last hop, i7 over i4 to i1, crosses i5 on row i)
    assert judge(lesson, [], "i5-k7-i7-i1").kind == "correct"
    landing = game.parse_action(state, "i5-k7-i5-i3")  # (a path landing on its start, as the lesson says)
    assert game.action_text(state, landing) == "i5-i3" and game.is_legal(state, landing)


def test_filling_the_last_hole_of_blues_target_makes_blue_win() -> None:
    lesson = course("chinese-checkers").lesson("their-last-hole")
    game, state, _ = lesson.start()
    assert game.result_text(game.play(state, "g6-c2")).startswith("blue won")
    assert judge(lesson, [], "g6-c2").kind == "wrong"
    for move in ("d2-c2", "d3-c2"):  # (a straggler moving within the home leaves a hole behind it)
        assert game.to_move(game.play(state, move)) is not None


def test_sixty_quiet_moves_end_the_capture_game_and_a_careless_step_gives_blue_a_capture() -> None:
    lesson = course("chinese-checkers").lesson("capture-quiet")
    at = replay(lesson, [])
    for move in at.game.legal_texts(at.state):
        after = at.game.play(at.state, move)
        if judge(lesson, [], move).kind == "correct":
            end = replay(lesson, [move])
            assert end.game.to_move(end.state) is None
            assert end.game.result_text(end.state) == "red won (captures: red 29, blue 28)"
        else:  # (blue must capture: every legal move of blue's is a jump)
            assert all(m.split("-")[1] not in _neighbours(m.split("-")[0]) for m in at.game.legal_texts(after))


def _neighbours(hole: str) -> set[str]:
    from qipan.games.chinese_checkers.board import NAMES, NEIGHBOURS, hole_index
    return {NAMES[n] for n in NEIGHBOURS[hole_index(hole)]}


def test_a_reroll_asks_again_and_the_double_brings_a_piece_in_once_settled() -> None:
    lesson = course("kelighine").lesson("reroll")
    again = replay(lesson, ["ones:reroll"])
    assert again.game.view(again.state, 0)["phase"] == "ones" and again.game.to_move(again.state) == 0
    settled = replay(lesson, ["ones:reroll", "ones:four"])
    view = settled.game.view(settled.state, 0)
    assert view["dice"] == [1, 1, 1, 1] and [p["cell"] for p in view["pieces"] if p["player"] == 0].count("I") == 2


def test_a_push_to_a_corner_keeps_the_a_progress() -> None:
    lesson = course("kelighine").lesson("a-progress")
    def mine(moves: list[str]) -> dict:  # type: ignore[type-arg]
        at = replay(lesson, moves)
        return next(p for p in at.game.view(at.state, 0)["pieces"] if p["player"] == 0 and p["cell"] != "reserve")
    assert mine([])["lap_progress"]["steps"] == 10
    pushed = mine(["A13+4"])
    assert pushed["cell"] == "D" and pushed["lap_progress"] == {"tier": 1, "steps": 13, "of": 16}
    done = mine(["A13+4", "D+3"])
    assert done["cell"] == "A3" and done["face"] == 1


def test_a_turn_after_a_last_piece_on_a_corner_has_no_red_cells() -> None:
    lesson = course("kelighine").lesson("no-red-cells")
    game, state, _ = lesson.start()
    assert game.view(state, 0)["indirect"] == []
    on_a8 = game.state_from_json({**dict(lesson.state), "last": "A8"})
    assert "A12" in game.view(on_a8, 0)["indirect"]  # (what the lesson says a last piece on A8 would do)


def test_cards_destroyed_together_reach_the_pile_in_the_range_tables_order() -> None:
    lesson = course("shengke").lesson("destroyed-together")
    for move in ("metal1@c3", "metal1@b3"):
        assert judge(lesson, [], move).kind == "correct"
        at = replay(lesson, [move])
        assert [c["id"] for c in at.game.view(at.state, 0)["players"][1]["discard"]] == ["wood1", "wood2"], move


def test_generating_takes_back_the_most_recently_discarded_card() -> None:
    at = replay(course("shengke").lesson("generate-which"), ["wood1@c3"])
    me = at.game.view(at.state, 0)["players"][0]
    assert "fire3" in [c["id"] for c in me["discard"]] and "fire5" not in [c["id"] for c in me["discard"]]
    assert [c["id"] for c in me["decks"]["fire"]["bottom"]] == ["fire5"]


def test_placed_first_resolves_first() -> None:
    lesson = course("shengke").lesson("resolve-order")
    game, state, _ = lesson.start()
    wood_first = game.play(game.play(state, "wood4@c3"), "fire3@c5")
    assert "c3" not in game.view(wood_first, 0)["field"]  # (what the lesson says of placing wood first)
    fire_first = replay(lesson, ["fire3@c5", "wood4@c3"])
    field = fire_first.game.view(fire_first.state, 0)["field"]
    assert {"c3", "c5"} <= set(field) and not {"b3", "c4", "d3"} & set(field)


def test_the_round_tables_series_shows_each_stone_to_whom_it_was_given() -> None:
    at = replay(course("tellstones").lesson("round-table-peeks"), ["peek 3", "peek 4 partner"])
    assert at.game.view(at.state, 2)["revealed"] == {"slot": "4", "stone": "scale"}
    assert at.game.view(at.state, 0)["revealed"] is None


def test_the_chain_through_a_pass_only_point_lands_in_it_and_forbidden_refuses_it() -> None:
    lesson = course("chinese-checkers").lesson("pass-only")
    game, state, _ = lesson.start()
    assert isinstance(game, ChineseCheckers)
    assert game.move_path(state, game.parse_action(state, "f9-h9")) == ["f9", "f11", "h9"]
    closed = load("chinese-checkers", None, {"other_corners": "forbidden"})
    shut = closed.state_from_json(dict(lesson.state))
    assert not closed.is_legal(shut, closed.parse_action(shut, "f9-h9"))  # (what the lesson says forbidden does)


def test_a_doubted_boast_with_a_wrong_name_loses_at_once() -> None:
    at = replay(course("tellstones").lesson("doubt"), ["doubt"])
    assert at.game.to_move(at.state) is None
    assert at.game.result_text(at.state).startswith("player 1 won by a failed proof")
    assert at.game.view(at.state, 0)["lines"][0][3] == "scale"


def test_a_series_of_three_peeks_is_not_offered_again_at_the_next_turn() -> None:
    """The catch-up lessons start the learner's turn as a real game does (the allowance taken up),
    so the point scored against them gives them exactly one series."""
    lesson = course("tellstones").lesson("peek-three")
    at = replay(lesson, ["peek 3", "peek 4", "stop"])
    after = at.game.play(at.state, "place sword 2")  # (the opponent's turn; then the learner's again)
    assert at.game.view(after, 0)["turn_player"] == 0 and at.game.view(after, 0)["peek_allowance"] == 1


def test_a_card_placed_first_destroys_its_owners_second_which_then_does_nothing() -> None:
    at = replay(course("shengke").lesson("own-cards"), ["metal1@c2", "wood3@d3"])
    view = at.game.view(at.state, 0)
    assert set(view["field"]) == {"c2", "d4"}  # (黃角麟 on d4 stands: 青鱗蛇 never resolved)
    assert view["players"][0]["discard"][-1]["id"] == "wood3"
    assert [e["text"] for e in view["events"]] == ["白牙龍 at c2: 行剋 destroys 青鱗蛇 at d3"]


def test_what_destroyed_together_says_of_a_miss_is_true_of_every_miss() -> None:
    """(It said "only one of them is in 白牙龍's out-range", but from most cells neither is.)"""
    lesson = course("shengke").lesson("destroyed-together")
    game, state, _ = lesson.start()
    hit = {}
    for move in game.legal_texts(state):
        if judge(lesson, [], move).kind == "wrong":
            hit[move] = len({"b4", "c4"} - set(game.view(game.play(state, move), 0)["field"]))
    assert set(hit.values()) == {0, 1}
    assert "not both" in lesson.steps[0].wrong.en and "不會都" in lesson.steps[0].wrong.zh


def test_the_points_against_you_in_your_own_turn_are_both_named_and_both_give_three_peeks() -> None:
    """(The lesson named only a challenge answered right, as if it were the one way.)"""
    game = load("tellstones")
    opening = ["hide 4", "place crown 3", "hide 3", "place shield 2"]
    for moves in ([*opening, "challenge 4", "name scale", "hide 2"],
                  [*opening, "boast", "counter", "believe", "hide 2"]):
        state = game.initial_state()
        for move in moves:
            state = game.play(state, move)
        assert game.state_to_json(state)["scores"] == [0, 1] and game.to_move(state) == 0
        assert game.to_move(game.play(state, "peek 3")) == 0, moves  # (a second peek: the series)
    intro = course("tellstones").lesson("peek-three").intro
    assert "challenge right" in intro.en and "counter-boast" in intro.en
    assert "答對了你的挑戰" in intro.zh and "相信了他的反誇口" in intro.zh


def test_every_move_that_makes_blue_finish_is_said_to() -> None:
    """(and only those: a straggler's step into c2 from d2 or d3 empties another hole of the target)"""
    lesson = course("chinese-checkers").lesson("their-last-hole")
    game, state, _ = lesson.start()
    for move in game.legal_texts(state):
        verdict = judge(lesson, [], move)
        finishes = 1 in game.view(game.play(state, move), None)["finished"]
        assert verdict.explain is not None
        assert ("blue finishes and wins" in verdict.explain.en) == finishes, move


def test_generating_from_an_empty_pile_or_deck_gives_nothing() -> None:
    lesson = course("shengke").lesson("nothing-left")
    game, state, _ = lesson.start()
    at = replay(lesson, ["wood1@c3"])
    before, after = (game.view(s, 0) for s in (state, at.state))
    assert [e["text"] for e in after["events"]] == [
        "青翼龍 at c3: 行生 on 赤羽鳳 at c4, but no fire card is in the discard pile",
        "青翼龍 at c3: 生行 from 玄甲龜 at c2, but the wood deck is empty"]
    assert after["players"][0]["hand"] == [] and after["players"][0]["discard"] == before["players"][0]["discard"]
    assert set(after["field"]) == {"c2", "c3", "c4"}


def test_a_turn_with_no_piece_on_the_field_brings_one_in_before_the_roll() -> None:
    at = replay(course("kelighine").lesson("pass"), ["C3^J/2", "pass"])
    view = at.game.view(at.state, 0)
    assert view["log"] == ["player 1 brings a piece from the reserve to I", "player 1 rolls 1,3"]
    assert [p["cell"] for p in view["pieces"] if p["player"] == 0] == ["I", "J"] and view["reserve"][0] == 1
    assert "A3" in view["indirect"] and "A5" not in view["indirect"]  # (what the last step says of I+1 and I+3)


def test_two_generated_cards_return_two_in_the_ranges_order() -> None:
    at = replay(course("shengke").lesson("two-returns"), ["wood1@c3"])
    me = at.game.view(at.state, 0)["players"][0]
    assert [c["id"] for c in me["decks"]["fire"]["bottom"]] == ["fire5", "fire3"]  # (fire3 the very last)
    assert not [c for c in me["discard"] if c["element"] == "fire"]
    assert [e["text"] for e in at.game.view(at.state, 0)["events"]] == [
        "青翼龍 at c3: 行生 on 赤羽鳳 at b3 returns 赤爪虎 to the bottom of the fire deck",
        "青翼龍 at c3: 行生 on 赤鬃獅 at d3 returns 赤眼狼 to the bottom of the fire deck"]
