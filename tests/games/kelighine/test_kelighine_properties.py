"""Properties over random legal games (hypothesis draws the options and the seed)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import qipan
from qipan.ai import make_agent
from qipan.core import CHANCE, Match, Record
from qipan.games.kelighine import Kelighine, State
from qipan.games.kelighine.board import STARTS

OPTIONS = st.sampled_from([
    {"version": 1},
    {"version": 1, "players": 3, "die": 4},
    {"version": 1, "players": 4},
    {"version": 2},
])


def check_state(g: Kelighine, s: State) -> None:
    cells = [p.cell for ps in s.pieces for p in ps if p.cell < 36]
    assert len(cells) == len(set(cells)), "two pieces on one cell"
    for owner, ps in enumerate(s.pieces):
        for p in ps:
            assert p.cell not in STARTS or p.cell == g.start_of(owner)
    assert g.state_from_json(json.loads(json.dumps(g.state_to_json(s)))) == s


def play_random(g: Kelighine, seed: int, checks: bool) -> Match:
    rng = random.Random(seed)
    match = Match(g, seed=seed)
    steps = 0
    while not match.over:
        s = match.state
        actions = g.legal_actions(s)
        if checks:
            check_state(g, s)
            snapshot = g.state_to_json(s)
            for a in actions:
                text = g.action_text(s, a)
                assert g.parse_action(s, text) == a
                assert g.action_from_id(s, g.action_id(s, a)) == a
                after = g.apply(s, a)
                check_state(g, after)
            assert g.state_to_json(s) == snapshot  # apply never mutates
            view = g.view(s, match.to_move)
            json.dumps(view)
            assert view["to_move"] == match.to_move
        match.play(rng.choice(list(actions)))
        steps += 1
        assert steps < 20000, "the game does not end"
    return match


@settings(max_examples=12, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant_and_replay(options: dict[str, Any], seed: int) -> None:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    match = play_random(g, seed, checks=True)
    final = match.state
    assert final.winner >= 0 and g.to_move(final) is None
    assert sorted(g.returns(final))[-1] == 1.0
    record = Record.from_json(json.loads(match.record().dumps()))
    assert record.replay()[-1] == final
    assert Match.from_record(record).state == final


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_every_game_reaches_a_winner(options: dict[str, Any], seed: int) -> None:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    final = play_random(g, seed, checks=False).state
    winners = [p for p, ps in enumerate(final.pieces) if all(x.cell == 40 for x in ps)]
    assert winners == [final.winner]
    assert final.prev_log[-1] == ("win", final.winner) or final.log[-1] == ("win", final.winner)


@settings(max_examples=6, deadline=None)
@given(version=st.sampled_from([1, 2]), seed=st.integers(0, 2**32 - 1))
def test_ai_games_end_and_agents_only_make_legal_moves(version: int, seed: int) -> None:
    g = qipan.load("kelighine", version=version)
    agents = [make_agent(g, "easy"), make_agent(g, "random")]
    rng = random.Random(seed)
    match = Match(g, seed=seed)
    while not match.over:
        mover = match.to_move
        assert mover is not None and mover != CHANCE
        action = agents[mover].choose(g, g.view(match.state, mover), rng)
        assert g.is_legal(match.state, action)
        match.play(action)
    assert match.result() is not None


def test_legal_actions_are_deterministic_and_ordered_by_cell() -> None:
    g = qipan.load("kelighine", version=2)
    match = Match(g, seed=5)
    for _ in range(60):
        s = match.state
        actions = g.legal_actions(s)
        assert actions == g.legal_actions(g.state_from_json(g.state_to_json(s)))
        order = [a.cell for a in actions if a.kind in ("move", "promote")]
        assert order == sorted(order)
        match.play(g.legal_texts(s)[-1])
