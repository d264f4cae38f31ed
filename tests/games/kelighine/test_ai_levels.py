"""The race evaluation of the search levels and the levels themselves."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.ai import Blend, GreedyAgent, RandomAgent, make_agent
from qipan.games.kelighine import Kelighine, Piece, board
from qipan.games.kelighine.ai import (
    EASY_SLIPS,
    LEVELS,
    MEDIUM_SLIPS,
    MEDIUM_SLIPS_MULTI,
    WEIGHTS,
    evaluate_race,
    hit_chances,
    race_value,
)
from tests.games.kelighine.kelighine_helpers import piece, position


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def test_hit_chances() -> None:
    assert hit_chances(game()) == pytest.approx([0.0, *[1 / 6] * 6, *[0.0] * 10])
    two_d4 = hit_chances(game(version=2))
    assert two_d4[1] == pytest.approx(7 / 16)  # a 1 on either die
    assert two_d4[2] == pytest.approx(8 / 16)  # a 2 on either die, or double 1 (four 1s)
    assert two_d4[8] == pytest.approx(1 / 16) and two_d4[9] == 0.0


def test_race_value_counts_every_cell_the_same() -> None:
    g = game()

    def value(cell: str, done: int = 0, entry: str | None = None) -> float:
        a = 2 * board.number(board.cell(cell)) if done == 0 else 0  # from I (half-step 5)
        return race_value(g, 0, Piece(board.cell(cell), a, done, board.cell(entry) if entry else -1))

    assert value("A6") - value("A4") == pytest.approx(2 * WEIGHTS.cell)  # first lap, from I
    assert value("B4", 1, "B2") - value("B2", 1, "B2") == pytest.approx(2 * WEIGHTS.cell)
    race = [value("A4"), value("A4", 1), value("B2", 1, "B2"), value("B1", 1, "B2"), value("B1", 2),
            value("C1", 2, "C1"), value("C8", 3), value("J", 3)]
    assert race == sorted(race) and len(set(race)) == len(race)


def test_a_piece_within_reach_of_the_roller_is_worth_less() -> None:
    g = game()
    # player 1's B piece is mid-lap; player 2 (about to roll) stands 3 or 7 steps behind it on B
    near = position(g, [[piece("B6", done=1, entry="B4")], [piece("B3", done=1, entry="B3")]], turn=1)
    far = position(g, [[piece("B6", done=1, entry="B4")], [piece("B7", done=1, entry="B3")]], turn=1)
    safe = evaluate_race(g, far, 0) + race_value(g, 1, far.pieces[1][0]) - race_value(g, 1, near.pieces[1][0])
    assert evaluate_race(g, near, 0) < safe


def test_the_roller_fears_the_indirect_cells_of_the_last_piece() -> None:
    g = game()
    # player 2 is mid-lap on B; player 1's last piece on A5 makes B1, B3, B5, B7 indirect
    pieces = [[piece("A5")], [piece("B2", done=1, entry="B2")]]
    risky = position(g, pieces, turn=1, last="A5")
    calm = position(g, pieces, turn=1, last=None)
    assert evaluate_race(g, risky, 1) < evaluate_race(g, calm, 1)


@pytest.mark.parametrize("options", [{}, {"version": 2}, {"players": 3}])
def test_levels_choose_legal_actions(options: dict[str, object]) -> None:
    g = game(**options)
    rng = random.Random(2)
    state = g.initial_state()
    for _ in range(12):
        mover = g.to_move(state)
        if mover is None:
            break
        if mover < 0:
            state = g.next_state(state, g.sample_chance(state, rng))
            continue
        for level in LEVELS:
            assert g.is_legal(state, make_agent(g, level).choose(g, g.view(state, mover), rng))
        state = g.next_state(state, rng.choice(g.legal_actions(state)))


def test_easy_and_medium_are_greedy_slipping_to_random() -> None:
    g = game()
    for level, share in (("easy", 1 - EASY_SLIPS), ("medium", 1 - MEDIUM_SLIPS)):
        agent = make_agent(g, level)
        assert isinstance(agent, Blend) and agent.share == share
        assert isinstance(agent.strong, GreedyAgent) and isinstance(agent.weak, RandomAgent)
    assert EASY_SLIPS > MEDIUM_SLIPS > 0


@pytest.mark.parametrize("players", [3, 4])
def test_medium_slips_more_with_more_players(players: int) -> None:
    agent = make_agent(game(players=players), "medium")
    assert isinstance(agent, Blend) and agent.share == 1 - MEDIUM_SLIPS_MULTI
    assert EASY_SLIPS > MEDIUM_SLIPS_MULTI > MEDIUM_SLIPS
