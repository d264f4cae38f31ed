"""The courses teach every rule of their game's docs page, and every lesson works on the engine:
its position loads, its expected moves are legal and do what the lesson asks, the moves it
invites the learner to try are refused, and its words exist in English and 繁體中文."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qipan.core import GameError
from qipan.server.tutorials import MAX_STEPS
from qipan.tutorials import Course, Lesson, Text, course, courses, judge, replay

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
DOC_PAGES = {"abalone": "abalone.md", "tellstones": "tellstones.md", "chinese-checkers": "chinese-checkers.md",
             "kelighine": "kelighine.md", "shengke": "shengke.md"}

LESSONS = [pytest.param(c, lesson, id=f"{c.game}-{lesson.id}") for c in courses() for lesson in c.lessons]


def rule_index(game: str) -> list[str]:
    """The rule ids of the "Rule index" table of the game's docs page."""
    text = (DOCS / DOC_PAGES[game]).read_text(encoding="utf-8")
    section = text.split("\n## Rule index\n", 1)
    assert len(section) == 2, f"{DOC_PAGES[game]} has no '## Rule index' section"
    body = section[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z0-9-]+)` \|", body, flags=re.MULTILINE)


@pytest.mark.parametrize("tutorial", courses(), ids=lambda c: c.game)
def test_every_rule_of_the_docs_page_is_taught(tutorial: Course) -> None:
    listed = rule_index(tutorial.game)
    assert listed, "the rule index lists no rule"
    assert len(set(listed)) == len(listed), "a rule id is listed twice"
    assert listed == list(tutorial.rules), "the course's rules are the docs page's, in its order"
    taught = {rule for lesson in tutorial.lessons for rule in lesson.rules}
    assert set(listed) - taught == set(), "rules no lesson teaches"
    assert taught - set(listed) == set(), "lessons name rules the docs page does not list"


@pytest.mark.parametrize("tutorial", courses(), ids=lambda c: c.game)
def test_lesson_ids_are_unique_and_found(tutorial: Course) -> None:
    ids = [lesson.id for lesson in tutorial.lessons]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9-]{1,40}", i) for i in ids)
    assert course(tutorial.game) is tutorial
    assert tutorial.lesson(ids[-1]).id == ids[-1]
    with pytest.raises(GameError, match="no lesson"):
        tutorial.lesson("no-such-lesson")


def test_no_lesson_has_more_steps_than_a_request_may_carry() -> None:
    assert max(len(lesson.steps) for c in courses() for lesson in c.lessons) <= MAX_STEPS


def test_unknown_course_is_refused() -> None:
    with pytest.raises(GameError, match="no tutorial for 'go'"):
        course("go")


@pytest.mark.parametrize(("tutorial", "lesson"), LESSONS)
def test_lesson_plays_through_on_the_engine(tutorial: Course, lesson: Lesson) -> None:
    game, state, seat = lesson.start()
    assert game.state_to_json(game.state_from_json(game.state_to_json(state))) == game.state_to_json(state)
    moves: list[str] = []
    for number, step in enumerate(lesson.steps, 1):
        at = replay(lesson, moves)
        assert at.step == number - 1
        assert game.to_move(at.state) == seat, f"step {number}: the learner is not the one to move"
        legal = set(game.legal_texts(at.state))
        for move in step.accept:
            assert move in legal, f"step {number}: accepted {move} is not legal (or not canonical)"
            assert judge(lesson, moves, move).kind == "correct"
        for move in step.refused:
            verdict = judge(lesson, moves, move)
            assert verdict.kind == "illegal" and verdict.reason and verdict.reason.startswith("illegal move"), \
                f"step {number}: {move} should be refused by the engine, got {verdict}"
        for move in step.why:
            assert move in legal and judge(lesson, moves, move).kind == "wrong"
        verdict = judge(lesson, moves, step.solution)
        assert verdict.kind == "correct", f"step {number}: the solution {step.solution} was judged {verdict.kind}"
        assert verdict.explain == step.done
        moves.append(game.action_text(at.state, game.parse_action(at.state, step.solution)))
    end = replay(lesson, moves)
    assert end.step == len(lesson.steps)
    with pytest.raises(GameError, match="is finished"):
        judge(lesson, moves, lesson.steps[-1].solution)


@pytest.mark.parametrize(("tutorial", "lesson"), LESSONS)
def test_a_legal_move_that_misses_the_goal_is_wrong(tutorial: Course, lesson: Lesson) -> None:
    """Each step has legal moves it does not accept (so it asks for something), and they are
    judged wrong with the lesson's explanation, changing nothing."""
    moves: list[str] = []
    for step in lesson.steps:
        at = replay(lesson, moves)
        right = judge(lesson, moves, step.solution)
        misses = [m for m in at.game.legal_texts(at.state) if judge(lesson, moves, m).kind == "wrong"]
        if misses:
            verdict = judge(lesson, moves, misses[0])
            assert verdict.explain in (step.wrong, step.why.get(misses[0]))
            assert at.game.state_to_json(verdict.state) == at.game.state_to_json(at.state)
        else:  # (a step with one possible action, such as a lone "stop", asks nothing of choice)
            assert len(at.game.legal_texts(at.state)) <= 2, "a step accepting every move teaches nothing"
        assert right.move is not None
        moves.append(right.move)


def test_replay_refuses_moves_that_are_not_the_answers() -> None:
    lesson = course("abalone").lesson("sumito")
    with pytest.raises(GameError, match="not an answer to step 1"):
        replay(lesson, ["a1b2"])
    with pytest.raises(GameError, match="has 1 steps, not 2"):
        replay(lesson, ["e3e4", "e3e4"])


def test_judging_unreadable_and_overlong_tries() -> None:
    lesson = course("abalone").lesson("sumito")
    assert judge(lesson, [], "hello").kind == "illegal"
    long = judge(lesson, [], "e3e4" * 100)
    assert long.kind == "illegal" and long.reason == "a move is at most 64 characters"
    tellstones = course("tellstones").lesson("answer")
    wrong = judge(tellstones, [], "name crown")
    assert wrong.kind == "wrong" and wrong.explain is not None and "wrong name" in wrong.explain.en


def texts(lesson: Lesson) -> list[Text]:
    found = [lesson.title, lesson.intro]
    for step in lesson.steps:
        found += [step.prompt, step.done, step.wrong, *step.why.values()]
    return found


CJK = re.compile(r"[\u4e00-\u9fff]")
@pytest.mark.parametrize(("tutorial", "lesson"), LESSONS)
def test_every_text_is_in_both_languages(tutorial: Course, lesson: Lesson) -> None:
    for text in [tutorial.title, *tutorial.rules.values(), *texts(lesson)]:
        assert text.en.strip() and text.zh.strip()
        assert CJK.search(text.zh), f"not Chinese: {text.zh}"
        # (English texts name Chinese things as the docs do: 甲 and 乙, 行剋, card names, 食棋.)
        letters = [c for c in text.en if not c.isspace()]
        assert sum(c.isascii() for c in letters) >= 0.7 * len(letters), f"not English: {text.en}"
