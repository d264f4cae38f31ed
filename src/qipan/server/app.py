"""The ASGI app: JSON API, one WebSocket per connection, and the web client's static files.

>>> from fastapi.testclient import TestClient
>>> import tempfile, pathlib
>>> db = pathlib.Path(tempfile.mkdtemp()) / "doc.db"
>>> with TestClient(create_app(f"sqlite:///{db}")) as client:
...     reply = client.post("/api/games", json={"game": "abalone"})
...     reply.status_code, reply.json()["seats"][0]["name"]
(201, 'black')
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from qipan.core import GameError, load
from qipan.core.clock import TimeControl
from qipan.core.errors import brief, brief_text
from qipan.server import meta as meta_module
from qipan.server import models
from qipan.server.analysis import router as analysis_router
from qipan.server.edge import Edge, limited, redact_logs
from qipan.server.errors import AuthError, Busy, Conflict, NotFound, SetAside
from qipan.server.expiry import IDLE, UNSTARTED, Expiry
from qipan.server.hub import MAX_AI_GAMES, MAX_PLIES, Hub, check_hints, creator_seat, seat_specs, unavailable_summary
from qipan.server.limits import Guard, Limits, RateLimited, RateLimiter, client_key, retry_after
from qipan.server.lobby import Lobby, listed
from qipan.server.lobby import router as lobby_router
from qipan.server.names import check_name
from qipan.server.ops import Ops, created_reply
from qipan.server.puzzles import router as puzzles_router
from qipan.server.seats import seat_summary
from qipan.server.socket import router as socket_router
from qipan.server.store import SQLITE_SYNC, BadRow, GameRow, StorageUnavailable, Store, normalise_url, safe_url
from qipan.server.tutorials import router as tutorials_router

if TYPE_CHECKING:
    from qipan.server.cluster import Cluster

log = logging.getLogger("qipan.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def create_app(
    db_url: str | None = None,
    *,
    ai_delay: float = 0.4,
    ai_workers: int = 2,
    ai_processes: bool = True,
    sqlite_sync: str = "normal",
    web_dir: Path | None = None,
    limits: Limits | None = None,
    allow_origins: Sequence[str] = (),
    allow_hosts: Sequence[str] | None = None,
    rate_limiter: RateLimiter | None = None,
    all_ai_workers: int | None = None,
    unstarted_timeout: float = UNSTARTED,
    idle_timeout: float = IDLE,
    max_plies: int = MAX_PLIES,
    max_ai_games: int = MAX_AI_GAMES,
    redis_url: str | None = None,
) -> FastAPI:
    """The qipan server. ``db_url``: a SQLAlchemy URL, a SQLite file path, or None for
    ``qipan.db`` in the user's data directory. ``ai_delay``: seconds an AI waits before moving,
    so people can follow AI moves. AI seats think in ``ai_workers`` worker processes (threads
    with ``ai_processes=False``: same results, but an AI then competes with the server for the
    interpreter lock). ``sqlite_sync``: ``"normal"`` (commits survive the process being killed)
    or ``"full"`` (they also survive power loss; slower). ``limits``: sizes, rates, caps and
    timers of the HTTP and WebSocket edge (:class:`qipan.server.limits.Limits`; its defaults when
    None). ``allow_origins``: web origins besides the server's own that may change state and open
    WebSockets. ``allow_hosts``: the host names requests may name in ``Host`` (None: any;
    ``qipan serve`` on loopback allows only localhost names, against DNS rebinding).
    ``rate_limiter``: where rate-limit buckets live (default: in this process).
    ``all_ai_workers``: how many AI workers may think for all-AI games at once (default: half,
    at least 1; games with a human seat always go first). ``unstarted_timeout``: seconds without
    a move before a game in which some human has not moved yet is aborted; ``idle_timeout``:
    before a started game is lost by the player to move (:mod:`qipan.server.expiry`; 0: never).
    ``max_plies``: moves after which a game ends as a draw; ``max_ai_games``: games between AIs
    that may run at once (a creation beyond it answers 503).

    ``redis_url`` (``redis://`` or ``rediss://``): cluster mode, one of several processes sharing a
    PostgreSQL database and this Redis (:mod:`qipan.server.cluster`, :mod:`qipan.server.relay`,
    :mod:`qipan.server.ops`); needs redis-py (``pip install 'qipan[scale]'``)."""
    url = normalise_url(db_url)
    if redis_url is not None:
        check_cluster(url, redis_url)
    web = web_dir or WEB_DIR
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync!r}")
    expiry = Expiry(unstarted=unstarted_timeout, idle=idle_timeout)
    if all_ai_workers is not None and not 1 <= all_ai_workers <= ai_workers:
        raise ValueError(f"all_ai_workers must be 1..{ai_workers} (the AI workers), not {all_ai_workers}")
    if not 1 <= max_plies <= 10**6 or not 0 <= max_ai_games <= 10**5:
        raise ValueError("max_plies must be 1..1000000 and max_ai_games 0..100000")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url, sqlite_sync)
        cluster = None
        if redis_url is not None:
            from qipan.server.cluster import Cluster

            cluster = Cluster(store)
        elif store.engine.dialect.name == "postgresql":
            from qipan.server.cluster import check_alone
            from qipan.server.store import StoreError

            try:
                await asyncio.to_thread(check_alone, store)
            except StoreError as exc:
                store.close()
                raise RuntimeError(str(exc)) from None
        hub = Hub(store, ai_delay=ai_delay, ai_workers=ai_workers, ai_processes=ai_processes,
                  all_ai_workers=all_ai_workers, expiry=expiry, max_plies=max_plies,
                  max_ai_games=max_ai_games, cluster=cluster)
        app.state.hub = hub
        app.state.lobby = Lobby(hub)
        redact_logs()
        if cluster is None:
            app.state.ops = Ops(hub)
            resumed = await hub.resume_all()
            log.info("qipan server ready (%s); resumed %d unfinished game(s)", safe_url(url), resumed)
            try:
                yield
            finally:
                await hub.close()
            return
        assert redis_url is not None
        async with clustered(app, hub, cluster, redis_url):
            log.info("qipan server ready (%s, %s); server process %s", safe_url(url), safe_url(redis_url),
                     cluster.id)
            yield

    app = FastAPI(title="qipan", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json",
                  redoc_url=None)
    app.state.db_url = url
    app.openapi = functools.partial(_openapi_without_422, app, app.openapi)  # type: ignore[method-assign]
    guard = Guard(limits or Limits(), rate_limiter) if rate_limiter is not None else Guard(limits or Limits())
    app.state.guard = guard
    app.add_middleware(Edge, guard=guard, allow_origins=allow_origins, docs_path="/api/docs",
                       allow_hosts=allow_hosts)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # -- errors: always {"error": "..."} ------------------------------------------------------------

    @app.exception_handler(GameError)
    async def game_error(_request: Request, exc: GameError) -> JSONResponse:
        if isinstance(exc, Busy):  # (an unreachable owner's lease lapses within 5 s)
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": str(exc.retry_after)})
        status = 403 if isinstance(exc, AuthError) else 409 if isinstance(exc, Conflict) else \
            404 if isinstance(exc, NotFound) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 405:  # Starlette's Allow names only the first route for the path
            return method_not_allowed(request)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": models.validation_message(exc.errors())}, status_code=400)

    @app.exception_handler(RateLimited)
    async def rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=429, headers={"Retry-After": retry_after(exc.wait)})

    @app.exception_handler(StorageUnavailable)
    async def database_unavailable(_request: Request, exc: StorageUnavailable) -> JSONResponse:
        return JSONResponse({"error": exc.public}, status_code=503)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal server error"}, status_code=500)

    errors = models.errors

    # -- API ---------------------------------------------------------------------------------------

    app.include_router(tutorials_router)  # (before the /api catch-all: it has a GET route)
    app.include_router(puzzles_router)  # (likewise)

    @app.get("/api/meta", response_model=models.Meta, responses=errors(*models.EDGE))
    async def get_meta() -> dict[str, Any]:
        """Every game: variants, options with their ranges, player counts, AI levels."""
        return meta_module.meta()

    @app.post("/api/describe", response_model=models.Description, responses=errors(400, *models.CHANGES))
    async def describe(spec: models.GameSpec) -> dict[str, Any]:
        """One configuration: its resolved options, players, AI levels and time limit."""
        body = spec.model_dump()
        return meta_module.describe(meta_module.build_game(body), body.get("options"))

    @app.post("/api/games", status_code=201, response_model=models.Created, response_model_exclude_unset=True,
              responses=errors(400, *models.CHANGES), dependencies=[limited("create")])
    async def create_game(request: Request, spec: models.CreateGame) -> dict[str, Any]:
        """Start a game. A ``seed`` is refused: the server draws every game's secret itself (a seed
        known before move 1 reveals every shuffle and roll)."""
        name = check_name(spec.name)
        game = meta_module.build_game(spec.model_dump())
        seats = seat_specs(game, None if spec.seats is None else [s.model_dump(exclude_none=True) for s in spec.seats])
        creator = creator_seat(seats, spec.seat)
        if spec.hints:
            check_hints(seats)
        clock = None if spec.clock is None else TimeControl(spec.clock.base, spec.clock.increment)
        lobby: Lobby = request.app.state.lobby
        # 429 when this client has enough open public games: one client may not fill the lobby
        # (part of the creation limit: off with it)
        capped = spec.public and guard.limits.create_rate is not None
        async with lobby.opening(client_key(request.scope)) if capped else contextlib.nullcontext() as opened:
            live, token, invites = await hub_of(request).create(game, seats, creator, name, spec.public, clock,
                                                                spec.hints)
            if opened is not None:
                opened(live.id)
        return created_reply(live, creator, token, invites)

    @app.get("/api/games", response_model=list[models.Summary], response_model_exclude_unset=True,
             responses=errors(400, *models.EDGE))
    async def list_games(
        request: Request,
        status: Literal["open", "playing", "finished"] | None = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        """Summaries of the newest public games (invite-only games are listed nowhere): ``open``
        (a seat anyone may take), ``playing`` (really in play: every seat taken, and a player
        connected or a move within the last 10 minutes), ``finished``, or all of them. An inline
        option value (a Sheng-Ke deck) is named, ``{"name", "sha256"}``: the game's summary holds it."""
        hub = hub_of(request)
        if status in ("open", "playing"):
            lobby: Lobby = request.app.state.lobby
            return await lobby.games(status, limit)
        finished = None if status is None else status == "finished"
        rows = await asyncio.to_thread(hub.store.list_games, finished, limit, True)
        summaries = []
        for row, n in rows:
            game_id = row.game_id if isinstance(row, BadRow) else row.id
            live = hub.games.get(game_id)
            if live is not None:
                summaries.append(live.summary())
            elif game_id in hub.unavailable:
                summaries.append(hub.unavailable[game_id])
            elif isinstance(row, BadRow):
                summaries.append(unavailable_summary(row, row.reason))
            else:
                summaries.append(_row_summary(row, n))
        return [listed(summary) for summary in summaries]  # inline decks named, not sent

    async def run(request: Request, operation: str, game_id: str, **args: Any) -> Any:
        """Operation ``operation`` (:mod:`qipan.server.ops`) on the game, where it is played."""
        ops: Ops = request.app.state.ops
        return await ops.run(operation, game_id, args)

    @app.get("/api/games/{game_id}", response_model=models.Summary, response_model_exclude_unset=True,
             responses=errors(400, 404, *models.EDGE))
    async def get_game(request: Request, game_id: models.GameId) -> dict[str, Any]:
        try:
            summary: dict[str, Any] = await run(request, "summary", game_id)
        except SetAside as exc:
            return exc.summary
        return summary

    @app.get("/api/games/{game_id}/record", response_model=models.GameRecord, response_model_exclude_unset=True,
             responses=errors(400, 404, 409, *models.EDGE))
    async def get_record(request: Request, response: Response, game_id: models.GameId,
                         download: bool = False) -> dict[str, Any]:
        """The whole ``qipan-record/1`` record (hidden outcomes and the secret too), once the game
        is over; ``?download=1`` asks the browser to save it as a file."""
        record: dict[str, Any] = await run(request, "record", game_id)
        if download:
            response.headers["Content-Disposition"] = attachment(record["game"], game_id, "json")
        return record

    @app.get("/api/games/{game_id}/record.txt", response_model=None,
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "the record as people read it"},
                        **errors(400, 404, 409, *models.EDGE)})
    async def get_record_text(request: Request, game_id: models.GameId, download: bool = False) -> PlainTextResponse:
        """The record as text: header lines (game, players, clock, result), then the moves, paired
        under one number in two-player games. Available when the JSON record is."""
        answer = await run(request, "record_text", game_id)
        headers = {"Content-Disposition": attachment(answer["game"], game_id, "txt")} if download else None
        return PlainTextResponse(answer["text"], headers=headers)

    @app.get("/api/games/{game_id}/replay/{ply}", response_model=models.Frame, response_model_exclude_unset=True,
             responses=errors(400, 404, *models.EDGE))
    async def replay_frame(request: Request, game_id: models.GameId, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves, as a spectator sees it."""
        frame: dict[str, Any] = await run(request, "frame", game_id, ply=ply)
        return frame

    @app.post("/api/games/{game_id}/rematch", status_code=201, response_model=models.Rematch,
              response_model_exclude_unset=True, responses=errors(400, 404, 409, *models.CHANGES),
              dependencies=[limited("create")])
    async def rematch(request: Request, game_id: models.GameId, body: models.RematchRequest) -> dict[str, Any]:
        """The rematch of a finished game (the same one for every player who asks), with the
        requester's seat and link."""
        created: dict[str, Any] = await run(request, "rematch", game_id, token=body.token, name=body.name)
        return created

    @app.post("/api/games/{game_id}/claim", response_model=models.Claimed, responses=errors(400, 403, 404, 409,
              *models.CHANGES), dependencies=[limited("join")])
    async def claim(request: Request, game_id: models.GameId, body: models.ClaimRequest) -> dict[str, Any]:
        """Take the seat an invitation is for: its token (every invitation works once)."""
        claimed: dict[str, Any] = await run(request, "claim", game_id, invite=body.invite, name=check_name(body.name),
                                            options=body.options)
        return claimed

    @app.post("/api/games/{game_id}/join", response_model=models.Claimed, responses=errors(400, 403, 404, 409,
              *models.CHANGES), dependencies=[limited("join")])
    async def join(request: Request, game_id: models.GameId, body: models.JoinRequest) -> dict[str, Any]:
        """Take a free seat of a public game (``seat``, or the first free one): its token. 403 for
        an invite-only game, 409 when no seat is free or the game is over."""
        taken: dict[str, Any] = await run(request, "join", game_id, name=check_name(body.name), seat=body.seat,
                                          options=body.options)
        return taken

    @app.post("/api/games/{game_id}/invites", response_model=models.Invites, responses=errors(400, 403, 404,
              *models.CHANGES), dependencies=[limited("join")])
    async def reissue_invites(request: Request, game_id: models.GameId, body: models.InvitesRequest) -> dict[str, Any]:
        """New invitations for every seat nobody has claimed (the old ones stop working); only
        the creator's token may ask."""
        invites: dict[str, Any] = await run(request, "invites", game_id, token=body.token)
        return invites

    @app.get("/api/{rest:path}", include_in_schema=False)
    async def api_not_found(request: Request, rest: str) -> JSONResponse:
        if allowed_methods(request, api_only=True):
            return method_not_allowed(request)
        return JSONResponse({"error": f"no API endpoint /api/{_shown(rest)}"}, status_code=404)

    def allowed_methods(request: Request, api_only: bool = False) -> list[str]:
        """The methods served at this path: by the API routes for it if there are any (not the
        catch-alls), else (unless ``api_only``) by the web client's."""
        routes = [route for route in api_routes(app.router.routes)
                  if route.endpoint is not api_not_found and route.matches(request.scope)[0] is not Match.NONE]
        documented = [route for route in routes if route.include_in_schema]
        return sorted({method for route in (documented if api_only else documented or routes)
                       for method in route.methods or ()})

    def method_not_allowed(request: Request) -> JSONResponse:
        allowed = allowed_methods(request)
        return JSONResponse({"error": f"use {' or '.join(allowed)} for {_shown(request.url.path)}"},
                            status_code=405, headers={"Allow": ", ".join(allowed)})

    app.include_router(analysis_router)
    app.include_router(socket_router)
    app.include_router(lobby_router)

    # -- the web client ------------------------------------------------------------------------------

    def web_file(path: str) -> Path | None:
        if len(path) > MAX_WEB_PATH or "\0" in path:
            return None  # no such file; the operating system would refuse the name with an error
        root = web.resolve()
        for base in (root / "static", root) if path else (root,):
            try:
                candidate = (base / path).resolve() if path else root / "index.html"
                if candidate.is_relative_to(root) and candidate.is_file():
                    return candidate
            except OSError:  # e.g. a path component longer than the file system allows
                continue
        return None

    def index() -> Response:
        page = web_file("")
        if page is None:
            return JSONResponse({"error": "the web client is not installed (src/qipan/web/index.html)"},
                                status_code=404)
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        return index()

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> Response:
        return index()

    @app.get("/analysis", include_in_schema=False)
    async def analysis_page() -> Response:
        return index()  # the web client's analysis board (js/analysisboard.js)

    @app.get("/learn", include_in_schema=False)
    async def learn_page() -> Response:
        return index()  # the web client's tutorials (js/tutorial.js)

    @app.get("/puzzles", include_in_schema=False)
    @app.get("/puzzles/{puzzle_id}", include_in_schema=False)
    async def puzzles_page(puzzle_id: str = "") -> Response:
        return index()  # the web client's puzzles (js/puzzles.js)

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static(path: str) -> Response:
        found = web_file(path)
        if found is None:
            return JSONResponse({"error": f"no file /static/{_shown(path)}"}, status_code=404)
        return FileResponse(found, headers={"Cache-Control": "no-cache"})

    @app.get("/{path:path}", include_in_schema=False)
    async def other_file(path: str) -> Response:
        found = web_file(path) if path else None
        if found is None:
            return JSONResponse({"error": f"no page /{_shown(path)}"}, status_code=404)
        return FileResponse(found, headers={"Cache-Control": "no-cache"})

    return app


REDIS_NEEDS_POSTGRES = "--redis needs a PostgreSQL --db (several processes share it)"


def check_cluster(db_url: str, redis_url: str) -> None:
    """Refuse cluster mode where it cannot work, in one line without the password: ValueError
    for a database other processes cannot share (``db_url`` normalised) or a URL that is not
    Redis's, ImportError when redis-py is missing."""
    import importlib.util

    from qipan.server.bus import MISSING

    if not db_url.startswith("postgresql"):
        raise ValueError(REDIS_NEEDS_POSTGRES)
    if not redis_url.startswith(("redis://", "rediss://")):
        raise ValueError(f"--redis {brief_text(safe_url(redis_url), 60)} is not a Redis URL; use "
                         "redis://:PASSWORD@HOST:PORT/DB, or rediss://… for TLS")
    if importlib.util.find_spec("redis") is None:
        raise ImportError(MISSING)


@contextlib.asynccontextmanager
async def clustered(app: FastAPI, hub: Hub, cluster: Cluster, redis_url: str) -> AsyncIterator[None]:
    """Run ``hub`` as one process of a cluster: Redis (``app.state.redis``, shared with whatever
    else needs it), the bus to the other processes, relayed WebSockets and operations on games
    owned elsewhere; on the way out, hand every game over and tell relayed clients to reconnect."""
    from qipan.server.bus import Bus, redis_client
    from qipan.server.relay import Relay
    from qipan.server.shared import share

    app.state.redis = redis_client(redis_url)
    shared = share(app.state, app.state.redis)  # the limits, the lobby lists
    bus = app.state.bus = Bus(redis_url, lambda: cluster.id)
    cluster.reachable = lambda: bus.up  # no takeovers while the others cannot relay to this process
    relay = app.state.relay = Relay(bus, cluster.alive, app.state)
    app.state.ops = Ops(hub, bus)
    try:
        await bus.start()  # listening before registering: the others may relay at once
        await cluster.start()
        relay.start()
        await hub.resume_all()  # (in cluster mode: the expiry watch; the sweeper resumes games)
        yield
    finally:
        await shared.close()
        await relay.close()
        await hub.close()
        await bus.close()
        await app.state.redis.aclose()


def api_routes(routes: Iterable[Any]) -> Iterator[APIRoute]:
    """The API routes among ``routes``, those of included routers too (FastAPI keeps an included
    router as one entry holding its ``original_router``)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from api_routes(included.routes)


def attachment(game: str, game_id: str, extension: str) -> str:
    """A Content-Disposition that saves a game's record as ``qipan-<game>-<id>.<extension>``."""
    return f'attachment; filename="qipan-{game}-{game_id}.{extension}"'


def _row_summary(row: GameRow, moves: int) -> dict[str, Any]:
    """The lobby's summary of a game that is not in memory, from its stored row; one whose stored
    values do not make a summary shows as unavailable."""
    options = json.dumps(row.options, sort_keys=True)
    names = _seat_names(row.game, row.variant, options) if len(options) <= MAX_OPTIONS_TEXT else ()
    if len(names) != len(row.seats):
        return unavailable_summary(row, "its stored settings or seats do not fit any game")
    summary = {
        "id": row.id, "game": row.game, "variant": row.variant, "options": row.options,
        "seats": [seat_summary(i, names[i], s, False) for i, s in enumerate(row.seats)],
        "status": "finished" if row.finished is not None else "playing",
        "result": row.result, "moves": moves, "created": row.created, "public": row.public,
        "clock": {k: v for k, v in row.clock.items() if k in ("base", "increment")} if row.clock else None,
        "hints": row.hints, "hints_used": row.hints_used,
    }
    try:
        models.Summary.model_validate(summary)
    except ValueError:
        return unavailable_summary(row, "its stored result or seats are damaged")
    return summary


def _shown(path: str) -> str:
    """A requested path for a message, unquoted and cut short (never the whole of a long one).

    >>> _shown("js/app.js"), _shown("x" * 500)
    ('js/app.js', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (more than 120 characters)')
    """
    text = brief(path, 60)
    return text[1:-1] if text[-1:] == text[:1] else text[1:]


MAX_WEB_PATH = 255
"""Longest path below the web client's directory looked up as a file (its files' are far shorter)."""

MAX_OPTIONS_TEXT = 32_768
"""Longest stored options (as JSON) the lobby builds a game from to name its seats (two inline
Sheng-Ke decks of up to 4,096 characters each, escaped, fit)."""


@functools.lru_cache(maxsize=256)
def _seat_names(game: str, variant: str, options: str) -> tuple[str, ...]:
    try:
        built = load(game, variant, json.loads(options))
    except Exception:
        return ()
    return tuple(built.player_name(p) for p in range(built.num_players))


def _openapi_without_422(app: FastAPI, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """FastAPI's schema less the 422 it documents for every route: bad input is answered 400."""
    if app.openapi_schema is None:
        schema = build()
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                operation.get("responses", {}).pop("422", None)
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = schema
    return app.openapi_schema


