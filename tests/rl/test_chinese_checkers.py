"""Chinese Checkers: planes by seat from the viewer, and place-based multi-player rewards."""

from __future__ import annotations

import numpy as np

import qipan.rl
from qipan.games.chinese_checkers.board import HOLES, NAMES
from tests.rl.cases import final_rewards_of_random_play


def _grid(name: str) -> tuple[int, int]:
    q, r, _ = HOLES[NAMES.index(name)]
    return 8 - r, q + 8


def test_planes_count_seats_from_the_viewer() -> None:
    env = qipan.rl.env("chinese-checkers", players=3)
    env.reset(seed=0)
    game, state = env.game, env.game_state
    obs = env.observe("player_1")["observation"]
    assert obs.shape == (10, 17, 17)
    for seat, plane in ((1, 0), (2, 1), (0, 2)):
        expected = {_grid(NAMES[h]) for h in game.pieces_of(state, seat)}
        assert {(int(r), int(c)) for r, c in zip(*np.nonzero(obs[plane]), strict=True)} == expected
    assert obs[3].sum() == 121
    own_target = {_grid(NAMES[h]) for h in game.target_holes(1)}
    assert {(int(r), int(c)) for r, c in zip(*np.nonzero(obs[4]), strict=True)} == own_target
    assert obs[7:].sum() == 0  # nobody has finished


def test_three_player_capture_game_pays_by_place() -> None:
    env = qipan.rl.env("chinese-checkers", "capture", players=3)
    final = final_rewards_of_random_play(env, seed=1)
    returns = env.game.returns(env.game_state)
    assert final == {f"player_{i}": returns[i] for i in range(3)}
    assert abs(sum(final.values())) < 1e-9 and max(final.values()) > 0
