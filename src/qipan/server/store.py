"""Persistence: games and their append-only move logs, with SQLAlchemy Core.

SQLite (the default, one file) and PostgreSQL use the same two tables. Writes go through one
writer thread that commits whatever is queued in a single transaction (group commit), so many
games moving at once cost one commit, and every caller is answered only after its commit.

>>> store = Store("sqlite://")
>>> store.create_game(GameRow("g1", "abalone", "standard", {}, 7, [], 1.0, 1.0))
>>> store.append_moves("g1", 0, [("0", "a1b2", 2.0)])
>>> [m.text for m in store.moves("g1")]
['a1b2']
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

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
    sa.Index("games_open", "finished"),
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


def _from_db(data: Any) -> GameRow:
    data = dict(data)
    secret = data.pop("secret", None)
    if secret is not None:
        data["seed"] = secret
    return GameRow(**data)


class Store:
    """Synchronous access to the database (call from threads, or through :class:`Writer`)."""

    def __init__(self, url: str, sqlite_sync: str = "normal"):
        self.url = url
        self.engine = make_engine(url, sqlite_sync)
        metadata.create_all(self.engine)
        self._migrate()

    def _migrate(self) -> None:
        """Bring a database made by an older qipan up to date (columns added since)."""
        columns = {c["name"] for c in sa.inspect(self.engine).get_columns("games")}
        if "secret" not in columns:
            with self.engine.begin() as c:
                c.execute(sa.text("ALTER TABLE games ADD COLUMN secret VARCHAR(128)"))

    def close(self) -> None:
        self.engine.dispose()

    # -- writes (each takes a connection so the writer can batch them) -----------------------------

    def create_game(self, row: GameRow, conn: Connection | None = None) -> None:
        self._run(conn, lambda c: c.execute(games_table.insert().values(**_to_db(row))))

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

    def set_seats(self, game_id: str, seats: list[dict[str, Any]], conn: Connection | None = None) -> None:
        """Replace a game's seat records (a claimed invitation, re-issued invitations)."""
        self._run(conn, lambda c: c.execute(
            games_table.update().where(games_table.c.id == game_id).values(seats=seats)))

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
        with self.engine.connect() as c:
            row = c.execute(games_table.select().where(games_table.c.id == game_id)).mappings().first()
        return _from_db(row) if row is not None else None

    def moves(self, game_id: str) -> list[MoveRow]:
        query = (
            sa.select(moves_table.c.ply, moves_table.c.player, moves_table.c.text, moves_table.c.time)
            .where(moves_table.c.game_id == game_id)
            .order_by(moves_table.c.ply)
        )
        with self.engine.connect() as c:
            return [MoveRow(*r) for r in c.execute(query)]

    def unfinished(self) -> list[GameRow]:
        query = games_table.select().where(games_table.c.finished.is_(None)).order_by(games_table.c.created)
        with self.engine.connect() as c:
            return [_from_db(r) for r in c.execute(query).mappings()]

    def list_games(self, finished: bool | None, limit: int) -> list[tuple[GameRow, int]]:
        """The newest games (all, finished, or unfinished) with their move counts."""
        counts = (
            sa.select(moves_table.c.game_id, sa.func.count().label("n"))
            .group_by(moves_table.c.game_id)
            .subquery()
        )
        query = sa.select(games_table, sa.func.coalesce(counts.c.n, 0).label("n")).outerjoin(
            counts, counts.c.game_id == games_table.c.id
        )
        if finished is True:
            query = query.where(games_table.c.finished.is_not(None))
        elif finished is False:
            query = query.where(games_table.c.finished.is_(None))
        query = query.order_by(games_table.c.created.desc(), games_table.c.id).limit(limit)
        with self.engine.connect() as c:
            rows = c.execute(query).mappings().all()
        result = []
        for r in rows:
            data = dict(r)
            n = int(data.pop("n"))
            result.append((_from_db(data), n))
        return result


Job = Callable[[Connection], None]


class Writer:
    """One thread that runs queued writes, many per transaction, and answers each after commit.

    If a batch fails, its jobs are retried one by one so one bad write cannot sink the others.
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
        try:
            with self.store.engine.begin() as conn:
                for job, _ in batch:
                    job(conn)
        except Exception:
            if len(batch) == 1:
                log.exception("database write failed")
                if not batch[0][1].done():  # a cancelled caller (shutdown) needs no answer
                    batch[0][1].set_exception(RuntimeError("the database write failed"))
                return
            for one in batch:
                self._commit([one])
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)
