"""The games, variants and options every generic RL test runs on."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

import qipan.rl
from qipan.rl.env import QipanEnv

CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("abalone", "standard", {}),
    ("abalone", "belgian-daisy", {}),
    ("abalone", "german-daisy", {"quiet_move_limit": 30}),
    ("chinese-checkers", "standard", {}),
    ("chinese-checkers", "standard", {"players": 3, "pieces": 15, "jump": "adjacent"}),
    ("chinese-checkers", "standard", {"players": 6, "chain": False, "other_corners": "forbidden"}),
    ("chinese-checkers", "capture", {"players": 3}),
    ("chinese-checkers", "capture", {"players": 1}),
    ("kelighine", "standard", {}),
    ("kelighine", "standard", {"version": 2}),
    ("kelighine", "standard", {"players": 4, "die": 4}),
    ("shengke", "standard", {}),
    ("shengke", "standard", {"turns": 6, "first": "1", "first_bonus": 0}),
    ("tellstones", "standard", {}),
    ("tellstones", "standard", {"first_player": "random", "turn_limit": 12}),
    ("tellstones", "two-lines", {}),
    ("tellstones", "round-table", {}),
]


def case_id(case: tuple[str, str | None, dict[str, Any]]) -> str:
    name, variant, options = case
    return "-".join([name, variant or "default", *(f"{k}={v}" for k, v in options.items())])


def make_env(case: tuple[str, str | None, dict[str, Any]], **kwargs: Any) -> QipanEnv:
    name, variant, options = case
    return qipan.rl.env(name, variant, **kwargs, **options)


def random_states(env: QipanEnv, seed: int, count: int) -> list[Any]:
    """Game states met while playing random legal actions (new games when one ends)."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    states = []
    while len(states) < count:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        states.append(env.game_state)
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    return states


def final_rewards_of_random_play(env: QipanEnv, seed: int) -> dict[str, float]:
    """Play uniformly random legal actions to the end; the rewards given at the final step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if any(env.terminations.values()):
            final = dict(env.rewards)
    return final
