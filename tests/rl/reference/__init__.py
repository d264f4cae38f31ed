"""FROZEN REFERENCE — observation encoders and action mask as they were before the fast paths of
issue 23 (copied from src/qipan/rl at commit 3c39eda). Used only by tests/rl/test_fast_paths.py,
which checks that the environments' arrays are byte-identical to these; do not edit them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qipan.core.game import Game
from qipan.rl.encoders import Encoder
from tests.rl.reference.abalone import AbaloneEncoder
from tests.rl.reference.chinese_checkers import ChineseCheckersEncoder
from tests.rl.reference.kelighine import KelighineEncoder
from tests.rl.reference.shengke import ShengKeEncoder
from tests.rl.reference.tellstones import TellstonesEncoder

ENCODERS: dict[str, type[Encoder]] = {
    "abalone": AbaloneEncoder,
    "chinese-checkers": ChineseCheckersEncoder,
    "kelighine": KelighineEncoder,
    "shengke": ShengKeEncoder,
    "tellstones": TellstonesEncoder,
}


def reference_encoder(game: Game[Any, Any]) -> Encoder:
    return ENCODERS[game.name](game)


def reference_observation(encoder: Encoder, state: Any, player: int) -> NDArray[np.float32]:
    """The observation as ``QipanEnv.observe`` built it: the encoded view."""
    return encoder.encode(encoder.game.view(state, player))


def reference_mask(game: Game[Any, Any], state: Any, player: int) -> NDArray[np.int8]:
    """The action mask as ``QipanEnv.observe`` built it: every legal move, one ``action_id`` each."""
    mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
    if game.to_move(state) == player:
        mask[sorted(Game.legal_action_ids(game, state))] = 1
    return mask


class ReferencePath(Encoder):
    """An encoder that builds observations and masks the pre-change way, for an environment to
    run on (``env.encoder = ReferencePath(env.game)``): benchmarks/rl_steps.py times both paths."""

    def __init__(self, game: Game[Any, Any]):
        super().__init__(game)
        self.reference = reference_encoder(game)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.reference.shape

    def encode(self, view: Mapping[str, Any]) -> NDArray[np.float32]:
        return self.reference.encode(view)

    def legal_mask(self, state: Any) -> NDArray[np.int8]:
        player = self.game.to_move(state)
        assert player is not None and player >= 0
        return reference_mask(self.game, state, player)
