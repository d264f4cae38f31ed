"""Abalone: observation planes, action ids and the end of a game in the environment."""

from __future__ import annotations

import numpy as np

import qipan.rl

NEAR_END = {
    "black": ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c7", "b6"],
    "white": ["a5", "i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6"],
    "turn": "black",
}


def test_planes_are_from_the_viewers_side() -> None:
    env = qipan.rl.env("abalone", quiet_move_limit=10)
    env.reset(seed=0)
    env.set_state(env.game.state_from_json({**NEAR_END, "quiet": 4}))
    black = env.observe("player_0")["observation"]
    white = env.observe("player_1")["observation"]
    assert black.shape == (7, 9, 9)
    assert black[0].sum() == 9 and black[0, 2, 6] == 1  # c7 is row c, number 7
    assert black[1].sum() == 9 and black[1, 0, 4] == 1  # a5
    assert np.array_equal(black[0], white[1]) and np.array_equal(black[1], white[0])
    assert black[2].sum() == 61 and black[2, 0, 5] == 0  # a6 is not a cell
    assert black[3].sum() == 61 and white[3].sum() == 0
    assert black[4, 4, 4] == np.float32(5 / 6) and black[5, 4, 4] == np.float32(5 / 6)
    assert black[6, 4, 4] == np.float32(0.4) and black[6, 0, 8] == 0


def test_win_gives_plus_and_minus_one_then_agents_leave() -> None:
    env = qipan.rl.env("abalone")
    env.reset(seed=0)
    env.set_state(env.game.state_from_json(NEAR_END))
    env.step(env.action_id("c7b6"))
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    _, reward, terminated, _, _ = env.last()
    assert terminated and reward == env.rewards[env.agent_selection]
    env.step(None)
    env.step(None)
    assert env.agents == []
    assert "black won" in env.render_text()


def test_action_ids_are_the_games() -> None:
    env = qipan.rl.env("abalone")
    env.reset(seed=0)
    assert env.action_space("player_0").n == env.game.num_distinct_actions == 2562
    action = env.action_id("a1b2")
    assert env.action_text(action) == "a1b2"
    assert action in env.legal_action_ids()
