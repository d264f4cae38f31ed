"""A plan for an opponent's piece stuck in one's target (the rule without ``blocked_target``).

Without ``blocked_target`` a player finishes only when every hole of their target holds their
own pieces, so an opponent's piece left in it (usually a straggler the opponent never brought
out of its home) must leave first. The race cost alone walls it in: the player fills every
other hole around it, and neither side can then move it out, so the game is drawn at the move
limit. :func:`wall` measures that wall: how many pieces stand in the way of each foreign piece in
their target, and :func:`reach` how far the player's nearest piece outside
the target waits from it. The AI pays for both (:func:`cost`), so it keeps an exit open and a
piece ready to fill the hole the foreign piece vacates.

>>> import qipan
>>> game = qipan.load("chinese-checkers", jump="adjacent", blocked_target=False)
>>> state = game.initial_state()
>>> wall(game, state.board, 0)   # blue's home is red's target: 3 pieces behind its tip, ...
10
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from qipan.games.chinese_checkers.board import NEIGHBOURS, distance
from qipan.games.chinese_checkers.game import ChineseCheckers

WALL_WEIGHT = 12.0
"""The race cost of one piece in the way of a foreign piece's exit from the target: more than
stepping a piece back out of the target costs (2-6), so the player makes room."""

REACH_WEIGHT = 3.0
"""The race cost of each step between a foreign piece in the target and the player's nearest
piece outside it, beyond the first. Against a random player that wanders in and out, a piece
ready next to the hole fills it before anyone else steps in: medium (two players, OpenSpiel's
rules) won 18-2-0 of 20 games against random with it and 13-7-0 without."""


def cost(game: ChineseCheckers, board: Sequence[int], player: int) -> float:
    """What the foreign pieces in ``player``'s target cost them on top of the race:
    :data:`WALL_WEIGHT` times :func:`wall` plus :data:`REACH_WEIGHT` times :func:`reach`."""
    if game.config["blocked_target"] or game.capture:
        return 0.0
    return WALL_WEIGHT * wall(game, board, player) + REACH_WEIGHT * reach(game, board, player)


def wall(game: ChineseCheckers, board: Sequence[int], player: int) -> int:
    """How many pieces must move before every foreign piece in ``player``'s target can walk out
    of it: for each, the fewest pieces on a line of steps to the nearest hole outside the target
    (0 when there is no foreign piece, or each has a free way out). Counting single jumps out
    too left a game against a random player drawn (the one jump a wall leaves open is rarely
    played). Anyone's pieces count: the player can only move their own, but counting only those
    left a random player's pieces queued behind each other in the target (medium against random,
    two players, OpenSpiel's rules: 19-1-0 in 20 games counting every piece, 18-2-0 and longer
    games counting only the player's). Always 0 with ``blocked_target``, where foreign pieces in
    a full target do not stop a player holding half of it."""
    if game.config["blocked_target"] or game.capture:
        return 0
    mark = player + 1
    inside = game.target_holes(player)
    total = 0
    for hole in game.target_holes(player):
        if board[hole] and board[hole] != mark:
            total += _thickness(board, hole, inside)
    return total


def _thickness(board: Sequence[int], start: int, inside: tuple[int, ...]) -> int:
    """The fewest pieces on a line of steps from ``start`` to the first hole outside ``inside``
    (0-1 breadth-first search)."""
    best = {start: 0}
    queue: deque[tuple[int, int]] = deque([(0, start)])
    while queue:
        cost, hole = queue.popleft()
        if cost > best[hole]:
            continue
        if hole not in inside:
            return cost
        for nxt in NEIGHBOURS[hole]:
            extra = 1 if board[nxt] else 0
            if cost + extra < best.get(nxt, 1 << 30):
                best[nxt] = cost + extra
                if extra:
                    queue.append((cost + 1, nxt))
                else:
                    queue.appendleft((cost, nxt))
    return 0  # unreachable: every target hole has a way out of the point


def reach(game: ChineseCheckers, board: Sequence[int], player: int) -> int:
    """For each foreign piece in ``player``'s target, the steps from ``player``'s nearest piece
    outside the target to it, less one (0 when a piece waits next to it, or none is outside).
    Always 0 with ``blocked_target``."""
    if game.config["blocked_target"] or game.capture:
        return 0
    mark = player + 1
    inside = game.target_holes(player)
    foreign = [h for h in inside if board[h] and board[h] != mark]
    if not foreign:
        return 0
    outside = [h for h, v in enumerate(board) if v == mark and h not in inside]
    if not outside:
        return 0
    return sum(min(distance(h, o) for o in outside) - 1 for h in foreign)
