"""``qipan serve``: run the server under uvicorn."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from qipan.cli.numbers import number_option, whole_option
from qipan.server.expiry import IDLE, MAX_TIMER, UNSTARTED
from qipan.server.hub import MAX_AI_GAMES, MAX_PLIES
from qipan.server.limits import Limits, Rate

DEFAULTS = Limits()
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _rate(text: str) -> str:
    """Check a ``COUNT/SECONDS`` or ``off`` option while typer parses it."""
    try:
        Rate.parse(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return text


def _rate_option(what: str) -> typer.models.OptionInfo:
    info: typer.models.OptionInfo = typer.Option(
        help=f"{what}: COUNT/SECONDS (a burst of COUNT, refilled at COUNT per SECONDS), or off.", callback=_rate)
    return info


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")] = "127.0.0.1",
    port: Annotated[int, whole_option(help="TCP port to listen on.", minimum=1, maximum=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Database: a SQLite file path, sqlite:///FILE, or postgresql://user:pass@host/db "
                          "(with a password, set QIPAN_DB instead: a command line is visible to every user of "
                          "the machine). Default: qipan.db in your user data directory.", envvar="QIPAN_DB"),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis, e.g. redis://:PASSWORD@HOST:6379/0 (rediss:// for TLS): run as one of several "
                          "server processes sharing the PostgreSQL --db behind a load balancer (pip install "
                          "'qipan\\[scale]'). Set QIPAN_REDIS instead to keep the password off the command "
                          "line. Default: a single process.", envvar="QIPAN_REDIS"),
    ] = None,
    ai_delay: Annotated[float, number_option(help="Seconds an AI seat waits before moving.", minimum=0,
                                             maximum=60)] = 0.4,
    ai_workers: Annotated[int, whole_option(help="Worker processes in which AI seats think.", minimum=1,
                                            maximum=64)] = 2,
    all_ai_workers: Annotated[
        int | None,
        whole_option(help="Of the AI workers, how many may think for all-AI games at once (games with a human "
                          "seat always go first). Default: half of them, at least 1.", minimum=1, maximum=64),
    ] = None,
    unstarted_timeout: Annotated[
        float, number_option(help="Seconds without a move before a game in which some human has not moved yet is "
                                  "aborted (0: never).", minimum=0, maximum=MAX_TIMER)] = UNSTARTED,
    idle_timeout: Annotated[
        float, number_option(help="Seconds without a move before a started game is lost by the player to move "
                                  "(abandoned; 0: never).", minimum=0, maximum=MAX_TIMER)] = IDLE,
    max_plies: Annotated[int, whole_option(help="Moves after which a game ends as a draw.", minimum=1, maximum=10**6)]
    = MAX_PLIES,
    max_ai_games: Annotated[int, whole_option(help="Games between AIs that may run at once (0: none).", minimum=0,
                                              maximum=10**5)] = MAX_AI_GAMES,
    sqlite_sync: Annotated[
        str,
        typer.Option(help="SQLite commits: normal (safe when the server is killed) or full (fsync every "
                          "commit: safe on power loss too, slower)."),
    ] = "normal",
    log_level: Annotated[str, typer.Option(help=f"uvicorn log level: {', '.join(LOG_LEVELS)}.")] = "info",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="A web origin (https://example.org) besides the server's own that may create games "
                          "and open WebSockets; repeat for several."),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(help="A host name (play.example.org) requests may be addressed to; repeat for several. "
                          "Default: localhost names when listening on loopback, any name otherwise."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Behind a reverse proxy: its addresses (comma-separated), whose X-Forwarded-For "
                          "then names the client for limits and logs. Default: trust no proxy."),
    ] = None,
    max_body: Annotated[int, whole_option(help="Longest request body in bytes.", minimum=256, maximum=64 * 2**20)]
    = DEFAULTS.max_body,
    max_head: Annotated[int, whole_option(help="Longest request head (request line and headers) in bytes.",
                                          minimum=1024, maximum=2**20)] = DEFAULTS.max_head,
    head_timeout: Annotated[float, number_option(help="Seconds a client may take to send a request head.",
                                                 minimum=0.1, maximum=3600)] = 10.0,
    body_timeout: Annotated[float, number_option(help="Seconds a client may take to send a request body.",
                                                 minimum=0.1, maximum=3600)] = DEFAULTS.body_timeout,
    keep_alive: Annotated[int, whole_option(help="Seconds an idle HTTP connection is kept open.", minimum=1,
                                            maximum=3600)] = 5,
    create_limit: Annotated[str, _rate_option("Games created per client")] = str(DEFAULTS.create_rate),
    join_limit: Annotated[str, _rate_option("WebSockets opened and seats claimed per client")]
    = str(DEFAULTS.join_rate),
    message_limit: Annotated[str, _rate_option("WebSocket messages per client")] = str(DEFAULTS.message_rate),
    analysis_limit: Annotated[str, _rate_option("Engine analyses, reviewed moves and hints per client")]
    = str(DEFAULTS.analyse_rate),
    position_limit: Annotated[str, _rate_option("Analysis-board positions per client")]
    = str(DEFAULTS.position_rate),
    client_connections: Annotated[
        int, whole_option(help="Open WebSockets plus requests in progress per client (0: no cap).", minimum=0,
                          maximum=1_000_000)] = DEFAULTS.client_connections,
    max_connections: Annotated[
        int, whole_option(help="Open WebSockets plus requests in progress in all (0: no cap).", minimum=0,
                          maximum=1_000_000)] = DEFAULTS.total_connections,
) -> None:
    """Serve the web client, the API and live games; open the printed URL in a browser."""
    import uvicorn

    from qipan.server.app import create_app
    from qipan.server.edge import redact_logs
    from qipan.server.store import StoreError, safe_url
    from qipan.server.transport import timed_protocol

    if sqlite_sync not in ("normal", "full"):
        raise typer.BadParameter("--sqlite-sync must be normal or full")
    if log_level.lower() not in LOG_LEVELS:
        raise typer.BadParameter(f"--log-level must be one of {', '.join(LOG_LEVELS)}")
    limits = Limits(
        max_body=max_body, max_head=max_head, body_timeout=body_timeout, create_rate=Rate.parse(create_limit),
        join_rate=Rate.parse(join_limit), message_rate=Rate.parse(message_limit),
        analyse_rate=Rate.parse(analysis_limit), position_rate=Rate.parse(position_limit),
        client_connections=client_connections, total_connections=max_connections,
    )
    level = log_level.lower()
    logging.basicConfig(level=logging.getLevelName(level.upper()) if level != "trace" else 5,
                        format="%(levelname)s:     %(message)s")
    if all_ai_workers is not None and all_ai_workers > ai_workers:
        raise typer.BadParameter(f"--all-ai-workers must be at most --ai-workers ({ai_workers})")
    try:
        if redis is not None:  # before the database: a SQLite file is not even created
            check_redis(redis, db)
        url = open_database(db, sqlite_sync)  # one clear line, not a start-up traceback, if it cannot be used
        if redis is None and url.startswith("postgresql"):
            check_alone(url)
    except StoreError as exc:
        typer.echo(f"qipan: {exc}", err=True)
        raise typer.Exit(1) from None
    app = create_app(url, ai_delay=ai_delay, ai_workers=ai_workers, sqlite_sync=sqlite_sync, limits=limits,
                     allow_origins=allow_origin or (), allow_hosts=_allowed_hosts(host, allow_host),
                     all_ai_workers=all_ai_workers,
                     unstarted_timeout=unstarted_timeout, idle_timeout=idle_timeout, max_plies=max_plies,
                     max_ai_games=max_ai_games, redis_url=redis)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    also = "" if redis is None else f"; Redis: {safe_url(redis)}"
    typer.echo(f"qipan: open http://{shown}:{port}/ in your browser (database: {safe_url(url)}{also})")
    config = uvicorn.Config(
        app, host=host, port=port, log_level=level, http=timed_protocol(head_timeout),
        h11_max_incomplete_event_size=max_head, timeout_keep_alive=keep_alive,
        proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips,
        ws_max_size=65536, ws_ping_interval=20, ws_ping_timeout=20,
    )
    redact_logs()  # uvicorn.Config has set its loggers up; the filters go on them and their handlers
    uvicorn.Server(config).run()


DATABASES = ("sqlite", "postgresql")
"""The databases qipan keeps games in."""
DB_USAGE = "a SQLite file (a path, or sqlite:///FILE) or postgresql://user:pass@host/db"


def open_database(db: str | None, sqlite_sync: str = "normal") -> str:
    """The SQLAlchemy URL for ``--db``, once the database was opened (tables made) and written to.

    Raises StoreError with one line for the operator when the URL is malformed, names a database
    qipan does not support or a driver that is not installed, or the database cannot be reached,
    opened or written (an unwritable SQLite file, a read-only PostgreSQL user)."""
    import sqlalchemy as sa

    from qipan.core.errors import brief
    from qipan.server.store import Store, StoreError, normalise_url, safe_url

    try:
        url = normalise_url(db)
    except OSError as exc:  # the default folder cannot be made
        raise StoreError(f"cannot create the folder for the database: {exc.strerror or exc}; "
                         f"choose one with --db ({DB_USAGE})") from None
    try:
        backend = sa.engine.make_url(url).get_backend_name()
    except (sa.exc.ArgumentError, ValueError):
        raise StoreError(f"--db {brief(safe_url(url))} is not a database URL; use {DB_USAGE}") from None
    if backend not in DATABASES:
        raise StoreError(f"--db: qipan keeps games in SQLite or PostgreSQL, not {brief(backend, 40)}; "
                         f"use {DB_USAGE}") from None
    try:
        store = Store(url, sqlite_sync)
    except ImportError as exc:
        extra = " (pip install 'qipan[postgres]')" if backend == "postgresql" else ""
        raise StoreError(f"the database driver {brief(exc.name or str(exc), 40)} is not installed{extra}") from None
    except (sa.exc.NoSuchModuleError, sa.exc.ArgumentError) as exc:
        raise StoreError(f"--db {brief(safe_url(url))}: {str(exc).splitlines()[0]}") from None
    try:
        with store.engine.connect() as connection:
            if backend == "sqlite":  # an existing file opens read-only without complaint
                version = connection.exec_driver_sql("PRAGMA user_version").scalar()
                connection.exec_driver_sql(f"PRAGMA user_version = {int(version or 0)}")
    except sa.exc.SQLAlchemyError as exc:
        first = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise StoreError(f"cannot write to the database {safe_url(url)}: {first[0] if first else 'refused'}") from None
    finally:
        store.close()
    return url


def check_alone(url: str) -> None:
    """Refuse a single process on a PostgreSQL database that server processes started with
    ``--redis`` use (:func:`qipan.server.cluster.check_alone`): StoreError in one line."""
    from qipan.server.cluster import check_alone as refuse_if_shared
    from qipan.server.store import Store

    store = Store(url)
    try:
        refuse_if_shared(store)
    finally:
        store.close()


def check_redis(url: str, db: str | None) -> None:
    """Check ``--redis`` before serving: a PostgreSQL ``--db`` to share, redis-py installed, a
    Redis URL, and a Redis that answers. StoreError with one line for the operator otherwise
    (never with the password)."""
    from urllib.parse import urlsplit

    from qipan.core.errors import brief_text
    from qipan.server.app import check_cluster
    from qipan.server.store import StoreError, normalise_url, safe_url

    try:
        check_cluster("" if db is None else normalise_url(db), url)
    except (ValueError, ImportError) as exc:
        raise StoreError(str(exc)) from None
    import redis

    try:
        password = urlsplit(url).password
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, TypeError, OSError) as exc:  # TypeError: an unknown ?option=
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if password:
            reason = reason.replace(password, "***")
        raise StoreError(f"cannot reach Redis at {safe_url(url)}: {brief_text(reason, 200)}") from None


def _allowed_hosts(host: str, given: list[str] | None) -> list[str] | None:
    """The Host names to answer: those given, else localhost names on loopback, else any (None).

    >>> _allowed_hosts("127.0.0.1", None)
    ['localhost', '127.0.0.1', '::1']
    >>> _allowed_hosts("127.0.0.2", None)
    ['localhost', '127.0.0.1', '::1', '127.0.0.2']
    >>> _allowed_hosts("0.0.0.0", None) is None, _allowed_hosts("0.0.0.0", ["play.example.org"])
    (True, ['play.example.org'])
    """
    import ipaddress

    from qipan.server.edge import LOOPBACK_HOSTS

    if given:
        return list(given)
    if host == "localhost":
        return list(LOOPBACK_HOSTS)
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return None
    # Any loopback address (all of 127.0.0.0/8), not only 127.0.0.1, is open to DNS rebinding.
    return list(dict.fromkeys([*LOOPBACK_HOSTS, host.strip("[]")])) if loopback else None
