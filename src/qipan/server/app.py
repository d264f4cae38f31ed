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
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from qipan.core import GameError, load
from qipan.server import meta as meta_module
from qipan.server.errors import AuthError, Conflict, NotFound
from qipan.server.hub import Hub, seat_specs
from qipan.server.live import LiveGame, play_url
from qipan.server.socket import router as socket_router
from qipan.server.store import SQLITE_SYNC, Store, normalise_url

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
) -> FastAPI:
    """The qipan server. ``db_url``: a SQLAlchemy URL, a SQLite file path, or None for
    ``qipan.db`` in the user's data directory. ``ai_delay``: seconds an AI waits before moving,
    so people can follow AI moves. AI seats think in ``ai_workers`` worker processes (threads
    with ``ai_processes=False``: same results, but an AI then competes with the server for the
    interpreter lock). ``sqlite_sync``: ``"normal"`` (commits survive the process being killed)
    or ``"full"`` (they also survive power loss; slower)."""
    url = normalise_url(db_url)
    web = web_dir or WEB_DIR
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync!r}")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(Store(url, sqlite_sync), ai_delay=ai_delay, ai_workers=ai_workers, ai_processes=ai_processes)
        app.state.hub = hub
        resumed = await hub.resume_all()
        log.info("qipan server ready (%s); resumed %d unfinished game(s)", _safe_url(url), resumed)
        try:
            yield
        finally:
            await hub.close()

    app = FastAPI(title="qipan", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json",
                  redoc_url=None)
    app.state.db_url = url

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # -- errors: always {"error": "..."} ------------------------------------------------------------

    @app.exception_handler(GameError)
    async def game_error(_request: Request, exc: GameError) -> JSONResponse:
        status = 403 if isinstance(exc, AuthError) else 409 if isinstance(exc, Conflict) else \
            404 if isinstance(exc, NotFound) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": f"bad request: {exc.errors()}"}, status_code=400)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal server error"}, status_code=500)

    async def json_body(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise GameError("the request body must be a JSON object") from None
        if not isinstance(body, dict):
            raise GameError("the request body must be a JSON object")
        return body

    # -- API ---------------------------------------------------------------------------------------

    @app.get("/api/meta")
    async def get_meta() -> dict[str, Any]:
        return meta_module.meta()

    @app.post("/api/describe")
    async def describe(request: Request) -> dict[str, Any]:
        return meta_module.describe(meta_module.build_game(await json_body(request)))

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        body = await json_body(request)
        game = meta_module.build_game(body)
        seats = seat_specs(game, body.get("seats"))
        if "seed" in body:
            # A seed known before move 1 reveals every shuffle and roll: the server draws each
            # game's secret itself (local play, the engine protocol and tests keep seeds).
            raise GameError('"seed" is not accepted: the server draws every game\'s secret itself')
        live, tokens = await hub_of(request).create(game, seats, None)
        return created_reply(live, tokens)

    @app.get("/api/games")
    async def list_games(request: Request, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        if status not in (None, "playing", "finished"):
            raise GameError('status must be "playing" or "finished" (or left out for both)')
        if not 1 <= limit <= 1000:
            raise GameError("limit must be 1..1000")
        hub = hub_of(request)
        finished = None if status is None else status == "finished"
        rows = await asyncio.to_thread(hub.store.list_games, finished, limit)
        summaries = []
        for row, n in rows:
            live = hub.games.get(row.id)
            if live is not None:
                summaries.append(live.summary())
                continue
            summaries.append({
                "id": row.id, "game": row.game, "variant": row.variant, "options": row.options,
                "seats": [{"seat": i, "name": _seat_name(row.game, row.variant, row.options, i),
                           "kind": s["kind"], "level": s.get("level"), "connected": s["kind"] == "ai"}
                          for i, s in enumerate(row.seats)],
                "status": "finished" if row.finished is not None else "playing",
                "result": row.result, "moves": n, "created": row.created,
            })
        return summaries

    @contextlib.asynccontextmanager
    async def game_for(request: Request, game_id: str) -> AsyncIterator[LiveGame]:
        """The game, loaded for this request and released afterwards if it is over and unwatched."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        try:
            yield live
        finally:
            hub.release(live)

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        async with game_for(request, game_id) as live:
            return live.summary()

    @app.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> dict[str, Any]:
        async with game_for(request, game_id) as live:
            if not live.match.over:
                raise Conflict("the record is available once the game is over (it would reveal hidden information)")
            record: dict[str, Any] = live.match.record().to_json()
            record["id"] = live.id
            return record

    @app.get("/api/games/{game_id}/replay/{ply}")
    async def replay_frame(request: Request, game_id: str, ply: int) -> dict[str, Any]:
        async with game_for(request, game_id) as live:
            return live.frame(ply)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(request: Request, game_id: str) -> dict[str, Any]:
        body = await json_body(request)
        async with game_for(request, game_id) as live:
            new, seat, token = await hub_of(request).rematch(live, body.get("token"))
        tokens: list[str | None] = [None] * len(new.row.seats)
        tokens[seat] = token
        reply = created_reply(new, tokens)
        reply["seat"], reply["url"] = seat, play_url(new.id, seat, token)
        return reply

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
    async def api_not_found(rest: str) -> JSONResponse:
        return JSONResponse({"error": f"no API endpoint /api/{rest}"}, status_code=404)

    app.include_router(socket_router)

    # -- the web client ------------------------------------------------------------------------------

    def web_file(path: str) -> Path | None:
        root = web.resolve()
        for base in (root / "static", root) if path else (root,):
            candidate = (base / path).resolve() if path else root / "index.html"
            if candidate.is_relative_to(root) and candidate.is_file():
                return candidate
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

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static(path: str) -> Response:
        found = web_file(path)
        if found is None:
            return JSONResponse({"error": f"no file /static/{path}"}, status_code=404)
        return FileResponse(found, headers={"Cache-Control": "no-cache"})

    @app.get("/{path:path}", include_in_schema=False)
    async def other_file(path: str) -> Response:
        found = web_file(path) if path else None
        if found is None:
            return JSONResponse({"error": f"no page /{path}"}, status_code=404)
        return FileResponse(found, headers={"Cache-Control": "no-cache"})

    return app


def created_reply(live: LiveGame, tokens: list[str | None]) -> dict[str, Any]:
    seats = []
    for summary, token in zip(live.seat_summaries(), tokens, strict=True):
        entry: dict[str, Any] = {k: summary[k] for k in ("seat", "name", "kind", "level")}
        if summary["kind"] == "human":
            entry["token"] = token
            entry["url"] = play_url(live.id, summary["seat"], token) if token else None
        seats.append(entry)
    return {"id": live.id, "game": live.game.name, "seats": seats, "spectator_url": play_url(live.id)}


@functools.lru_cache(maxsize=256)
def _seat_names(game: str, variant: str, options: str) -> tuple[str, ...]:
    try:
        built = load(game, variant, json.loads(options))
    except Exception:
        return ()
    return tuple(built.player_name(p) for p in range(built.num_players))


def _seat_name(game: str, variant: str, options: dict[str, Any], seat: int) -> str:
    names = _seat_names(game, variant, json.dumps(options, sort_keys=True))
    return names[seat] if seat < len(names) else f"player {seat + 1}"


def _safe_url(url: str) -> str:
    """The database URL without a password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url

