"""What the lessons say about a try is true of it: every move that does what a step asks is
accepted, and the explanation of a wrong one describes what that move really does."""

from __future__ import annotations

from qipan.core import load
from qipan.tutorials import course, judge, replay


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
        plain = load(lesson.game, None, {k: v for k, v in lesson.options.items() if k == "players"})
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
