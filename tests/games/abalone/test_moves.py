"""Abalone move values and the single-move legality check the search relies on."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from qipan.games.abalone import Abalone, AbaloneMove, AbaloneState
from qipan.games.abalone.moves import ALL_MOVES, move_from_id, move_id, parse_move

EVERY_MOVE = [m for m in ALL_MOVES if m is not None]


def test_equal_moves_are_one_object() -> None:
    move = parse_move("e6e8f6")
    assert move is AbaloneMove(move.first, move.direction, move.size, move.axis)
    assert move is move_from_id(move_id(move))
    assert pickle.loads(pickle.dumps(move)) is move
    assert copy.deepcopy(move) is move
    assert parse_move("a1b2") == parse_move("A1-B2") and parse_move("a1b2") != parse_move("a1a2")
    assert len(set(EVERY_MOVE)) == len(EVERY_MOVE)
    assert {parse_move("a1b2"): 1}[AbaloneMove(parse_move("a1b2").first, 1)] == 1


def test_moves_are_immutable_and_describe_themselves() -> None:
    move = parse_move("e6e8f6")
    with pytest.raises(FrozenInstanceError):
        move.first = 0  # type: ignore[misc]
    assert (move.size, move.inline, str(move)) == (3, False, "e6e8f6")
    assert repr(move) == f"AbaloneMove(first={move.first}, direction={move.direction}, size=3, axis={move.axis})"
    assert move.line == sum(1 << cell for cell in move.marbles())
    assert parse_move("a1b2").inline and parse_move("a1b2").line == 0


def _positions(seed: int, variant: str) -> list:  # type: ignore[type-arg]
    game = Abalone(variant=variant)
    rng = random.Random(seed)
    state, found = game.initial_state(), []
    while game.to_move(state) is not None and len(found) < 150:
        found.append(state)
        actions = list(game.legal_actions(state))
        pushes = [a for a in actions if game.next_state(state, a).quiet == 0]
        state = game.next_state(state, rng.choice(pushes if pushes and rng.random() < 0.5 else actions))
    found.append(state)  # the final position too (over: nothing is legal)
    return found


@pytest.mark.parametrize("variant", ["standard", "belgian-daisy", "german-daisy"])
def test_is_legal_agrees_with_the_move_list(variant: str) -> None:
    game = Abalone(variant=variant)
    odd = [AbaloneMove(85, 3), AbaloneMove(85, 0, 2, 0), AbaloneMove(-1, 0, 2, 0), AbaloneMove(221, 0, 3, 0)]
    assert game.quick_legality
    for state in _positions(1, variant)[::3]:
        listed = set(game.legal_actions(state))
        assert {m for m in EVERY_MOVE + odd if game.is_legal(state, m)} == listed
    assert not game.is_legal(game.initial_state(), "a1b2")  # type: ignore[arg-type]


def test_repetition_keys_tell_apart_marbles_61_bits_apart() -> None:
    # Python hashes ints modulo 2**61 - 1: whole bitboards with a marble on d8 (bit 140) or on h5
    # (bit 201) hash alike, so the threefold rule must not hash them whole
    game = Abalone(options={"repetition_draw": True})
    black = "a1 a2 a3 a4 b1 b2 b3 b4 c3 c4 c5 d4 d5"
    near_d8, on_h5 = "e6 f6 g6 d8 i9 i8 h8 h7 g7", "e6 f6 g6 h5 i9 i8 h8 h7 g7"

    def state(white: str, history: list[int]) -> AbaloneState:
        return game.state_from_json({"black": black.split(), "white": white.split(), "turn": "white",
                                     "quiet": len(history), "history": history})

    near, far = state(near_d8, []), state(on_h5, [])
    assert hash((near.black, near.white, near.turn)) == hash((far.black, far.white, far.turn))
    assert near.key() != far.key() and near.key() == near._replace(quiet=5).key()
    assert game.to_move(state(on_h5, [near.key(), near.key()])) == 1
    assert game.result_text(state(on_h5, [far.key(), far.key()])) == "draw by threefold repetition"
