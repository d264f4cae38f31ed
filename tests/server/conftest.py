"""Fixtures for the server tests: an in-process app on a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qipan.server import create_app


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "qipan.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    """The app with AI seats in threads (tests can replace agents in this process)."""
    with TestClient(create_app(str(db_path), ai_delay=0.0, ai_processes=False)) as test_client:
        yield test_client


@pytest.fixture
def process_client(db_path: Path) -> Iterator[TestClient]:
    """The app as ``qipan serve`` runs it: AI seats in worker processes."""
    with TestClient(create_app(str(db_path), ai_delay=0.0)) as test_client:
        yield test_client
