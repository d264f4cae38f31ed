"""The 食棋 capture variant: peg-solitaire captures on the central hexagon, 1-6 players."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import GameError, Match
from qipan.games.chinese_checkers import ChineseCheckers
from qipan.games.chinese_checkers.board import HEXAGON, NAMES, in_hexagon
from qipan.games.chinese_checkers.game import CAPTURE_STEP_LIMIT
from tests.games.chinese_checkers.helpers import position


def capture(players: int = 2) -> ChineseCheckers:
    game = qipan.load("chinese-checkers", variant="capture", players=players)
    assert isinstance(game, ChineseCheckers)
    return game


def stones(*names: str, turn: int | None = 0, players: int = 2, quiet: int = 0) -> object:
    scores = [0] * players
    scores[0] = 60 - len(names)
    return position(dict.fromkeys(names, 0), turn=turn, scores=tuple(scores), quiet=quiet)


def test_start() -> None:
    game = capture()
    state = game.initial_state()
    assert game.pieces_left(state) == 60
    assert state.board[HEXAGON[30]] == 0 and NAMES[HEXAGON[30]] == "i5"
    assert all(in_hexagon(h) for h, v in enumerate(state.board) if v)
    moves = [str(m) for m in game.legal_actions(state)]
    assert moves == ["g5-i5", "g7-i5", "i3-i5", "i7-i5", "k5-i5", "k7-i5"]


def test_capture_removes_the_jumped_piece_and_scores() -> None:
    game = capture()
    state = game.play(game.initial_state(), "g5-i5")
    assert game.pieces_left(state) == 59
    assert state.scores == (1, 0)
    assert state.board[HEXAGON[30]] == 1
    # h5 captured; h1 and h10 lie in points 6 and 2, outside the hexagon.
    assert game.state_to_json(state)["rows"][7] == ".ooo.oooo."
    assert game.to_move(state) == 1


def test_captures_are_compulsory() -> None:
    game = capture()
    state = stones("i5", "i6", "e5")  # i5 and i6 can capture each other; e5 could only step
    assert [str(m) for m in game.legal_actions(state)] == ["i5-i7", "i6-i4"]
    with pytest.raises(GameError, match="captures are compulsory and one is available"):
        game.play(state, "e5-f5")


def test_steps_when_no_capture_stays_on_the_hexagon() -> None:
    game = capture()
    state = stones("e5", "i5")
    moves = [str(m) for m in game.legal_actions(state)]
    # e5 is a hexagon corner: three neighbours inside, none in the points.
    assert [m for m in moves if m.startswith("e5")] == ["e5-e6", "e5-f4", "e5-f5"]
    with pytest.raises(GameError, match="central hexagon only"):
        game.play(state, "e5-e4")
    assert game.describe_action(state, game.parse_action(state, "e5-f5")) == "red: e5-f5 (step)"


def test_one_capture_per_move() -> None:
    game = capture()
    state = stones("i3", "i4", "i6", "i9")
    after = game.play(state, "i3-i5")
    # i5 could now capture i6 too, but the turn has passed.
    assert game.to_move(after) == 1 and game.pieces_left(after) == 3


def test_last_piece_ends_the_game() -> None:
    game = capture()
    state = stones("i4", "i5")
    assert game.describe_action(state, game.parse_action(state, "i4-i6")) == "red: i4-i6 captures i5"
    end = game.play(state, "i4-i6")
    assert game.to_move(end) is None
    assert end.scores == (59, 0)
    assert game.returns(end) == (1.0, -1.0)
    assert game.result_text(end) == "red won (captures: red 59, blue 0)"


def test_solitaire() -> None:
    game = capture(players=1)
    end = game.play(stones("i4", "i5", players=1), "i4-i6")
    assert game.returns(end) == (1.0,)
    assert game.result_text(end) == "solved: one piece left"
    stuck = stones("e5", "m5", players=1, quiet=CAPTURE_STEP_LIMIT - 1)
    end = game.play(stuck, "e5-f5")
    assert game.to_move(end) is None
    assert game.returns(end) == (-1.0,)
    assert game.result_text(end) == "not solved: 2 pieces left"


def test_step_limit_ends_a_capture_free_stretch() -> None:
    game = capture(players=3)
    state = position({"e5": 0, "m5": 0}, scores=(20, 20, 18), quiet=CAPTURE_STEP_LIMIT - 1)
    end = game.play(state, "e5-f5")
    assert game.to_move(end) is None
    assert game.returns(end) == (0.5, 0.5, -1.0)
    assert game.result_text(end).startswith("draw between red and blue")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_all_player_counts(players: int) -> None:
    game = capture(players)
    assert game.num_players == players
    match = Match(game, seed=players)
    rng = random.Random(players)
    for _ in range(40):
        match.play(rng.choice(game.legal_actions(match.state)))
    assert [m.player for m in match.moves[:players]] == list(range(players))
    assert sum(match.state.scores) == 60 - game.pieces_left(match.state)


def test_standard_options_refused() -> None:
    with pytest.raises(GameError, match="option jump does not apply to the capture variant"):
        qipan.load("chinese-checkers", variant="capture", jump="adjacent")
    # Defaults given explicitly (as a record does) are fine.
    game = qipan.load("chinese-checkers", variant="capture", jump="long", pieces=10, players=4)
    assert game.num_players == 4


def test_capture_json() -> None:
    game = capture()
    state = game.play(game.initial_state(), "g5-i5")
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    rows = list(data["rows"])
    bad = [
        {**data, "scores": [0, 0]},
        {**data, "scores": [1]},
        {**data, "rows": ["o", *rows[1:]]},
        {**data, "rows": [*rows[:8], "1" * 9, *rows[9:]]},
        {**data, "quiet": CAPTURE_STEP_LIMIT + 1},
        {**data, "to_move": None},
    ]
    for item in bad:
        with pytest.raises(GameError):
            game.state_from_json(item)


def test_capture_view() -> None:
    game = capture(players=3)
    view = game.view(game.initial_state(), 1)
    assert view["player"] == 1 and view["to_move"] == 0
    assert view["scores"] == [0, 0, 0] and view["pieces_left"] == 60
    assert view["variant"] == "capture"
    assert set(view["pieces"].values()) == {0}
