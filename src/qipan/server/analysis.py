"""Engine analysis over HTTP: positions to step through, analyses of a position someone set up,
reviews of a finished game's decisions, and hints in games created with them.

The engine (:func:`qipan.ai.analysis.analyse`) runs in the AI worker processes at *analysis*
priority (:mod:`qipan.server.ai_pool`: after every game with a human waiting for its AI, before
all-AI games, and on at most the workers all-AI games may use), never in the event loop, and is
only ever given one player's view: what it answers cannot depend on anything that player does
not see.

- ``POST /api/position`` (cheap, in this process): a position of any game, and the one after a
  move or chance outcome, without a live game (the analysis board).
- ``POST /api/analyse``: engine lines for the player to move in a position set up by the client.
- ``POST /api/games/{id}/review/{ply}``: one decision of a finished game, read from the database
  (any process of a cluster can: a finished game never changes); in games of hidden information
  only for the seat whose decision it was, from its own view.
- ``POST /api/games/{id}/hint``: the asking seat's current decision, from its own view, in a game
  created with hints. The position is taken (and the hint counted) where the game is played
  (:mod:`qipan.server.ops`), the engine runs where the request came in.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request

from qipan.core import CHANCE, GameError, Move, Record
from qipan.core.errors import brief, brief_text
from qipan.core.game import Game
from qipan.server import ai_pool, models
from qipan.server.ai_pool import ANALYSIS, AnalysisRequest
from qipan.server.auth import check_token
from qipan.server.edge import limited
from qipan.server.errors import AuthError, Busy, Conflict, NotFound, SetAside
from qipan.server.hub import Hub, parse_player
from qipan.server.limits import client_key
from qipan.server.live import ANALYSIS_HISTORY
from qipan.server.meta import build_game
from qipan.server.ops import Ops
from qipan.server.store import BadRow, GameRow

log = logging.getLogger("qipan.server")

router = APIRouter()

MAX_STATE_CHARS = 16_384
"""Longest state a request may carry, as JSON (every game's states are far shorter)."""

HINT_LINES = 3
HINT_TIME = 1.0
"""What a hint asks of the engine: its best moves, and the seconds it may take."""

PER_WORKER = 4
"""Analyses this process lets wait or run at once, per AI worker (beyond: 503)."""
PER_CLIENT = 2
"""Analyses one client may have waiting or running at once in this process (beyond: 503)."""
WAIT = 30.0
"""Seconds an analysis may wait for a worker and run before its request gives up (503)."""

FINISHED_CACHE_BYTES = 64 * 2**20
"""About how much memory the positions of finished games kept for reviews may take (reviews ask
for them ply by ply; the least recently reviewed games are dropped beyond this). A game's share
is estimated by :func:`footprint`: a Sheng-Ke position takes about ten times an Abalone one."""


class AnalysisBusy(Busy):
    """This process is analysing as much as it allows, or the analysis did not finish (503)."""

    retry_after = 5


@dataclass(frozen=True)
class Finished:
    """A finished game as its reviews need it: its row (seats), game, moves and every state."""

    row: GameRow
    game: Game[Any, Any]
    moves: list[Move]
    states: list[Any]
    size: int = 0
    """The estimated bytes of ``states`` (:func:`footprint`)."""


class Analyst:
    """Analyses in the hub's AI workers (its thread pool when it has no worker processes),
    bounded per process and per client, and the finished games under review."""

    def __init__(self, hub: Hub):
        self.hub = hub
        workers = hub.ai_processes.workers if hub.ai_processes is not None else 1
        self.capacity = PER_WORKER * workers
        self.running: Counter[str] = Counter()
        self._finished: OrderedDict[str, Finished] = OrderedDict()
        self._loading = asyncio.Lock()

    async def run(self, request: AnalysisRequest, client: str) -> Any:
        """The engine's answer to ``request`` for ``client``: GameError for a position it cannot
        analyse, :class:`AnalysisBusy` when this process is full or the engine does not answer."""
        if sum(self.running.values()) >= self.capacity:
            raise AnalysisBusy("the server is analysing as much as it can right now; try again in a few seconds")
        if self.running[client] >= PER_CLIENT:
            raise AnalysisBusy(f"at most {PER_CLIENT} analyses at once; wait for the ones under way")
        self.running[client] += 1
        try:
            pool = self.hub.ai_processes
            if pool is not None:
                status, value = await asyncio.wait_for(pool.choose(request, ANALYSIS, client), WAIT)
            else:
                status, value = await asyncio.get_running_loop().run_in_executor(
                    self.hub.ai_pool, ai_pool.run_analysis, request)
        except TimeoutError:
            raise AnalysisBusy("the server is too busy to analyse this now; try again in a few seconds") from None
        finally:
            self.running[client] -= 1
            if not self.running[client]:
                del self.running[client]
        if status == "ok":
            return value
        if status == "refused":
            raise GameError(brief_text(str(value), 300))
        log.warning("an analysis failed: %s", brief_text(str(value), 300))
        raise AnalysisBusy("the analysis did not finish; try again, perhaps with less time")

    async def finished(self, game_id: str) -> Finished:
        """A finished game, read from the database (NotFound, Conflict while it is played or
        when it cannot be read back)."""
        cached = self._finished.get(game_id)
        if cached is not None:
            self._finished.move_to_end(game_id)
            return cached
        if game_id in self.hub.unavailable:
            raise SetAside(self.hub.unavailable[game_id])
        async with self._loading:  # (one read of a game reviewed by several requests at once)
            found = self._finished.get(game_id)
            if found is None:
                found = await asyncio.to_thread(self._read, game_id)
        self._finished[game_id] = found
        while sum(f.size for f in self._finished.values()) > FINISHED_CACHE_BYTES and len(self._finished) > 1:
            self._finished.popitem(last=False)
        return found

    def _read(self, game_id: str) -> Finished:
        store = self.hub.store
        try:
            row = store.game(game_id)
            if row is None:
                raise NotFound(f"there is no game {brief(game_id, 40)}")
            if row.finished is None:
                raise Conflict("a review is for a finished game; this one is still being played")
            moves = [Move(parse_player(m.player), m.text, m.time) for m in store.moves(game_id)]
            record = Record(row.game, row.variant, dict(row.options), row.seed, moves=moves)
            states = record.replay()
            return Finished(row, record.make_game(), moves, states, footprint(states))
        except BadRow as exc:
            raise Conflict(f"this game is unavailable: {exc.reason}") from None
        except GameError as exc:
            if isinstance(exc, NotFound | Conflict):
                raise
            raise Conflict("this game is unavailable: it cannot be replayed") from None


def footprint(states: Sequence[Any]) -> int:
    """An estimate of the bytes ``states`` take: the last one's size in memory (what it holds,
    counted once) times their number. States share much of what they hold, so this errs high."""
    return _size(states[-1], set()) * len(states) if states else 0


def _size(value: Any, seen: set[int]) -> int:
    if id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, Mapping):
        return size + sum(_size(k, seen) + _size(v, seen) for k, v in value.items())
    if isinstance(value, tuple | list | set | frozenset):
        return size + sum(_size(item, seen) for item in value)
    if hasattr(value, "__dict__"):
        return size + _size(vars(value), seen)
    slots = getattr(value, "__slots__", ())
    slots = (slots,) if isinstance(slots, str) else slots
    return size + sum(_size(getattr(value, slot), seen) for slot in slots if hasattr(value, slot))


def analyst_of(request: Request) -> Analyst:
    state = request.app.state
    if getattr(state, "analyst", None) is None or state.analyst.hub is not state.hub:
        state.analyst = Analyst(state.hub)
    analyst: Analyst = state.analyst
    return analyst


# -- positions --------------------------------------------------------------------------------------

def read_state(game: Game[Any, Any], data: object) -> Any:
    """The state a client sent (GameError with a short reason when it is not one of ``game``)."""
    if len(json.dumps(data)) > MAX_STATE_CHARS:
        raise GameError(f"a state is at most {MAX_STATE_CHARS} characters of JSON")
    try:
        state = game.state_from_json(data)
        position(game, state)  # (a state the game accepted must also be one it can show)
    except GameError as exc:
        raise GameError(brief_text(str(exc), 200)) from None
    except Exception:
        raise GameError(f"not a valid {game.title} state (docs/games says what its state JSON holds)") from None
    return state


def position(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """What anyone may see of a position set up by a client: who moves, the mover's view (a
    spectator's at a chance point or the end), the legal moves or chance outcomes, the result."""
    mover = game.to_move(state)
    if mover is None:
        result = {"returns": list(game.returns(state)), "text": game.result_text(state)}
        return {"to_move": None, "view": game.view(state, None), "legal": [], "result": result}
    if mover == CHANCE:
        return {"to_move": "chance", "view": game.view(state, None), "legal": game.legal_texts(state),
                "result": None}
    return {"to_move": mover, "view": game.view(state, mover), "legal": game.legal_texts(state), "result": None}


def step(game: Game[Any, Any], state: Any, text: str) -> tuple[Any, str]:
    """The state after ``text`` (``"random"`` at a chance point: an outcome drawn by chance),
    and the move's notation."""
    mover = game.to_move(state)
    if mover is None:
        raise GameError("the game is over in this position: no more moves")
    if mover == CHANCE and text == "random":
        action = game.sample_chance(state, random.SystemRandom())
        return game.next_state(state, action), game.action_text(state, action)
    action = game.parse_action(state, text)
    return game.apply(state, action), game.action_text(state, action)


def analysis_request(game: Game[Any, Any], view: dict[str, Any], lines: int, time: float, *,
                     include: tuple[str, ...] = (), review: bool = False, history: Sequence[dict[str, Any]] = (),
                     seed: int = 0) -> AnalysisRequest:
    """What the engine is given: the game's configuration and one player's views, never a state."""
    return AnalysisRequest(game.name, game.variant, dict(game.config), view, lines, float(time), include, review,
                           tuple(history[-ANALYSIS_HISTORY:]), seed)


@router.post("/api/position", response_model=models.Stepped, response_model_exclude_unset=True,
             responses=models.errors(400, *models.CHANGES), dependencies=[limited("position")])
async def post_position(spec: models.PositionRequest) -> dict[str, Any]:
    """A position (``state``; default: the initial one) and, with ``move``, the one after it: for
    the analysis board, no live game needed. At a chance point ``legal`` lists the outcomes (pick
    one; ``"random"`` draws one)."""
    game = build_game(spec.model_dump())
    state = game.initial_state() if spec.state is None else read_state(game, spec.state)
    played = None
    if spec.move is not None:
        state, played = step(game, state, spec.move)
    answer = {**position(game, state), "state": game.state_to_json(state)}
    if played is not None:
        answer["move"] = played
    return answer


@router.post("/api/analyse", response_model=models.Analysed, responses=models.errors(400, *models.CHANGES),
             dependencies=[limited("analyse")])
async def post_analyse(request: Request, spec: models.AnalyseRequest) -> dict[str, Any]:
    """Engine lines for the player to move in a position set up by the client (null when nobody
    decides there: a chance point, the end)."""
    game = build_game(spec.model_dump())
    if spec.state is None:
        raise GameError(models.FIELD_MESSAGES["state"])
    state = read_state(game, spec.state)
    shown = position(game, state)
    found = None
    if isinstance(shown["to_move"], int):
        request_ = analysis_request(game, shown["view"], spec.lines, spec.time)
        found = await analyst_of(request).run(request_, client_key(request.scope))
    return {"position": shown, "analysis": found}


# -- games ------------------------------------------------------------------------------------------

@router.post("/api/games/{game_id}/review/{ply}", response_model=models.Reviewed,
             responses=models.errors(400, 403, 404, 409, *models.CHANGES), dependencies=[limited("analyse")])
async def post_review(request: Request, game_id: models.GameId, ply: int, body: models.ReviewRequest
                      ) -> dict[str, Any]:
    """The decision at ``ply`` of a finished game (the position after ``ply`` recorded actions):
    the best line, the line of the move played, and a verdict. In a game of hidden information
    only for the seat whose decision it was (its token), from its own view."""
    analyst = analyst_of(request)
    done = await analyst.finished(game_id)
    game, states = done.game, done.states
    if not 0 <= ply < len(done.moves):
        raise NotFound(f"ply must be 0..{len(done.moves) - 1} (a decision of this game), not {ply}")
    mover = game.to_move(states[ply])
    if mover == CHANCE or mover is None:
        raise GameError(f"ply {ply} is a chance outcome, not a decision")
    if not game.perfect_information:
        check_decider(done, mover, body.token)
    state = states[ply]
    played = game.action_text(state, game.parse_action(state, done.moves[ply].text))
    history = [game.view(s, mover) for s in states[max(0, ply - ANALYSIS_HISTORY):ply]]
    asked = analysis_request(game, game.view(state, mover), 1, body.time, include=(played,), review=True,
                             history=history, seed=ply)
    answer: dict[str, Any] = await analyst.run(asked, client_key(request.scope))
    return {"ply": ply, "player": mover, "move": played, **answer}


def check_decider(done: Finished, mover: int, token: str | None) -> None:
    """Raise AuthError unless ``token`` is the seat token of ``mover``."""
    seats = done.row.seats
    if token is None or not any(info["kind"] == "human" and check_token(info.get("token"), token) for info in seats):
        raise AuthError("in a game of hidden information only the player whose decision it was may review it: "
                        "send that seat's token")
    if not (0 <= mover < len(seats) and check_token(seats[mover].get("token"), token)):
        raise AuthError(f"this is {done.game.player_name(mover)}'s decision: only that player may review it")


@router.post("/api/games/{game_id}/hint", response_model=models.Hint,
             responses=models.errors(400, 403, 404, 409, *models.CHANGES), dependencies=[limited("analyse")])
async def post_hint(request: Request, game_id: models.GameId, body: models.HintRequest) -> dict[str, Any]:
    """The engine's best moves for your current decision, from your own view, in a game created
    with hints (each hint is counted in the game's summary)."""
    ops: Ops = request.app.state.ops
    asked: Mapping[str, Any] = await ops.run("hint", game_id, {"token": body.token})
    game = build_game(asked)
    hint = analysis_request(game, asked["view"], HINT_LINES, HINT_TIME, history=asked["history"])
    found = await analyst_of(request).run(hint, client_key(request.scope))
    return {"analysis": found, "ply": asked["ply"]}
