"""Hypothesis properties over Tellstones games built from generated action choices."""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from qipan.cli.boards.tellstones import render
from qipan.core import CHANCE, Match, Record
from qipan.games.tellstones import SYMBOLS, Tellstones
from qipan.games.tellstones.game import State
from qipan.games.tellstones.stones import NAME

VARIANTS = st.sampled_from(["standard", "round-table", "two-lines"])
CHOICES = st.lists(st.integers(0, 10**6), max_size=90)
FIRST = st.sampled_from(["0", "1", "random"])


def run(game: Tellstones, choices: list[int]) -> list[State]:
    """The states of the game whose k-th action is ``legal[choices[k] % len(legal)]``."""
    state = game.initial_state()
    states = [state]
    for choice in choices:
        if game.to_move(state) is None:
            break
        actions = game.legal_actions(state)
        state = game.apply(state, actions[choice % len(actions)])
        states.append(state)
    return states


def shuffled_face_down(state: State, rng: random.Random) -> State:
    """The same state with the face-down symbols of each line dealt anew."""
    lines = []
    for line in state.lines:
        down = [v for v in line if v < 0]
        rng.shuffle(down)
        it = iter(down)
        lines.append(tuple(next(it) if v < 0 else v for v in line))
    return replace(state, lines=tuple(lines))


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, first=FIRST, choices=CHOICES)
def test_every_step_is_consistent(variant: str, first: str, choices: list[int]) -> None:
    game = Tellstones(variant=variant, options={"first_player": first})
    state = game.initial_state()
    for choice in choices:
        mover = game.to_move(state)
        if mover is None:
            assert game.legal_actions(state) == []
            break
        actions = game.legal_actions(state)
        assert actions and len(set(actions)) == len(actions)
        for action in actions:
            text = game.action_text(state, action)
            assert game.parse_action(state, text) == action  # notation round-trips
            assert game.parse_action(state, text.upper()) == action
            if mover != CHANCE:
                assert game.action_from_id(state, game.action_id(state, action)) == action
        action = actions[choice % len(actions)]
        frozen = game.state_to_json(state)
        after = game.apply(state, action)
        assert game.state_to_json(state) == frozen  # apply never mutates
        state = after
        data = json.loads(json.dumps(game.state_to_json(state)))
        assert game.state_from_json(data) == state
        for line in state.lines:
            stones = [abs(v) for v in line if v]
            assert len(set(stones)) == len(stones) >= 1
        assert max(state.scores) <= 3
        assert (max(state.scores) == 3) <= (game.to_move(state) is None)


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, choices=CHOICES, seed=st.integers(0, 2**32 - 1))
def test_no_view_shows_a_face_down_stone_except_right_after_its_peek(
    variant: str, choices: list[int], seed: int
) -> None:
    game = Tellstones(variant=variant)
    rng = random.Random(seed)
    for state in run(game, choices):
        other = shuffled_face_down(state, rng)
        looker = game.looker(state)
        for player in [None, *range(game.num_players)]:
            view = game.view(state, player)
            json.dumps(view)
            assert view["player"] == player and "to_move" in view
            revealed = view.pop("revealed")
            twin = game.view(other, player)
            twin_revealed = twin.pop("revealed")
            # Dealing the face-down stones anew changes nothing else any seat can see.
            assert view == twin
            if player is None or player != looker:
                assert revealed is None and twin_revealed is None
            else:
                assert state.last is not None
                action = state.last[1]
                assert revealed == {"slot": game.label(action.line, action.a),
                                    "stone": SYMBOLS[-state.lines[action.line][action.a] - 1]}
            if game.lines == 1:
                # Not even a stray name: the only other mention is a guess in "last".
                view.pop("last")
                down = {SYMBOLS[-v - 1] for v in state.lines[0] if v < 0}
                text = json.dumps(view)
                assert not any(f'"{name}"' in text for name in down)


@settings(max_examples=100, deadline=None)
@given(variant=VARIANTS, choices=CHOICES, seed=st.integers(0, 2**32 - 1))
def test_sampled_states_match_the_view(variant: str, choices: list[int], seed: int) -> None:
    game = Tellstones(variant=variant)
    rng = random.Random(seed)
    state = run(game, choices)[-1]
    for player in range(game.num_players):
        view = game.view(state, player)
        sample = game.sample_state(view, rng)
        assert game.view(sample, player) == view
        assert game.legal_actions(sample) == game.legal_actions(state)


@settings(max_examples=30, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32 - 1))
def test_records_replay_exactly(variant: str, seed: int) -> None:
    game = Tellstones(variant=variant, options={"first_player": "random", "turn_limit": 150})
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.play(rng.choice(list(game.legal_actions(match.state))))
    record = Record.from_json(json.loads(match.record().dumps()))
    assert record.replay() == match.states
    again = Match.from_record(record)
    assert again.state == match.state and again.result() == match.result()
    assert match.result() is not None


@settings(max_examples=60, deadline=None)
@given(variant=VARIANTS, choices=CHOICES, seed=st.integers(0, 2**32 - 1))
def test_move_texts_and_log_lines_hide_face_down_stones(
    variant: str, choices: list[int], seed: int
) -> None:
    # Re-dealing the face-down stones changes no move text any seat sees and no log line, except
    # the log line of a name, which tells the stone it turns face up.
    game = Tellstones(variant=variant)
    rng = random.Random(seed)
    for state in run(game, choices):
        if game.to_move(state) is None:
            break
        other = shuffled_face_down(state, rng)
        for action in game.legal_actions(state):
            for player in [None, *range(game.num_players)]:
                assert game.public_action_text(state, action, player) == \
                    game.public_action_text(other, action, player)
            line = game.describe_action(state, action)
            if action.kind != NAME:
                assert line == game.describe_action(other, action)
            else:
                after = game.next_state(state, action)
                shown = [(n, i) for n, row in enumerate(state.lines) for i, v in enumerate(row)
                         if v < 0 and after.lines[n][i] > 0]
                assert len(shown) == 1
                n, i = shown[0]
                truth = SYMBOLS[after.lines[n][i] - 1]
                assert line.endswith(("right", f"wrong, it is the {truth}"))
                assert (truth == SYMBOLS[action.symbol]) == line.endswith("right")


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, choices=CHOICES, seed=st.integers(0, 2**32 - 1))
def test_terminal_board_shows_a_face_down_stone_only_to_its_looker(
    variant: str, choices: list[int], seed: int
) -> None:
    game = Tellstones(variant=variant)
    rng = random.Random(seed)
    states = run(game, choices)
    for state in states[-12:]:  # late states: most stones placed, hidden and swapped
        other = shuffled_face_down(state, rng)
        looker = game.looker(state)
        for player in [None, *range(game.num_players)]:
            board = board_text(game, game.view(state, player))
            if player is not None and player == looker:
                assert "You peeked" in board
                continue
            assert board == board_text(game, game.view(other, player))
            if game.lines == 1:
                # The line itself names only face-up stones.
                grid = board.split("pool")[0]
                for v in state.lines[0]:
                    assert (f" {SYMBOLS[abs(v) - 1]} " in grid) == (v > 0) or v == 0


def board_text(game: Tellstones, view: dict[str, object]) -> str:
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(render(game, view))
    return console.export_text()
