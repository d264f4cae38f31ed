"""The engines' refusals in Chinese: every reason the games give for an illegal move in any
lesson position (tried with every move notation of the game's lessons) has a translation, and
no English is left in it but notation."""

from __future__ import annotations

import re

import pytest

from qipan.core import GameError, load
from qipan.tutorials import Course, course, courses, judge, replay
from qipan.tutorials.reasons import UNKNOWN, in_chinese, translate

ENGLISH = re.compile(r"\b(the|is|a|an|and|or|of|to|your|piece|move|stone|marble|card|cell|must|can|not)\b")
NOTATION = re.compile(r"\b(name crown|name shield|pick|push|believe|doubt|counter|stop|other_corners|chain|pass-only|"
                      r"forbidden|false|team)\b")


def refusals(course: Course) -> set[str]:
    """What the engine says about every illegal try, in every step of every lesson, among the
    notations any lesson of the course offers at its start."""
    tries = set()
    for lesson in course.lessons:
        at = replay(lesson, [])
        tries |= set(at.game.legal_texts(at.state))
    said = set()
    for lesson in course.lessons:
        moves: list[str] = []
        for step in lesson.steps:
            at = replay(lesson, moves)
            for text in sorted(tries | set(step.refused)):
                try:
                    action = at.game.parse_action(at.state, text)
                except GameError:
                    continue
                if not at.game.is_legal(at.state, action):
                    said.add(f"illegal move {text}: {at.game.explain_illegal(at.state, action)}")
            moves.append(at.game.action_text(at.state, at.game.parse_action(at.state, step.solution)))
    return said


@pytest.mark.parametrize("course", courses(), ids=lambda c: c.game)
def test_every_refusal_in_the_lessons_is_translated(course: Course) -> None:
    said = refusals(course)
    assert said, "the lessons meet no illegal move at all"
    for reason in said:
        chinese = in_chinese(reason)
        assert not chinese.startswith(UNKNOWN), f"no translation for: {reason}"
        assert chinese.startswith("不合規則的一步 ")
        left = NOTATION.sub("", chinese)
        assert not ENGLISH.search(left), f"English left in {chinese!r} (from {reason!r})"


def test_names_in_reasons_are_translated() -> None:
    assert translate("there is no white marble on e5") == "白方在 e5 上沒有棋子"
    assert translate("the crown is already in the line, not in the pool") == "王冠已在石列上，不在石池裡"
    assert translate("stones go directly left or right of the line: 3 or 5") == "石頭只能放在石列緊鄰的左邊或右邊：3、5"
    assert in_chinese("illegal move i5-i6: the piece on i5 is blue's; red is to move") == \
        "不合規則的一步 i5-i6：i5 上的棋子是藍方的；現在輪到紅方"


def test_an_unknown_reason_keeps_the_engines_words_and_says_so() -> None:
    assert translate("a reason no engine gives") is None
    assert in_chinese("illegal move x1: a reason no engine gives") == \
        "引擎的說明（英文）：illegal move x1: a reason no engine gives"


@pytest.mark.parametrize(("game", "lesson", "move", "chinese"), [
    ("kelighine", "promotion-limits", "E^B2",
     "看不懂「E^B2」：晉升只能從環上的格子走到下一環相鄰的格子（A4^B2、B2^C1、C3^J）"),
    ("tellstones", "two-lines-boast", "swap a4 b4", "看不懂「swap a4 b4」：交換只能交換同一條石列上的兩顆石頭"),
])
def test_tries_the_notation_refuses_are_refused_in_chinese_too(game: str, lesson: str, move: str,
                                                               chinese: str) -> None:
    """Two lessons say a thing cannot be done that the notation cannot even write (a corner
    promotes to nothing; a swap never crosses lines): the try is refused, its reason translated."""
    verdict = judge(course(game).lesson(lesson), [], move)
    assert verdict.kind == "illegal" and verdict.reason is not None and verdict.reason.startswith("cannot read")
    assert in_chinese(verdict.reason) == chinese




@pytest.mark.parametrize(("lesson", "options", "path", "said"), [
    ("start-hole", {}, "i5-k7-i1", "路徑 'i5-k7-i1'：k7-i1 在這裡不是一次跳躍；請寫成起點-終點（例如 i5-i1）"),
    ("one-jump", {}, "i5-k7-m9", "路徑 'i5-k7-m9'：每步只能跳一次（chain=false）；請寫成起點-終點"),
    ("pass-only", {"other_corners": "forbidden"}, "f9-f11-h9",
     "路徑 'f9-f11-h9'：f11 在第 2 角，既非家也非目標，棋子不能落在那裡（other_corners=forbidden）"),
    ("start-hole", {}, "I5 K7 I1", "路徑 'I5 K7 I1'：k7-i1 在這裡不是一次跳躍；請寫成起點-終點（例如 i5-i1）"),
])
def test_a_jump_path_refused_while_read_is_said_in_chinese(lesson: str, options: dict[str, str], path: str,
                                                           said: str) -> None:
    """(The start-hole lesson invites typing the whole path; a wrong one was refused in English only.)"""
    taught = course("chinese-checkers").lesson(lesson)
    game = load("chinese-checkers", None, {**taught.options, **options})
    state = game.state_from_json(dict(taught.state))
    with pytest.raises(GameError) as refused:
        game.parse_action(state, path)
    assert in_chinese(str(refused.value)) == said
