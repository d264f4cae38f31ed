"""The baseline AI: greedy by progress towards the target, and good enough to finish games."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.ai import make_agent
from qipan.core import Match
from qipan.games.chinese_checkers import ChineseCheckers
from qipan.games.chinese_checkers.ai import LEVELS, evaluate
from qipan.games.chinese_checkers.board import POINT_HOLES
from tests.games.chinese_checkers.helpers import position
from tests.games.chinese_checkers.test_rules import TARGET4

MOVE_CAP = 600


def self_play(game: ChineseCheckers, seed: int) -> Match:
    agents = [make_agent(game, "easy") for _ in range(game.num_players)]
    rng = random.Random(seed)
    match = Match(game, seed=seed)
    while not match.over and len(match.moves) < MOVE_CAP:
        mover = match.to_move
        assert mover is not None
        match.play(agents[mover].choose(game, game.view(match.state, mover), rng))
    return match


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 2}, 1),
        ({"players": 2}, 2),
        ({"players": 3}, 3),
        ({"players": 2, "pieces": 15}, 4),
        ({"players": 3, "play_on": True}, 5),
        ({"players": 6, "other_corners": "forbidden"}, 6),
        ({"players": 2, "jump": "adjacent", "chain": False}, 7),
    ],
)
def test_two_easy_agents_finish(options: dict[str, object], seed: int) -> None:
    game = qipan.load("chinese-checkers", options=options)
    assert isinstance(game, ChineseCheckers)
    match = self_play(game, seed)
    assert match.over, f"no finish within {MOVE_CAP} moves"
    state = match.state
    winner = state.finished[0]
    target = game.target_holes(winner)
    assert all(state.board[h] for h in target)
    assert sum(state.board[h] == winner + 1 for h in target) >= 1
    if options.get("play_on"):
        assert len(state.finished) == game.num_players - 1
    assert max(match.record().result["returns"]) == 1.0  # type: ignore[index]


def test_greedy_prefers_progress_and_finishing() -> None:
    game = qipan.load("chinese-checkers")
    assert isinstance(game, ChineseCheckers)
    state = game.initial_state()
    agent = LEVELS["easy"](game)
    move = agent.choose(game, game.view(state, 0), random.Random(0))
    # The best opening moves are the jumps from row c to row e (two rows forward).
    assert game.action_text(state, move)[0] == "c"
    before = evaluate(game, state, 0)
    assert evaluate(game, game.next_state(state, move), 0) > before
    # Finishing beats everything (blue, one piece short of its own target, has not finished).
    pieces = {name: 0 for name in TARGET4 if name != "n1"}
    pieces.update({"m5": 0, "a1": 1, "b1": 1, "b2": 1, "c1": 1, "c2": 1, "c3": 1, "d1": 1, "d2": 1, "d3": 1,
                   "e9": 1})
    near = position(pieces)
    choice = agent.choose(game, game.view(near, 0), random.Random(0))
    assert game.action_text(near, choice) == "m5-n1"


def test_greedy_plays_on_for_second_place() -> None:
    game = qipan.load("chinese-checkers", players=3, play_on=True)
    assert isinstance(game, ChineseCheckers)
    # Blue has finished; red can take 2nd place now and must not prefer a "better" race position.
    pieces = {name: 0 for name in TARGET4 if name != "n1"}
    pieces["m5"] = 0
    state = position(pieces, finished=(1,))
    board = list(state.board)
    for h in POINT_HOLES[5]:  # green still at home
        board[h] = 3
    for h in POINT_HOLES[6]:
        board[h] = 2
    state = state._replace(board=tuple(board))
    choice = LEVELS["easy"](game).choose(game, game.view(state, 0), random.Random(0))
    assert game.action_text(state, choice) == "m5-n1"


def test_capture_variant_agent() -> None:
    game = qipan.load("chinese-checkers", variant="capture", players=2)
    state = game.initial_state()
    agent = make_agent(game, "easy")
    move = agent.choose(game, game.view(state, 0), random.Random(0))
    assert move in game.legal_actions(state)
