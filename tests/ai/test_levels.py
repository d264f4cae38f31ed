"""Every game's named levels build agents that answer legal moves from their views."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.ai import agent_levels, make_agent
from qipan.core.errors import GameError
from qipan.core.game import CHANCE
from qipan.core.match import Match

CASES = [
    (game, level)
    for game in ("abalone", "chinese-checkers", "kelighine", "shengke", "tellstones")
    for level in agent_levels(qipan.load(game))
]


@pytest.mark.parametrize(("game_id", "level"), CASES)
def test_level_plays_a_legal_move_mid_game(game_id: str, level: str) -> None:
    game = qipan.load(game_id)
    match = Match(game, seed=11)
    rng = random.Random(11)
    agent = make_agent(game, level)
    for _ in range(8):  # a few random decisions
        match.play(rng.choice(list(game.legal_actions(match.state))))
    assert not match.over and match.to_move not in (None, CHANCE)
    seat = match.to_move
    view = game.view(match.state, seat)
    agent.observe(game, view)
    action = agent.choose(game, view, random.Random(0))
    assert action in game.legal_actions(match.state)


def test_levels_are_listed_and_unknown_levels_refused() -> None:
    for game_id in ("abalone", "chinese-checkers", "kelighine", "shengke"):
        assert agent_levels(qipan.load(game_id))[:4] == ["random", "easy", "medium", "hard"]
    with pytest.raises(GameError, match="choose one of random, easy"):
        make_agent(qipan.load("abalone"), "grandmaster")


def test_chinese_checkers_levels_switch_to_best_reply_with_more_players() -> None:
    from qipan.ai.search import AlphaBetaAgent, BestReplyAgent

    assert isinstance(make_agent(qipan.load("chinese-checkers"), "hard"), AlphaBetaAgent)
    assert isinstance(make_agent(qipan.load("chinese-checkers", players=3), "hard"), BestReplyAgent)
