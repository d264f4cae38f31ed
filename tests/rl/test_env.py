"""Every environment passes PettingZoo's API and seed tests, and observes only views."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import qipan
import qipan.rl
from qipan.core.game import CHANCE
from tests.rl.cases import CASES, case_id, make_env, random_states

# A Dict observation is what PettingZoo's own board games use; the API test still warns about it.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")

Case = tuple[str, str | None, dict[str, Any]]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api(case: Case) -> None:
    env = make_env(case, max_steps=300)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=250)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_seed(case: Case) -> None:
    seed_test(lambda: make_env(case, max_steps=300), num_cycles=150)


def _trajectory(case: Case, seed: int, episodes: int = 2, length: int = 40) -> list[Any]:
    env = make_env(case, max_steps=length)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    seen: list[Any] = []
    for _ in range(episodes):
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        seen.append(env.game.state_to_json(env.game_state))
        env.reset()  # no seed: the generator seeded above goes on, so later episodes repeat too
    return seen


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reset_seed_reproduces_whole_episodes(case: Case) -> None:
    assert _trajectory(case, 5) == _trajectory(case, 5)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observation_is_the_encoded_view_and_mask_the_legal_ids(case: Case) -> None:
    env = make_env(case)
    game = env.game
    for state in random_states(env, 3, 60):
        env.set_state(state)
        mover = game.to_move(state)
        for agent in env.possible_agents:
            player = env.agent_index[agent]
            obs = env.observe(agent)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert env.observation_space(agent).contains(obs)
            view = game.view(state, player)
            assert np.array_equal(obs["observation"], env.encoder.encode(view))
            # The full-state JSON some views carry for perfect-information games is never read.
            stripped = {k: v for k, v in view.items() if k != "state"}
            assert np.array_equal(obs["observation"], env.encoder.encode(stripped))
            expected = sorted(game.legal_action_ids(state)) if player == mover else []
            assert list(np.flatnonzero(obs["action_mask"])) == expected


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observations_leak_no_hidden_information(case: Case) -> None:
    """Two states that differ only in what a player cannot know give that player equal
    observations (and masks). The states come from ``game.sample_state`` of the player's view."""
    env = make_env(case)
    game = env.game
    differing = 0
    for index, state in enumerate(random_states(env, 11, 40)):
        for player in range(game.num_players):
            view = game.view(state, player)
            a = game.sample_state(view, random.Random(2 * index))
            b = game.sample_state(view, random.Random(2 * index + 1))
            if game.to_move(a) == CHANCE or game.to_move(b) == CHANCE:
                continue
            differing += a != b
            agent = env.possible_agents[player]
            for other in (a, b):
                env.set_state(other)
                obs = env.observe(agent)
                env.set_state(state)
                reference = env.observe(agent)
                assert np.array_equal(obs["observation"], reference["observation"])
                assert np.array_equal(obs["action_mask"], reference["action_mask"])
    if not game.perfect_information:
        assert differing > 0, "no two sampled states differed: the test would prove nothing"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_truncation_after_max_steps(case: Case) -> None:
    env = make_env(case, max_steps=6)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6 and env.agents == []


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_render_is_text(case: Case) -> None:
    env = make_env(case, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "to move" in text
    env.step(env.legal_action_ids()[0])
    assert "to move" in env.render()


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = qipan.rl.env("abalone", render_mode="human")
    env.reset(seed=0)
    env.step(env.action_id("a1b2"))
    assert "to move: white" in capsys.readouterr().out


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = qipan.rl.env("abalone")
    env.reset(seed=0)
    before = env.game_state
    illegal = next(i for i in range(env.game.num_distinct_actions) if i not in env.legal_action_ids())
    with pytest.raises(qipan.GameError, match="illegal action id"):
        env.step(illegal)
    with pytest.raises(qipan.GameError, match="must act"):
        env.step(None)
    assert env.game_state == before and env.agent_selection == "player_0"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(qipan.GameError, match="render_mode"):
        qipan.rl.env("abalone", render_mode="rgb_array")
    with pytest.raises(qipan.GameError, match="max_steps"):
        qipan.rl.env("abalone", max_steps=0)
    with pytest.raises(qipan.GameError, match="no variant"):
        qipan.rl.env("abalone", "nonsense")


CHANCE_GAMES = [("kelighine", {}), ("shengke", {}), ("tellstones", {"first_player": "random"})]


@pytest.mark.parametrize(("name", "options"), CHANCE_GAMES)
def test_the_seed_drives_chance(name: str, options: dict[str, Any]) -> None:
    """Different seeds give different chance outcomes; the same seed the same ones."""
    runs = {}
    for seed in (0, 1, 2, 3, 4, 0):
        env = qipan.rl.env(name, **options)
        env.reset(seed=seed)
        rng = random.Random(99)
        seen = []
        for _ in range(12):
            if any(env.terminations.values()):
                break
            seen.append(env.game.state_to_json(env.game_state))
            env.step(rng.choice(env.legal_action_ids()))
        runs.setdefault(seed, []).append(repr(seen))
    assert runs[0][0] == runs[0][1]
    assert len({r[0] for r in runs.values()}) > 1
