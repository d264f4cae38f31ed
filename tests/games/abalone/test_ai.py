"""Abalone's evaluation and move ordering (the search itself is tested in tests/ai)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qipan
from qipan.core.game import Game
from qipan.games.abalone.ai import EDGE_CELLS, _tactics, evaluate, order, score
from qipan.games.abalone.game import AbaloneState


def position(black: str, white: str, turn: str = "black", **options: object) -> tuple[Game[Any, Any], AbaloneState]:
    game = qipan.load("abalone", options=options) if options else qipan.load("abalone")
    return game, game.state_from_json({"black": black.split(), "white": white.split(), "turn": turn})


def random_state(seed: int, plies: int) -> tuple[Game[Any, Any], AbaloneState]:
    game = qipan.load("abalone")
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.next_state(state, rng.choice(game.legal_actions(state)))
    return game, state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 120))
def test_evaluation_is_zero_sum(seed: int, plies: int) -> None:
    game, state = random_state(seed, plies)
    assert evaluate(game, state, 0) == -evaluate(game, state, 1)


def test_a_marble_pushed_out_dominates_the_score() -> None:
    game = qipan.load("abalone")
    start = game.initial_state()
    one_down = start._replace(white=start.white & ~(1 << _cells("i9")[0]))
    assert evaluate(game, start, 0) == 0
    assert evaluate(game, one_down, 0) > 900  # 1000 for the marble, a little shape lost or gained


def test_pushes_and_threats_are_counted() -> None:
    # c3-b2 pushes white's a1 off the board: a push that is also a threat
    own = sum(1 << c for c in _cells("b2 c3"))
    opp = sum(1 << c for c in _cells("a1"))
    assert _tactics(own, opp) == (1, 1)
    opp_on_board = sum(1 << c for c in _cells("a1 b2"))
    own_three = sum(1 << c for c in _cells("c3 d4 e5"))
    assert _tactics(own_three, opp_on_board) == (1, 1)  # three push two, a1 goes off
    assert _tactics(opp_on_board, own_three) == (0, 0)  # two cannot push three


def test_edge_marbles_count_against_their_owner() -> None:
    centre = sum(1 << c for c in _cells("e5 e4"))
    edge = sum(1 << c for c in _cells("a1 a2"))
    assert edge & EDGE_CELLS == edge
    assert score(centre, edge) > 0 > score(edge, centre)


def test_a_lead_is_worth_less_as_the_quiet_move_draw_nears() -> None:
    black, white = "a1 b2 c3 d4 e5 f6 g7 h8 i9 e4 e6 d5 f5 c4", "a5 b6 c7 d8 e9 f4 g4 h4 i5 i6 i7 h7 g6"
    game, state = position(black, white, quiet_move_limit=100)
    untimed, free = position(black, white)
    assert evaluate(untimed, free, 0) == evaluate(game, state, 0)  # quiet 0: the whole lead
    later = state._replace(quiet=60)
    assert evaluate(game, state, 0) - evaluate(game, later, 0) == pytest.approx(0.6 * 1000)
    assert evaluate(untimed, free._replace(quiet=60), 0) == evaluate(untimed, free, 0)  # no limit: no discount


def test_ordering_puts_the_ejecting_push_first() -> None:
    game, state = position("b2 c3 d4 e5 f5 f6 e6 d5 c4 b3 e4", "a1 i5 i6 i7 i8 i9 h5 h6 h7")
    ordered = order(game, state, list(game.legal_actions(state)))
    assert game.action_text(state, ordered[0]) == "c3b2"
    assert sorted(map(str, ordered)) == sorted(map(str, game.legal_actions(state)))


def _cells(names: str) -> list[int]:
    from qipan.games.abalone.board import INDEX

    return [INDEX[name] for name in names.split()]



def test_medium_searches_two_moves_in_three_and_plays_easy_at_the_rest() -> None:
    from qipan.ai import AlphaBetaAgent, Blend, GreedyAgent, make_agent
    from qipan.games.abalone.ai import MEDIUM_SEARCHES

    medium = make_agent(qipan.load("abalone"), "medium")
    assert isinstance(medium, Blend) and medium.share == MEDIUM_SEARCHES == 2 / 3
    assert isinstance(medium.strong, AlphaBetaAgent) and medium.strong.depth == 2
    assert isinstance(medium.weak, GreedyAgent)
