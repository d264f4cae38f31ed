"""Blend: a level between two agents."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

import qipan
from qipan.ai import Blend, RandomAgent
from qipan.core.game import Game


class Fixed:
    """Always the n-th legal action; counts the views it observes."""

    def __init__(self, index: int, name: str):
        self.index = index
        self.name = name
        self.seen = 0
        self.stats = name

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        return list(game.legal_actions(game.sample_state(view, rng)))[self.index]

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        self.seen += 1


def _choices(share: float, n: int = 400) -> list[Any]:
    game = qipan.load("abalone")
    view = game.view(game.initial_state(), 0)
    blend = Blend(Fixed(0, "strong"), Fixed(1, "weak"), share)
    rng = random.Random(5)
    return [blend.choose(game, view, rng) for _ in range(n)]


def test_share_decides_how_often_the_strong_agent_chooses() -> None:
    game = qipan.load("abalone")
    first, second = list(game.legal_actions(game.initial_state()))[:2]
    assert set(_choices(1.0)) == {first}
    assert set(_choices(0.0)) == {second}
    strong = _choices(2 / 3).count(first)
    assert 230 <= strong <= 300  # 400 × 2/3 = 267, binomial sd 9.4


def test_both_agents_observe_and_stats_follow_the_last_chooser() -> None:
    game = qipan.load("abalone")
    strong, weak = Fixed(0, "strong"), Fixed(1, "weak")
    blend = Blend(strong, weak, 0.0)
    view = game.view(game.initial_state(), 0)
    blend.observe(game, view)
    assert (strong.seen, weak.seen) == (1, 1)
    blend.choose(game, view, random.Random(0))
    assert blend.stats == "weak"


def test_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        Blend(RandomAgent(), RandomAgent(), 1.5)
