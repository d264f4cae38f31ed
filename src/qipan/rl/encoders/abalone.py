"""Abalone observations: seven 9×9 planes over (row a..i, diagonal number 1..9).

Cell ``<row><number>`` sits at ``[plane, row, number - 1]``; the 20 grid points outside the
hexagon are 0 in every plane. Planes are from the viewer's side (own/opponent).

>>> import qipan
>>> game = qipan.load("abalone")
>>> obs = AbaloneEncoder(game).encode(game.view(game.initial_state(), 1))
>>> int(obs[0, 8, 8]), int(obs[1, 0, 0])  # white's own marble on i9, black's on a1
(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from qipan.games.abalone import search
from qipan.games.abalone.board import CELLS, PAD, UNIVERSE, WIDTH
from qipan.games.abalone.game import MARBLES
from qipan.games.abalone.moves import MOVE_TABLES, NUM_ACTIONS, legal_bitboards, move_id
from qipan.rl.encoders import ActionMask, Encoder, Observation

ROWS = "abcdefghi"
_TO_WIN = 6


def _on_board(row: int, number: int) -> bool:
    return max(1, row - 3) <= number <= min(9, row + 5)


_CELL: dict[str, tuple[int, int]] = {
    f"{ROWS[r]}{n}": (r, n - 1) for r in range(9) for n in range(1, 10) if _on_board(r, n)
}
_BOARD = np.zeros((9, 9), dtype=np.float32)
for _r, _c in _CELL.values():
    _BOARD[_r, _c] = 1.0


# The padded bitboard as little-endian bytes unpacks to a (rows, WIDTH) grid of bits whose window
# [PAD:PAD + 9, PAD:PAD + 9] is exactly the (row, number - 1) grid of the planes.
_BYTES = (UNIVERSE.bit_length() + 7) // 8
_ROWS = _BYTES * 8 // WIDTH
_WINDOW = (slice(PAD, PAD + 9), slice(PAD, PAD + 9))
assert all(divmod(c, WIDTH) == (_CELL[n][0] + PAD, _CELL[n][1] + PAD) for c, n in zip(CELLS, _CELL, strict=True))

# The legal-move bitboards hold their cells in bits _LOW.._LOW + 8 * _MOVE_BYTES - 1.
_LOW = min(CELLS)
_MOVE_BYTES = (max(CELLS) - _LOW + 8) // 8
_MOVE_IDS = np.zeros(len(MOVE_TABLES) * _MOVE_BYTES * 8, dtype=np.intp)
"""_MOVE_IDS[k * 8 * _MOVE_BYTES + cell - _LOW]: the id of the move of table k (MOVE_TABLES) whose cell is ``cell``."""
for _k, _table in enumerate(MOVE_TABLES):
    for _cell, _move in _table.items():
        _MOVE_IDS[_k * _MOVE_BYTES * 8 + _cell - _LOW] = move_id(_move)


def _unpack(boards: list[int]) -> NDArray[np.uint8]:
    """Bitboards as a (len(boards), bits) array of 0/1 (uint8), bit i at column i."""
    data = b"".join(b.to_bytes(_BYTES, "little") for b in boards)
    return np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little").reshape(len(boards), -1)


_PUSHED_OUT = [_BOARD * min(1.0, count / _TO_WIN) for count in range(MARBLES + 1)]
"""The plane of each count of marbles pushed out, computed as encode computes it."""
_TEMPLATES = np.zeros((2, 7, 9, 9), dtype=np.float32)
"""Per viewer, the constant planes: the board, and the board again for black."""
_TEMPLATES[:, 2] = _BOARD
_TEMPLATES[0, 3] = _BOARD




class AbaloneEncoder(Encoder):
    planes = (
        "own marbles",
        "opponent's marbles",
        "cells of the board (constant)",
        "viewer plays black (all board cells 1) or white (0)",
        "opponent marbles the viewer has pushed out / 6 (whole board)",
        "own marbles pushed out by the opponent / 6 (whole board)",
        "moves since a marble was pushed out / quiet_move_limit (0 when the limit is off)",
    )

    @property
    def shape(self) -> tuple[int, ...]:
        return (7, 9, 9)

    def encode(self, view: Mapping[str, Any]) -> Observation:
        player: int = view["player"]
        own, opp = ("black", "white") if player == 0 else ("white", "black")
        obs = self.zeros()
        for plane, colour in ((0, own), (1, opp)):
            for name in view["marbles"][colour]:
                r, c = _CELL[name]
                obs[plane, r, c] = 1.0
        obs[2] = _BOARD
        if player == 0:
            obs[3] = _BOARD
        obs[4] = _BOARD * min(1.0, view["pushed_out"][own] / _TO_WIN)
        obs[5] = _BOARD * min(1.0, view["pushed_out"][opp] / _TO_WIN)
        limit = self.game.config["quiet_move_limit"]
        if limit:
            obs[6] = _BOARD * min(1.0, view["quiet"] / limit)
        return obs

    def observe(self, state: Any, player: int) -> Observation:
        """:meth:`encode` of the view, straight from the bitboards (everything is public)."""
        own, opp = (state.black, state.white) if player == 0 else (state.white, state.black)
        obs: Observation = _TEMPLATES[player].copy()
        obs[:2] = _unpack([own, opp]).reshape(2, _ROWS, WIDTH)[(slice(None), *_WINDOW)]
        # The view's pushed_out: each side's pushed-out count is the other side's missing marbles.
        obs[4] = _PUSHED_OUT[MARBLES - opp.bit_count()]
        obs[5] = _PUSHED_OUT[MARBLES - own.bit_count()]
        limit = self.game.config["quiet_move_limit"]
        if limit:
            np.multiply(_BOARD, min(1.0, state.quiet / limit), out=obs[6])
        return obs

    def legal_mask(self, state: Any) -> ActionMask:
        """The ids of every legal move: from the compiled move generator of the Abalone search
        when it is installed (``search.NATIVE``), else read off the Python generator's bitboards
        in bulk."""
        own, opp = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if search.NATIVE:
            ids = search.native_move_ids(own, opp)
            mask[np.fromiter(ids, np.intp, len(ids))] = 1
            return mask
        data = b"".join([(bits >> _LOW).to_bytes(_MOVE_BYTES, "little") for bits in legal_bitboards(own, opp)])
        mask[_MOVE_IDS[np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little").view(bool)]] = 1
        return mask
