"""Corrupted state JSON, for every game: refused with a short GameError, or a real state.

Real states come from random playouts. Hypothesis corrupts their JSON — keys dropped or added,
values of the wrong type, out of range, huge, NaN or infinite, lists shuffled, duplicated or cut,
fields swapped, values taken from another state of the same game — and loads it. The load either
fails with a short GameError that echoes little of the input and nothing of Python's internals,
or gives a state on which every method works: whose move, the legal moves, every seat's view and
the spectator's, the payoff at the end, the JSON round trip, and every legal move.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipan
from qipan.core import CHANCE, Game, GameError
from qipan.core.jsonsafe import loads
from qipan.rl.encoders import Encoder, make_encoder

Path = tuple[str | int, ...]

CONFIGS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "abalone": ("abalone", "standard", {}),
    "abalone-daisy-rules": ("abalone", "belgian-daisy", {"repetition_draw": True, "quiet_move_limit": 40}),
    "chinese-checkers": ("chinese-checkers", "standard", {"max_moves": 120}),
    "chinese-checkers-3p-15": ("chinese-checkers", "standard",
                               {"players": 3, "pieces": 15, "play_on": True, "max_moves": 150}),
    "chinese-checkers-6p": ("chinese-checkers", "standard", {"players": 6, "blocked_target": False,
                                                              "max_moves": 150}),
    "chinese-checkers-capture": ("chinese-checkers", "capture", {"players": 2}),
    "chinese-checkers-capture-solo": ("chinese-checkers", "capture", {"players": 1}),
    "kelighine": ("kelighine", "standard", {}),
    "kelighine-4p-d4": ("kelighine", "standard", {"players": 4, "die": 4}),
    "kelighine-v2": ("kelighine", "standard", {"version": 2}),
    "shengke": ("shengke", "standard", {"turns": 6}),
    "tellstones": ("tellstones", "standard", {"first_player": "random", "turn_limit": 30}),
    "tellstones-round-table": ("tellstones", "round-table", {"turn_limit": 40}),
    "tellstones-two-lines": ("tellstones", "two-lines", {}),
}

EXAMPLES = 300
"""Corrupted states tried per configuration (14 configurations)."""

PLAYOUTS, PLIES = 3, 3000

DEEP: Any = 0
for _ in range(20):
    DEEP = [DEEP]

HOSTILE: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 2, 3, 7, 99, 10**6, 2**53, 2**63, 10**30, -(10**30), 10**400,
    0.5, 1.0, -0.0, math.nan, math.inf, -math.inf, 1e308,
    "", "x", "0", "1", "J", "A1", "a1", "e5", "reserve", "over", "-crown", "scale", "chance",
    "x" * 500, [], [None], [[1]], [0] * 200, {}, {"a": 1}, {"owner": 5, "id": "x"}, DEEP,
)

INTERNALS = ("Traceback", "NoneType", "object is not", "unhashable", "has no attribute", "KeyError",
             "TypeError", "IndexError", "ValueError", "index out of range", "invalid literal",
             "Exceeds the limit", "not supported between")


def _game(key: str) -> Game[Any, Any]:
    name, variant, options = CONFIGS[key]
    return qipan.load(name, variant, **options)


def _greedy(game: Game[Any, Any], state: Any, actions: list[Any], rng: random.Random) -> Any:
    """Abalone: push a marble out when possible, so that playouts reach the end."""
    if game.name == "abalone":
        pushes = [a for a in actions if game.next_state(state, a).quiet == 0]
        if pushes:
            return rng.choice(pushes)
    return rng.choice(actions)


@cache
def pool(key: str) -> tuple[Game[Any, Any], list[Any], list[Any]]:
    """The game, the states of a few random playouts, and their JSON."""
    game = _game(key)
    states = []
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        state = game.initial_state()
        states.append(state)
        for _ in range(PLIES):
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = _greedy(game, state, list(game.legal_actions(state)), rng)
            state = game.next_state(state, action)
            states.append(state)
    return game, states, [game.state_to_json(s) for s in states]


# -- corrupting JSON -----------------------------------------------------------------------------------


def paths(node: Any, here: Path = ()) -> Iterator[Path]:
    yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, (*here, index))


def get(node: Any, path: Path) -> Any:
    for step in path:
        node = node[step]
    return node


def strings(node: Any) -> set[str]:
    return {get(node, p) for p in paths(node) if isinstance(get(node, p), str)} | {
        k for p in paths(node) if isinstance(get(node, p), dict) for k in get(node, p)}


@st.composite
def corrupted(draw: st.DrawFn, key: str) -> Any:
    """The JSON of a real state of ``key`` with one to three corruptions."""
    _, _, datas = pool(key)
    data = copy.deepcopy(draw(st.sampled_from(datas)))
    for _ in range(draw(st.integers(1, 3))):
        data = corrupt(draw, data, datas)
    return data


def shape(path: Path) -> Path:
    """A path with list indices blanked: every field of the state, once however long its lists."""
    return tuple(-1 if isinstance(step, int) else step for step in path)


def corrupt(draw: st.DrawFn, data: Any, others: list[Any]) -> Any:
    # Choose a field first, then one place where it occurs: a list of 28 cells is one field.
    every = list(paths(data))
    field = draw(st.sampled_from(sorted({shape(p) for p in every}, key=repr)))
    path = draw(st.sampled_from([p for p in every if shape(p) == field]))
    node = get(data, path)
    ops = ["hostile", "other-state", "other-field"]
    if isinstance(node, int) and not isinstance(node, bool):
        ops.append("nudge")
    if isinstance(node, str):
        ops.append("other-string")
    if isinstance(node, list):
        ops += ["drop", "duplicate", "shuffle", "truncate", "append", "reverse"]
    if isinstance(node, dict):
        ops += ["drop-key", "add-key", "swap-keys"]
    op = draw(st.sampled_from(ops))
    new: Any = node
    if op == "hostile":
        new = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
    elif op == "other-state":
        other = draw(st.sampled_from(others))
        try:
            new = copy.deepcopy(get(other, path))
        except (KeyError, IndexError, TypeError):
            new = None
    elif op == "other-field":
        new = copy.deepcopy(get(data, draw(st.sampled_from(list(paths(data))))))
    elif op == "nudge":
        new = node + draw(st.sampled_from((-100, -2, -1, 1, 2, 3, 100)))
    elif op == "other-string":
        new = draw(st.sampled_from(sorted(strings(draw(st.sampled_from(others))) | {"x"})))
    elif isinstance(node, list):
        new = list(node)
        if op == "drop" and new:
            del new[draw(st.integers(0, len(new) - 1))]
        elif op == "duplicate" and new:
            new.insert(draw(st.integers(0, len(new))), copy.deepcopy(draw(st.sampled_from(new))))
        elif op == "shuffle":
            new = draw(st.permutations(new))
        elif op == "truncate":
            new = new[: draw(st.integers(0, len(new)))]
        elif op == "append":
            new.append(copy.deepcopy(draw(st.sampled_from(HOSTILE))))
        elif op == "reverse":
            new.reverse()
    elif isinstance(node, dict):
        new = dict(node)
        keys = sorted(new)
        if op == "drop-key" and keys:
            del new[draw(st.sampled_from(keys))]
        elif op == "add-key":
            new[draw(st.sampled_from(("zzz", "", "x" * 500)))] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
        elif op == "swap-keys" and len(keys) > 1:
            a, b = draw(st.sampled_from(keys)), draw(st.sampled_from(keys))
            new[a], new[b] = new[b], new[a]
    if not path:
        return new
    get(data, path[:-1])[path[-1]] = new
    return data


# -- what an accepted state must survive -------------------------------------------------------------


def check_refusal(exc: GameError) -> None:
    text = str(exc)
    assert len(text) <= 300, text[:400]
    assert "x" * 81 not in text, text[:400]
    for internal in INTERNALS:
        assert internal not in text, text


def exercise(game: Game[Any, Any], state: Any) -> None:
    """Everything a front end or an engine session may do with a loaded state."""
    rng = random.Random(0)
    mover = game.to_move(state)
    actions = list(game.legal_actions(state))
    for player in [None, *range(game.num_players)]:
        view = game.view(state, player)
        json.dumps(view, allow_nan=False)
        check_hidden(game, state, view)
        if player is not None:
            encoder = encoder_of(game)
            observation = encoder.encode(view)
            assert observation.shape == encoder.shape and ((observation >= 0) & (observation <= 1)).all()
    data = game.state_to_json(state)
    text = json.dumps(data, allow_nan=False)
    again = game.state_from_json(loads(text))
    assert again == state
    assert game.state_to_json(again) == data
    if mover is None:
        assert actions == []
        scores = game.returns(state)
        assert len(scores) == game.num_players and all(math.isfinite(s) for s in scores)
        game.result_text(state)
        return
    if mover == CHANCE:
        game.chance_outcomes(state)
        if not actions:
            actions = [game.sample_chance(state, rng)]
    else:
        assert 0 <= mover < game.num_players
        assert actions, "a player to move always has a move"
        assert all(0 <= i < game.num_distinct_actions for i in game.legal_action_ids(state))
        if not game.perfect_information:
            game.sample_state(game.view(state, mover), rng)
    for action in actions:
        game.action_text(state, action)
        game.public_action_text(state, action, None)
        game.describe_action(state, action)
        after = game.apply(state, action)
        game.to_move(after)
        json.dumps(game.view(after, None), allow_nan=False)


@cache
def encoder_of(game: Game[Any, Any]) -> Encoder:
    return make_encoder(game)


def check_hidden(game: Game[Any, Any], state: Any, view: dict[str, Any]) -> None:
    """A view reveals only real stones (Tellstones: a peeked stone is face down in the state)."""
    if game.name == "tellstones" and view.get("revealed"):
        slot, stone = view["revealed"]["slot"], view["revealed"]["stone"]
        line, index = (0, int(slot) - 1) if slot.isdigit() else ("ab".index(slot[0]), int(slot[1:]) - 1)
        assert game.state_to_json(state)["lines"][line][index] == "-" + stone


# -- the tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_every_real_state_round_trips_exactly(key: str) -> None:
    game, states, datas = pool(key)
    assert len(states) > PLAYOUTS
    for state, data in zip(states, datas, strict=True):
        again = game.state_from_json(loads(json.dumps(data, allow_nan=False)))
        assert again == state
        assert game.state_to_json(again) == data


@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_every_field_takes_every_hostile_value(key: str) -> None:
    """Each field of three states (the start, the middle and the end of a playout), one at a time,
    set to each hostile value: a sweep that finds what random corruption may miss."""
    game, _, datas = pool(key)
    for data in (datas[0], datas[len(datas) // 2], datas[-1]):
        every = list(paths(data))
        for field in sorted({shape(p) for p in every}, key=repr):
            path = next(p for p in every if shape(p) == field)
            for value in HOSTILE:
                broken = copy.deepcopy(data)
                if path:
                    get(broken, path[:-1])[path[-1]] = copy.deepcopy(value)
                else:
                    broken = copy.deepcopy(value)
                try:
                    state = game.state_from_json(broken)
                except GameError as exc:
                    check_refusal(exc)
                    continue
                exercise(game, state)


@pytest.mark.parametrize("key", sorted(CONFIGS))
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_corrupted_state_json_is_refused_or_playable(key: str, data: st.DataObject) -> None:
    game = pool(key)[0]
    broken = data.draw(corrupted(key))
    try:
        state = game.state_from_json(broken)
    except GameError as exc:
        check_refusal(exc)
        return
    exercise(game, state)
