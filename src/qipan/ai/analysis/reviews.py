"""Game review: every decision of a recorded game against the best move."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qipan.ai.analysis.analyser import analyse
from qipan.ai.analysis.types import Evaluation, Line
from qipan.ai.analysis.verdicts import verdict
from qipan.core.errors import GameError, brief
from qipan.core.game import CHANCE, Game
from qipan.core.record import Record


@dataclass(frozen=True)
class ReviewedMove:
    """One decision of a recorded game: the best line, the played move's line and the verdict."""

    ply: int
    player: int
    move: str
    best: Line
    played: Line
    verdict: str | None
    evaluation: Evaluation

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "player": self.player, "move": self.move, "best": self.best.to_json(),
                "played": self.played.to_json(), "verdict": self.verdict, "evaluation": self.evaluation.to_json()}


def review_move(game: Game[Any, Any], states: Sequence[Any], texts: Sequence[str], ply: int, *,
                seat: int | None = None, time: float = 0.3, lines: int = 1, level: str | None = None,
                seed: int = 0, depth: int | None = None,
                views: Sequence[Mapping[str, Any]] | None = None) -> ReviewedMove:
    """The decision at ``ply`` (the position after ``ply`` recorded actions, ``states[ply]``;
    ``texts[ply]`` is the move played there), analysed from the mover's view (its earlier views
    as history; ``views``: the mover's views of ``states`` when already built, at least the
    first ``ply + 1``). GameError for a chance ply or a finished position; with ``seat``, for
    another seat's decision."""
    if not 0 <= ply < len(texts):
        raise GameError(f"ply must be from 0 to {len(texts) - 1}, not {brief(ply, 20)}")
    state = states[ply]
    mover = game.to_move(state)
    if mover == CHANCE:
        raise GameError(f"ply {ply} is a chance outcome, not a decision")
    if mover is None:
        raise GameError(f"the game is over at ply {ply}")
    if seat is not None and mover != seat:
        raise GameError(f"ply {ply} is {game.player_name(mover)}'s decision, not {game.player_name(seat)}'s")
    if views is None:
        views = [game.view(s, mover) for s in states[:ply + 1]]
    history, view = views[:ply], views[ply]
    played_text = game.action_text(state, game.parse_action(state, texts[ply]))
    result = analyse(game, view, lines=lines, time=time, level=level, include=[played_text], seed=seed,
                     depth=depth, history=history)
    best = result.lines[0]
    played = result.line(played_text)
    assert played is not None
    return ReviewedMove(ply, mover, played_text, best, played, verdict(game, best.evaluation, played.evaluation),
                        result.evaluation)


def review(game: Game[Any, Any] | None, record: Record, *, seat: int | None = None, time: float = 0.3,
           lines: int = 1, level: str | None = None, seed: int = 0, depth: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> list[ReviewedMove]:
    """Every decision of ``record`` (``seat``'s only, if given), in order. Hidden-information
    games need a ``seat``: each of its decisions is analysed from its own views. ``progress(done,
    total)`` is called after each decision. ``game``: the record's game (None: made from it)."""
    game = game or record.make_game()
    if not game.perfect_information and seat is None:
        raise GameError(f"{game.name} hides information: review one seat's decisions (choose a seat)")
    if seat is not None:
        game.check_player(seat)
    states = record.replay()
    texts = [m.text for m in record.moves]
    plies = [ply for ply in range(len(texts))
             if (mover := game.to_move(states[ply])) is not None and mover != CHANCE
             and (seat is None or mover == seat)]
    views: dict[int, list[Mapping[str, Any]]] = {}  # per mover, its views of the states (built once)
    reviewed = []
    for done, ply in enumerate(plies, 1):
        mover = game.to_move(states[ply])
        assert mover is not None
        seen = views.setdefault(mover, [])
        seen.extend(game.view(s, mover) for s in states[len(seen):ply + 1])
        reviewed.append(review_move(game, states, texts, ply, seat=seat, time=time, lines=lines, level=level,
                                    seed=seed + ply, depth=depth, views=seen))
        if progress is not None:
            progress(done, len(plies))
    return reviewed
