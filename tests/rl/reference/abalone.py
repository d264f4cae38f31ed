"""FROZEN REFERENCE (pre-change copy, used only by tests/rl/test_fast_paths.py): the encoder of
src/qipan/rl/encoders/abalone.py as it was before the fast paths of issue 23 (commit 3c39eda).
Do not edit: the fast observations must stay byte-identical to these.

Abalone observations: seven 9×9 planes over (row a..i, diagonal number 1..9).

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

from qipan.rl.encoders import Encoder, Observation

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
