"""Shipped puzzle data (JSON): read with :func:`load`."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load(name: str) -> Any:
    """The parsed JSON file ``name`` of this package (e.g. ``crossings.json``)."""
    return json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
