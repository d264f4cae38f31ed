"""A throwaway PostgreSQL cluster for tests: initdb into a temporary directory, start it on a free
port, remove it afterwards. Installs Debian's ``postgresql`` package with apt when the server
binaries are missing (``python -m tests.server.postgres`` does only that, for CI set-up).
:func:`new_database` adds a database to it, :func:`execute` runs SQL statements there."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import sqlalchemy as sa

from qipan.server.store import normalise_url

from .helpers import free_port


def binaries() -> str:
    """The directory with initdb and pg_ctl, installing PostgreSQL with apt-get if needed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found and shutil.which("initdb"):
        found = [shutil.which("initdb") or ""]
    if not found:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], check=True, env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
                       check=True, env=env, capture_output=True)
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL server binaries (initdb) not found even after apt-get install postgresql")
    return os.path.dirname(found[-1])


def _as_owner(command: list[str], user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--", *command] if user else command


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """Start a fresh cluster; yield its SQLAlchemy URL (user ``qipan``, database ``postgres``)."""
    bin_dir = binaries()
    # PostgreSQL refuses to run as root: run it as the ``postgres`` user the package creates.
    user = "postgres" if os.geteuid() == 0 else None
    data = tempfile.mkdtemp(prefix="qipan-pg-")
    if user:
        shutil.chown(data, user)
    port = free_port()
    run = lambda cmd: subprocess.run(_as_owner(cmd, user), check=True, capture_output=True)  # noqa: E731
    try:
        run([f"{bin_dir}/initdb", "-D", data, "-U", "qipan", "--auth=trust", "-E", "UTF8"])
        run([f"{bin_dir}/pg_ctl", "-D", data, "-l", f"{data}/server.log", "-w", "-t", "60", "-o",
             f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start"])
        yield f"postgresql://qipan@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_owner([f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"], user),
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def new_database(url: str, name: str) -> str:
    """Create the empty database ``name`` on the server ``url`` points to; its URL (``url``'s, but
    for the database)."""
    admin = sa.create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(sa.text(f"CREATE DATABASE {name}"))
    finally:
        admin.dispose()
    return url.rsplit("/", 1)[0] + "/" + name


def execute(url: str, script: str) -> None:
    """Run the SQL statements of ``script`` (separated by ``;``) in one transaction."""
    engine = sa.create_engine(normalise_url(url))
    try:
        with engine.begin() as c:
            for statement in filter(str.strip, script.split(";")):
                c.execute(sa.text(statement))
    finally:
        engine.dispose()


if __name__ == "__main__":
    print(binaries())
