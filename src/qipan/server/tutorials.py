"""The tutorials over HTTP: the courses, and a lesson's position judged move by move.

Lessons live on the server (:mod:`qipan.tutorials`); a client names a lesson and sends the
correct moves it has played so far plus its new try, and the server replays them from the
lesson's position and judges the try on the engine. Nothing is stored, no state travels: the
answer holds only the learner's own view, and no request reaches a live game.

- ``GET /api/tutorials``: every course, its rules and its lessons.
- ``POST /api/tutorials/{game}/{lesson}``: the lesson after ``moves``, and the verdict on
  ``move`` when one is sent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import Field, StringConstraints

from qipan.core import GameError
from qipan.server import models
from qipan.server.edge import limited
from qipan.server.errors import NotFound
from qipan.tutorials import Course, Lesson, Text, course, courses, replay
from qipan.tutorials.lesson import MAX_MOVE, judge
from qipan.tutorials.reasons import in_chinese

router = APIRouter()

MAX_STEPS = 8
"""Most steps a lesson has (so most moves a request may carry)."""

TryText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE)]
# (A try is bounded like every move the server reads, so the refusal's message is true; one longer
# than a lesson's moves can be is judged illegal, in one line, like any unreadable try.)
AnyTry = Annotated[str, StringConstraints(min_length=1, max_length=models.MAX_MOVE)]
LessonId = Annotated[str, Path(max_length=40, description="a lesson id from GET /api/tutorials")]
GameName = Annotated[str, Path(max_length=40, description="a game with a course")]


class TryRequest(models.Request):
    moves: list[TryText] = Field([], max_length=MAX_STEPS,
                                 description="the correct moves played so far in this lesson, in order")
    move: AnyTry | None = Field(None, description="the learner's try at the next step (none: just show it)")


class Words(models.Answer):
    en: str
    zh_Hant: str = Field(alias="zh-Hant")


class LessonInfo(models.Answer):
    id: str
    title: Words
    rules: list[str] = Field(description="ids of the rules it teaches (the game's docs page, Rule index)")


class CourseInfo(models.Answer):
    game: str
    title: Words
    rules: dict[str, Words] = Field(description="every rule of the game's docs page: id -> name")
    lessons: list[LessonInfo]


class Courses(models.Answer):
    courses: list[CourseInfo]


class Verdict(models.Answer):
    kind: Literal["correct", "wrong", "illegal"]
    move: str | None = Field(description="the try in the game's notation (null when unreadable)")
    reason: Words | None = Field(description="the engine's reason (illegal), in English as the engine gives it "
                                             "and in Chinese")
    explain: Words | None = Field(description="the lesson's explanation (correct or wrong)")


class LessonState(models.Answer):
    game: str
    variant: str
    options: dict[str, Any]
    lesson: LessonInfo
    intro: Words
    steps: int
    step: int = Field(description="the step asked now (== steps when the lesson is done)")
    prompt: Words | None = Field(description="what to do now (null when done)")
    done: bool
    seat: int = Field(description="the learner's seat")
    to_move: int | Literal["chance"] | None
    view: Any = Field(description="the learner's view")
    legal: list[str] = Field(description="the learner's legal moves (empty unless asked to move)")
    last: str | None = Field(description="the last move played, in notation")
    moves: list[str] = Field(description="the correct moves so far, for the next request")
    result: str | None = Field(description="how the game ended, when it has")
    verdict: Verdict | None = None
    next: str | None = Field(description="the course's next lesson id")


def _find(game: str, lesson_id: str) -> tuple[Course, Lesson]:
    """The course of ``game`` and its lesson ``lesson_id`` (NotFound, 404, when either is missing)."""
    try:
        found = course(game)
        return found, found.lesson(lesson_id)
    except GameError as exc:
        raise NotFound(str(exc)) from None


def _info(lesson: Lesson) -> dict[str, Any]:
    return {"id": lesson.id, "title": lesson.title.json(), "rules": list(lesson.rules)}


def _words(text: Text | None) -> dict[str, str] | None:
    return None if text is None else text.json()


@router.get("/api/tutorials", response_model=Courses, responses=models.errors(*models.EDGE))
async def get_tutorials() -> dict[str, Any]:
    """Every course: its game, the rules its docs page lists, and its lessons in order."""
    return {"courses": [{
        "game": c.game, "title": c.title.json(), "rules": {k: v.json() for k, v in c.rules.items()},
        "lessons": [_info(lesson) for lesson in c.lessons],
    } for c in courses()]}


@router.post("/api/tutorials/{game}/{lesson_id}", response_model=LessonState,
             responses=models.errors(400, 404, *models.CHANGES), dependencies=[limited("position")])
async def post_lesson(game: GameName, lesson_id: LessonId, body: TryRequest) -> dict[str, Any]:
    """The lesson after ``moves`` (its correct answers so far), with ``move`` judged when sent:
    ``correct`` (applied, with what the other seats did next), ``wrong`` (legal, but not what
    was asked: nothing changes) or ``illegal`` (the engine's reason: nothing changes)."""
    taught, lesson = _find(game, lesson_id)
    moves = list(body.moves)
    at = replay(lesson, moves)
    verdict = None
    if body.move is not None:
        judged = judge(lesson, moves, body.move)
        reason = None if judged.reason is None else {"en": judged.reason, "zh-Hant": in_chinese(judged.reason)}
        verdict = {"kind": judged.kind, "move": judged.move, "reason": reason, "explain": _words(judged.explain)}
        if judged.kind == "correct":
            assert judged.move is not None
            moves.append(judged.move)
            at = replay(lesson, moves)
    played = at.game
    mover = played.to_move(at.state)
    done = at.step >= len(lesson.steps)
    index = taught.lessons.index(lesson)
    return {
        "game": played.name, "variant": played.variant, "options": dict(played.config), "lesson": _info(lesson),
        "intro": lesson.intro.json(), "steps": len(lesson.steps), "step": at.step,
        "prompt": None if done else lesson.steps[at.step].prompt.json(), "done": done, "seat": at.seat,
        "to_move": "chance" if mover is not None and mover < 0 else mover,
        "view": played.view(at.state, at.seat),
        "legal": played.legal_texts(at.state) if not done and mover == at.seat else [],
        "last": at.last, "moves": moves,
        "result": played.result_text(at.state) if mover is None else None,
        "verdict": verdict,
        "next": taught.lessons[index + 1].id if index + 1 < len(taught.lessons) else None,
    }
