"""Hypothesis properties over random legal Abalone games."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qipan.core import Match, Record
from qipan.games.abalone import Abalone
from tests.games.abalone.reference import legal_moves

VARIANTS = st.sampled_from(["standard", "belgian-daisy", "german-daisy"])


def _rc(name: str) -> tuple[int, int]:
    return "abcdefghi".index(name[0]), int(name[1])


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 120))
def test_random_games_stay_legal(variant: str, seed: int, plies: int) -> None:
    game = Abalone(variant=variant)
    rng = random.Random(seed)
    state = game.initial_state()
    counts = (14, 14)
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        actions = game.legal_actions(state)
        data = game.state_to_json(state)
        own, opp = (data["black"], data["white"]) if data["turn"] == "black" else (data["white"], data["black"])
        assert {game.action_text(state, a) for a in actions} == legal_moves(
            {_rc(c) for c in own}, {_rc(c) for c in opp})
        action = rng.choice(actions)
        text = game.action_text(state, action)
        assert game.parse_action(state, text) == action  # notation round-trips
        before = state
        frozen = game.state_to_json(before)
        state = game.apply(state, action)
        assert game.state_to_json(before) == frozen  # apply never mutates
        assert state.black & state.white == 0  # no cell holds two marbles
        new_counts = (state.black.bit_count(), state.white.bit_count())
        mover = before.turn
        assert new_counts[mover] == counts[mover]  # a mover never loses a marble
        assert counts[1 - mover] - 1 <= new_counts[1 - mover] <= counts[1 - mover]  # only by ejection
        counts = new_counts
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state


@settings(max_examples=10, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32 - 1))
def test_records_replay_exactly(variant: str, seed: int) -> None:
    game = Abalone(variant=variant, options={"quiet_move_limit": 60, "repetition_draw": True})
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    while not match.over and len(match.moves) < 300:
        match.play(rng.choice(list(game.legal_actions(match.state))))
    record = Record.from_json(json.loads(match.record().dumps()))
    states = record.replay()
    assert states == match.states
    assert Match.from_record(record).result() == match.result()
