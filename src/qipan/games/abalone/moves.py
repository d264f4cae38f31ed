"""Abalone moves: the move value, bulk legal-move generation on bitboards, and applying moves.

In-line moves are named by the trailing marble and a direction: the line of own marbles that
starts there (up to three) steps forward, pushing when it may. Broadside moves are named by the
line's lowest end, its axis, its size and the direction.

>>> from qipan.games.abalone.layouts import LAYOUTS
>>> black, white = LAYOUTS["standard"]
>>> len(generate(black, white))
44
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError

from qipan.core.errors import GameError, brief
from qipan.games.abalone.board import (
    AHEAD,
    AXES,
    CELLS,
    DELTAS,
    DIRECTIONS,
    NAMES,
    UNIVERSE,
    VALID,
    cell_index,
    cell_name,
    opposite,
)


class AbaloneMove:
    """A move. ``size`` is 0 for in-line moves (their size depends on the position) and 2 or 3
    for broadside moves, whose ``first`` is the lowest end of the line lying along ``axis``.

    Moves are immutable and interned: equal moves are one object, so equality and hashing go by
    identity (fast in search tables) and still agree with comparing the fields.

    >>> AbaloneMove(40, 1) is AbaloneMove(40, 1)
    True
    """

    __slots__ = ("axis", "direction", "first", "inline", "line", "size")
    first: int
    direction: int
    size: int
    axis: int
    inline: bool
    line: int
    """The broadside line's cells as a bitboard (0 for in-line moves)."""

    def __new__(cls, first: int, direction: int, size: int = 0, axis: int = -1) -> AbaloneMove:
        fields = (first, direction, size, axis)
        move = _INTERNED.get(fields)
        if move is None:
            move = _INTERNED[fields] = super().__new__(cls)
            for name, value in (("first", first), ("direction", direction), ("size", size), ("axis", axis),
                                ("inline", size == 0)):
                object.__setattr__(move, name, value)
            # (cells off the bitboard can only come from nonsense fields: such a move is never legal)
            object.__setattr__(move, "line", sum(1 << c for c in move.marbles() if c >= 0) if size else 0)
        return move

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[AbaloneMove], tuple[int, int, int, int]]:
        return AbaloneMove, (self.first, self.direction, self.size, self.axis)

    def __repr__(self) -> str:
        return f"AbaloneMove(first={self.first}, direction={self.direction}, size={self.size}, axis={self.axis})"

    def marbles(self) -> tuple[int, ...]:
        """The broadside line's cells (in-line moves: only the trailing marble)."""
        if self.inline:
            return (self.first,)
        return tuple(self.first + i * DELTAS[self.axis] for i in range(self.size))

    def __str__(self) -> str:
        dest = cell_name(self.first + DELTAS[self.direction])
        if self.inline:
            return cell_name(self.first) + dest
        return cell_name(self.first) + cell_name(self.marbles()[-1]) + dest


_INTERNED: dict[tuple[int, int, int, int], AbaloneMove] = {}


# --- every possible move, precomputed once, with its integer id ---------------------------------

_POSITION = {cell: i for i, cell in enumerate(CELLS)}
INLINE_IDS = len(CELLS) * 6
NUM_ACTIONS = INLINE_IDS + len(CELLS) * 3 * 2 * 6

INLINE: list[dict[int, AbaloneMove]] = [{} for _ in range(6)]
"""INLINE[direction][cell]: the in-line move of the marble on ``cell``."""
BROADSIDE: dict[tuple[int, int, int], dict[int, AbaloneMove]] = {}
"""BROADSIDE[(axis, size, direction)][cell]: the broadside move whose lowest end is ``cell``."""
ALL_MOVES: list[AbaloneMove | None] = [None] * NUM_ACTIONS

for _d in range(6):
    for _cell in CELLS:
        if _cell + DELTAS[_d] in NAMES:
            INLINE[_d][_cell] = _move = AbaloneMove(_cell, _d)
            ALL_MOVES[_POSITION[_cell] * 6 + _d] = _move
for _axis in AXES:
    for _size in (2, 3):
        for _d in range(6):
            if _d in (_axis, opposite(_axis)):
                continue
            table = BROADSIDE[(_axis, _size, _d)] = {}
            for _cell in CELLS:
                line = [_cell + i * DELTAS[_axis] for i in range(_size)]
                if all(c in NAMES and c + DELTAS[_d] in NAMES for c in line):
                    table[_cell] = _move = AbaloneMove(_cell, _d, _size, _axis)
                    ALL_MOVES[INLINE_IDS + ((_POSITION[_cell] * 3 + _axis) * 2 + _size - 2) * 6 + _d] = _move


def move_id(move: AbaloneMove) -> int:
    """The move's fixed integer id in ``range(NUM_ACTIONS)``."""
    if move.inline:
        return _POSITION[move.first] * 6 + move.direction
    return INLINE_IDS + ((_POSITION[move.first] * 3 + move.axis) * 2 + move.size - 2) * 6 + move.direction


def move_from_id(action_id: int) -> AbaloneMove:
    move = ALL_MOVES[action_id] if 0 <= action_id < NUM_ACTIONS else None
    if move is None:
        raise GameError(f"{action_id} is not an Abalone action id (0..{NUM_ACTIONS - 1}, not all used)")
    return move


# --- generation -----------------------------------------------------------------------------------

_S1, _S2, _S3 = sorted({abs(delta) for delta in DELTAS})
"""The three steps: the six directions are these, forwards and backwards."""

_BROADSIDE_TABLES = [
    (d, DELTAS[axis], BROADSIDE[(axis, 2, d)], BROADSIDE[(axis, 3, d)])
    for axis in AXES
    for d in range(6)
    if d not in (axis, opposite(axis))
]
assert all(ka > 0 for _d, ka, _p, _t in _BROADSIDE_TABLES)  # lines are named by their lowest end
_BROADSIDE_MOVES = [(pairs, triples) for _d, _ka, pairs, triples in _BROADSIDE_TABLES]


def _append_moves(bits: int, table: dict[int, AbaloneMove], out: list[AbaloneMove]) -> None:
    while bits:
        low = bits & -bits
        out.append(table[low.bit_length() - 1])
        bits ^= low


def _inline_bits(own: int, opp: int, empty: int, free: int, direction: int) -> int:
    """Trailing marbles of every legal in-line move in ``direction``, as one bitboard."""
    op, k = AHEAD[direction]  # op(bits, j * k): what lies j steps ahead of each cell
    own1 = op(own, k)
    own2 = op(own, 2 * k)
    singles = own & ~own1 & op(empty, k)
    pairs = own & own1 & ~own2 & (op(empty, 2 * k) | op(opp, 2 * k) & op(free, 3 * k))
    if not own & own1 & own2:
        return singles | pairs
    push_one_or_two = op(free, 4 * k) | op(opp, 4 * k) & op(free, 5 * k)
    triples = own & own1 & own2 & ~op(own, 3 * k) & (op(empty, 3 * k) | op(opp, 3 * k) & push_one_or_two)
    return singles | pairs | triples


def _broadside_ok(own: int, empty: int) -> list[tuple[int, int]]:
    """Per broadside table: (lowest ends of legal pairs, of legal triples) as bitboards."""
    ahead = [op(empty, k) for op, k in AHEAD]  # cells whose neighbour in direction d is empty
    result = []
    for d, ka, _pairs, _triples in _BROADSIDE_TABLES:
        dest = ahead[d]
        ok = own & own >> ka & dest & dest >> ka
        result.append((ok, ok and ok & own >> 2 * ka & dest >> 2 * ka))
    return result


MOVE_TABLES: tuple[dict[int, AbaloneMove], ...] = (*INLINE, *(t for pair in _BROADSIDE_MOVES for t in pair))
"""The move tables in generation order: in-line moves by direction, then for each broadside
(axis, direction) the pairs and the triples; each maps a cell to its move."""


def legal_bitboards(own: int, opp: int) -> list[int]:
    """Per table of :data:`MOVE_TABLES`, the cells whose move in that table is legal, as one
    bitboard: all of :func:`generate` without building a list (for bulk consumers such as the
    reinforcement-learning action mask)."""
    occupied = own | opp
    empty = VALID & ~occupied
    free = UNIVERSE & ~occupied  # empty or off the board
    boards = [_inline_bits(own, opp, empty, free, d) for d in range(6)]
    for pairs, triples in _broadside_ok(own, empty):
        boards += (pairs, triples)
    return boards


def generate(own: int, opp: int) -> list[AbaloneMove]:
    """Every legal move of the side owning ``own`` (in-line first, then broadside)."""
    moves: list[AbaloneMove] = []
    for bits, table in zip(legal_bitboards(own, opp), MOVE_TABLES, strict=True):
        if bits:
            _append_moves(bits, table, moves)
    return moves


def is_legal(own: int, opp: int, move: AbaloneMove) -> bool:
    """Whether ``move`` is in ``generate(own, opp)``, checked on its own cells."""
    if move.size == 0:
        if INLINE[move.direction].get(move.first) is not move:
            return False  # not a move on this board at all
        occupied = own | opp
        return bool(_inline_bits(own, opp, VALID & ~occupied, UNIVERSE & ~occupied, move.direction) >> move.first & 1)
    if BROADSIDE.get((move.axis, move.size, move.direction), {}).get(move.first) is not move:
        return False
    line = move.line
    delta = DELTAS[move.direction]
    dest = line << delta if delta > 0 else line >> -delta  # the cells the line moves onto
    return own & line == line and VALID & ~(own | opp) & dest == dest


def count(own: int, opp: int) -> int:
    """How many legal moves the side owning ``own`` has (perft leaves, without building them)."""
    occupied = own | opp
    empty = VALID & ~occupied
    free = UNIVERSE & ~occupied
    total = sum(_inline_bits(own, opp, empty, free, d).bit_count() for d in range(6))
    return total + sum(pairs.bit_count() + triples.bit_count() for pairs, triples in _broadside_ok(own, empty))


def has_move(own: int, opp: int) -> bool:
    """Whether the side owning ``own`` can move (fast path: any marble next to an empty cell)."""
    empty = VALID & ~(own | opp)
    if own & (empty << _S1 | empty >> _S1 | empty << _S2 | empty >> _S2 | empty << _S3 | empty >> _S3):
        return True
    return count(own, opp) > 0


# --- applying -------------------------------------------------------------------------------------


def perform(own: int, opp: int, move: AbaloneMove) -> tuple[int, int]:
    """The (own, opp) bitboards after a legal ``move``; marbles pushed off simply vanish."""
    delta = DELTAS[move.direction]
    if move.size:
        line = move.line
        return own & ~line | (line << delta if delta > 0 else line >> -delta), opp
    cell = move.first
    front = cell + delta
    size = 1
    while size < 3 and own >> front & 1:
        front += delta
        size += 1
    own = own & ~(1 << cell) | 1 << front
    if opp >> front & 1:
        beyond = front + delta
        if opp >> beyond & 1:
            beyond += delta
        opp &= ~(1 << front)
        if beyond in NAMES:
            opp |= 1 << beyond
    return own, opp


# --- notation -------------------------------------------------------------------------------------


def parse_move(text: str) -> AbaloneMove:
    """Parse ``a1b2`` (in-line) or ``e6e8f6`` (broadside); case-insensitive, either end first."""
    raw = text.strip().lower().replace("-", "").replace(" ", "")
    cells = [raw[i : i + 2] for i in range(0, len(raw), 2)]
    if len(raw) % 2 or len(cells) not in (2, 3):
        raise GameError(
            f"cannot read move {brief(text)}: write an in-line move as trailing marble + target (a1b2) "
            "or a broadside move as the two ends + the first end's target (e6e8f6)"
        )
    idx = [cell_index(c) for c in cells]
    if len(idx) == 2:
        direction = _direction(idx[0], idx[1])
        if direction is None:
            raise GameError(f"cannot read move {brief(text)}: {cells[1]} is not next to {cells[0]}")
        return AbaloneMove(idx[0], direction)
    first, last, target = idx
    direction = _direction(first, target)
    if direction is None:
        raise GameError(f"cannot read move {brief(text)}: {cells[2]} is not next to {cells[0]}")
    for axis in AXES:
        for size in (2, 3):
            for a, b in ((first, last), (last, first)):
                if b - a == (size - 1) * DELTAS[axis]:
                    if direction in (axis, opposite(axis)):
                        raise GameError(
                            f"cannot read move {brief(text)}: moving along the line is an in-line move; "
                            f"write it as trailing marble + target"
                        )
                    return AbaloneMove(a, direction, size, axis)
    raise GameError(
        f"cannot read move {brief(text)}: {cells[0]} and {cells[1]} are not the ends of a straight "
        "line of two or three cells"
    )


def _direction(a: int, b: int) -> int | None:
    delta = b - a
    return DELTAS.index(delta) if delta in DELTAS else None


def direction_name(direction: int) -> str:
    dr, dn = DIRECTIONS[direction]
    return {(0, 1): "east", (0, -1): "west", (1, 1): "north-east", (1, 0): "north-west",
            (-1, -1): "south-west", (-1, 0): "south-east"}[(dr, dn)]
