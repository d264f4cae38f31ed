"""Information states and observations come from the player's view only."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import qipan.openspiel  # noqa: F401
from qipan.core.game import CHANCE
from qipan.openspiel.chance import ORDERS
from qipan.openspiel.observer import NO_RECALL, remember, view_string
from qipan.rl.encoders import make_encoder
from tests.openspiel.cases import CASES, HIDDEN
from tests.openspiel.test_games import play_randomly


def random_states(game: Any, seed: int, count: int) -> list[Any]:
    """Bridge states met in random games (a new game when one ends)."""
    rng = random.Random(seed)
    states: list[Any] = []
    state = game.new_initial_state()
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        play_randomly(state, rng, 1)
        states.append(state.clone())
    return states


def seen_by(state: Any, player: int) -> tuple[Any, ...]:
    return (state.information_state_string(player), state.information_state_tensor(player),
            state.observation_string(player), state.observation_tensor(player))


def with_qipan_state(state: Any, qipan_state: Any) -> Any:
    """``state`` with another qipan state, every player's recall kept (as resampling does)."""
    other = state.clone()
    other.qipan_state = qipan_state
    return other


@pytest.mark.parametrize("name", HIDDEN)
def test_information_states_leak_no_hidden_information(name: str) -> None:
    """Two states that differ only in what a player cannot know (drawn by ``game.sample_state``
    from the player's view) give that player equal information states and observations."""
    game = pyspiel.load_game(name)
    q = game.qipan
    differing = 0
    for index, state in enumerate(random_states(game, 11, 40)):
        if state.pending:
            continue
        for player in range(game.num_players()):
            view = q.view(state.qipan_state, player)
            a = q.sample_state(view, random.Random(2 * index))
            b = q.sample_state(view, random.Random(2 * index + 1))
            if q.to_move(a) == CHANCE or q.to_move(b) == CHANCE:
                continue
            differing += a != b
            reference = seen_by(state, player)
            for other in (a, b):
                assert seen_by(with_qipan_state(state, other), player) == reference
    assert differing > 0, "no two sampled states differed: the test would prove nothing"


@pytest.mark.parametrize("name", [case for case in HIDDEN if case.startswith("qipan_shengke")])
def test_another_players_secret_does_change_what_they_see(name: str) -> None:
    """The leak test's counterpart in Sheng-Ke, where each hand is its owner's secret: a state
    drawn from one player's view gives the other player a different information state (their
    own hand changes), so the equality above is not an accident of the strings."""
    game = pyspiel.load_game(name)
    q = game.qipan
    for index, state in enumerate(random_states(game, 5, 40)):
        if state.pending or q.to_move(state.qipan_state) == CHANCE:
            continue
        for player in range(game.num_players()):
            other = q.sample_state(q.view(state.qipan_state, player), random.Random(index))
            if any(seen_by(with_qipan_state(state, other), p)[0] != seen_by(state, p)[0]
                   for p in range(game.num_players()) if p != player):
                return
    pytest.fail("no sampled state looked different to any other player")


@pytest.mark.parametrize("name", CASES)
def test_strings_are_the_view_and_tensors_the_encoded_view(name: str) -> None:
    game = pyspiel.load_game(name)
    q = game.qipan
    encoder = make_encoder(q)
    for state in random_states(game, 3, 12):
        for player in range(game.num_players()):
            view = q.view(state.qipan_state, player)
            assert json.loads(state.observation_string(player)) == view
            recall = f"\nrecall {state.recall_of(player)}"
            assert state.information_state_string(player) == state.observation_string(player) + recall
            expected = encoder.encode(view).ravel()
            assert np.array_equal(np.asarray(state.information_state_tensor(player), np.float32), expected)
            assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), expected)
    assert game.observation_tensor_shape() == game.information_state_tensor_shape() == list(encoder.shape)


@pytest.mark.parametrize("name", CASES)
def test_recall_is_chained_over_the_players_earlier_views(name: str) -> None:
    game = pyspiel.load_game(name)
    q = game.qipan
    state = game.new_initial_state()
    rng = random.Random(6)
    recall = [NO_RECALL] * game.num_players()
    for step in range(40):
        if state.is_terminal():
            break
        # Asked for now and then, by one player or another: the recall folds in the views lazily.
        for p in range(game.num_players()):
            if (step + p) % 3 == 0:
                assert state.recall_of(p) == recall[p]
        recall = [remember(r, view_string(q, state.qipan_state, p)) for p, r in enumerate(recall)]
        play_randomly(state, rng, 1)
    assert [state.recall_of(p) for p in range(game.num_players())] == recall
    assert not state.past


def test_histories_that_differ_only_in_a_hidden_shuffle_look_alike_to_both_players() -> None:
    """Two Sheng-Ke games, the same in everything but the order of the two bottom cards of 乙's
    water pile (never drawn in four turns): each player's information state is the same at every
    step of the two games, recall included, though the states differ."""
    game = pyspiel.load_game("qipan_shengke(turns=4,first='0')")
    a, b = game.new_initial_state(), game.new_initial_state()
    for pile in range(10):
        a.apply_action(0)
        b.apply_action(ORDERS.index((0, 1, 2, 4, 3)) if pile == 9 else 0)
    rng = random.Random(2)
    while not a.is_terminal():
        for player in (0, 1):
            assert seen_by(a, player) == seen_by(b, player)
        if a.is_chance_node():
            outcomes, probs = zip(*a.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights=probs)[0]
        else:
            action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    assert b.is_terminal() and a.qipan_state != b.qipan_state


def test_public_observation_is_the_spectators_view() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("qipan_shengke(first='0')")
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    state = random_states(game, 2, 15)[-1]
    assert json.loads(public.string_from(state, 0)) == game.qipan.view(state.qipan_state, None)
    assert public.tensor.size == 0
    with pytest.raises(ValueError, match="no public observation with perfect recall"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    with pytest.raises(ValueError, match="no observer of every player's private information"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_resampling_keeps_the_players_information_state() -> None:
    game = pyspiel.load_game("qipan_shengke")
    state = next(s for s in random_states(game, 8, 60) if s.current_player() >= 0 and s.length > 20)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    assert all(s.information_state_string(player) == state.information_state_string(player) for s in samples)
    assert all(s.legal_actions() == state.legal_actions() for s in samples)
    assert len({str(s) for s in samples}) > 1  # the opponent's hand and the decks are drawn anew


@pytest.mark.parametrize("name", [case for case in HIDDEN if case.startswith("qipan_tellstones")])
def test_tellstones_resampling_keeps_every_stone_the_player_remembers(name: str) -> None:
    """Every Tellstones stone is seen face up before it is hidden, and every swap is watched, so
    a player with perfect recall knows them all: the only state in their information set is
    the true one. Drawing face-down stones from the present view alone (as before) gave
    states the player knows are false, about one resample in three."""
    game = pyspiel.load_game(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden = 0
    for state in random_states(game, 12, 50):
        if state.is_terminal() or state.is_chance_node():
            continue
        hidden += "?" in state.observation_string(0)
        for player in range(game.num_players()):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.qipan_state == state.qipan_state
    assert hidden > 10, "too few states with face-down stones: the test would prove little"


@pytest.mark.parametrize("name", ["qipan_chinese_checkers", "qipan_abalone"])
def test_a_transposition_is_two_information_states(name: str) -> None:
    """Perfect recall in a perfect-information game: the same position reached by the first
    player's two moves in either order is two histories the player tells apart (they remember
    their own moves), so two information states; the observation, the present, is one."""
    game = pyspiel.load_game(name)
    root = game.new_initial_state()
    first = root.legal_actions()
    for a, b in ((a, b) for a in first[:12] for b in first[:12] if a < b):
        one, two = root.child(a), root.child(b)
        reply = next((r for r in one.legal_actions() if r in two.legal_actions()), None)
        if reply is None:
            continue
        one.apply_action(reply)
        two.apply_action(reply)
        if b not in one.legal_actions() or a not in two.legal_actions():
            continue
        one.apply_action(b)
        two.apply_action(a)
        if one.qipan_state == two.qipan_state:
            for player in (0, 1):
                assert one.observation_string(player) == two.observation_string(player)
                assert one.information_state_string(player) != two.information_state_string(player)
            return
    pytest.fail("no transposition found among the first moves")
