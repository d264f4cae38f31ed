"""What a player observes, for OpenSpiel: strings and tensors made from qipan's views only.

A string is the view as canonical JSON (sorted keys); a tensor is the view through the game's
reinforcement-learning encoder (:mod:`qipan.rl.encoders`, docs/rl.md), flattened. A view holds
exactly what its player may know, so neither can carry anything hidden from them. The public
observation (``private_info=NONE``) is the spectator's view, as a string only.

Information states have perfect recall: their string ends with a line ``recall <digest>``,
SHA-256 chained over the player's views of every earlier position (:func:`remember`), so two
histories give a player the same information state exactly when they showed that player the same
views (in a perfect-information game: when they are the same positions in the same order).
Tensors have a fixed size: they are the present view only.

>>> remember(NO_RECALL, '{"player":0}')[:16]
'bd14615ea1a7c672'
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]
from numpy.typing import NDArray

from qipan.core.game import Game
from qipan.rl.encoders import Encoder

NO_RECALL = "0" * 64
"""A player's recall before the game's first action."""


def remember(recall: str, view: str) -> str:
    """The recall after a position whose view (as :func:`view_string`) was ``view``."""
    return hashlib.sha256(f"{recall}\n{view}".encode()).hexdigest()


def view_string(game: Game[Any, Any], state: Any, player: int | None) -> str:
    """``player``'s view of ``state`` (None: a spectator's) as canonical JSON."""
    return json.dumps(game.view(state, player), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class ViewObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``)
    over qipan views. One class serves information states and observations: a qipan view is
    already all a player knows of the present; an information state adds the recall of the past."""

    def __init__(self, game: Game[Any, Any], encoder: Encoder, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"qipan observers take no parameters, not {sorted(params)}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info:
            raise ValueError("qipan observers always include the public information (public_info=True)")
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and not game.perfect_information:
            raise ValueError(f"{game.name} has no observer of every player's private information")
        self.game = game
        self.encoder = encoder
        self.public = private == pyspiel.PrivateInfoType.NONE and not game.perfect_information
        self.recall = bool(iig_obs_type.perfect_recall)
        if self.public and self.recall:
            raise ValueError(f"{game.name} has no public observation with perfect recall")
        shape = (0,) if self.public else encoder.shape
        self.tensor: NDArray[np.float32] = np.zeros(int(np.prod(shape)), dtype=np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {} if self.public else {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of the bridge ``state``."""
        if not self.public:
            self.tensor[:] = self.encoder.encode(self.game.view(state.qipan_state, player)).ravel()

    def string_from(self, state: Any, player: int) -> str:
        text = view_string(self.game, state.qipan_state, None if self.public else player)
        if not self.recall:
            return text
        return f"{text}\nrecall {state.recall_of(player)}"
