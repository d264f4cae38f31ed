"""Chinese Checkers solitaire: the shipped crossings replay on the engine; the exact solver
agrees with a plain breadth-first search."""

from __future__ import annotations

import random

import pytest

from qipan.core.errors import GameError
from qipan.games.chinese_checkers.moves import Move
from qipan.puzzles.data import load
from qipan.puzzles.solitaire import Bound, Pieces, Solitaire, crossing, lower_bound, play, rotate, shortest


def bfs_distance(puzzle: Solitaire, pieces: Pieces, limit: int) -> int | None:
    """Brute force: moves to the target by plain breadth-first search, None beyond ``limit``."""
    layer, seen = [pieces], {pieces}
    for depth in range(limit + 1):
        if puzzle.target in layer:
            return depth
        nxt = []
        for position in layer:
            for move in puzzle.moves(position):
                child = play(position, move)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        layer = nxt
    return None


def test_the_27_move_crossing_is_legal_move_by_move_and_fills_the_target() -> None:
    puzzle = Solitaire(jump="adjacent")
    game = puzzle.game
    texts = load("crossings.json")["adjacent"]["moves"]
    assert len(texts) == 27
    state = puzzle.state(puzzle.start)
    for number, text in enumerate(texts, 1):
        move = game.parse_action(state, text)
        assert game.is_legal(state, move), (number, text)
        state = game.next_state(state, move)
        if number < 27:
            assert state.finished == ()
            state = state._replace(turn=0)  # blue has no pieces: red moves again
    # The engine itself declares red finished: all ten in the opposite point.
    assert state.finished == (0,)
    assert state.turn is None
    assert tuple(h for h, v in enumerate(state.board) if v) == puzzle.target


def test_the_long_jump_crossing_replays_and_is_shorter() -> None:
    puzzle = Solitaire(jump="long")
    entry = load("crossings.json")["long"]
    moves = puzzle.parse(entry["moves"])
    assert puzzle.replay(moves) == puzzle.target
    assert len(moves) < 27
    # Under adjacent-only jumps the same sequence breaks down: long jumps are really used.
    with pytest.raises(GameError, match="move"):
        Solitaire(jump="adjacent").replay(moves)


def test_replay_names_the_first_illegal_move() -> None:
    puzzle = Solitaire()
    moves = puzzle.parse(["d1-e6"])
    with pytest.raises(GameError, match=r"move 2 \(e6-e6\)"):
        puzzle.replay([*moves, Move(moves[0].end, moves[0].end)])


def test_one_piece_crosses_in_16_steps_like_bfs() -> None:
    puzzle = Solitaire(rows=1)
    result = shortest(puzzle)
    assert result.moves is not None and len(result.moves) == 16
    assert bfs_distance(puzzle, puzzle.start, 16) == 16
    assert puzzle.replay(result.moves) == puzzle.target


def test_exact_solver_on_the_last_moves_of_the_optimal_crossing() -> None:
    """A suffix of an optimal crossing is optimal: the solver must find exactly as many moves."""
    puzzle = Solitaire()
    moves = puzzle.parse(load("crossings.json")["adjacent"]["moves"])
    for left in (1, 2):
        position = puzzle.start
        for move in moves[: len(moves) - left]:
            position = play(position, move)
        result = shortest(puzzle, position)
        assert result.moves is not None and len(result.moves) == left
        assert bfs_distance(puzzle, position, left) == left
        assert puzzle.replay(result.moves, position) == puzzle.target


@pytest.mark.parametrize(("seed", "jump"), [(1, "adjacent"), (3, "adjacent"), (4, "adjacent"), (1, "long"),
                                          (4, "long")])
def test_exact_solver_matches_bfs_on_three_pieces(seed: int, jump: str) -> None:
    puzzle = Solitaire(rows=2, jump=jump)
    rng = random.Random(seed)
    position = puzzle.target
    for _ in range(10):  # moves are reversible: a walk from the target stays within reach of it
        position = play(position, rng.choice(puzzle.moves(position)))
    expected = bfs_distance(puzzle, position, 6)
    assert expected is not None and expected >= 4
    result = shortest(puzzle, position)
    assert result.moves is not None and len(result.moves) == expected
    assert puzzle.replay(result.moves, position) == puzzle.target
    bound = lower_bound(puzzle, position)
    assert bound.exact and bound.moves == expected


def test_exact_solver_gives_up_at_its_node_limit() -> None:
    result = shortest(Solitaire(), max_nodes=5)
    assert result.moves is None and result.nodes == 6


def test_beam_search_crosses_with_one_piece_and_the_half_turn_maps_start_to_target() -> None:
    puzzle = Solitaire(rows=1)
    result = crossing(puzzle, width=50)
    assert result.moves is not None and len(result.moves) == 16
    assert puzzle.replay(result.moves) == puzzle.target
    assert rotate(Solitaire().start) == Solitaire().target


def test_a_triangle_has_one_to_four_rows() -> None:
    with pytest.raises(GameError, match="1 to 4 rows"):
        Solitaire(rows=5)


def test_the_lower_bound_is_the_optimum_once_a_crossing_that_short_exists() -> None:
    assert lower_bound(Solitaire(rows=1)).moves == 16 and lower_bound(Solitaire(rows=1)).exact
    puzzle = Solitaire()
    position = puzzle.start
    for move in puzzle.parse(load("crossings.json")["adjacent"]["moves"])[:-3]:
        position = play(position, move)
    bound = lower_bound(puzzle, position)
    assert bound.exact and bound.moves == 3


@pytest.mark.parametrize("jump", ["adjacent", "long"])
def test_the_ten_piece_crossing_takes_more_than_ten_moves(jump: str) -> None:
    """300 positions prove that no crossing wastes 0, 1 or 2 moves: at least 13 moves."""
    bound = lower_bound(Solitaire(jump=jump), max_nodes=300)
    assert bound == Bound(13, False, 300)
