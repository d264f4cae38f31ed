"""Lessons: a position of a game, a task for the seat to move, and how its tries are judged.

A :class:`Lesson` sets up a state (the engine's state JSON) and asks the seat to move for one or
more :class:`Step` s. A try is judged on the real engine (:func:`judge`): a move the engine
refuses is *illegal* (with the engine's own reason), a legal move that does not do what the step
asks is *wrong* (with the lesson's explanation), and a move that does is *correct*: it is applied,
explained, and the moves the other seats (or chance) then make are applied after it.

>>> from qipan.tutorials import course
>>> lesson = course("abalone").lesson("eject")
>>> judge(lesson, [], lesson.steps[0].example).kind
'correct'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from qipan.core import CHANCE, GameError, load
from qipan.core.errors import brief
from qipan.core.game import Game

MAX_MOVE = 64
"""Longest move text a try may be (every game's notation is far shorter)."""


@dataclass(frozen=True)
class Text:
    """A sentence in English and Traditional Chinese (繁體中文)."""

    en: str
    zh: str

    def json(self) -> dict[str, str]:
        return {"en": self.en, "zh-Hant": self.zh}


Goal = Callable[[Game[Any, Any], Any, Any], bool]
"""Whether a legal move did what a step asks: ``goal(game, state_before, state_after)``."""


@dataclass(frozen=True)
class Step:
    """One thing the learner is asked to do.

    ``accept`` lists the moves (canonical notation) that do it; a ``goal`` instead accepts any
    legal move whose result it approves. ``example`` is a move that does it (default: the first
    of ``accept``). ``why`` explains particular legal moves that do not do it (else ``wrong``).
    ``replies`` are the moves the other seats or chance make afterwards (notation).
    ``refused`` are moves the lesson invites the learner to try that the engine refuses (the
    tests check that it does)."""

    prompt: Text
    done: Text
    wrong: Text
    accept: tuple[str, ...] = ()
    goal: Goal | None = None
    example: str = ""
    why: Mapping[str, Text] = field(default_factory=lambda: MappingProxyType({}))
    replies: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    @property
    def solution(self) -> str:
        return self.example or self.accept[0]


@dataclass(frozen=True)
class Lesson:
    """A position (``state``: the engine's state JSON for ``game`` with ``variant`` and
    ``options``) and the steps asked of the seat to move in it; ``rules`` are the ids of the
    rules it teaches (the game's docs page lists them under "Rule index"); ``told`` are those
    of them it teaches in its words only, no move showing them (an option's range, the
    player counts), which docs/tutorials.md lists."""

    id: str
    title: Text
    intro: Text
    rules: tuple[str, ...]
    game: str
    state: Mapping[str, Any]
    steps: tuple[Step, ...]
    variant: str | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    told: tuple[str, ...] = ()

    def make_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, dict(self.options))

    def start(self) -> tuple[Game[Any, Any], Any, int]:
        """The game, the lesson's first state and the learner's seat (who moves there)."""
        game = self.make_game()
        state = game.state_from_json(dict(self.state))
        seat = game.to_move(state)
        if seat is None or seat == CHANCE:
            raise GameError(f"lesson {self.id}: nobody decides in its position")
        return game, state, seat


@dataclass(frozen=True)
class Course:
    """A game's lessons in order, and the rules its docs page lists (id → name)."""

    game: str
    title: Text
    rules: Mapping[str, Text]
    lessons: tuple[Lesson, ...]

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise GameError(f"the {self.game} course has no lesson {brief(lesson_id, 40)}")


@dataclass(frozen=True)
class Verdict:
    """How a try was judged: ``kind`` is ``correct``, ``wrong`` (legal, but not what was asked)
    or ``illegal`` (refused by the engine, or unreadable); ``reason`` is the engine's message,
    ``explain`` the lesson's; ``state`` is the position after it (unchanged unless correct)."""

    kind: str
    state: Any
    move: str | None = None
    reason: str | None = None
    explain: Text | None = None


@dataclass(frozen=True)
class Progress:
    """Where a lesson stands after the correct moves played so far."""

    game: Game[Any, Any]
    seat: int
    state: Any
    step: int
    last: str | None
    """The last move played: the learner's, or the last reply to it."""


def replay(lesson: Lesson, moves: Sequence[str]) -> Progress:
    """The lesson after ``moves``, which must be correct answers to its first steps in order
    (GameError naming the first that is not)."""
    game, state, seat = lesson.start()
    if len(moves) > len(lesson.steps):
        steps = len(lesson.steps)
        raise GameError(f"lesson {lesson.id} has {steps} step{'' if steps == 1 else 's'}, not {len(moves)}")
    last = None
    for i, text in enumerate(moves):
        verdict = _judge(game, lesson.steps[i], state, text)
        if verdict.kind != "correct":
            raise GameError(f"move {i + 1} ({brief(text, 40)}) is not an answer to step {i + 1} of {lesson.id}")
        state = verdict.state
        last = lesson.steps[i].replies[-1] if lesson.steps[i].replies else verdict.move
    return Progress(game, seat, state, len(moves), last)


def judge(lesson: Lesson, moves: Sequence[str], text: str) -> Verdict:
    """Judge ``text`` as the answer to the step after ``moves`` (see :func:`replay`)."""
    at = replay(lesson, moves)
    if at.step >= len(lesson.steps):
        raise GameError(f"lesson {lesson.id} is finished: it has no step {at.step + 1}")
    return _judge(at.game, lesson.steps[at.step], at.state, text)


def _judge(game: Game[Any, Any], step: Step, state: Any, text: str) -> Verdict:
    if len(text) > MAX_MOVE:
        return Verdict("illegal", state, reason=f"a move is at most {MAX_MOVE} characters")
    try:
        action = game.parse_action(state, text)
    except GameError as exc:  # (its message already quotes the try, escaped and cut: quote nothing again)
        return Verdict("illegal", state, reason=_one_line(str(exc), 200))
    except Exception:  # (a parser that trips on odd input still only refuses it)
        return Verdict("illegal", state, reason=f"{brief(text, 40)} is not a move of {game.title}")
    move = game.action_text(state, action)
    if not game.is_legal(state, action):
        return Verdict("illegal", state, move, reason=f"illegal move {move}: {game.explain_illegal(state, action)}")
    after = game.next_state(state, action)
    achieved = step.goal(game, state, after) if step.goal is not None else move in step.accept
    if not achieved:
        return Verdict("wrong", state, move, explain=step.why.get(move, step.wrong))
    for reply in step.replies:
        after = game.play(after, reply)
    return Verdict("correct", after, move, explain=step.done)


def _one_line(text: str, limit: int) -> str:
    """``text`` on one line and at most ``limit`` characters (cut with an ellipsis)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
