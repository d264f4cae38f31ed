"""Browser end-to-end fixtures: the real qipan server in a subprocess and Debian's Chromium.

Chromium comes from apt (``apt-get install chromium``), never from ``playwright install``; the
session fixture installs it when it is missing. Screenshots go to ``artifacts/e2e/``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "e2e"

SERVER_SCRIPT = """
import sys, uvicorn
from qipan.server.app import create_app
from qipan.server.limits import Limits
# Every browser of the tests is 127.0.0.1: per-client rates would stop the suite, not test it.
limits = Limits(create_rate=None, join_rate=None, message_rate=None, client_connections=0)
app = create_app(sys.argv[1], ai_delay=0.05, limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _apt_install(*packages: str) -> None:
    if shutil.which("apt-get") is None:
        pytest.fail(f"{CHROMIUM} is missing and apt-get is not available to install {' '.join(packages)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], check=True, env=env, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *packages], check=True, env=env,
                   capture_output=True)


CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium and the CJK font the pages are measured with, installed with apt when
    missing (a Chromium installed without the font drew Chinese in another, wider-spaced one)."""
    missing = [package for package, path in (("chromium", CHROMIUM), ("fonts-wqy-microhei", CJK_FONT))
               if not Path(path).exists()]
    if missing:
        _apt_install(*missing)
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """The real server (``qipan.server.app.create_app``) on a temporary SQLite file."""

    def __init__(self, db: Path, port: int | None = None, script: str = SERVER_SCRIPT):
        """``script``: the Python that runs it (a test may pass its own, e.g. with shorter timers)."""
        self.db = db
        self.script = script
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", self.script, str(self.db), str(self.port)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the qipan server exited with code {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.base + "/api/meta", timeout=2):
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError("the qipan server did not start within 30 s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture(scope="session")
def make_server() -> type[Server]:
    return Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("e2e") / "qipan.sqlite")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="package")
def browser(chromium_path: str) -> Iterator[Any]:
    # Per package, not per session: Playwright's sync API keeps an event loop running in the main
    # thread while it lives, and every later test calling asyncio.run() would then fail.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def requested() -> list[str]:
    """Every URL the pages of a test asked the server for (HTTP requests and WebSockets)."""
    return []


@pytest.fixture
def open_page(browser: Any, requested: list[str]) -> Iterator[Callable[..., Any]]:
    """Open a URL in a fresh browser context (its own cookies and storage: another person).
    Uncaught JavaScript errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(url: str, width: int = 1280, height: int = 800, frames: list[dict[str, Any]] | None = None) -> Any:
        """``frames``: collects every JSON message the page's WebSockets receive."""
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{url}: {exc}"))
        page.on("request", lambda request: requested.append(request.url))
        page.on("websocket", lambda ws: requested.append(ws.url))
        if frames is not None:
            def listen(ws: Any) -> None:
                ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))
            page.on("websocket", listen)
        page.goto(url)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def shots() -> Callable[[Any, str], None]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return shot
