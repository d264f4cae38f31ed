"""Building hand-made positions for the tests."""

from __future__ import annotations

from qipan.games.chinese_checkers import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.board import INDEX, NAMES, NUM_HOLES, hole_index


def cube(q: int, r: int) -> str:
    """The name of the hole with cube coordinates (q, r, -q-r)."""
    return NAMES[INDEX[(q, r, -q - r)]]


def position(pieces: dict[str, int], turn: int | None = 0, **fields: object) -> ChineseCheckersState:
    """A state with ``pieces`` (hole name -> player) and nothing else on the board."""
    board = [0] * NUM_HOLES
    for name, player in pieces.items():
        board[hole_index(name)] = player + 1
    return ChineseCheckersState(tuple(board), turn, **fields)  # type: ignore[arg-type]


def ends(game: ChineseCheckers, state: ChineseCheckersState, start: str) -> list[str]:
    """Where the piece on ``start`` may move, sorted by hole order."""
    s = hole_index(start)
    return [NAMES[m.end] for m in game.legal_actions(state) if m.start == s]
