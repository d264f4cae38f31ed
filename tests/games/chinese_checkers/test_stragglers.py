"""Without ``blocked_target`` an opponent's piece in one's target must leave before one can finish:
the levels keep it a way out (``stragglers.wall``) instead of walling it in for a draw."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.ai import make_agent
from qipan.games.chinese_checkers import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers import ai as cc_ai
from qipan.games.chinese_checkers.board import hole_index
from qipan.games.chinese_checkers.stragglers import cost, reach, wall
from tests.games.chinese_checkers.helpers import position

OPENSPIEL_RULES: dict[str, object] = {"jump": "adjacent", "blocked_target": False}

RED = "p1 p2 o1 o2 o3 n1 n2 n3 n4 m7"
"""Nine of red's pieces fill its target around blue's straggler on the tip q1; one waits outside."""
BLUE = "q1 a1 b1 b2 c1 c2 c3 d1 d2 d3"
"""Blue's other nine are home in its own target and want the straggler back (d4 is free)."""


def walled_in(game: ChineseCheckers) -> ChineseCheckersState:
    pieces = {name: 0 for name in RED.split()} | {name: 1 for name in BLUE.split()}
    return position(pieces)


def test_wall_counts_the_pieces_between_a_foreign_piece_and_the_way_out() -> None:
    game = qipan.load("chinese-checkers", options=OPENSPIEL_RULES)
    assert isinstance(game, ChineseCheckers)
    state = walled_in(game)
    assert wall(game, state.board, 0) == 3  # p1 (or p2), a piece on row o and one on row n
    assert wall(game, state.board, 1) == 0  # no blue piece stands in anyone's way
    opened = game.play(state, "n1-m6")
    assert wall(game, opened.board, 0) == 2
    # blue's home is red's target: 3 pieces in front of the tip, 2 of each row p hole, 1 of row o's
    assert wall(game, game.initial_state().board, 0) == 3 + 2 * 2 + 3 * 1


def test_reach_counts_the_steps_to_the_nearest_piece_that_can_fill_the_hole() -> None:
    game = qipan.load("chinese-checkers", options=OPENSPIEL_RULES)
    assert isinstance(game, ChineseCheckers)
    state = walled_in(game)
    assert reach(game, state.board, 0) == 3  # red's m7 is four steps from q1
    edge = position({name: 0 for name in ["q1", "p1", "p2", "o1", "o2", "o3", "n1", "n2", "n3", "m9"]}
                    | {name: 1 for name in BLUE.replace("q1", "n4").split()})
    assert reach(game, edge.board, 0) == 0  # m9 waits next to blue's n4
    assert wall(game, edge.board, 0) == 0  # and n4 steps out to m8
    assert cost(game, state.board, 0) == 12 * 3 + 3 * 3


def test_stragglers_cost_nothing_with_blocked_target() -> None:
    game = qipan.load("chinese-checkers", jump="adjacent")
    assert isinstance(game, ChineseCheckers)
    board = walled_in(game).board
    assert wall(game, board, 0) == reach(game, board, 0) == 0 == cost(game, board, 0)


def finish(game: ChineseCheckers, level: str, state: ChineseCheckersState, moves: int) -> ChineseCheckersState:
    """Red plays ``level``, blue plays easy (which brings its straggler out when it can)."""
    agents = [make_agent(game, level), make_agent(game, "easy")]
    rng = random.Random(1)
    for _ in range(moves):
        if state.turn is None:
            break
        state = game.next_state(state, agents[state.turn].choose(game, game.view(state, state.turn), rng))
    return state


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_levels_let_a_straggler_out_and_fill_its_hole(level: str) -> None:
    game = qipan.load("chinese-checkers", options=OPENSPIEL_RULES)
    assert isinstance(game, ChineseCheckers)
    state = finish(game, level, walled_in(game), 100)
    assert state.finished == (0,)
    assert game.result_text(state) == "red won"


def test_without_the_plan_the_straggler_stays_walled_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same position is a dead end for the race cost alone: nobody finishes."""
    monkeypatch.setattr(cc_ai, "straggler_cost", lambda game, board, player: 0.0)
    game = qipan.load("chinese-checkers", options=OPENSPIEL_RULES)
    assert isinstance(game, ChineseCheckers)
    state = finish(game, "easy", walled_in(game), 100)
    assert state.turn is not None and not state.finished
    assert state.board[hole_index("q1")] == 2
