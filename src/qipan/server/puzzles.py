"""The puzzle of the day over HTTP (read-only): ``GET /api/puzzles/today``.

The same puzzle for everyone on a UTC date (:func:`qipan.puzzles.catalogue.puzzle_of_the_day`);
the lobby shows it with the command that plays it in the terminal.
"""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter
from pydantic import Field

from qipan.puzzles.catalogue import puzzle_of_the_day
from qipan.server import models
from qipan.server.tutorials import Words

router = APIRouter()


class PuzzleOfTheDay(models.Answer):
    date: str = Field(description="the UTC date, YYYY-MM-DD")
    id: str
    kind: str = Field(description="crossing (Chinese Checkers solitaire), shiqi (食棋) or eject (Abalone)")
    rating: str = Field(description="easy, medium or hard")
    par: int = Field(description="crossing: the best known number of moves; eject: N; shiqi: 59, the captures "
                                 "that leave one piece")
    title: Words
    command: str = Field(description="the terminal command that plays it")


@router.get("/api/puzzles/today", response_model=PuzzleOfTheDay, responses=models.errors(*models.EDGE))
async def get_puzzle_of_the_day() -> dict[str, Any]:
    """Today's puzzle (UTC), the same for everyone."""
    day = datetime.datetime.now(datetime.UTC).date()
    entry = puzzle_of_the_day(day)
    return {"date": day.isoformat(), "id": entry.id, "kind": entry.kind, "rating": entry.rating, "par": entry.par,
            "title": {"en": entry.title, "zh-Hant": entry.title_zh}, "command": f"qipan puzzle play {entry.id}"}
