"""Kelighine: the owner of a pushed piece decides, and a four-player game pays +1 / −1/3."""

from __future__ import annotations

import numpy as np

import qipan.rl
from tests.rl.cases import final_rewards_of_random_play


def test_pushed_pieces_owner_acts_out_of_turn_and_sees_the_push() -> None:
    env = qipan.rl.env("kelighine", version=2)
    lay = env.encoder.layout
    out_of_turn = 0
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not any(env.terminations.values()) and out_of_turn < 3:
            view = env.game.view(env.game_state, None)
            agent = env.agent_selection
            obs = env.observe(agent)
            if view["phase"] == "push":
                owner = view["pending_push"]["player"]
                assert agent == f"player_{owner}"
                assert obs["observation"][lay["push_owner"]][0] == 1  # seat +0: the viewer itself
                cells = obs["observation"][lay["cells"]].reshape(41, -1)
                assert cells[:, 4 * 2 + 3].sum() == len(view["pending_push"]["options"])
                assert obs["action_mask"].sum() == len(view["pending_push"]["options"])
                out_of_turn += owner != view["turn"]
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if out_of_turn >= 3:
            break
    assert out_of_turn >= 3


def test_four_player_rewards_are_zero_sum() -> None:
    env = qipan.rl.env("kelighine", players=4)
    final = final_rewards_of_random_play(env, seed=2)
    assert sorted(final.values()) == [-1 / 3, -1 / 3, -1 / 3, 1.0]
