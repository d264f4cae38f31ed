"""A short run of OpenSpiel's own algorithms on qipan games: they end and play legal moves."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts

import qipan.openspiel  # noqa: F401


def test_mcts_bot_plays_legal_abalone_moves() -> None:
    game = pyspiel.load_game("qipan_abalone(max_game_length=40)")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert game.qipan.to_move(state.qipan_state) == 0 and len(state.history()) == 4


def test_information_set_mcts_plays_sheng_ke_to_the_end() -> None:
    game = pyspiel.load_game("qipan_shengke(turns=4)")
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions >= 4
    assert state.returns() == list(game.qipan.returns(state.qipan_state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_cfr_solves_a_two_turn_tellstones() -> None:
    """CFR keys its tables by information-state strings (with the players' recall): on a
    two-turn Tellstones it finds every decision point and its average policy plays legal moves."""
    game = pyspiel.load_game("qipan_tellstones(turn_limit=2)")
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    state = game.new_initial_state()
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert len(policy.state_lookup) == 19  # one row per information state of the tree
    assert exploitability.nash_conv(game, policy) >= 0.0
