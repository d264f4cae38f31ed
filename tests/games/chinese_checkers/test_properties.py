"""Hypothesis properties over random legal Chinese Checkers games, cross-checked against the
naive reference generator."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import qipan
from qipan.core import Match, Record
from qipan.games.chinese_checkers import PASS, ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.board import HOLES, INDEX, NAMES, POINT_OF
from tests.games.chinese_checkers import reference


@st.composite
def games(draw: st.DrawFn) -> ChineseCheckers:
    players = draw(st.sampled_from([2, 3, 4, 6]))
    options: dict[str, Any] = {
        "players": players,
        "pieces": draw(st.sampled_from([10, 15])) if players <= 3 else 10,
        "jump": draw(st.sampled_from(["long", "adjacent"])),
        "chain": draw(st.booleans()),
        "other_corners": draw(st.sampled_from(["allowed", "pass-only", "forbidden"])),
        "blocked_target": draw(st.booleans()),
        "play_on": draw(st.booleans()),
    }
    game = qipan.load("chinese-checkers", options=options)
    assert isinstance(game, ChineseCheckers)
    return game


def reference_moves(game: ChineseCheckers, state: ChineseCheckersState) -> set[tuple[str, str]]:
    me = state.turn
    assert me is not None
    occupied = {HOLES[h] for h, v in enumerate(state.board) if v}
    own = {game.home_point(me), game.target_point(me)}
    corners = frozenset(HOLES[h] for h in range(121) if POINT_OF[h] and POINT_OF[h] not in own)
    mode = game.config["other_corners"]
    no_stop = corners if mode == "pass-only" else frozenset()
    no_land = corners if mode == "forbidden" else frozenset()
    out = set()
    for h, v in enumerate(state.board):
        if v == me + 1:
            for end in reference.ends(occupied, HOLES[h], game.config["jump"] == "long",
                                      game.config["chain"], no_stop, no_land):
                out.add((NAMES[h], NAMES[INDEX[end]]))
    return out


def check_state(game: ChineseCheckers, state: ChineseCheckersState) -> None:
    n = game.num_players
    for p in range(n):
        assert state.board.count(p + 1) == game.config["pieces"]
    assert state.board.count(0) == 121 - n * game.config["pieces"]
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
    view = game.view(state, state.turn)
    assert view["player"] == state.turn and view["to_move"] == state.turn
    json.dumps(view)
    assert game.sample_state(view, random.Random(0)) == state


@settings(max_examples=150, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80))
def test_random_games_match_the_reference(game: ChineseCheckers, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        check_state(game, state)
        moves = game.legal_actions(state)
        assert moves == game.legal_actions(state)
        assert moves == sorted(set(moves))
        if moves != [PASS]:
            assert {(NAMES[m.start], NAMES[m.end]) for m in moves} == reference_moves(game, state)
        for move in moves:
            text = game.action_text(state, move)
            assert game.parse_action(state, text) == move
            assert game.parse_action(state, text.upper()) == move
            path = game.move_path(state, move)
            if move != PASS:
                assert game.parse_action(state, "-".join(path)) == move
            assert game.action_from_id(state, game.action_id(state, move)) == move
        before = game.state_to_json(state)
        move = rng.choice(moves)
        state = game.apply(state, move)
        assert game.state_to_json(game.state_from_json(before)) == before
    check_state(game, state)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(2, 60), long=st.booleans(), chain=st.booleans())
def test_scattered_boards_match_the_reference(seed: int, count: int, long: bool, chain: bool) -> None:
    """Random boards with pieces anywhere: every piece's destinations agree with the reference."""
    game = qipan.load("chinese-checkers", jump="long" if long else "adjacent", chain=chain)
    assert isinstance(game, ChineseCheckers)
    rng = random.Random(seed)
    holes = rng.sample(range(121), count)
    board = [0] * 121
    for h in holes:
        board[h] = 1 if rng.random() < 0.5 else 2
    board[holes[0]] = 1
    state = ChineseCheckersState(tuple(board), 0)
    assert {(NAMES[m.start], NAMES[m.end]) for m in game.legal_actions(state) if m != PASS} == \
        reference_moves(game, state)


@settings(max_examples=30, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_records_replay_exactly(game: ChineseCheckers, seed: int, plies: int) -> None:
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if match.over:
            break
        match.play(rng.choice(game.legal_actions(match.state)))
    record = Record.from_json(json.loads(match.record().dumps()))
    assert record.replay() == match.states
    assert Match.from_record(record).states == match.states


@settings(max_examples=30, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80))
def test_capture_games(players: int, seed: int, plies: int) -> None:
    game = qipan.load("chinese-checkers", variant="capture", players=players)
    assert isinstance(game, ChineseCheckers)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if match.over:
            break
        state = match.state
        moves = game.legal_actions(state)
        captures = [m for m in moves if HOLES[m.end] not in
                    {reference.add(HOLES[m.start], d) for d in reference.DIRS}]
        assert captures == moves or not captures  # captures are compulsory
        for move in moves:
            assert game.parse_action(state, game.action_text(state, move)) == move
        match.play(rng.choice(moves))
        new = match.state
        assert sum(new.scores) + game.pieces_left(new) == 60
        assert game.state_from_json(game.state_to_json(new)) == new
    assert Record.from_json(json.loads(match.record().dumps())).replay() == match.states
