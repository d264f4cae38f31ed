"""食棋 solitaire: the solver's finish plays out on the engine, hints keep a finish reachable,
and on small positions the solver agrees with an exhaustive search."""

from __future__ import annotations

import random

import pytest

from qipan.games.chinese_checkers.board import HEXAGON, NAMES, NUMBER_OF, ROW_LENGTHS, ROW_OF
from qipan.games.chinese_checkers.game import CAPTURE_STEP_LIMIT, ChineseCheckersState
from qipan.puzzles.capture import game, hint, is_capture, solve


def position(holes: list[str], quiet: int = 0) -> ChineseCheckersState:
    """A one-player 食棋 position through the engine's own JSON reader."""
    rows = [["."] * n for n in ROW_LENGTHS]
    for name in holes:
        h = NAMES.index(name)
        rows[ROW_OF[h]][NUMBER_OF[h] - 1] = "o"
    data = {"rows": ["".join(r) for r in rows], "to_move": 0, "scores": [60 - len(holes)], "quiet": quiet}
    return game().state_from_json(data)


def wins(state: ChineseCheckersState, max_quiet: int) -> bool:
    """Brute force: whether some sequence of legal moves, with at most ``max_quiet`` steps in a
    row, leaves one piece (no memory, no move order)."""
    rules = game()
    if rules.pieces_left(state) == 1:
        return True
    if state.turn is None:
        return False
    moves = rules.legal_actions(state)
    if state.quiet >= max_quiet:
        moves = [m for m in moves if is_capture(m)]
    return any(wins(rules.next_state(state, m), max_quiet) for m in moves)


def test_a_one_piece_finish_from_the_start_plays_out_on_the_engine() -> None:
    rules = game()
    state = rules.initial_state()
    result = solve(state)
    assert result.found
    for move in result.moves:
        assert rules.is_legal(state, move)
        state = rules.next_state(state, move)
    assert rules.pieces_left(state) == 1
    assert rules.result_text(state) == "solved: one piece left"
    assert rules.returns(state) == (1.0,)
    assert sum(map(is_capture, result.moves)) == 59


@pytest.mark.parametrize("seed", [1, 2])
def test_a_hint_keeps_a_finish_reachable_after_random_play(seed: int) -> None:
    rules = game()
    rng = random.Random(seed)
    state = rules.initial_state()
    for _ in range(12):
        state = rules.next_state(state, rng.choice(rules.legal_actions(state)))
    move = hint(state)
    assert move is not None and rules.is_legal(state, move)
    after = solve(rules.next_state(state, move))
    assert after.found


def test_no_finish_is_proved_when_the_step_limit_runs_out() -> None:
    far_apart = ["e5", "m9"]  # two pieces need many steps to meet
    assert solve(position(far_apart)).found
    late = position(far_apart, quiet=CAPTURE_STEP_LIMIT - 2)
    result = solve(late)
    assert not result.found and result.complete
    assert hint(late) is None
    # With a smaller step bound the same failure is no proof.
    assert not solve(late, max_quiet=8).complete


@pytest.mark.parametrize("seed", range(12))
def test_solver_agrees_with_exhaustive_search_on_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    near = [h for h in HEXAGON if ROW_OF[h] <= ROW_OF[HEXAGON[0]] + 2]  # rows e..g: pieces meet
    state = position([NAMES[h] for h in rng.sample(near, 4)])
    result = solve(state, max_quiet=2)
    assert result.found == wins(state, 2)
