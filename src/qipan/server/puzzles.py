"""The puzzles over HTTP: the catalogue, the puzzle of the day, and a puzzle played move by move.

Stateless like the tutorials: the client sends the moves it has played so far plus its new try,
and the server replays them from the catalogue's position on the engine and judges the try
(:mod:`qipan.puzzles.attempt`). Nothing is stored.

- ``GET /api/puzzles``: every puzzle.
- ``GET /api/puzzles/today``: the puzzle of the day (UTC), the same for everyone.
- ``POST /api/puzzles/{id}/play``: the puzzle after ``moves``, with ``move`` judged when sent.
- ``POST /api/puzzles/{id}/hint``: a next move from the position after ``moves`` (bounded search).

Every request is bounded: at most :data:`MAX_MOVES` moves of at most
:data:`qipan.puzzles.attempt.MAX_MOVE_TEXT` characters; the Abalone prover and the 食棋 hint
search stop at a node budget. Playing spends a ``position`` token, a hint an ``analyse`` token
(:mod:`qipan.server.limits`); the routes are plain functions, so they run in the thread pool,
not on the event loop. A 食棋 hint may search for about a second of one core, so a client has at most
:data:`SEARCHES_PER_CLIENT` of them under way and the process :data:`SEARCHES` (beyond: 503): the
analyse rate alone (120 a minute) would let one client keep two cores searching.
"""

from __future__ import annotations

import datetime
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from pydantic import Field, StringConstraints

from qipan.core import GameError
from qipan.puzzles import capture, eject
from qipan.puzzles.attempt import HINT_NODES, MAX_MOVE_TEXT, PROOF_NODES, Attempt, Crossing, Eject, Shiqi, replay
from qipan.puzzles.catalogue import Entry, catalogue, find, puzzle_of_the_day
from qipan.puzzles.data import load
from qipan.server import models
from qipan.server.edge import limited
from qipan.server.errors import Busy, NotFound
from qipan.server.limits import client_key
from qipan.server.tutorials import Words
from qipan.tutorials.reasons import in_chinese

router = APIRouter()

MAX_MOVES = 250
"""Most moves a request may carry: a crossing takes 20-30, a 食棋 finish about 71."""

SEARCHES = 2
"""食棋 hint searches this process runs at once (the GIL makes more no faster)."""
SEARCHES_PER_CLIENT = 1
"""食棋 hint searches one client may have under way at once."""

MoveText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_MOVE_TEXT)]
PuzzleId = Annotated[str, Path(max_length=40, description="a puzzle id from GET /api/puzzles")]


class PuzzleInfo(models.Answer):
    id: str
    kind: Literal["crossing", "shiqi", "eject"] = Field(
        description="crossing (Chinese Checkers solitaire), shiqi (食棋) or eject (Abalone)")
    rating: str = Field(description="easy, medium or hard")
    par: int = Field(description="crossing: the best known number of moves; eject: N; shiqi: 59, the captures "
                                 "that leave one piece")
    title: Words
    optimal: bool = Field(description="crossing: whether par is proved optimal (27 with adjacent jumps is; "
                                      "20 with long jumps is only the best known)")
    url: str = Field(description="the page that plays it in the browser")


class Puzzles(models.Answer):
    puzzles: list[PuzzleInfo]


class PuzzleOfTheDay(PuzzleInfo):
    date: str = Field(description="the UTC date, YYYY-MM-DD")
    command: str = Field(description="the terminal command that plays it")


class PlayRequest(models.Request):
    moves: list[MoveText] = Field([], max_length=MAX_MOVES,
                                  description="your moves so far, in order (Abalone: without the defender's replies)")
    # (bounded like every move the server reads, so the edge's message is true; a try longer than
    # a puzzle's moves can be is judged illegal, in one line)
    move: models.MoveText | None = Field(None, description="your try at the next move (none: just show the "
                                                            "position)")


class HintRequest(models.Request):
    moves: list[MoveText] = Field([], max_length=MAX_MOVES, description="your moves so far, in order")


class Verdict(models.Answer):
    kind: Literal["played", "wrong", "illegal"] = Field(
        description="played (applied); wrong (legal, but not the winning move of an Abalone puzzle: nothing "
                    "changed); illegal (the engine's reason: nothing changed)")
    move: str | None = Field(description="the try in the game's notation (null when illegal)")
    reason: Words | None = Field(description="why it was refused, in English and Chinese")


class Step(models.Answer):
    move: str
    reply: str | None = Field(description="Abalone: the defender's answer")


class PuzzleState(models.Answer):
    puzzle: PuzzleInfo
    game: str
    variant: str
    options: dict[str, Any]
    seat: int = Field(description="the solver's seat")
    view: Any = Field(description="the solver's view of the position")
    legal: list[str] = Field(description="the legal moves now (empty when over)")
    last: str | None = Field(description="the last move on the board (Abalone: the defender's reply)")
    moves: list[str] = Field(description="your moves so far, for the next request")
    line: list[Step] = Field(description="your moves, each with the defender's reply in Abalone")
    done: bool
    solved: bool
    pieces_left: int | None = Field(description="shiqi: pieces on the board")
    in_target: int | None = Field(description="crossing: pieces in the target triangle")
    result: str | None = Field(description="how a 食棋 game ended, in the engine's words (English)")
    verdict: Verdict | None = None


class Hint(models.Answer):
    status: Literal["found", "none", "budget", "unavailable"] = Field(
        description="found: ``move`` keeps the puzzle solvable; none: proved that nothing does; budget: the "
                    "bounded search found nothing (which proves nothing); unavailable: crossings have no hints")
    move: str | None
    nodes: int = Field(description="positions the 食棋 search reached (0 otherwise)")


WRONG = {"en": "it does not force a push-off in the moves left.", "zh-Hant": "剩下的步數內無法逼出對方的棋子。"}
"""Why a legal Abalone try is ``wrong`` (the client puts "Not the winning move:" before it)."""


class SearchBusy(Busy):
    """As many 食棋 hint searches under way as allowed, for this client or this process (503)."""

    retry_after = 2


_searching: Counter[str] = Counter()
_searching_lock = threading.Lock()


@contextmanager
def _search_slot(client: str) -> Iterator[None]:
    """Hold one of the 食棋 hint search slots for ``client``: :class:`SearchBusy` when there is none."""
    with _searching_lock:
        if _searching[client] >= SEARCHES_PER_CLIENT:
            raise SearchBusy(f"at most {SEARCHES_PER_CLIENT} hint search at once; wait for the one under way")
        if _searching.total() >= SEARCHES:
            raise SearchBusy("the server is searching for as many hints as it can; try again in a few seconds")
        _searching[client] += 1
    try:
        yield
    finally:
        with _searching_lock:
            _searching[client] -= 1
            if not _searching[client]:
                del _searching[client]


def _info(entry: Entry) -> dict[str, Any]:
    optimal = entry.kind != "crossing" or bool(load("crossings.json")[entry.jump]["optimal"])
    return {"id": entry.id, "kind": entry.kind, "rating": entry.rating, "par": entry.par,
            "title": {"en": entry.title, "zh-Hant": entry.title_zh}, "optimal": optimal,
            "url": f"/puzzles/{entry.id}"}


def _entry(puzzle_id: str) -> Entry:
    try:
        return find(puzzle_id)
    except GameError as exc:
        raise NotFound(str(exc)) from None


def _reason(text: str) -> dict[str, str]:
    return {"en": text, "zh-Hant": in_chinese(text)}


def _replay(entry: Entry, moves: list[str]) -> Attempt:
    try:
        return replay(entry, moves)
    except GameError as exc:
        raise GameError(f"{exc}; start again or take the move back") from None


@router.get("/api/puzzles", response_model=Puzzles, responses=models.errors(*models.EDGE))
def get_puzzles() -> dict[str, Any]:
    """Every puzzle, in the catalogue's order."""
    return {"puzzles": [_info(entry) for entry in catalogue()]}


@router.get("/api/puzzles/today", response_model=PuzzleOfTheDay, responses=models.errors(*models.EDGE))
def get_puzzle_of_the_day() -> dict[str, Any]:
    """Today's puzzle (UTC), the same for everyone."""
    day = datetime.datetime.now(datetime.UTC).date()
    entry = puzzle_of_the_day(day)
    return {**_info(entry), "date": day.isoformat(), "command": f"qipan puzzle play {entry.id}"}


@router.post("/api/puzzles/{puzzle_id}/play", response_model=PuzzleState,
             responses=models.errors(400, 404, *models.CHANGES), dependencies=[limited("position")])
def post_puzzle(puzzle_id: PuzzleId, body: PlayRequest) -> dict[str, Any]:
    """The puzzle after ``moves``, with ``move`` judged when sent: ``played``, ``wrong`` (Abalone:
    legal but not winning) or ``illegal``; a refused try changes nothing. A ``moves`` list that does
    not replay (an illegal or losing move in it) is a 400 naming the move."""
    entry = _entry(puzzle_id)
    moves = list(body.moves)
    attempt = _replay(entry, moves)
    verdict = None
    if body.move is not None:
        if attempt.done:
            raise GameError("the puzzle is over; start again or take a move back")
        judged = attempt.judge(body.move)
        reason = None if judged.reason is None else WRONG if judged.kind == "wrong" else _reason(judged.reason)
        verdict = {"kind": judged.kind, "move": judged.move, "reason": reason}
        if judged.kind == "played":
            assert judged.move is not None
            moves.append(judged.move)
    return _state(entry, attempt, moves, verdict)


def _state(entry: Entry, attempt: Attempt, moves: list[str], verdict: dict[str, Any] | None) -> dict[str, Any]:
    game, state = attempt.game, attempt.state
    replies = attempt.replies if isinstance(attempt, Eject) else [None] * len(moves)
    line = [{"move": m, "reply": r} for m, r in zip(moves, replies, strict=True)]
    last = line[-1]["reply"] or line[-1]["move"] if line else None
    return {
        "puzzle": _info(entry), "game": game.name, "variant": game.variant, "options": dict(game.config),
        "seat": attempt.player, "view": attempt.view(),
        "legal": [] if attempt.done else game.legal_texts(state), "last": last, "moves": moves, "line": line,
        "done": attempt.done, "solved": attempt.solved,
        "pieces_left": capture.game().pieces_left(state) if isinstance(attempt, Shiqi) else None,
        "in_target": sum(1 for h in attempt.puzzle.target if state.board[h]) if isinstance(attempt, Crossing) else None,
        "result": game.result_text(state) if isinstance(attempt, Shiqi) and attempt.done else None,
        "verdict": verdict,
    }


@router.post("/api/puzzles/{puzzle_id}/hint", response_model=Hint,
             responses=models.errors(400, 404, *models.CHANGES), dependencies=[limited("analyse")])
def post_hint(puzzle_id: PuzzleId, body: HintRequest, request: Request) -> dict[str, Any]:
    """A next move from the position after ``moves``: 食棋, the first move of a one-piece finish
    found within the search budget (or a proof that none is left); Abalone, a move that still
    forces the push-off. Crossings have none. A 食棋 search is refused (503) while the same client
    has one under way, or the process :data:`SEARCHES`."""
    entry = _entry(puzzle_id)
    attempt = _replay(entry, list(body.moves))
    if attempt.done:
        raise GameError("the puzzle is over; start again or take a move back")
    if isinstance(attempt, Shiqi):
        with _search_slot(client_key(request.scope)):
            found = attempt.search(HINT_NODES)
        if found.found and found.moves:
            return {"status": "found", "move": str(found.moves[0]), "nodes": found.nodes}
        return {"status": "none" if found.complete else "budget", "move": None, "nodes": found.nodes}
    if isinstance(attempt, Eject):
        try:
            move = attempt.winning()
        except eject.OutOfNodes:
            return {"status": "budget", "move": None, "nodes": PROOF_NODES}
        return {"status": "found" if move else "none", "move": move, "nodes": 0}
    return {"status": "unavailable", "move": None, "nodes": 0}
