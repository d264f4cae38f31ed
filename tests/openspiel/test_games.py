"""OpenSpiel's own checks on every qipan game, the game string's parameters, serialisation."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pyspiel
import pytest

import qipan
import qipan.openspiel
from qipan.core.game import CHANCE
from tests.openspiel.cases import CASES


def play_randomly(state: Any, rng: random.Random, actions: int) -> Any:
    """``state`` after up to ``actions`` random actions (chance by its probabilities)."""
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights=probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_qipan_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {"qipan_abalone", "qipan_chinese_checkers", "qipan_kelighine", "qipan_shengke",
            "qipan_tellstones"} <= names
    assert set(qipan.openspiel.GAMES) == {qipan.openspiel.short_name(n) for n in qipan.game_names()}


@pytest.mark.parametrize("name", CASES)
def test_openspiel_random_simulation(name: str) -> None:
    # OpenSpiel's checks: legal actions and masks, chance probabilities, returns and rewards,
    # observation and information-state tensors, cloning and serialisation at every step.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", CASES)
def test_serialisation_round_trip(name: str) -> None:
    game = pyspiel.load_game(name)
    state = play_randomly(game.new_initial_state(), random.Random(name), 40)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert state2.qipan_state == state.qipan_state and state2.pending == state.pending
    assert state2.legal_actions() == state.legal_actions()
    # The game's string reads back as the same game (text that looks like a number is quoted).
    assert str(pyspiel.load_game(str(game))) == str(game)


@pytest.mark.parametrize("name", CASES)
def test_actions_are_qipans_ids_and_notation(name: str) -> None:
    game = pyspiel.load_game(name)
    q = game.qipan
    assert game.num_distinct_actions() == q.num_distinct_actions
    assert game.num_players() == q.num_players
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            assert q.to_move(state.qipan_state) == player
            assert state.legal_actions() == sorted(q.legal_action_ids(state.qipan_state))
            action = rng.choice(state.legal_actions())
            move = q.action_from_id(state.qipan_state, action)
            assert state.action_to_string(player, action) == q.action_text(state.qipan_state, move)
            expected = q.next_state(state.qipan_state, move)
            state.apply_action(action)
            assert state.qipan_state == expected
        else:
            assert q.to_move(state.qipan_state) == CHANCE
            play_randomly(state, rng, 1)


def test_returns_are_qipans_at_the_end_and_zero_before() -> None:
    game = pyspiel.load_game("qipan_tellstones(turn_limit=6)")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0]
        play_randomly(state, rng, 1)
    assert state.returns() == list(game.qipan.returns(state.qipan_state))


def test_max_game_length_ends_the_game_level() -> None:
    game = pyspiel.load_game("qipan_abalone(max_game_length=7)")
    assert game.max_game_length() == 7
    state = play_randomly(game.new_initial_state(), random.Random(0), 100)
    assert state.is_terminal() and len(state.history()) == 7
    assert state.returns() == [0.0, 0.0]
    assert game.qipan.to_move(state.qipan_state) is not None  # qipan's game itself goes on


def test_chance_outcomes_are_qipans_with_their_probabilities() -> None:
    game = pyspiel.load_game("qipan_kelighine(version=2)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    listed = game.qipan.chance_outcomes(state.qipan_state)
    assert state.chance_outcomes() == [(i, p) for i, (_, p) in enumerate(listed)]
    assert [state.action_to_string(i) for i, _ in state.chance_outcomes()] == [
        game.qipan.action_text(state.qipan_state, a) for a, _ in listed]
    assert sorted({p for _, p in state.chance_outcomes()}) == [1 / 16, 2 / 16]


def test_the_sheng_ke_shuffle_is_ten_piles_of_120_orders() -> None:
    game = pyspiel.load_game("qipan_shengke(first='0')")
    assert game.max_chance_outcomes() == 120
    state = game.new_initial_state()
    before = state.qipan_state
    for pile in range(10):
        assert state.is_chance_node() and state.qipan_state == before  # nothing shuffled yet
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 120 and all(p == pytest.approx(1 / 120) for _, p in outcomes)
        assert state.action_to_string(119) == ("shuffle jia " if pile < 5 else "shuffle yi ") + (
            ("wood", "fire", "earth", "metal", "water")[pile % 5] + " 54321")
        state.apply_action(119 if pile == 0 else 0)
    # The first pile in reverse order, every other one as dealt: 甲's wood pile is reversed.
    dealt = game.qipan.play(before, "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    reversed_wood = game.qipan.play(before, "shuffle 54321." + ".".join(["12345"] * 4) + "/" + ".".join(["12345"] * 5))
    assert state.qipan_state == reversed_wood != dealt
    assert state.chance_outcomes() == [(i, p) for i, (_, p) in enumerate(game.qipan.chance_outcomes(reversed_wood))]


@pytest.mark.parametrize(("text", "message"), [
    ("qipan_tellstones(variant=bogus)", "tellstones has no variant 'bogus'; choose one of standard"),
    ("qipan_shengke(turns=7)", "option turns: 7 is odd"),
    ("qipan_chinese_checkers(players=5)", "players"),
    ("qipan_kelighine(die=5)", "option die: 5 is not allowed; choose one of 6, 4"),
    ("qipan_abalone(max_game_length=0)", "max_game_length must be a whole number in 1..1000000"),
    ("qipan_tellstones(first_player=9)", "Wrong type for parameter first_player"),
    ("qipan_tellstones(first_player='9')", "option first_player: '9' is not allowed"),
    ("qipan_abalone(colour=red)", "Unknown parameter 'colour'"),
])
def test_bad_parameters_are_refused_with_qipans_message(text: str, message: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError)) as caught:
        pyspiel.load_game(text)
    assert message in str(caught.value)
    assert "Traceback" not in str(caught.value)


def test_parameters_name_qipans_variants_and_options() -> None:
    game = pyspiel.load_game("qipan_tellstones(variant=round-table,first_player='2',turn_limit=40)")
    assert game.qipan.variant == "round-table" and game.num_players() == 4
    assert game.qipan.config["first_player"] == "2" and game.qipan.config["turn_limit"] == 40
    assert game.new_initial_state().current_player() == 2
    # The dict form needs no quotes.
    same = pyspiel.load_game("qipan_tellstones", {"variant": "round-table", "first_player": "2", "turn_limit": 40})
    assert str(same) == str(game)
    cc = pyspiel.load_game("qipan_chinese_checkers(players=6,jump=adjacent,chain=false)")
    assert cc.num_players() == 6 and cc.qipan.config["chain"] is False
    assert cc.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solitaire = pyspiel.load_game("qipan_chinese_checkers(variant=capture,players=1)")
    assert solitaire.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_a_preset_keeps_its_values_for_options_left_at_their_default() -> None:
    game = pyspiel.load_game("qipan_abalone(tournament=true)")
    assert game.qipan.config["quiet_move_limit"] == qipan.load("abalone", tournament=True).config["quiet_move_limit"]
    assert game.qipan.config["quiet_move_limit"] > 0


def test_only_the_player_to_move_has_legal_actions() -> None:
    game = pyspiel.load_game("qipan_kelighine(players=3)")
    state = play_randomly(game.new_initial_state(), random.Random(4), 5)
    mover = state.current_player()
    assert mover >= 0 and state.legal_actions(mover) == state.legal_actions() != []
    assert all(state.legal_actions(p) == [] for p in range(3) if p != mover)


def test_without_pyspiel_the_import_says_how_to_install_it() -> None:
    code = "import sys; sys.modules['pyspiel'] = None; import qipan.openspiel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "qipan.openspiel needs pyspiel, which is not installed: pip install 'qipan[openspiel]'" in done.stderr


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("qipan_abalone")
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        state.apply_action(illegal)
    assert state.history() == [] and state.qipan_state == game.qipan.initial_state()


def test_a_clone_shares_the_immutable_qipan_states_and_goes_its_own_way() -> None:
    """OpenSpiel clones a Python state by deep-copying its attributes: the qipan states (immutable)
    are shared, not copied, so a clone late in a game costs what one early does (it was about
    17 ms at 75 Sheng-Ke actions, as every earlier position was copied), and the two then part."""
    game = pyspiel.load_game("qipan_shengke")
    state = play_randomly(game.new_initial_state(), random.Random(5), 60)
    assert len(state.past) == 60  # nobody asked for an information state: every position kept
    clone = state.clone()
    assert clone.qipan_state is state.qipan_state
    assert all(a is b for a, b in zip(clone.past, state.past, strict=True)) and clone.past is not state.past
    play_randomly(clone, random.Random(6), 3)
    assert len(state.past) == 60 and len(clone.past) == 63 and clone.qipan_state != state.qipan_state
    assert state.history() == clone.history()[:60]
    assert clone.information_state_string(0) != state.information_state_string(0)
    assert state.clone().information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize(("text", "stochastic", "outcomes"), [
    ("qipan_tellstones", False, 0),
    ("qipan_tellstones(first_player=random)", True, 2),
    ("qipan_tellstones(variant=round-table,first_player=random)", True, 4),
    ("qipan_abalone", False, 0),
    ("qipan_chinese_checkers(players=3)", False, 0),
    ("qipan_kelighine(version=2)", True, 10),
    ("qipan_shengke(first='0')", True, 120),
])
def test_the_chance_mode_is_the_instances(text: str, stochastic: bool, outcomes: int) -> None:
    """A Tellstones whose first player is fixed has no chance node: its type says deterministic."""
    game = pyspiel.load_game(text)
    mode = pyspiel.GameType.ChanceMode
    assert game.get_type().chance_mode == (mode.EXPLICIT_STOCHASTIC if stochastic else mode.DETERMINISTIC)
    assert game.max_chance_outcomes() == outcomes
    state = play_randomly(game.new_initial_state(), random.Random(0), 200)
    chance = [item for item in state.full_history() if item.player == pyspiel.PlayerId.CHANCE]
    assert bool(chance) == stochastic
    assert all(item.action < outcomes for item in chance)
