"""A throwaway ``redis-server`` for tests: on a free loopback port, with a password, no
persistence; stop it, start it again on the same port, or kill it. Installs Debian's
``redis-server`` package with apt when the binary is missing (``python -m tests.server.redis_server``
does only that, for CI set-up)."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .helpers import end_process, free_port


def binary() -> str:
    """The ``redis-server`` program, installing Debian's package with apt-get if needed."""
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    if not found:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        try:
            subprocess.run(["apt-get", "update"], check=True, env=env, capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "redis-server"],
                           check=True, env=env, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise RuntimeError(f"redis-server is missing and apt-get could not install it ({exc}); install "
                               "Debian's redis-server package (as root)") from None
        found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    if not found:
        raise RuntimeError("redis-server not found even after apt-get install redis-server")
    return found


class RedisServer:
    """One ``redis-server`` process. Its port and password stay the same across restarts, so the
    clients' URL (:attr:`url`) keeps working once it is back."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.port = free_port()
        self.password = secrets.token_hex(16)
        self.log = directory / "redis.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 30.0) -> None:
        """Start it (again, on the same port) and wait until it answers PING."""
        assert not self.running, "redis-server is running already"
        config = self.directory / "redis.conf"
        # The password in a file, not on the command line (``ps`` shows that to everyone).
        config.write_text(f"requirepass {self.password}\n")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [binary(), str(config), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.directory), "--daemonize", "no",
                 "--protected-mode", "yes"],
                stdout=out, stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited ({self.proc.returncode}): {self.log.read_text()[-2000:]}")
            if self.ping():
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer PING within {timeout:g} s: {self.log.read_text()[-2000:]}")

    def ping(self) -> bool:
        """Whether the server answers an authenticated PING (in plain RESP, no client library)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(f"AUTH {self.password}\r\nPING\r\n".encode())
                answer = b""
                while answer.count(b"\r\n") < 2:
                    chunk = conn.recv(256)
                    if not chunk:
                        return False
                    answer += chunk
                return answer == b"+OK\r\n+PONG\r\n"
        except OSError:
            return False

    def stop(self) -> None:
        """A clean shutdown (SIGTERM); the port is free afterwards."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: gone at once, every connection cut."""
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        self.stop()
        self.start()

    def _end(self, sig: signal.Signals) -> None:
        if self.proc is not None:
            end_process(self.proc, sig)
            self.proc = None


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A running server, removed afterwards with its directory."""
    directory = Path(tempfile.mkdtemp(prefix="qipan-redis-"))
    server = RedisServer(directory)
    try:
        server.start()
        yield server
    finally:
        server.kill()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    print(binary())
