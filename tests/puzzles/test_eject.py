"""Abalone "eject in N": the shipped puzzles re-verified by the search, and the search checked
against a plain search through the game's own API."""

from __future__ import annotations

from typing import Any

import pytest

from qipan.games.abalone.game import Abalone, AbaloneState
from qipan.puzzles.eject import RATINGS, analyse, shipped, winning_moves


def marbles(state: AbaloneState, side: int) -> int:
    board: int = state.black if side == 0 else state.white
    return board.bit_count()


def forces(game: Abalone, state: AbaloneState, move: Any, n: int) -> bool:
    """Plain version on legal_actions/next_state: ``move`` pushes a marble off within n moves."""
    me = state.turn
    after = game.next_state(state, move)
    if marbles(after, 1 - me) < marbles(state, 1 - me):
        return True
    if n == 1 or game.to_move(after) is None:
        return False
    for reply in game.legal_actions(after):
        back = game.next_state(after, reply)
        if game.to_move(back) is None or not any(forces(game, back, m, n - 1) for m in game.legal_actions(back)):
            return False
    return True


def pick(n: int) -> Any:
    return next(p for p in shipped() if p.n == n)


def test_the_shipped_set_has_every_rating_and_well_formed_entries() -> None:
    puzzles = shipped()
    assert {p.rating for p in puzzles} == set(RATINGS.values())
    assert len({p.id for p in puzzles}) == len(puzzles)
    game = Abalone()
    for p in puzzles:
        state = p.position(game)
        assert game.to_move(state) is not None
        assert game.parse_action(state, p.solution) in game.legal_actions(state)
        assert "seed" in p.source


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_shipped_puzzle_has_a_unique_first_move_at_its_depth(n: int) -> None:
    game = Abalone()
    puzzle = pick(n)
    verdict = analyse(puzzle.position(game), max_n=n)
    assert verdict.n == n
    assert verdict.unique
    assert game.action_text(puzzle.position(game), verdict.moves[0]) == puzzle.solution


@pytest.mark.parametrize("n", [1, 2])
def test_the_bitboard_search_agrees_with_a_plain_search_through_the_game(n: int) -> None:
    game = Abalone()
    state = pick(n).position(game)
    plain = [m for m in game.legal_actions(state) if forces(game, state, m, n)]
    assert plain == winning_moves(state, n)
    assert len(plain) == 1
    if n == 2:  # and nothing ejects at once: the depth is the smallest
        assert not [m for m in game.legal_actions(state) if forces(game, state, m, 1)]


def test_the_start_has_no_forced_ejection() -> None:
    game = Abalone()
    verdict = analyse(game.initial_state(), max_n=2)
    assert verdict.n == 0 and not verdict.unique
