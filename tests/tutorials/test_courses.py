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


def page_section(game: str, heading: str) -> str:
    """The text of the docs page's ``## heading`` section (to the next ``## ``)."""
    text = (DOCS / DOC_PAGES[game]).read_text(encoding="utf-8")
    parts = text.split(f"\n## {heading}\n", 1)
    assert len(parts) == 2, f"{DOC_PAGES[game]} has no '## {heading}' section"
    return parts[1].split("\n## ", 1)[0]


def page_options(game: str) -> list[str]:
    """The options of the docs page's "Options" table (its first column)."""
    text = (DOCS / DOC_PAGES[game]).read_text(encoding="utf-8")
    found = re.search(r"\n## Options[^\n]*\n(.*?)(?=\n## |\Z)", text, flags=re.DOTALL)
    assert found, f"{DOC_PAGES[game]} has no '## Options' section"
    return re.findall(r"^\| `([a-z_0-9]+)` \|", found.group(1), flags=re.MULTILINE)


def option_value(text: str) -> object:
    return {"true": True, "false": False}.get(text, int(text) if text.isdigit() else text)


@pytest.mark.parametrize("tutorial", courses(), ids=lambda c: c.game)
def test_every_option_of_the_docs_page_is_a_rule_or_said_to_be_untaught(tutorial: Course) -> None:
    """Read from the page's own Options table, not from the rule index: an option is named in a
    rule of the index (`option` or `option=value`), or in the index's "Not taught" line, not
    both; and a rule naming `option=value` is taught by a lesson played with that value or
    told in its words."""
    section = page_section(tutorial.game, "Rule index")
    rows = dict(re.findall(r"^\| `([a-z0-9-]+)` \| (.*) \|$", section, flags=re.MULTILINE))
    said = re.search(r"^\*\*Not taught:\*\*(.*?)(?:\n\n|\Z)", section, flags=re.MULTILINE | re.DOTALL)
    untaught = set(re.findall(r"`([a-z_0-9]+)`", said.group(1))) if said else set()
    options = page_options(tutorial.game)
    assert options, "the page lists no option"
    for option in options:
        named = [rule for rule, text in rows.items() if re.search(rf"`{option}(=[^`]*)?`", text)]
        assert bool(named) != (option in untaught), \
            f"option {option}: named by rules {named}, {'' if option in untaught else 'not '}said to be untaught"
    assert untaught <= set(options), "the Not taught line names options the page does not have"
    for rule, text in rows.items():
        for option, value in re.findall(r"`([a-z_0-9]+)=([^`]+)`", text):
            lessons = [lesson for lesson in tutorial.lessons if rule in lesson.rules]
            assert any(rule in lesson.told or lesson.options.get(option) == option_value(value)
                       for lesson in lessons), f"{rule}: no lesson is played with {option}={value}"


def test_every_numbered_decision_of_a_docs_page_is_cited_by_its_rule_index() -> None:
    """Read from the pages' own "Decisions" lists (Kelighine's contract decisions): each numbered
    decision is a rule of play, so some rule of the index cites it ("Decision N") or the Not
    taught line does."""
    checked = []
    for tutorial in courses():
        text = (DOCS / DOC_PAGES[tutorial.game]).read_text(encoding="utf-8")
        if "\n## Decisions\n" not in text:
            continue
        numbers = re.findall(r"^(\d+)\. \*\*", page_section(tutorial.game, "Decisions"), flags=re.MULTILINE)
        cited = set(re.findall(r"Decision (\d+)", page_section(tutorial.game, "Rule index")))
        assert numbers and set(numbers) - cited == set(), f"{tutorial.game}: decisions the rule index does not cite"
        checked.append(tutorial.game)
    assert checked == ["kelighine"]


TUTORIALS_DOC = DOCS.parent / "tutorials.md"


def test_the_rules_taught_in_words_only_are_the_ones_docs_tutorials_lists() -> None:
    """A lesson's ``told`` rules (no move shows them) are among its rules, and docs/tutorials.md
    lists exactly those, so the page says honestly which rules are only stated."""
    told = set()
    for tutorial in courses():
        for lesson in tutorial.lessons:
            assert set(lesson.told) <= set(lesson.rules), f"{lesson.id}: told rules it does not list"
            told |= {(tutorial.game, rule, lesson.id) for rule in lesson.told}
    text = TUTORIALS_DOC.read_text(encoding="utf-8")
    section = text.split("\n### Taught in words\n", 1)
    assert len(section) == 2, "docs/tutorials.md has no '### Taught in words' section"
    listed = set(re.findall(r"^\| ([a-z-]+) \| `([a-z0-9-]+)` \| `([a-z0-9-]+)` \|",
                            section[1].split("\n## ", 1)[0], flags=re.MULTILINE))
    assert listed == told


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
    with pytest.raises(GameError, match="has 1 step, not 2"):
        replay(lesson, ["e3e4", "e3e4"])


def test_judging_unreadable_and_overlong_tries() -> None:
    lesson = course("abalone").lesson("sumito")
    assert judge(lesson, [], "hello").kind == "illegal"
    long = judge(lesson, [], "e3e4" * 100)
    assert long.kind == "illegal" and long.reason == "a move is at most 64 characters"
    tellstones = course("tellstones").lesson("answer")
    wrong = judge(tellstones, [], "name crown")
    assert wrong.kind == "wrong" and wrong.explain is not None and "wrong name" in wrong.explain.en


def test_an_unreadable_try_is_quoted_as_the_engine_quotes_it_not_escaped_twice() -> None:
    """The engine's message already shows the try escaped (a backslash as two); the verdict
    gives that message as it is, not escaped again (four backslashes, quotes as \\')."""
    lesson = course("abalone").lesson("sumito")
    game, state, _ = lesson.start()
    for text in ("a\\b", "\u00e9\"'x", "a\tb"):
        with pytest.raises(GameError) as refused:
            game.parse_action(state, text)
        verdict = judge(lesson, [], text)
        assert verdict.kind == "illegal" and verdict.reason == str(refused.value)
    assert judge(lesson, [], "a\\b").reason.startswith("cannot read move 'a\\\\b':")  # type: ignore[union-attr]


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
