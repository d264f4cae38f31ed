"""The direct observation and mask paths give byte-identical arrays to the view-based encoders and
the per-move mask they replaced (the frozen copies in tests/rl/reference), for every agent, on
positions of seeded random games of every game, variant and option set of the RL tests."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import qipan
from qipan.core.game import Game
from qipan.rl.env import QipanEnv
from tests.rl.cases import CASES, case_id, make_env
from tests.rl.reference import reference_encoder, reference_mask, reference_observation

Case = tuple[str, str | None, dict[str, Any]]

MORE_CASES: list[Case] = [
    ("abalone", "standard", {"repetition_draw": True, "quiet_move_limit": 12}),
    ("chinese-checkers", "standard", {"players": 4, "other_corners": "pass-only"}),
    ("chinese-checkers", "standard", {"players": 2, "pieces": 15, "chain": False}),
    ("chinese-checkers", "standard", {"players": 3, "jump": "adjacent", "blocked_target": False, "max_moves": 80}),
    ("chinese-checkers", "capture", {"players": 6}),
    ("kelighine", "standard", {"players": 3, "die": 4}),
    ("shengke", "standard", {"first": "random", "turns": 4}),
    ("tellstones", "round-table", {"first_player": "random", "turn_limit": 30}),
]


def _positions(env: QipanEnv, seed: int, count: int) -> list[Any]:
    """States met in seeded random games (decisions and final positions), played through the env."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    seen: list[Any] = []
    while len(seen) < count:
        seen.append(env.game_state)
        if env.game.to_move(env.game_state) is None or any(env.truncations.values()):
            env.reset()
            continue
        env.step(rng.choice(env.legal_action_ids()))
    return seen


@pytest.mark.parametrize("case", CASES + MORE_CASES, ids=case_id)
def test_observations_and_masks_equal_the_reference(case: Case) -> None:
    env = make_env(case, max_steps=400)
    game = env.game
    reference = reference_encoder(game)
    ended = 0
    for state in _positions(env, 23, 300):
        if game.to_move(state) is None:
            _end_at(env, state)
            ended += 1
        else:
            env.set_state(state)
        assert game.legal_action_ids(state) == Game.legal_action_ids(game, state)
        for agent in env.possible_agents:
            player = env.agent_index[agent]
            obs = env.observe(agent)
            expected = reference_observation(reference, state, player)
            assert obs["observation"].dtype == expected.dtype and obs["observation"].shape == expected.shape
            assert obs["observation"].tobytes() == expected.tobytes(), f"{agent} observation differs"
            assert obs["action_mask"].tobytes() == reference_mask(game, state, player).tobytes(), f"{agent} mask"
        if game.to_move(state) is not None:
            assert env.legal_action_ids() == sorted(Game.legal_action_ids(game, state))


def _end_at(env: QipanEnv, state: Any) -> None:
    """Put a finished position into the environment (set_state refuses one: an episode needs a decision)."""
    env.game_state = state
    env._forget_legal()


def test_the_mask_returned_is_a_copy() -> None:
    env = make_env(("abalone", "standard", {}))
    env.reset(seed=0)
    first = env.observe("player_0")["action_mask"]
    first[:] = 0
    assert env.observe("player_0")["action_mask"].sum() == 44
    assert len(env.legal_action_ids()) == 44


def test_an_out_of_range_id_is_illegal_not_wrapped() -> None:
    env = make_env(("abalone", "standard", {}))
    env.reset(seed=0)
    last = env.legal_action_ids()[-1]
    with pytest.raises(qipan.GameError, match="illegal action id"):
        env.step(last - env.game.num_distinct_actions)  # a negative index would wrap to ``last``
    assert np.count_nonzero(env.observe("player_0")["action_mask"]) == 44


def test_abalone_mask_without_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Abalone mask comes from the compiled move generator when it is installed; the pure
    Python path (no C compiler at install, or QIPAN_PURE_PYTHON) gives the same masks."""
    from qipan.games.abalone import search

    monkeypatch.setattr(search, "NATIVE", False)
    for case in [c for c in CASES + MORE_CASES if c[0] == "abalone"]:
        env = make_env(case, max_steps=400)
        for state in _positions(env, 31, 150):
            if env.game.to_move(state) is not None:
                assert env.encoder.legal_mask(state).tobytes() == reference_mask(env.game, state, state.turn).tobytes()
