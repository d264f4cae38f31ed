"""Chinese Checkers observations: planes of 17×17 over the star's axial coordinates.

Hole ``h`` with cube coordinates (q, r, s) sits at ``[plane, 8 - r, q + 8]``: row ``a`` (the
first player's home tip) is grid row 0, row ``q`` grid row 16. The 168 grid points off the star
are 0 in every plane. Seats are counted from the viewer (plane 0 = own pieces); the board is not
rotated, because action ids are absolute.

>>> import qipan
>>> game = qipan.load("chinese-checkers", players=3)
>>> encoder = ChineseCheckersEncoder(game)
>>> encoder.shape
(10, 17, 17)
>>> obs = encoder.encode(game.view(game.initial_state(), 1))
>>> [int(obs[k].sum()) for k in range(3)]  # own, next seat's and the seat after's pieces
[10, 10, 10]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from qipan.games.chinese_checkers.board import HOLES, NAMES, NUM_HOLES
from qipan.games.chinese_checkers.moves import NUM_MOVE_IDS, PASS
from qipan.rl.encoders import ActionMask, Encoder, Observation, relative

_CELL: dict[str, tuple[int, int]] = {name: (8 - r, q + 8) for name, (q, r, _s) in zip(NAMES, HOLES, strict=True)}
_HOLES = np.zeros((17, 17), dtype=np.float32)
for _r, _c in _CELL.values():
    _HOLES[_r, _c] = 1.0
_FLAT = np.array([r * 17 + c for r, c in _CELL.values()], dtype=np.intp)
"""Per hole index, its cell in a flattened 17×17 plane."""
_MASK_BYTES = (NUM_MOVE_IDS + 7) // 8
_CAPTURE_STEP_LIMIT = 60
_MAX_CAPTURES = 59


class ChineseCheckersEncoder(Encoder):
    def __init__(self, game: Any):
        super().__init__(game)
        self.players: int = game.num_players
        self.capture: bool = game.variant == "capture"
        n = self.players
        if self.capture:
            self.planes = (
                "pieces (all alike in 食棋)",
                "holes of the star (constant)",
                *(f"captures of seat +{k} / 59 (whole board)" for k in range(n)),
                "moves since the last capture / 60 (whole board)",
            )
        else:
            self.planes = (
                *(f"pieces of seat +{k}" for k in range(n)),
                "holes of the star (constant)",
                *(f"target holes of seat +{k}" for k in range(n)),
                *(f"seat +{k} has finished (whole board)" for k in range(n)),
            )
        self.constant_planes = [self._targets(player) for player in range(n)]
        """Per viewer, the planes that never change (:meth:`_targets`)."""

    @property
    def shape(self) -> tuple[int, ...]:
        return (len(self.planes), 17, 17)

    def encode(self, view: Mapping[str, Any]) -> Observation:
        obs = self.zeros()
        me: int = view["player"]
        n = self.players
        if self.capture:
            for name in view["pieces"]:
                r, c = _CELL[name]
                obs[0, r, c] = 1.0
            obs[1] = _HOLES
            for seat, score in enumerate(view["scores"]):
                obs[2 + relative(seat, me, n)] = _HOLES * min(1.0, score / _MAX_CAPTURES)
            obs[2 + n] = _HOLES * min(1.0, view["quiet"] / _CAPTURE_STEP_LIMIT)
            return obs
        for name, owner in view["pieces"].items():
            r, c = _CELL[name]
            obs[relative(owner, me, n), r, c] = 1.0
        obs[n] = _HOLES
        for seat, holes in enumerate(view["target_holes"]):
            plane = n + 1 + relative(seat, me, n)
            for name in holes:
                r, c = _CELL[name]
                obs[plane, r, c] = 1.0
        for seat in view["finished"]:
            obs[2 * n + 1 + relative(seat, me, n)] = _HOLES
        return obs

    def observe(self, state: Any, player: int) -> Observation:
        """:meth:`encode` of the view, straight from the board (everything is public)."""
        obs = self.zeros()
        flat = obs.reshape(len(self.planes), -1)
        board = np.frombuffer(bytes(state.board), dtype=np.uint8)
        n = self.players
        if self.capture:
            flat[0, _FLAT] = board  # 1 for any piece
            obs[1] = _HOLES
            # Seats counted from the viewer, then the quiet moves: every plane _HOLES times a value.
            factors = [min(1.0, state.scores[(player + k) % n] / _MAX_CAPTURES) for k in range(n)]
            factors.append(min(1.0, state.quiet / _CAPTURE_STEP_LIMIT))
            np.multiply(np.array(factors, dtype=np.float32)[:, None, None], _HOLES, out=obs[2:])
            return obs
        holes = np.flatnonzero(board)
        flat[(board[holes].astype(np.intp) - 1 - player) % n, _FLAT[holes]] = 1.0
        obs[n:2 * n + 1] = self.constant_planes[player]
        for seat in state.finished:
            obs[2 * n + 1 + relative(seat, player, n)] = _HOLES
        return obs

    def legal_mask(self, state: Any) -> ActionMask:
        """The race: each piece's row of 121 ids (start * 121 + end) is its bitboard of move ends
        (``game.move_ends``), shifted into one bitboard of ids unpacked by numpy; the pass when
        no piece can move."""
        if self.capture:
            return super().legal_mask(state)
        game: Any = self.game
        ids = 0
        for start, ends in game.move_ends(state):
            ids |= ends << start * NUM_HOLES
        data = (ids or 1 << PASS.id).to_bytes(_MASK_BYTES, "little")
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), count=NUM_MOVE_IDS, bitorder="little")
        return bits.view(np.int8)

    def _targets(self, player: int) -> Observation:
        """The constant planes seen by ``player``: the star's holes, then each seat's target."""
        n = self.players
        game: Any = self.game
        planes = np.zeros((n + 1, 17, 17), dtype=np.float32)
        planes[0] = _HOLES
        for seat in range(n):
            planes.reshape(n + 1, -1)[1 + relative(seat, player, n), _FLAT[list(game.target_holes(seat))]] = 1.0
        return planes
