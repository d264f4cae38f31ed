"""Alpha-beta's speed-ups keep its values exact: the same minimax value as a plain search.

The agent orders moves, keeps a bounded transposition table, evaluations and move lists within a
search, and tries table and killer moves before generating the rest; none of
that may change the value of a fixed-depth search.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import qipan
from qipan.ai import AlphaBetaAgent
from qipan.ai.search import _terminal_value
from qipan.core.game import Game
from qipan.games.abalone import Abalone
from qipan.games.abalone.ai import evaluate, order


def minimax(game: Game[Any, Any], state: Any, depth: int, root: int, ply: int = 0,
            memo: dict[tuple[Any, int, int], float] | None = None) -> float:
    """Plain minimax with the agent's scoring: the root player maximises, wins score WIN - ply."""
    memo = {} if memo is None else memo
    if (state, depth, ply) in memo:  # the states themselves as keys: exact
        return memo[state, depth, ply]
    mover = game.to_move(state)
    if mover is None:
        value = _terminal_value(game, state, root, ply)
    elif depth == 0:
        value = evaluate(game, state, root)
    else:
        children = [minimax(game, game.next_state(state, a), depth - 1, root, ply + 1, memo)
                    for a in game.legal_actions(state)]
        value = max(children) if mover == root else min(children)
    memo[state, depth, ply] = value
    return value


def positions(game: Game[Any, Any], seed: int, count: int) -> list[Any]:
    """The start and positions from seeded random play that favours pushes (so marbles go)."""
    rng = random.Random(seed)
    state = game.initial_state()
    found = [state]
    while len(found) < count:
        for _ in range(rng.randrange(6, 30)):
            actions = list(game.legal_actions(state))
            pushes = [a for a in actions if game.next_state(state, a).quiet == 0]
            state = game.next_state(state, rng.choice(pushes if pushes and rng.random() < 0.7 else actions))
            if game.to_move(state) is None:
                state = game.initial_state()
        found.append(state)
    return found


def position(game: Game[Any, Any], black: str, white: str, turn: str) -> Any:
    return game.state_from_json({"black": black.split(), "white": white.split(), "turn": turn})


SMALL = ("a1 a2 b1 b2 b3 c3 c4 d4 e5", "i9 h9 h8 g7 g6 f6 e6 d5 f5")
"""Nine marbles a side, touching in the middle: pushes and marbles to lose, few moves."""


class ListedAbalone(Abalone):
    """Abalone without quick legality checks: the search orders killer moves within the list."""

    quick_legality = False


@pytest.mark.parametrize("game_class", [Abalone, ListedAbalone])
@pytest.mark.parametrize("options", [{}, {"quiet_move_limit": 12}, {"repetition_draw": True}])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_fixed_depth_values_equal_plain_minimax_in_abalone(game_class: type[Abalone], options: dict[str, Any],
                                                           depth: int) -> None:
    game = game_class(None, options)
    small = position(game, *SMALL, "white")
    states = [small]
    if depth < 3:  # a full-board minimax three plies deep takes seconds
        states += [game.next_state(small, game.legal_actions(small)[0]), *positions(game, seed=depth, count=3)]
    agent = AlphaBetaAgent(evaluate, depth=depth, order=order)  # one agent: its table carries over
    for index, state in enumerate(states):
        _move, value = agent.search(game, state, random.Random(index))
        assert value == minimax(game, state, depth, game.to_move(state))


def test_the_chosen_move_has_the_best_value() -> None:
    game = qipan.load("abalone")
    state = position(game, *SMALL, "black")
    agent = AlphaBetaAgent(evaluate, depth=2, order=order)
    move, value = agent.search(game, state, random.Random(0))
    assert minimax(game, game.next_state(state, move), 1, 0, 1) == value


def test_states_whose_hashes_collide_keep_their_own_values() -> None:
    # Python hashes ints modulo 2**61 - 1: a marble on d8 (bit 140) or h5 (bit 201) hashes alike
    game = qipan.load("abalone")
    black = "a1 a2 a3 a4 b1 b2 b3 b4 c3 c4 c5 d4 d5"
    near = position(game, black, "e6 f6 g6 d8 i9 i8 h8 h7 g7", "white")
    far = position(game, black, "e6 f6 g6 h5 i9 i8 h8 h7 g7", "white")
    assert near != far and hash(near) == hash(far)
    agent = AlphaBetaAgent(evaluate, depth=2, order=order)
    for state in (near, far, near):
        _move, value = agent.search(game, state, random.Random(0))
        assert value == minimax(game, state, 2, 1)


def test_search_keeps_no_per_search_caches_afterwards() -> None:
    game = qipan.load("abalone")
    agent = AlphaBetaAgent(evaluate, depth=3, order=order)
    agent.search(game, game.initial_state(), random.Random(0))
    # An agent between moves holds nothing that grows with the searches it made (a server worker
    # keeps hundreds of idle agents).
    assert not agent.table and not agent.history and not agent._evaluations and not agent._moves


@pytest.mark.parametrize("size", [1, 40])
def test_a_full_table_keeps_the_values_exact_and_never_grows_past_its_size(size: int) -> None:
    game = qipan.load("abalone")
    state = position(game, *SMALL, "black")
    sizes: list[int] = []

    def watched(game: Game[Any, Any], state: Any, player: int) -> float:
        sizes.append(len(agent.table))
        return evaluate(game, state, player)

    agent = AlphaBetaAgent(watched, depth=3, order=order, table_size=size)
    _move, value = agent.search(game, state, random.Random(0))
    assert value == minimax(game, state, 3, 0)
    assert max(sizes) == size  # filled, never past it


def test_chinese_checkers_compact_table_key_gives_the_values_of_the_states_themselves() -> None:
    from qipan.games.chinese_checkers import ai as cc_ai

    game = qipan.load("chinese-checkers", players=2)
    for state in positions(game, 5, 3):
        if game.to_move(state) is None:
            continue
        plain = AlphaBetaAgent(cc_ai.evaluate, depth=2, order=cc_ai.order)
        compact = AlphaBetaAgent(cc_ai.evaluate, depth=2, order=cc_ai.order, key=cc_ai.table_key)
        assert plain.search(game, state, random.Random(0)) == compact.search(game, state, random.Random(0))
