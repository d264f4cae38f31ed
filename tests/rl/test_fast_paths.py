"""The direct observation and mask paths give byte-identical arrays to the view-based encoders and
the per-move mask they replaced (the frozen copies in tests/rl/reference), for every agent, on
positions of seeded random games of every game, variant and option set of the RL tests."""

from __future__ import annotations

import gc
import json
import random
import tomllib
import weakref
from typing import Any

import numpy as np
import pytest

import qipan
from qipan.core.game import CHANCE, Game
from qipan.games.abalone import search as abalone_search
from qipan.games.shengke.cards import default_deck_text
from qipan.rl.env import QipanEnv
from tests.rl.cases import CASES, case_id, make_env
from tests.rl.reference import reference_encoder, reference_mask, reference_observation

Case = tuple[str, str | None, dict[str, Any]]


def _reordered_deck() -> str:
    """The built-in Sheng-Ke deck inline, its cards in reverse order and two in numbers swapped:
    card indices, ids and ranges no longer line up with the built-in deck's."""
    data = tomllib.loads(default_deck_text())
    data["cards"].reverse()
    data["cards"][0]["in"], data["cards"][1]["in"] = data["cards"][1]["in"], data["cards"][0]["in"]
    return json.dumps(data, ensure_ascii=False)


MORE_CASES: list[Case] = [
    ("abalone", "standard", {"repetition_draw": True, "quiet_move_limit": 12}),
    ("chinese-checkers", "standard", {"players": 4, "other_corners": "pass-only"}),
    ("chinese-checkers", "standard", {"players": 2, "pieces": 15, "chain": False}),
    ("chinese-checkers", "standard", {"players": 3, "jump": "adjacent", "blocked_target": False, "max_moves": 80}),
    ("chinese-checkers", "capture", {"players": 6}),
    ("chinese-checkers", "standard", {"players": 3, "jump": "adjacent", "chain": False}),
    ("chinese-checkers", "standard", {"players": 2, "jump": "adjacent"}),
    ("chinese-checkers", "standard", {"players": 6, "jump": "adjacent", "chain": False, "other_corners": "pass-only"}),
    ("kelighine", "standard", {"players": 3, "die": 4}),
    ("shengke", "standard", {"first": "random", "turns": 4}),
    ("tellstones", "round-table", {"first_player": "random", "turn_limit": 30}),
    ("abalone", "belgian-daisy", {"tournament": True}),
    ("chinese-checkers", "capture", {"players": 2}),
    ("kelighine", "standard", {"players": 3}),
    ("shengke", "standard", {"deck_1": _reordered_deck(), "ranges": "2/46/842/8246/7913/789123/47896/78946123",
                             "first": "1", "first_bonus": 5}),
    ("tellstones", "two-lines", {"first_player": "random", "turn_limit": 20}),
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


@pytest.mark.parametrize("case", CASES + MORE_CASES, ids=case_id)
def test_direct_observations_equal_the_reference_at_every_node(case: Case) -> None:
    """Played with the game alone (no environment), so chance nodes, the start before a first
    player is drawn, positions with only a pass and finished positions are observed too."""
    env = make_env(case)
    game = env.game
    reference = reference_encoder(game)
    rng = random.Random(5)
    kinds: set[str] = set()
    for _game in range(3):
        state = game.initial_state()
        for _ply in range(400):
            mover = game.to_move(state)
            kinds.add("over" if mover is None else "chance" if mover == CHANCE else "decision")
            for player in range(game.num_players):
                expected = reference_observation(reference, state, player)
                assert env.encoder.observe(state, player).tobytes() == expected.tobytes(), f"player {player}"
            if mover is None:
                break
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                assert env.encoder.legal_mask(state).tobytes() == reference_mask(game, state, mover).tobytes()
                action = rng.choice(list(game.legal_actions(state)))
            state = game.next_state(state, action)
    assert "decision" in kinds


@pytest.mark.parametrize("case", [c for c in MORE_CASES if not qipan.load(c[0], c[1], **c[2]).perfect_information],
                         ids=case_id)
def test_direct_observations_leak_nothing_in_more_cases(case: Case) -> None:
    """As tests/rl/test_env.py's leak test, on the option sets only this file plays: states
    resampled from a player's view (other hands, deck orders, face-down stones) observe alike."""
    env = make_env(case)
    game = env.game
    differing = 0
    for index, state in enumerate(_positions(env, 17, 60)):
        for player in range(game.num_players):
            view = game.view(state, player)
            expected = env.encoder.observe(state, player).tobytes()
            for seed in (2 * index, 2 * index + 1):
                other = game.sample_state(view, random.Random(seed))
                differing += other != state
                assert env.encoder.observe(other, player).tobytes() == expected
    assert differing > 0


@pytest.mark.parametrize("case", list({c[0]: c for c in reversed(CASES)}.values()), ids=case_id)
def test_an_encoder_is_freed_with_its_environment(case: Case) -> None:
    """Nothing keeps an encoder alive after its environment is gone (a per-instance cache on a
    method would, for the whole process: one per environment ever made)."""
    env = make_env(case)
    env.reset(seed=0)
    for agent in env.possible_agents:
        env.observe(agent)
    encoder = weakref.ref(env.encoder)
    del env
    gc.collect()
    assert encoder() is None


@pytest.mark.parametrize("options", [
    {"players": 6}, {"players": 6, "jump": "adjacent"}, {"players": 3, "chain": False},
    {"players": 4, "other_corners": "pass-only"}, {"players": 2, "other_corners": "forbidden", "jump": "adjacent"},
    {"players": 3, "jump": "adjacent", "chain": False},
    {"players": 4, "jump": "adjacent", "other_corners": "pass-only"},
], ids=lambda options: "-".join(f"{k}={v}" for k, v in options.items()))
def test_chinese_checkers_ids_on_crowded_random_boards(options: dict[str, Any]) -> None:
    """Random play seldom crowds the board; long jumps over several pieces, chains through banned
    corners and pieces hemmed in (a pass) are met here on random boards of every density."""
    from qipan.games.chinese_checkers.game import ChineseCheckersState
    from qipan.games.chinese_checkers.moves import NUM_HOLES, PASS

    game = qipan.load("chinese-checkers", **options)
    encoder = make_env(("chinese-checkers", "standard", options)).encoder
    rng = random.Random(41)
    passes = 0
    for _ in range(300):
        density = rng.random()
        board = tuple(rng.randint(1, game.num_players) if rng.random() < density else 0 for _ in range(NUM_HOLES))
        state = ChineseCheckersState(board, rng.randrange(game.num_players))
        ids = Game.legal_action_ids(game, state)
        assert game.legal_action_ids(state) == ids
        assert encoder.legal_mask(state).tobytes() == reference_mask(game, state, state.turn).tobytes()
        passes += ids == [PASS.id]
    assert 0 < passes < 300


@pytest.mark.parametrize("native", [False, *([True] if abalone_search.NATIVE else [])],
                         ids=lambda native: "compiled" if native else "pure-python")
def test_abalone_mask_on_random_boards(native: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both Abalone mask paths (the compiled move generator and the Python bitboards) on random
    boards of 9 to 14 marbles a side, crowded positions with many pushes and edges included."""
    from qipan.games.abalone.board import CELLS
    from qipan.games.abalone.game import AbaloneState

    monkeypatch.setattr(abalone_search, "NATIVE", native)
    game = qipan.load("abalone")
    encoder = make_env(("abalone", "standard", {})).encoder
    rng = random.Random(8)
    for _ in range(300):
        blacks = rng.randint(9, 14)
        cells = rng.sample(CELLS, blacks + rng.randint(9, 14))
        black, white = (sum(1 << c for c in part) for part in (cells[:blacks], cells[blacks:]))
        state = AbaloneState(black, white, rng.randrange(2))
        assert encoder.legal_mask(state).tobytes() == reference_mask(game, state, state.turn).tobytes()
