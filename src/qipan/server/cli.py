"""``qipan serve``: run the server under uvicorn."""

from __future__ import annotations

import logging
from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Database: a SQLite file path, sqlite:///FILE, or postgresql://user:pass@host/db. "
                          "Default: qipan.db in your user data directory."),
    ] = None,
    ai_delay: Annotated[float, typer.Option(help="Seconds an AI seat waits before moving.")] = 0.4,
    ai_workers: Annotated[int, typer.Option(help="Worker processes in which AI seats think.", min=1)] = 2,
    sqlite_sync: Annotated[
        str,
        typer.Option(help="SQLite commits: normal (safe when the server is killed) or full (fsync every "
                          "commit: safe on power loss too, slower)."),
    ] = "normal",
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the web client, the API and live games; open the printed URL in a browser."""
    import uvicorn

    from qipan.server.app import _safe_url, create_app
    from qipan.server.store import normalise_url

    if sqlite_sync not in ("normal", "full"):
        raise typer.BadParameter("--sqlite-sync must be normal or full")
    url = normalise_url(db)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s:     %(message)s")
    app = create_app(url, ai_delay=ai_delay, ai_workers=ai_workers, sqlite_sync=sqlite_sync)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(f"qipan: open http://{shown}:{port}/ in your browser (database: {_safe_url(url)})")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20,
                ws_ping_timeout=20)
