"""食棋 solitaire: leave one piece on the central hexagon.

The game is the engine's own: Chinese Checkers' ``capture`` variant with one player (60 pieces
on the 61-hole hexagon, centre empty; a jump over an adjacent piece captures it; captures are
compulsory; steps only when no capture exists; the game ends at one piece or after 60 moves in a
row without a capture). The solver asks that game for its legal moves and next states.

:func:`solve` is a depth-first search over the engine's moves that remembers the positions it
has seen fail. It tries first the captures whose landing hole has the fewest other pieces
around it, and the steps whose landing has the most (the pieces stay together, so captures stay
possible). Runs of steps are
bounded (the rules allow 60): the answer "no finish" is a proof under the
rules only when the search ran to the end with ``max_quiet`` at the rules' limit.

>>> result = solve(game().initial_state())
>>> result.found, len([m for m in result.moves if m.end not in NEIGHBOURS[m.start]])
(True, 59)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from qipan.games.chinese_checkers.board import HEX_NEIGHBOURS, NEIGHBOURS
from qipan.games.chinese_checkers.game import CAPTURE_STEP_LIMIT, ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.moves import CAPTURED, Move


@cache
def game() -> ChineseCheckers:
    """The one-player 食棋 game."""
    return ChineseCheckers(variant="capture", options={"players": 1})


@dataclass(frozen=True)
class Finish:
    """The solver's answer. ``moves`` leads to one piece when ``found``; otherwise ``complete``
    says whether the search was exhaustive (and under the full rules, see :func:`solve`)."""

    moves: list[Move]
    nodes: int
    found: bool
    complete: bool


def is_capture(move: Move) -> bool:
    return (move.start, move.end) in CAPTURED and move.end not in NEIGHBOURS[move.start]


def _order(board: tuple[int, ...], moves: list[Move]) -> list[Move]:
    def crowd(move: Move) -> int:
        if not is_capture(move):  # a step goes where it has company, to capture again soon
            return -sum(board[n] for n in HEX_NEIGHBOURS[move.end] if n != move.start)
        over = CAPTURED[move.start, move.end]
        return sum(board[n] for n in HEX_NEIGHBOURS[move.end] if n not in (over, move.start))

    return sorted(moves, key=crowd)


QUIET_BOUNDS = (2, 8, CAPTURE_STEP_LIMIT)
"""The step-run bounds :func:`solve` tries in turn by default: short runs are found fastest,
the rules' own limit makes a failure a proof."""


def solve(state: ChineseCheckersState, max_nodes: int = 200_000, max_quiet: int | None = None) -> Finish:
    """A sequence of legal moves from ``state`` to a single piece, by depth-first search with at
    most ``max_quiet`` steps in a row (by default each of :data:`QUIET_BOUNDS` in turn, sharing
    ``max_nodes``)."""
    if max_quiet is not None:
        return _search(state, max_nodes, max_quiet)
    nodes = 0
    for bound in QUIET_BOUNDS:
        result = _search(state, max_nodes - nodes, bound)
        nodes += result.nodes
        if result.found or nodes >= max_nodes:
            break
    return Finish(result.moves, nodes, result.found, result.complete)


def _search(state: ChineseCheckersState, max_nodes: int, max_quiet: int) -> Finish:
    rules = game()
    if rules.pieces_left(state) == 1:
        return Finish([], 0, True, True)
    failed: set[tuple[tuple[int, ...], int]] = set()
    path: list[Move] = []
    stack: list[tuple[ChineseCheckersState, list[Move]]] = []
    nodes = 0

    def push(position: ChineseCheckersState) -> None:
        moves = [] if position.turn is None else rules.legal_actions(position)
        if position.quiet >= max_quiet:
            moves = [m for m in moves if is_capture(m)]
        stack.append((position, _order(position.board, moves)[::-1]))

    push(state)
    while stack:
        position, todo = stack[-1]
        if not todo:
            failed.add((position.board, position.quiet))
            stack.pop()
            if path:
                path.pop()
            continue
        move = todo.pop()
        child = rules.next_state(position, move)
        nodes += 1
        if rules.pieces_left(child) == 1:
            return Finish([*path, move], nodes, True, True)
        if (child.board, child.quiet) in failed:
            continue
        if nodes >= max_nodes:
            return Finish([], nodes, False, False)
        path.append(move)
        push(child)
    return Finish([], nodes, False, max_quiet >= CAPTURE_STEP_LIMIT)


def hint(state: ChineseCheckersState, max_nodes: int = 200_000) -> Move | None:
    """A next move from which one piece can still be reached, or None if the search found none
    within ``max_nodes`` positions."""
    result = solve(state, max_nodes)
    return result.moves[0] if result.found and result.moves else None
