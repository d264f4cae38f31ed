"""Interactive tutorials: a course per game, each lesson a position on the real engine with a
task for the seat to move (docs/tutorials.md).

>>> [c.game for c in courses()][:2]
['abalone', 'tellstones']
"""

from __future__ import annotations

from qipan.core import GameError
from qipan.core.errors import brief
from qipan.tutorials.lesson import Course, Lesson, Progress, Step, Text, Verdict, judge, replay

__all__ = ["Course", "Lesson", "Progress", "Step", "Text", "Verdict", "course", "courses", "judge", "replay"]


def courses() -> tuple[Course, ...]:
    """Every course, in the order the lobby lists them."""
    from qipan.tutorials import abalone, chinese_checkers, kelighine, shengke, tellstones

    return (abalone.COURSE, tellstones.COURSE, chinese_checkers.COURSE, kelighine.COURSE, shengke.COURSE)


def course(game: str) -> Course:
    """The course of ``game`` (GameError when it has none)."""
    for found in courses():
        if found.game == game:
            return found
    raise GameError(f"there is no tutorial for {brief(game, 40)}; there are: "
                    f"{', '.join(c.game for c in courses())}")
