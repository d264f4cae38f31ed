"""Perfect play for two-player Kelighine version 1 (one piece each, one d6 or d4).

That game is small: with a d6, 61,264 positions before a roll are reachable from the start, and turning
the board half round (player 2's start H onto player 1's start I) maps each position with
player 2 to roll onto one with player 1 to roll, which leaves 30,651 (30,017 with a d4).
:func:`solve` finds the winning chance of the player to roll in each of them under perfect play
by both sides (value iteration: positions repeat, since pushes send pieces back). The values of
both dice ship with the package in :mod:`qipan.games.kelighine.exact_data`, written by
``benchmarks/kelighine_exact.py``.

:class:`ExactAgent` plays the rest of the turn (its move and every push choice of either player
within it) to the next roll and picks the action whose worst push choices leave it the best
winning chance by the table. Elsewhere (version 2, three or four players, or a position
not reachable from the start) it asks its fallback agent.

>>> import qipan
>>> game = qipan.load("kelighine")
>>> round(value(game, game.initial_state()), 3)  # player 1's winning chance
0.515
"""

from __future__ import annotations

import base64
import random
import zlib
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeAlias

from qipan.ai.agent import Agent
from qipan.core.game import Game
from qipan.games.kelighine import board
from qipan.games.kelighine.board import GAP, J
from qipan.games.kelighine.state import OVER, ROLL, Piece, State


def _half_turn(c: int) -> int:
    t = board.tier(c)
    if t == 1:
        return board.A(board.number(c) + 8)
    if t == 2:
        return board.B(board.number(c) + 4)
    if t == 3:
        return board.C(board.number(c) + 4)
    return {board.D: board.F, board.E: board.G, board.F: board.D, board.G: board.E,
            board.I: board.H, board.L: board.K, board.H: board.I, board.K: board.L, J: J}.get(c, c)


ROTATE: tuple[int, ...] = tuple(_half_turn(c) for c in range(board.NUM_CELLS))
"""Each cell turned half round the board (A1 -> A9, B1 -> B5, C1 -> C5, D -> F, I -> H, J -> J)."""

_HALF = 16  # half-steps of half a lap: the A-lap position of a piece turned half round
_LOW = 4  # a piece pushed back to the corner behind its start is 4 half-steps below it
_RADIX = _LOW + 33 + 3 * 41 * 9  # piece codes: A-lap positions, then (laps, cell, coin)


DICE = (6, 4)
"""The dice of version 1 whose games are solved."""


def applies(game: Game[Any, Any]) -> bool:
    """Whether a table covers ``game``: version 1, two players."""
    return bool(getattr(game, "version", 0) == 1 and game.num_players == 2 and getattr(game, "die", 0) in DICE)


def _turned(piece: Piece, shift: int) -> Piece:
    entry = ROTATE[piece.entry] if piece.entry >= 0 else -1
    return Piece(ROTATE[piece.cell], piece.a + shift if piece.done == 0 else piece.a, piece.done, entry)


def canonical(state: State) -> State:
    """The position before a roll seen with its roller as player 1 (turned half round when
    player 2 rolls), without the turn logs."""
    if state.turn == 0:
        return state._replace(moved=-1, log=(), prev_log=(), number=0)
    (first,), (second,) = state.pieces
    return state._replace(pieces=((_turned(second, -_HALF),), (_turned(first, _HALF),)), turn=0,
                          last=ROTATE[state.last] if state.last >= 0 else -1, moved=-1, log=(), prev_log=(),
                          number=0)


def _code(piece: Piece, start: int) -> int | None:
    if piece.done == 0:
        offset = piece.a - GAP[start] + _LOW
        return offset if 0 <= offset < _LOW + 33 else None
    coin = board.number(piece.entry) - 1 if piece.entry >= 0 else 8
    return _LOW + 33 + ((piece.done - 1) * 41 + piece.cell) * 9 + coin


def key(state: State) -> int | None:
    """The table key of a position before a roll (two players, one piece each), or None for a
    position the table cannot hold (the last piece is not the previous player's piece)."""
    if len(state.pieces) != 2 or any(len(ps) != 1 for ps in state.pieces):
        return None
    s = canonical(state)
    (mine,), (theirs,) = s.pieces
    if s.last != theirs.cell and not (s.last == -1 and theirs.cell == board.H and mine.cell == board.I):
        return None
    a, b = _code(mine, board.I), _code(theirs, board.H)
    return None if a is None or b is None else a * _RADIX + b


# -- solving -----------------------------------------------------------------------------------

_WIN, _LOSS = -1, -2
Tree: TypeAlias = int | tuple[bool, tuple["Tree", ...]]
"""The rest of a turn after the roll: a next position's index (the opponent rolls), ``_WIN``,
``_LOSS``, or (the roller decides, the choices)."""


def solve(game: Game[Any, Any], roots: Iterable[State] = (), tolerance: float = 1e-9,
          progress: Callable[[str], None] | None = None) -> dict[int, float]:
    """The roller's winning chance under perfect play in every position before a roll reachable
    from ``roots`` (default: the start), by key; value iteration until no value moves by more
    than ``tolerance``."""
    first = [canonical(s) for s in (roots or [game.initial_state()])]
    index: dict[int, int] = {}
    states: list[State] = []
    for s in first:
        k = key(s)
        assert k is not None, "roots must be positions before a roll"
        if k not in index:
            index[k] = len(states)
            states.append(s)

    def tree(s: State, roller: int) -> Tree:
        if s.phase == OVER:
            return _WIN if s.winner == roller else _LOSS
        if s.phase == ROLL:
            c = canonical(s)
            k = key(c)
            assert k is not None
            if k not in index:
                index[k] = len(states)
                states.append(c)
            return index[k]
        choices = tuple(tree(game.next_state(s, a), roller) for a in game.legal_actions(s))
        return choices[0] if len(choices) == 1 else (game.to_move(s) == roller, choices)

    turns: list[list[tuple[float, Tree]]] = []
    i = 0
    while i < len(states):
        s = states[i]
        turns.append([(p, tree(game.next_state(s, roll), s.turn)) for roll, p in game.chance_outcomes(s) or []])
        i += 1
    if progress:
        progress(f"{len(states)} positions")

    values = [0.5] * len(states)

    def worth(t: Tree) -> float:
        if isinstance(t, int):
            return 1.0 if t == _WIN else 0.0 if t == _LOSS else 1.0 - values[t]
        mine, choices = t
        return max(map(worth, choices)) if mine else min(map(worth, choices))

    order = range(len(states) - 1, -1, -1)
    sweep = 0
    while True:
        sweep += 1
        delta = 0.0
        for i in order:
            v = 0.0
            for p, t in turns[i]:
                v += p * worth(t)
            delta = max(delta, abs(v - values[i]))
            values[i] = v
        if progress and sweep % 20 == 0:
            progress(f"sweep {sweep}: largest change {delta:.2e}")
        if delta < tolerance:
            break
    return {k: values[i] for k, i in index.items()}


# -- the shipped table -------------------------------------------------------------------------

_SCALE = 65535


def encode(values: Mapping[int, float]) -> bytes:
    """The table as ASCII text: keys as gaps (7-bit groups), then 16-bit values, compressed."""
    keys = sorted(values)
    out = bytearray()
    prev = -1
    for k in keys:
        gap = k - prev - 1
        prev = k
        while gap >= 128:
            out.append(gap & 127 | 128)
            gap >>= 7
        out.append(gap)
    head = len(keys).to_bytes(4, "big")
    body = b"".join(round(values[k] * _SCALE).to_bytes(2, "big") for k in keys)
    return base64.b85encode(zlib.compress(head + bytes(out) + body, 9))


def decode(text: bytes) -> dict[int, float]:
    """The inverse of :func:`encode` (values to 1/65535)."""
    raw = zlib.decompress(base64.b85decode(text))
    n = int.from_bytes(raw[:4], "big")
    keys = []
    pos, prev = 4, -1
    for _ in range(n):
        gap = shift = 0
        while True:
            byte = raw[pos]
            pos += 1
            gap |= (byte & 127) << shift
            shift += 7
            if byte < 128:
                break
        prev += gap + 1
        keys.append(prev)
    return {k: int.from_bytes(raw[pos + 2 * i:pos + 2 * i + 2], "big") / _SCALE for i, k in enumerate(keys)}


@cache
def table(die: int = 6) -> dict[int, float]:
    """The shipped values of the game with this die (decoded on first use, about 0.05 s)."""
    from qipan.games.kelighine.exact_data import TABLES

    return decode(TABLES[die])


def value(game: Game[Any, Any], state: State, player: int | None = None,
          values: Mapping[int, float] | None = None) -> float:
    """``player``'s winning chance (default: the player to move or roll) under perfect play, from
    any position of two-player version 1: the rest of the turn searched, the next roll looked up.
    KeyError when the table lacks a position."""
    values = table(getattr(game, "die", 6)) if values is None else values
    if player is None:
        mover = game.to_move(state)
        player = state.turn if mover is None or mover < 0 else mover
    if state.phase == OVER:
        return 1.0 if state.winner == player else 0.0
    if state.phase == ROLL:
        k = key(state)
        if k is None or k not in values:
            raise KeyError(k)
        v = values[k]
        return v if state.turn == player else 1.0 - v
    outcomes = [value(game, game.next_state(state, a), player, values) for a in game.legal_actions(state)]
    return max(outcomes) if game.to_move(state) == player else min(outcomes)


class ExactAgent:
    """Perfect play from the shipped table where it applies, else ``fallback``'s choice."""

    def __init__(self, fallback: Agent, name: str = "exact"):
        self.fallback = fallback
        self.name = name

    def choose(self, game: Game[Any, Any], view: Mapping[str, Any], rng: random.Random) -> Any:
        if applies(game):
            state = game.sample_state(view, rng)
            player = view["player"]
            try:
                scored = [(value(game, game.next_state(state, a), player), a) for a in game.legal_actions(state)]
            except KeyError:
                pass
            else:
                best = max(v for v, _ in scored)
                return rng.choice([a for v, a in scored if v >= best - 1e-9])
        return self.fallback.choose(game, view, rng)

    def observe(self, game: Game[Any, Any], view: Mapping[str, Any]) -> None:
        self.fallback.observe(game, view)
