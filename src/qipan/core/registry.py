"""The registry of games: ``qipan.load("abalone", variant="belgian-daisy")``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import Game

# Game id -> "module:ClassName". Imported lazily so loading one game never imports the others.
_GAMES: dict[str, str] = {
    "abalone": "qipan.games.abalone:Abalone",
    "chinese-checkers": "qipan.games.chinese_checkers:ChineseCheckers",
    "kelighine": "qipan.games.kelighine:Kelighine",
    "shengke": "qipan.games.shengke:ShengKe",
    "tellstones": "qipan.games.tellstones:Tellstones",
}

_ALIASES = {
    "chinese_checkers": "chinese-checkers",
    "sternhalma": "chinese-checkers",
    "sheng-ke": "shengke",
    "生剋棋": "shengke",
}


_CLASSES: dict[str, type[Game[Any, Any]]] = {}


def register(cls: type[Game[Any, Any]]) -> None:
    """Register a game class under ``cls.name`` (for games that live outside qipan)."""
    _GAMES[cls.name] = f"{cls.__module__}:{cls.__qualname__}"
    _CLASSES[cls.name] = cls


def game_names() -> list[str]:
    """The ids of every registered game."""
    return list(_GAMES)


def game_class(name: str) -> type[Game[Any, Any]]:
    """The Game subclass registered under ``name`` (aliases accepted)."""
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _GAMES:
        raise GameError(f"unknown game {brief(name)}; choose one of {choices_text(_GAMES)}")
    if key in _CLASSES:
        return _CLASSES[key]
    module_name, _, class_name = _GAMES[key].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise GameError(f"game {brief(key)} is not available in this installation") from None
        raise
    cls: type[Game[Any, Any]] = getattr(module, class_name)
    _CLASSES[key] = cls
    return cls


def load(
    name: str,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    **kwargs: object,
) -> Game[Any, Any]:
    """Build a game by id, variant and options (a mapping, keywords, or both).

    >>> import qipan
    >>> qipan.load("abalone", variant="belgian-daisy").variant
    'belgian-daisy'
    >>> qipan.load("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qipan.core.errors.GameError: unknown game 'chess'; choose one of abalone, chinese-checkers, ...
    """
    merged = dict(options or {})
    merged.update(kwargs)
    return game_class(name)(variant=variant, options=merged)
