"""Persistence: games and their append-only move logs, with SQLAlchemy Core.

SQLite (the default, one file) and PostgreSQL use the same tables. Writes go through one
writer thread that commits whatever is queued in a single transaction (group commit), so many
games moving at once cost one commit, and every caller is answered only after its commit.
Several server processes on one PostgreSQL database (:mod:`qipan.server.cluster`) also use
``games.owner``, ``games.fence`` and ``processes``; a single process leaves them alone.

>>> store = Store("sqlite://")
>>> store.create_game(GameRow("g1", "abalone", "standard", {}, 7, [], 1.0, 1.0))
>>> store.append_moves("g1", 0, [("0", "a1b2", 2.0)])
>>> [m.text for m in store.moves("g1")]
['a1b2']
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from qipan.core import GameError, jsonsafe
from qipan.core.chance import new_secret
from qipan.server.errors import Fenced

log = logging.getLogger("qipan.server")

metadata = sa.MetaData()

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # 0 where ``secret`` is set; whole-number seeds of old rows
    sa.Column("secret", sa.String(128), nullable=True),  # the game's secret (64 hex digits; see qipan.core.chance)
    # [{"kind": "human"|"ai", "level": str|None, "token": sha256 hex|None, "invite": sha256 hex|None,
    #   "creator": bool}, ...] (see qipan.server.auth.SeatRecord; old rows lack invite and creator)
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    # {"base": s, "increment": s} and, after a takeback, "reset": {"ply", "time", "left"} (NULL: untimed;
    # see qipan.core.clock)
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),  # listed in the lobby
    # created with hints (one human against the AI may ask the engine), and how many were asked
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"),
    # Cluster mode (qipan.server.cluster): the process that owns the game, and its fencing token
    # (raised by every change of owner; a write carrying an older one is refused).
    sa.Column("owner", sa.String(32), nullable=True),
    sa.Column("fence", sa.BigInteger, nullable=False, server_default="0"),
    sa.Index("games_open", "finished"),
)

OWNERSHIP_COLUMNS = ("owner", "fence")
"""Columns of ``games`` that belong to the cluster's leases, not to :class:`GameRow`."""

processes_table = sa.Table(
    "processes",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # new at every start (qipan.server.cluster)
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),  # the lease, by the database's clock
)

moves_table = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player", sa.String(16), nullable=False),  # "0", "1", ... or "chance"
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("time", sa.Float, nullable=True),
)

chat_table = sa.Table(
    "chat",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),  # 1, 2, ... per game
    sa.Column("channel", sa.String(16), nullable=False),  # "players" or "spectators"
    sa.Column("seat", sa.Integer, nullable=True),  # None: a spectator
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


@dataclass
class GameRow:
    """One row of ``games``: a game's settings, seats and (once over) its result."""

    id: str
    game: str
    variant: str
    options: dict[str, Any]
    seed: int | str
    seats: list[dict[str, Any]]
    created: float
    started: float
    finished: float | None = None
    result: dict[str, Any] | None = None
    rematch: str | None = None
    clock: dict[str, Any] | None = None
    """The time control ({"base", "increment"}) and, after a takeback, the clocks it left ("reset")."""
    public: bool = False
    """Listed in the lobby, and anyone may take a free seat (else: invite-only)."""
    hints: bool = False
    """Created with hints: its one human seat may ask the engine for hints."""
    hints_used: int = 0
    """Hints asked for so far."""


class StoreError(Exception):
    """The database cannot be opened at all (the message is one line for the operator)."""


class BadRow(Exception):
    """A stored game that cannot be read back: damaged values, or pages the database cannot read.

    ``reason`` is short and safe to show to anyone; ``game`` and ``created`` are what could be
    read (for the lobby list)."""

    def __init__(self, game_id: str, reason: str, game: str = "?", created: float = 0.0, detail: str = "",
                 public: bool = False):
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.public = public
        """Whether the row says the game is public (False when that cannot be read either)."""
        self.reason = reason
        self.game = game
        self.created = created
        self.detail = detail
        """What the database said, for the operator's log."""


class StorageUnavailable(Exception):
    """The database cannot be used right now (the data may be fine); ``public`` says so briefly,
    for anyone (HTTP 503)."""

    public = "the server cannot use its database right now; try again later"


class WriteFailed(StorageUnavailable):
    """A write that did not commit (nothing of it was saved); ``full``: the database is full."""

    def __init__(self, full: bool):
        super().__init__("the database is full" if full else "the database write failed")
        self.full = full
        reason = "its database is full" if full else "its database cannot be written to"
        self.public = f"the server could not save that: {reason}; nothing was changed, try again later"


class ReadFailed(StorageUnavailable):
    """A read that failed for a passing reason (locked, unreachable), not because of damage."""

    public = "the server cannot read its database right now; try again later"


@dataclass
class MoveRow:
    """One row of ``moves``: ply counts from 0 in record order (chance outcomes included)."""

    ply: int
    player: str
    text: str
    time: float | None


def normalise_url(url: str | None, default_dir: Path | None = None) -> str:
    """A SQLAlchemy URL from what a user typed: a URL, a bare file path, or None (the default file).

    ``postgresql://`` and ``postgres://`` use the psycopg 3 driver.

    >>> normalise_url("postgres://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalise_url("/tmp/q.db")
    'sqlite:////tmp/q.db'
    """
    if url is None:
        if default_dir is None:
            import platformdirs

            default_dir = Path(platformdirs.user_data_dir("qipan"))
        default_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{default_dir / 'qipan.db'}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def safe_url(url: str) -> str:
    """A database or Redis URL without its password, for logs and messages: the user part goes,
    and so does a ``password`` in the query (libpq and redis-py read it there too).

    >>> safe_url("postgresql+psycopg://qipan:secret@db.example/qipan")
    'postgresql+psycopg://***@db.example/qipan'
    >>> safe_url("redis://redis.internal:6379/0?password=secret&ssl=true")
    'redis://redis.internal:6379/0?password=***&ssl=true'
    """
    if "?" in url:  # (before the user part: a password in the query may hold an @)
        base, query = url.split("?", 1)
        url = base + "?" + "&".join(
            f"{part.split('=', 1)[0]}=***" if unquote(part.split("=", 1)[0]).strip().lower() == "password" else part
            for part in query.split("&"))
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url


SQLITE_SYNC = ("normal", "full")


def make_engine(url: str, sqlite_sync: str = "normal") -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling (readers never wait for the writer).

    ``sqlite_sync="normal"``: a commit survives the server being killed at any moment (the
    write is in the operating system before the move is acknowledged); ``"full"`` also waits
    for the disk (fsync) on every commit, which survives power loss but costs latency."""
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync must be one of {SQLITE_SYNC}, not {sqlite_sync!r}")
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            poolclass=StaticPool if memory else None,
        )

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def _to_db(row: GameRow) -> dict[str, Any]:
    data = dict(row.__dict__)
    if isinstance(row.seed, str):
        data["seed"], data["secret"] = 0, row.seed
    return data


_JSON_COLUMNS = ("options", "seats", "result", "clock")
MAX_STORED_JSON = 1 << 20
"""Longest stored JSON value (characters) read back; a game's settings and seats are far shorter."""


def _readable_columns() -> list[Any]:
    """The ``games`` columns of a :class:`GameRow`, with JSON read as text so one damaged value
    cannot sink a query."""
    return [sa.cast(c, sa.Text).label(c.name) if c.name in _JSON_COLUMNS else c for c in games_table.c
            if c.name not in OWNERSHIP_COLUMNS]


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _seat_ok(seat: object) -> bool:
    if not isinstance(seat, dict) or seat.get("kind") not in ("human", "ai"):
        return False
    if seat["kind"] == "ai" and not isinstance(seat.get("level"), str):
        return False
    return all(isinstance(seat.get(k), str | None) for k in ("level", "token", "invite", "name"))


def _result_ok(result: object) -> bool:
    if result is None:
        return True
    if not isinstance(result, dict) or not isinstance(result.get("text"), str):
        return False
    returns = result.get("returns")
    return isinstance(returns, list) and all(_number(r) for r in returns)


def decode_row(data: Mapping[str, Any]) -> GameRow:
    """A :class:`GameRow` from a ``games`` row read with :func:`_readable_columns`, checked
    field by field; :class:`BadRow` says what is damaged."""
    game_id = data.get("id")
    if not isinstance(game_id, str):
        raise BadRow("?", "its id is damaged")
    game, created = data.get("game"), data.get("created")
    name = game if isinstance(game, str) else "?"
    when = float(created) if isinstance(created, int | float) and _number(created) else 0.0
    public = data.get("public") is True

    def bad(reason: str) -> BadRow:
        return BadRow(game_id, reason, name, when, public=public)

    values = dict(data)
    for column in _JSON_COLUMNS:
        text = values[column]
        if text is None:
            continue
        try:
            values[column] = jsonsafe.loads(text, max_chars=MAX_STORED_JSON)
        except GameError:
            raise bad(f"its stored {column} cannot be read") from None
    if not isinstance(game, str) or not isinstance(values["variant"], str):
        raise bad("its stored game or variant is damaged")
    if not isinstance(values["options"], dict):
        raise bad("its stored options are damaged")
    seats = values["seats"]
    if not isinstance(seats, list) or not all(_seat_ok(seat) for seat in seats):
        raise bad("its stored seats are damaged")
    if not all(_number(values[c]) for c in ("created", "started")) or not (
            values["finished"] is None or _number(values["finished"])):
        raise bad("its stored times are damaged")
    if not _result_ok(values["result"]):
        raise bad("its stored result is damaged")
    if not (values["clock"] is None or isinstance(values["clock"], dict)):
        raise bad("its stored clock is damaged")
    secret, seed = values.pop("secret", None), values["seed"]
    if secret is not None:
        if not isinstance(secret, str):
            raise bad("its stored secret is damaged")
        values["seed"] = secret
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise bad("its stored seed is damaged")
    values["public"] = public
    values["hints"] = data.get("hints") is True
    used = data.get("hints_used")
    values["hints_used"] = used if isinstance(used, int) and not isinstance(used, bool) and used >= 0 else 0
    if not (values["rematch"] is None or isinstance(values["rematch"], str)):
        values["rematch"] = None  # a damaged link to the rematch loses only the link
    return GameRow(**values)


CHAT_FIELDS = ("n", "channel", "seat", "name", "text", "at")


def _chat_ok(row: Mapping[str, Any]) -> bool:
    return (isinstance(row["n"], int) and isinstance(row["channel"], str) and isinstance(row["name"], str)
            and isinstance(row["text"], str) and _number(row["at"])
            and (row["seat"] is None or isinstance(row["seat"], int)))


def _move(row: Any) -> MoveRow:
    ply, player, text, time = row
    if not (isinstance(player, str) and isinstance(text, str) and (time is None or _number(time))):
        raise ValueError("damaged move")
    return MoveRow(ply, player, text, time)


def _is_full(exc: BaseException) -> bool:
    """Whether a failed write failed because the database (or its disk) is full."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or getattr(orig, "sqlstate", None) == "53100"


def _damaged(exc: BaseException) -> bool:
    """Whether a database error means damaged data, rather than a passing failure."""
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    damaged_postgres = str(getattr(orig, "sqlstate", "")).startswith("XX")  # data_corrupted, index_corrupted
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or damaged_postgres


def _unreadable(exc: BaseException, game_id: str, reason: str) -> Exception:
    """BadRow for damaged data, ReadFailed for a passing failure."""
    if _damaged(exc):
        return BadRow(game_id, reason, detail=first_line(exc))
    log.error("could not read game %s: %s", game_id, first_line(exc))
    return ReadFailed(first_line(exc))


def first_line(exc: BaseException) -> str:
    """What the database said, in one line (for logs)."""
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


SCHEMA_LOCK = 0x71697061  # "qipa"
"""The PostgreSQL advisory lock under which a process creates or brings up to date the tables."""


class Store:
    """Synchronous access to the database (call from threads, or through :class:`Writer`)."""

    def __init__(self, url: str, sqlite_sync: str = "normal"):
        self.url = url
        self.engine = make_engine(url, sqlite_sync)
        try:
            with self._schema_lock():
                metadata.create_all(self.engine)
                self._migrate()
        except sa.exc.SQLAlchemyError as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open the database {safe_url(url)}: {first_line(exc)}") from None

    @contextlib.contextmanager
    def _schema_lock(self) -> Iterator[None]:
        """Hold PostgreSQL's advisory lock on the schema: server processes starting at once on
        one database would otherwise create (or bring up to date) its tables together, and all
        but one fail. SQLite serialises that by itself."""
        if self.engine.dialect.name != "postgresql":
            yield
            return
        with self.engine.connect() as c:
            c.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK})
            c.commit()
            try:
                yield
            finally:
                c.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK})
                c.commit()

    def _migrate(self) -> None:
        """Bring a database made by an older qipan up to date (columns added since)."""
        columns = {c["name"] for c in sa.inspect(self.engine).get_columns("games")}
        if "secret" not in columns:
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN secret VARCHAR(128)"))
        if "clock" not in columns:  # games from before clocks for every game: untimed (or Abalone's option)
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN clock JSON"))
        if "public" not in columns:  # games from before public games stay invite-only
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE"))
        if "hints" not in columns:  # games from before hints had none
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN hints BOOLEAN NOT NULL DEFAULT FALSE"))
        if "hints_used" not in columns:
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0"))
        if "owner" not in columns:  # games from before clusters: owned by nobody (any process takes them)
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN owner VARCHAR(32)"))
        if "fence" not in columns:
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN fence BIGINT NOT NULL DEFAULT 0"))
        # Unfinished games from before secrets had a 32-bit seed, which a player can brute-force
        # from the outcomes seen so far: what chance they have left is drawn under a fresh secret
        # (the outcomes already played are in the move log, so the record still replays).
        open_legacy = sa.select(games_table.c.id).where(games_table.c.secret.is_(None),
                                                        games_table.c.finished.is_(None))
        try:
            with self.engine.begin() as c:
                for (game_id,) in c.execute(open_legacy).all():
                    c.execute(games_table.update().where(games_table.c.id == game_id).values(secret=new_secret()))
        except sa.exc.DatabaseError as exc:  # damaged pages: game by game, as far as they can be read
            if not _damaged(exc):
                raise
            for game_id in self.unfinished_ids():
                with contextlib.suppress(sa.exc.DatabaseError), self.engine.begin() as c:
                    c.execute(games_table.update().where(
                        games_table.c.id == game_id, games_table.c.secret.is_(None),
                        games_table.c.finished.is_(None)).values(secret=new_secret()))

    def close(self) -> None:
        self.engine.dispose()

    # -- writes (each takes a connection so the writer can batch them) -----------------------------

    def create_game(self, row: GameRow, conn: Connection | None = None, owner: str | None = None) -> None:
        """Insert a new game; with ``owner`` (cluster mode), owned by that process, fence 1."""
        values = _to_db(row)
        if owner is not None:
            values.update(owner=owner, fence=1)
        self._run(conn, lambda c: c.execute(games_table.insert().values(**values)))

    def append_moves(
        self,
        game_id: str,
        first_ply: int,
        moves: Sequence[tuple[str, str, float | None]],
        finished: float | None = None,
        result: dict[str, Any] | None = None,
        conn: Connection | None = None,
    ) -> None:
        """Append ``(player, text, time)`` moves from ``first_ply`` on; with ``result``, end the game."""

        def work(c: Connection) -> None:
            if moves:
                c.execute(
                    moves_table.insert(),
                    [
                        {"game_id": game_id, "ply": first_ply + i, "player": p, "text": t, "time": tm}
                        for i, (p, t, tm) in enumerate(moves)
                    ],
                )
            if result is not None:
                c.execute(
                    games_table.update()
                    .where(games_table.c.id == game_id)
                    .values(finished=finished, result=result)
                )

        self._run(conn, work)

    def take_back(self, game_id: str, keep: int, clock: dict[str, Any] | None, conn: Connection | None = None
                  ) -> None:
        """Delete the game's moves after the first ``keep`` (a takeback) and store its ``clock``
        (with the reset the takeback left), in one transaction."""

        def work(c: Connection) -> None:
            c.execute(moves_table.delete().where(moves_table.c.game_id == game_id, moves_table.c.ply >= keep))
            c.execute(games_table.update().where(games_table.c.id == game_id).values(clock=clock))

        self._run(conn, work)

    def set_seats(self, game_id: str, seats: list[dict[str, Any]], conn: Connection | None = None) -> None:
        """Replace a game's seat records (a claimed invitation, re-issued invitations)."""
        self._run(conn, lambda c: c.execute(
            games_table.update().where(games_table.c.id == game_id).values(seats=seats)))

    def set_options(self, game_id: str, options: dict[str, Any], conn: Connection | None = None) -> None:
        """Replace a game's options (a player brought their own deck with their seat)."""
        self._run(conn, lambda c: c.execute(
            games_table.update().where(games_table.c.id == game_id).values(options=options)))

    def set_hints_used(self, game_id: str, used: int, conn: Connection | None = None) -> None:
        """Record how many hints a game's player has asked for."""
        self._run(conn, lambda c: c.execute(
            games_table.update().where(games_table.c.id == game_id).values(hints_used=used)))

    def set_rematch(self, game_id: str, rematch_id: str, conn: Connection | None = None) -> None:
        self._run(
            conn,
            lambda c: c.execute(
                games_table.update().where(games_table.c.id == game_id).values(rematch=rematch_id)
            ),
        )

    def _run(self, conn: Connection | None, work: Callable[[Connection], Any]) -> None:
        if conn is not None:
            work(conn)
            return
        with self.engine.begin() as c:
            work(c)

    # -- reads -----------------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        """The game ``game_id`` (None: there is none); BadRow if it cannot be read back,
        ReadFailed if the database cannot be read right now."""
        query = sa.select(*_readable_columns()).where(games_table.c.id == game_id)
        try:
            with self.engine.connect() as c:
                row = c.execute(query).mappings().first()
        except sa.exc.DatabaseError as exc:
            raise _unreadable(exc, game_id, "its data cannot be read from the database") from None
        return decode_row(dict(row)) if row is not None else None

    def moves(self, game_id: str) -> list[MoveRow]:
        """The game's moves in order; BadRow if they cannot be read back (ReadFailed: not now)."""
        query = (
            sa.select(moves_table.c.ply, moves_table.c.player, moves_table.c.text, moves_table.c.time)
            .where(moves_table.c.game_id == game_id)
            .order_by(moves_table.c.ply)
        )
        try:
            with self.engine.connect() as c:
                rows = c.execute(query).all()
            return [_move(r) for r in rows]
        except sa.exc.DatabaseError as exc:
            raise _unreadable(exc, game_id, "its moves cannot be read from the database") from None
        except ValueError:
            raise BadRow(game_id, "its stored moves are damaged") from None

    def unfinished_ids(self) -> list[str]:
        """The ids of every unfinished game, oldest first. If the database cannot be read that
        way (damaged pages), every id it can still list, the finished ones included (reading
        each game then tells which are unfinished). ReadFailed if it cannot be read right now."""
        query = sa.select(games_table.c.id).where(games_table.c.finished.is_(None)).order_by(games_table.c.created)
        try:
            with self.engine.connect() as c:
                return list(c.execute(query).scalars())
        except sa.exc.DatabaseError as exc:
            if not _damaged(exc):
                raise ReadFailed(first_line(exc)) from None
            log.error("the database is damaged (%s); reading its games one by one", first_line(exc))
        return list(self._all_ids())

    # -- chat ------------------------------------------------------------------------------------

    def add_chat(self, game_id: str, message: Mapping[str, Any], keep: int, conn: Connection | None = None) -> None:
        """Store chat message ``message`` (``n``, ``channel``, ``seat``, ``name``, ``text``, ``at``)
        and drop the game's messages older than its last ``keep``."""

        def work(c: Connection) -> None:
            c.execute(chat_table.insert().values(game_id=game_id, **{k: message[k] for k in CHAT_FIELDS}))
            c.execute(chat_table.delete().where(chat_table.c.game_id == game_id, chat_table.c.n <= message["n"] - keep))

        self._run(conn, work)

    def chat(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        """The game's last ``limit`` chat messages, oldest first; a damaged one is left out
        (BadRow if they cannot be read at all, ReadFailed: not now)."""
        query = (sa.select(*(chat_table.c[k] for k in CHAT_FIELDS)).where(chat_table.c.game_id == game_id)
                 .order_by(chat_table.c.n.desc()).limit(limit))
        try:
            with self.engine.connect() as c:
                rows = [dict(r) for r in c.execute(query).mappings()]
        except sa.exc.DatabaseError as exc:
            raise _unreadable(exc, game_id, "its chat cannot be read from the database") from None
        return [r for r in reversed(rows) if _chat_ok(r)]

    def _all_ids(self) -> list[str]:
        """Every game id the database can still list (up to the first unreadable page)."""
        ids: list[str] = []
        try:
            with self.engine.connect() as c:
                ids.extend(c.execute(sa.select(games_table.c.id)).scalars())
        except sa.exc.DatabaseError as exc:
            log.error("could not list every game (%s); the ones after the damage are left out", first_line(exc))
        return ids

    def list_games(self, finished: bool | None, limit: int, public: bool = False) -> list[tuple[GameRow | BadRow, int]]:
        """The newest games (all, finished, or unfinished; with ``public``, only public ones) with
        their move counts; a game that cannot be read back comes as its :class:`BadRow`
        (ReadFailed: none can be read now)."""
        count = (
            sa.select(sa.func.count())
            .where(moves_table.c.game_id == games_table.c.id)
            .scalar_subquery()
            .label("n")
        )
        query = sa.select(*_readable_columns(), count)
        if finished is True:
            query = query.where(games_table.c.finished.is_not(None))
        elif finished is False:
            query = query.where(games_table.c.finished.is_(None))
        if public:
            query = query.where(games_table.c.public.is_(True))
        query = query.order_by(games_table.c.created.desc(), games_table.c.id).limit(limit)
        try:
            with self.engine.connect() as c:
                rows = c.execute(query).mappings().all()
        except sa.exc.DatabaseError as exc:
            if not _damaged(exc):
                raise ReadFailed(first_line(exc)) from None
            log.error("the database is damaged (%s); listing its games one by one", first_line(exc))
            return self._list_one_by_one(finished, limit, public)
        result: list[tuple[GameRow | BadRow, int]] = []
        for r in rows:
            data = dict(r)
            n = int(data.pop("n") or 0)
            try:
                result.append((decode_row(data), n))
            except BadRow as bad:
                result.append((bad, n))
        return result

    def _list_one_by_one(self, finished: bool | None, limit: int, public: bool = False
                         ) -> list[tuple[GameRow | BadRow, int]]:
        found: list[tuple[GameRow | BadRow, int]] = []
        for game_id in self._all_ids():
            row: GameRow | None = None
            try:
                row = self.game(game_id)
                n = len(self.moves(game_id))
            except BadRow as bad:
                # A game whose row cannot be read is not known to be public: it is left out.
                if not public or bad.public or (row is not None and row.public):
                    found.append((bad, 0))
                continue
            if row is not None and (finished is None or (row.finished is not None) == finished) and (
                    row.public or not public):
                found.append((row, n))
        found.sort(key=lambda item: -item[0].created)
        return found[:limit]


Job = Callable[[Connection], None]


class Writer:
    """One thread that runs queued writes, many per transaction, and answers each after commit.

    If a batch fails, its jobs are retried one by one so one bad write cannot sink the others.
    A job that raises :class:`~qipan.server.errors.Fenced` (its game has another owner now) gets
    that error back, and the rest of its batch is run again without it.
    """

    def __init__(self, store: Store, max_batch: int = 512):
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.Queue[tuple[Job, concurrent.futures.Future[None]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="qipan-db-writer", daemon=True)
        self._thread.start()

    async def write(self, job: Job) -> None:
        """Run ``job`` in a transaction; return once it is committed (raise if it failed)."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._queue.put((job, future))
        await asyncio.wrap_future(future)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Job, concurrent.futures.Future[None]]]) -> None:
        while batch:
            fenced = self._commit_once(batch)
            if fenced is None:
                return
            _, future = batch.pop(fenced[0])
            if not future.done():
                future.set_exception(fenced[1])

    def _commit_once(self, batch: list[tuple[Job, concurrent.futures.Future[None]]]) -> tuple[int, Fenced] | None:
        """Commit ``batch`` and answer its callers; if a job was fenced, roll back and return it
        (its index, its error) without answering anyone."""
        done = 0
        try:
            with self.store.engine.begin() as conn:
                for job, _ in batch:
                    job(conn)
                    done += 1
        except Fenced as exc:
            return done, exc
        except Exception as exc:
            if len(batch) == 1:
                full = _is_full(exc)
                if full:
                    log.error("database write failed: the database or its disk is full")
                elif isinstance(exc, sa.exc.OperationalError):  # the database restarting, cut off, ...
                    log.error("database write failed: %s", first_line(exc))
                else:
                    log.exception("database write failed")
                if not batch[0][1].done():  # a cancelled caller (shutdown) needs no answer
                    batch[0][1].set_exception(WriteFailed(full))
                return None
            for one in batch:
                self._commit([one])
            return None
        for _, future in batch:
            if not future.done():
                future.set_result(None)
        return None
