"""Sheng-Ke: own hand in the observation, the opponent's hidden, rewards at the end."""

from __future__ import annotations

import numpy as np

import qipan.rl


def test_hands_and_final_rewards_over_a_random_game() -> None:
    env = qipan.rl.env("shengke", turns=8)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    game, lay = env.game, env.encoder.layout
    checked = 0
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert reward == final[agent]
            env.step(None)
            continue
        player = env.agent_index[agent]
        hands = game.state_to_json(env.game_state)["players"]
        for seat, name in enumerate(env.possible_agents):
            seen = env.observe(name)["observation"]
            own = {game.card_ids[seat][c] for c in hands[seat]["hand"]}
            assert set(np.flatnonzero(seen[lay["hand"]])) == own
            checked += bool(own)
        assert obs["action_mask"].sum() > 0 and player == game.to_move(env.game_state)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if any(env.terminations.values()):
            final = dict(env.rewards)
    returns = game.returns(env.game_state)
    assert final == {"player_0": returns[0], "player_1": returns[1]} and checked > 0
