"""ExpectimaxAgent's horizon_chance switch: expand a chance node at the horizon, or evaluate it."""

from __future__ import annotations

from typing import Any

import pytest

from qipan.ai import ExpectimaxAgent
from qipan.ai.search import WIN
from tests.ai.toys import DiceBet


def test_horizon_chance_false_evaluates_the_roll_instead_of_expanding_it() -> None:
    game = DiceBet(options={"win_faces": 0})  # every roll loses the bet
    seen: list[tuple[str, ...]] = []

    def evaluate(g: Any, s: tuple[str, ...], p: int) -> float:
        seen.append(s)
        return 5.0 if p == 0 else -5.0  # the evaluation believes in the bet

    move, value = ExpectimaxAgent(evaluate, depth=1, horizon_chance=False).search(game, game.initial_state())
    assert (move, value) == ("bet", 5.0)
    assert set(seen) == {("bet",)}  # no rolled state was looked at
    # the default expands the roll and sees the bet lose
    move, value = ExpectimaxAgent(evaluate, depth=1).search(game, game.initial_state())
    assert move == "pass" and value == 0.0


def test_horizon_chance_false_still_expands_chance_inside_the_depth() -> None:
    game = DiceBet(options={"win_faces": 6})
    agent = ExpectimaxAgent(lambda g, s, p: 0.0, depth=2, horizon_chance=False)
    move, value = agent.search(game, game.initial_state())
    assert move == "bet"
    assert value == pytest.approx(WIN - 2)
