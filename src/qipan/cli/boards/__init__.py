"""Terminal pictures of each game's views: ``qipan.cli.boards.<game>.render(game, view, last)``.

>>> import qipan
>>> from qipan.cli.boards import renderer
>>> game = qipan.load("abalone")
>>> callable(renderer(game))
True
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from qipan.core.game import Game

Renderer = Callable[..., RenderableType]


def _fallback(game: Game[Any, Any], view: dict[str, Any], last: str | None = None, **_: Any) -> RenderableType:
    return Pretty(json.loads(json.dumps(view)))


def renderer(game: Game[Any, Any]) -> Renderer:
    """The game's terminal renderer (a JSON dump of the view if the game has none)."""
    module_name = __name__ + "." + game.name.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return _fallback
    render: Renderer = module.render
    return render
