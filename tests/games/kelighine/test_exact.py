"""Perfect play in two-player version 1: the half-turn symmetry, the solver, the shipped table."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.ai import make_agent
from qipan.ai.search import ExpectimaxAgent
from qipan.core.game import CHANCE
from qipan.games.kelighine import Kelighine, State, board
from qipan.games.kelighine.ai import greedy
from qipan.games.kelighine.exact import (
    ROTATE,
    ExactAgent,
    applies,
    canonical,
    decode,
    encode,
    key,
    solve,
    table,
    value,
)
from qipan.games.kelighine.state import ROLL
from tests.games.kelighine.kelighine_helpers import piece, position


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def roll_states(g: Kelighine, games: int, seed: int) -> list[State]:
    """Positions before a roll from random games."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = g.initial_state()
        while (mover := g.to_move(s)) is not None:
            if mover == CHANCE:
                out.append(s)
                s = g.next_state(s, g.sample_chance(s, rng))
            else:
                s = g.next_state(s, rng.choice(g.legal_actions(s)))
    return out


def test_half_turn_maps_the_board_onto_itself() -> None:
    assert all(ROTATE[ROTATE[c]] == c for c in range(board.NUM_CELLS))
    for c in range(board.NUM_CELLS):
        assert {ROTATE[x] for x in board.ADJACENT[c]} == board.ADJACENT[ROTATE[c]]
        assert {ROTATE[x] for x in board.INDIRECT[c]} == board.INDIRECT[ROTATE[c]]
    assert ROTATE[board.I] == board.H and ROTATE[board.cell("A3")] == board.cell("A11")


def test_a_position_and_its_mirror_play_alike() -> None:
    g = game()
    for s in roll_states(g, 3, seed=1)[1::7]:
        mirror = canonical(s)
        assert mirror.turn == 0 and key(mirror) == key(s) is not None
        for roll, _ in g.chance_outcomes(s) or []:
            after, after_mirror = g.next_state(s, roll), g.next_state(mirror, roll)
            assert len(g.legal_actions(after)) == len(g.legal_actions(after_mirror))


def test_solver_agrees_with_the_table_on_an_endgame() -> None:
    g = game()
    # both pieces have all three laps; player 1 on B3 rolls, player 2 is on A5
    root = position(g, [[piece("B3", done=3)], [piece("A5", done=3)]], last="A5")
    values = solve(g, [root])
    assert 500 < len(values) < 2000
    shipped = table()
    assert all(v == pytest.approx(shipped[k], abs=1e-4) for k, v in values.items())
    assert values[key(root)] > 0.5  # B3 promotes to C, then J, before A5 gets that far


@pytest.mark.parametrize("die", [6, 4])
def test_table_values_are_a_roll_and_a_best_turn_away(die: int) -> None:
    g = game(die=die)
    for s in roll_states(g, 2, seed=2)[::5]:
        roller = s.turn
        ahead = sum(p * value(g, g.next_state(s, roll), roller) for roll, p in g.chance_outcomes(s) or [])
        assert value(g, s) == pytest.approx(ahead, abs=1e-4)


def test_the_start_and_a_won_race() -> None:
    g = game()
    assert value(g, g.initial_state()) == pytest.approx(0.5145, abs=1e-4)  # player 1 rolls first
    assert value(game(die=4), game(die=4).initial_state()) == pytest.approx(0.5071, abs=1e-4)
    s = position(g, [[piece("C4", done=3)], [piece("A5", done=1)]], turn=1, last="C4")
    assert value(g, s, 0) > 0.8  # player 2 must push C4 off this roll, or lose


def test_encode_round_trip() -> None:
    values = {3: 0.25, 140: 1.0, 100_000: 0.0, 1_300_000: 0.5}
    assert decode(encode(values)) == pytest.approx(values, abs=1e-5)


def test_hard_plays_perfectly_where_the_table_applies() -> None:
    assert isinstance(make_agent(game(), "hard"), ExactAgent)
    assert isinstance(make_agent(game(die=4), "hard"), ExactAgent)
    for options in ({"version": 2}, {"players": 3}, {"players": 4, "die": 4}):
        g = game(**options)
        assert not applies(g) and isinstance(make_agent(g, "hard"), ExpectimaxAgent)
    g = game()
    agent = make_agent(g, "hard")
    rng = random.Random(4)
    for s in roll_states(g, 2, seed=3)[::4]:
        s = g.next_state(s, g.sample_chance(s, rng))
        while s.phase != ROLL and (mover := g.to_move(s)) is not None:
            action = agent.choose(g, g.view(s, mover), rng)
            best = max(value(g, g.next_state(s, a), mover) for a in g.legal_actions(s))
            assert value(g, g.next_state(s, action), mover) == pytest.approx(best, abs=1e-9)
            s = g.next_state(s, action)


def test_perfect_play_sees_what_greedy_misses() -> None:
    g = game()
    # player 1 has done lap B on B1 and rolls a 6; player 2 is on C8, midway round C
    s = g.play(position(g, [[piece("B1", done=2)], [piece("C8", done=2, entry="C3")]], last="C8"), "roll:6")
    chances = {g.action_text(s, a): value(g, g.next_state(s, a), 0) for a in g.legal_actions(s)}
    # promoting to C1 puts the piece one step ahead of C8; moving on to B7 keeps twice the chance
    assert chances["B1+6"] > chances["B1^C1"] + 0.05
    assert g.action_text(s, make_agent(g, "hard").choose(g, g.view(s, 0), random.Random(0))) == "B1+6"
    assert g.action_text(s, greedy(g).choose(g, g.view(s, 0), random.Random(0))) == "B1^C1"


def test_other_games_go_to_the_fallback() -> None:
    calls = []

    class Fallback:
        name = "fallback"

        def choose(self, g: Kelighine, view: object, rng: random.Random) -> object:
            calls.append(view)
            return g.legal_actions(state)[0]

        def observe(self, g: Kelighine, view: object) -> None:
            return None

    for options in ({"version": 2}, {"players": 3}, {"players": 4, "die": 4}):
        g = game(**options)
        state = g.next_state(g.initial_state(), g.chance_outcomes(g.initial_state())[-1][0])
        assert g.legal_actions(state)
        ExactAgent(Fallback()).choose(g, g.view(state, 0), random.Random(0))
    assert len(calls) == 3
    # a position before a roll whose last piece is not the previous player's: not in the table
    g = game()
    assert key(position(g, [[piece("A6")], [piece("A12")]], last=None)) is None
