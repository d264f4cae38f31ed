"""Observation encoders: one module per game turns a player's view into a float32 tensor.

An encoder's meaning is ``encode(game.view(state, player))`` — the JSON a player may know — so an
observation cannot carry hidden information the view does not. :meth:`Encoder.observe` computes
the same array straight from the state, without building the view's JSON, and
:meth:`Encoder.legal_mask` the action mask straight from the move generator; a test compares
both with the view-based arrays on random games. Every value lies in [0, 1].

>>> import qipan
>>> from qipan.rl.encoders import make_encoder
>>> game = qipan.load("abalone")
>>> encoder = make_encoder(game)
>>> encoder.shape
(7, 9, 9)
>>> float(encoder.encode(game.view(game.initial_state(), 0))[0].sum())
14.0
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qipan.core.errors import GameError, choices_text
from qipan.core.game import Game

Observation = NDArray[np.float32]
ActionMask = NDArray[np.int8]


class Encoder(ABC):
    """Turns one player's view of ``game`` into an array of shape :attr:`shape`, values in [0, 1].

    :attr:`planes` names the leading axis (one name per plane or feature) for the docs."""

    planes: tuple[str, ...]

    def __init__(self, game: Game[Any, Any]):
        self.game = game

    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        """The shape of every observation for this game (fixed by its options)."""

    @abstractmethod
    def encode(self, view: Mapping[str, Any]) -> Observation:
        """The observation of ``view`` (a player's view: ``view["player"]`` is an int)."""

    def observe(self, state: Any, player: int) -> Observation:
        """The observation of ``player`` at ``state``: always ``encode(game.view(state, player))``.

        Encoders override this with a direct path that skips building the view's JSON; it reads
        only what the view shows, and tests/rl/test_fast_paths.py checks on random games that
        the arrays are byte-identical to the encoded view's."""
        return self.encode(self.game.view(state, player))

    def legal_mask(self, state: Any) -> ActionMask:
        """1 at every legal action id of the player deciding at ``state``, else 0.

        Encoders override this to read the ids straight from the game's move generator."""
        ids = self.game.legal_action_ids(state)
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        mask[np.fromiter(ids, np.intp, len(ids))] = 1
        return mask

    def zeros(self) -> Observation:
        return np.zeros(self.shape, dtype=np.float32)


class Layout:
    """Named consecutive slices of a flat feature vector, for encoders of games without a
    natural grid. ``parts`` are ``(name, size, meaning)``; :meth:`rows` documents them.

    >>> layout = Layout(("scores", 2, "own, opponent"), ("phase", 3, "one-hot"))
    >>> layout.size, layout["phase"]
    (5, slice(2, 5, None))
    """

    def __init__(self, *parts: tuple[str, int, str]):
        self.parts = parts
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size, _ in parts:
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.starts: dict[str, int] = {name: part.start for name, part in self.slices.items()}
        """Where each part starts (the direct observation paths index with these)."""

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def rows(self) -> list[tuple[str, str, str]]:
        """(index range, name, meaning) per part."""
        out = []
        for name, size, meaning in self.parts:
            part = self.slices[name]
            span = str(part.start) if size == 1 else f"{part.start}–{part.stop - 1}"
            out.append((span, name, meaning))
        return out


def scatter(obs: Observation, values: dict[int, float]) -> Observation:
    """Write ``values`` (flat index -> value) into ``obs`` with one numpy call and return it: the
    direct observation paths gather their values in a dict, since a numpy write per element costs
    more than all the rest of the encoding."""
    count = len(values)
    obs.reshape(-1)[np.fromiter(values, np.intp, count)] = np.fromiter(values.values(), np.float32, count)
    return obs


def relative(player: int, viewer: int, players: int) -> int:
    """Seat ``player`` counted from the viewer: 0 is the viewer, 1 the next seat, ..."""
    return (player - viewer) % players


# Game id -> "module:Class", imported lazily like the game registry.
_ENCODERS: dict[str, str] = {
    "abalone": "qipan.rl.encoders.abalone:AbaloneEncoder",
    "chinese-checkers": "qipan.rl.encoders.chinese_checkers:ChineseCheckersEncoder",
    "kelighine": "qipan.rl.encoders.kelighine:KelighineEncoder",
    "shengke": "qipan.rl.encoders.shengke:ShengKeEncoder",
    "tellstones": "qipan.rl.encoders.tellstones:TellstonesEncoder",
}


def encoded_games() -> list[str]:
    """The ids of the games that have an observation encoder."""
    return list(_ENCODERS)


def make_encoder(game: Game[Any, Any]) -> Encoder:
    """The observation encoder for ``game`` (its options fix the shape)."""
    if game.name not in _ENCODERS:
        raise GameError(
            f"{game.name} has no reinforcement-learning encoder yet; choose one of {choices_text(_ENCODERS)}"
        )
    module_name, _, class_name = _ENCODERS[game.name].partition(":")
    cls: type[Encoder] = getattr(importlib.import_module(module_name), class_name)
    return cls(game)


__all__ = ["ActionMask", "Encoder", "Layout", "Observation", "encoded_games", "make_encoder", "relative", "scatter"]
