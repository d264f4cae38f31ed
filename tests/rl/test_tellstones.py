"""Tellstones: what a player sees of face-down stones, and team rewards."""

from __future__ import annotations

import numpy as np

import qipan.rl
from tests.rl.cases import final_rewards_of_random_play


def _slots(env: qipan.rl.QipanEnv, agent: str) -> np.ndarray:
    encoder = env.encoder
    return env.observe(agent)["observation"][encoder.layout["slots"]].reshape(-1, 19)


def test_a_peeked_stone_shows_only_to_the_peeker_and_only_right_after() -> None:
    env = qipan.rl.env("tellstones")
    env.reset(seed=0)
    for move in ("place crown 3", "hide 3", "peek 3"):
        env.step(env.action_id(move))
    assert _slots(env, "player_0")[2, 9] == 1  # crown, revealed to the peeker
    assert _slots(env, "player_1")[2, 9:16].sum() == 0
    assert _slots(env, "player_1")[2, 8] == 1  # the other player sees a face-down stone
    env.step(env.action_id("place sword 2"))
    assert _slots(env, "player_0")[2, 9:16].sum() == 0  # gone: memory is the agent's business
    last = env.observe("player_0")["observation"][env.encoder.layout["last_symbol"]]
    assert last[2] == 1  # the last action named the sword


def test_exchanged_face_down_stones_look_alike_to_both_players() -> None:
    env = qipan.rl.env("tellstones")
    env.reset(seed=0)
    for move in ("place crown 3", "place sword 5", "hide 3", "hide 5"):
        env.step(env.action_id(move))
    before = {a: env.observe(a) for a in env.possible_agents}
    data = env.game.state_to_json(env.game_state)
    assert data["lines"][0][2] == "-crown" and data["lines"][0][4] == "-sword"
    data["lines"][0][2], data["lines"][0][4] = "-sword", "-crown"
    exchanged = env.game.state_from_json(data)
    assert exchanged != env.game_state
    env.set_state(exchanged)
    for agent in env.possible_agents:
        after = env.observe(agent)
        assert np.array_equal(before[agent]["observation"], after["observation"])
        assert np.array_equal(before[agent]["action_mask"], after["action_mask"])


def test_team_rewards_in_the_round_table() -> None:
    env = qipan.rl.env("tellstones", "round-table")
    final = final_rewards_of_random_play(env, seed=3)
    assert final["player_0"] == final["player_2"] == -final["player_1"] == -final["player_3"] != 0
