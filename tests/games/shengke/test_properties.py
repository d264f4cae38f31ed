"""Sheng-Ke properties over random games: card conservation, immutability, JSON and notation
round trips, exact replay, and views that leak nothing."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qipan.core import CHANCE, GameError, Match, Record
from qipan.games.shengke import ShengKe, Shuffle, State
from qipan.games.shengke.elements import ELEMENTS, WOOD
from qipan.games.shengke.views import state_problem

from .helpers import build, new_game, random_game

GAME = new_game(first="random")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def where_cards_are(state: State) -> list[int]:
    """How many of each player's cards are in decks, hands, field and discards together."""
    totals = [0, 0]
    for p in (0, 1):
        totals[p] = (sum(map(len, state.decks[p])) + len(state.hands[p]) + len(state.discards[p])
                     + sum(1 for k in state.field if k != -1 and k // 25 == p))
    return totals


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_random_games_keep_every_invariant(seed: int) -> None:
    match = random_game(GAME, seed)
    rng = random.Random(seed)
    for state in match.states:
        assert where_cards_are(state) == [25, 25]
        assert state_problem(GAME, state) is None
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
        hash(state)
        mover = GAME.to_move(state)
        if mover is None:
            assert GAME.legal_actions(state) == []
            continue
        actions = list(GAME.legal_actions(state))
        if mover == CHANCE:
            action = GAME.sample_chance(state, rng)
            assert GAME.parse_action(state, GAME.action_text(state, action)) == action
        else:
            assert actions, "a player to move always has a move"
            assert len(actions) == len(set(actions))
            for action in actions:
                assert GAME.parse_action(state, GAME.action_text(state, action)) == action
                assert GAME.action_from_id(state, GAME.action_id(state, action)) == action
            action = rng.choice(actions)
        before = copy.deepcopy(state)
        GAME.apply(state, action)
        GAME.describe_action(state, action)
        assert state == before
    assert match.result() is not None and len(match.result()["returns"]) == 2  # type: ignore[index]


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_records_replay_exactly(seed: int) -> None:
    match = random_game(GAME, seed)
    record = Record.from_json(json.loads(match.record().dumps()))
    assert record.replay() == match.states
    resumed = Match.from_record(record)
    assert resumed.states == match.states and resumed.result() == match.result()


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=400))
def test_sampled_states_give_the_same_view(seed: int, step: int) -> None:
    match = random_game(GAME, seed)
    state = match.states[step % len(match.states)]
    rng = random.Random(seed)
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert json.loads(json.dumps(view)) == view  # what a client receives is the same view
        for _ in range(3):
            sampled = GAME.sample_state(view, rng)
            assert GAME.view(sampled, viewer) == view
            assert state_problem(GAME, sampled) is None
            assert GAME.legal_actions(sampled) == GAME.legal_actions(state) or GAME.to_move(state) != viewer


def hidden_twin(game: ShengKe, state: State, viewer: int, rng: random.Random) -> State:
    """``state`` with the opponent's unknown hand cards swapped with unknown deck cards of the same
    element, and every deck's unknown part reshuffled."""
    other = 1 - viewer
    hands = [list(state.hands[0]), list(state.hands[1])]
    decks = [[list(pile) for pile in state.decks[p]] for p in (0, 1)]
    for p in (0, 1):
        for e in range(5):
            pile = decks[p][e]
            cut = len(pile) - state.known[p][e]
            unknown = pile[:cut]
            if p == other:
                hidden = [c for c in hands[p] if game.decks[p].cards[c].element == e and c not in state.shown[p]]
                pool = hidden + unknown
                rng.shuffle(pool)
                for c in hidden:
                    hands[p].remove(c)
                hands[p].extend(pool[:len(hidden)])
                unknown = pool[len(hidden):]
            rng.shuffle(unknown)
            decks[p][e] = unknown + pile[cut:]
    return state._replace(
        hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
        decks=(tuple(map(tuple, decks[0])), tuple(map(tuple, decks[1]))),
    )


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=400))
def test_states_differing_only_in_hidden_cards_look_the_same(seed: int, step: int) -> None:
    match = random_game(GAME, seed)
    states = match.states[2:]  # after the coin toss and the shuffle, which reorders every deck anyway
    state = states[step % len(states)]
    rng = random.Random(seed)
    for viewer in (0, 1):
        twin = hidden_twin(GAME, state, viewer, rng)
        assert state_problem(GAME, twin) is None
        assert GAME.view(twin, viewer) == GAME.view(state, viewer)
        assert GAME.view(twin, None) == GAME.view(state, None)
        if twin.hands[1 - viewer] != state.hands[1 - viewer]:
            assert GAME.view(twin, 1 - viewer) != GAME.view(state, 1 - viewer)


def test_the_opponents_hand_is_hidden_but_its_elements_are_public() -> None:
    game = new_game()
    state = build(game, hands=(["wood1", "water5"], ["fire2"]))
    view = game.view(state, 1)
    assert view["players"][0]["hand"] is None and view["players"][0]["hand_size"] == 2
    assert view["players"][0]["hand_counts"] == {"wood": 1, "fire": 0, "earth": 0, "metal": 0, "water": 1}
    assert [c["id"] for c in view["players"][1]["hand"]] == ["fire2"]
    assert "order" not in json.dumps(view) and all(
        set(d) == {"size", "bottom"} for p in view["players"] for d in p["decks"].values())
    # A different wood card in 甲's hand: 乙 cannot tell.
    twin = build(game, hands=(["wood4", "water5"], ["fire2"]))
    assert game.view(twin, 1) == view and game.view(twin, 0) != game.view(state, 0)


def test_sampling_draws_hidden_cards_from_what_is_unaccounted_for() -> None:
    game = new_game()
    state = build(game, field={"c3": (0, "wood2")}, hands=(["wood1"], []), discards=(["wood3"], []),
                  bottoms={(0, WOOD): ["wood5"]})
    view = game.view(state, 1)
    seen = set()
    for seed in range(40):
        sampled = game.sample_state(view, random.Random(seed))
        assert game.view(sampled, 1) == view
        (card,) = sampled.hands[0]
        seen.add(card)
        assert sampled.decks[0][WOOD][-1] == 4  # the public bottom card stays where it is
    assert seen == {0, 3}  # wood1 or wood4: the only wood cards 乙 cannot place


def test_sampling_rejects_an_inconsistent_view() -> None:
    game = new_game()
    view = game.view(build(game, hands=(["wood1"], [])), 1)
    view["players"][0]["hand_counts"]["wood"] = 6
    try:
        game.sample_state(view, random.Random(1))
    except GameError as exc:
        assert "wood cards do not add up to 5" in str(exc)
    else:
        raise AssertionError("an impossible view was accepted")


def test_bad_state_json_is_rejected_with_reasons() -> None:
    game = new_game()
    data = game.state_to_json(build(game, hands=(["wood1"], [])))
    for mutate, reason in [
        (lambda d: d.update(phase="dance"), "phase must be one of coin, shuffle, roll, pick, place, over, not 'dance'"),
        (lambda d: d["players"][0]["hand"].append("wood2"), "exactly one place"),
        (lambda d: d["players"][0]["decks"]["fire"].append("wood1"), "another element"),
        (lambda d: d["field"].update(z9={"owner": 0, "id": "wood1"}), "not a cell"),
        (lambda d: d["players"][1]["discard"].append("unicorn"), "no card 'unicorn'"),
        (lambda d: d.pop("turn"), "missing field 'turn'"),
    ]:
        broken = copy.deepcopy(data)
        mutate(broken)
        try:
            game.state_from_json(broken)
        except GameError as exc:
            assert reason in str(exc), (reason, str(exc))
        else:
            raise AssertionError(f"accepted bad state ({reason})")
    assert ELEMENTS[0] in data["players"][0]["decks"]


@settings(max_examples=12, deadline=None)
@given(SEEDS)
def test_move_texts_and_logs_reveal_nothing_hidden(seed: int) -> None:
    """Public move texts hide the shuffle from everyone, and no log line depends on a hidden card:
    the same action described on a twin with other hidden cards and deck orders reads the same."""
    match = random_game(GAME, seed)
    rng = random.Random(seed)
    for state, move in zip(match.states, match.moves, strict=False):
        action = GAME.parse_action(state, move.text)
        for viewer in (0, 1, None):
            text = GAME.public_action_text(state, action, viewer)
            assert text == ("chance" if isinstance(action, Shuffle) else GAME.action_text(state, action))
        actor = state.current if state.first != -1 else 0
        twin = hidden_twin(GAME, state, actor, rng)
        assert GAME.describe_action(twin, action) == GAME.describe_action(state, action)
