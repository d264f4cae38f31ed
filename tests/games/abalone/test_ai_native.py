"""The optional compiled core of the max level (``_fast.c``) against the pure-Python rules and
searcher, move for move: legal moves, successor positions, the evaluation, and whole searches to
a fixed depth (move, value, node count, principal variations). They run, and fail when the
module is missing, on every machine with a C compiler (the README's ``pip install -e .`` builds
it there); only on a machine without one, where the module cannot exist, are they skipped. The
fallback is tested either way."""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
from types import SimpleNamespace
from typing import Any

import pytest

import qipan
from qipan.core.game import Game
from qipan.games.abalone import search
from qipan.games.abalone.game import AbaloneState
from qipan.games.abalone.moves import ALL_MOVES, NUM_ACTIONS, generate, is_legal, move_id, perform
from qipan.games.abalone.search import HARD, MAX, AbaloneSearch, Terms, ejecting_moves, ordered_moves, tactics
from tests.games.abalone.test_ai_search import played, sides


def _compiler() -> str | None:
    """The C compiler the build would use (``CC``, else Python's own), if it is on this machine."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0])


native = pytest.mark.skipif(
    not search.NATIVE and _compiler() is None and not os.environ.get("QIPAN_REQUIRE_NATIVE"),
    reason="no C compiler on this machine, so the optional compiled core cannot be built",
)


@native
def test_moves_and_successors_are_the_rules() -> None:
    from qipan.games.abalone import _fast

    game, states = played(150, 1)
    for state in states:
        own, opp = sides(state)
        for mine, theirs in ((own, opp), (opp, own)):
            ids = _fast.ordered_moves(mine, theirs)
            assert ids == [move_id(m) for m in ordered_moves(mine, theirs)]
            assert sorted(ids) == sorted(move_id(m) for m in generate(mine, theirs))
            assert _fast.ejecting_moves(mine, theirs) == [move_id(m) for m in ejecting_moves(mine, theirs)]
            for action in ids:
                assert _fast.perform(mine, theirs, action) == perform(mine, theirs, ALL_MOVES[action])  # type: ignore[arg-type]
            for action in range(NUM_ACTIONS):
                move = ALL_MOVES[action]
                if move is not None:
                    assert _fast.is_legal(mine, theirs, action) == is_legal(mine, theirs, move)
        for action in _fast.ordered_moves(own, opp):  # and the game's own successor states
            after = game.next_state(state, ALL_MOVES[action])
            new_own, new_opp = _fast.perform(own, opp, action)
            assert (after.black, after.white) == ((new_own, new_opp) if state.turn == 0 else (new_opp, new_own))


@native
def test_tactics_and_evaluation_are_equal_to_the_last_bit() -> None:
    from qipan.games.abalone import _fast

    _, states = played(200, 2)
    for state in states:
        own, opp = sides(state)
        for mine, theirs in ((own, opp), (opp, own)):
            assert _fast.tactics(mine, theirs) == tactics(mine, theirs)
            for terms in (MAX, HARD, Terms(wedge=7.5, double_threat=123.25)):
                assert _fast.evaluate(mine, theirs, terms) == search.evaluate(mine, theirs, terms)


def _results(agent: AbaloneSearch, game: Game[Any, Any], state: AbaloneState, seed: int) -> Any:
    move, value = agent.search(game, state, random.Random(seed))
    searched = (move, value, agent.stats.nodes, agent.stats.depth)
    lines = agent.multipv(game, state, lines=3, include=game.legal_actions(state)[-1:], rng=random.Random(seed))
    return searched, [(line.move, line.value, line.pv) for line in lines], agent.stats.nodes


SETTINGS: list[dict[str, Any]] = [
    {},
    {"terms": HARD, "quiescence": False, "null_move": False, "reductions": False},
    {"table_size": 40},  # the tables' bound matters for the tree
]


@native
@pytest.mark.parametrize("settings", SETTINGS, ids=["max", "hard-terms", "small-tables"])
@pytest.mark.parametrize("options", [{}, {"quiet_move_limit": 12}], ids=["no-limit", "quiet-limit"])
def test_fixed_depth_searches_are_the_same_tree(settings: dict[str, Any], options: dict[str, Any]) -> None:
    game, states = played(10, 3, options)
    for index, state in enumerate(states):
        for depth in (1, 2, 3, 4):
            found = [
                _results(AbaloneSearch(depth=depth, time_limit=None, native=native, **settings), game, state, index)
                for native in (False, True)
            ]
            assert found[0] == found[1], (index, depth)


@native
def test_a_deeper_search_is_the_same_tree() -> None:
    game, states = played(2, 4)
    for index, state in enumerate(states):
        found = [_results(AbaloneSearch(depth=5, time_limit=None, native=native), game, state, index)
                 for native in (False, True)]
        assert found[0] == found[1]


@native
def test_the_native_searcher_keeps_its_time_and_plays_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    from qipan.games.abalone import _fast

    made: list[Any] = []

    def searcher(*args: Any) -> Any:
        made.append(_fast.Searcher(*args))
        return made[-1]

    monkeypatch.setattr(search, "_fast", SimpleNamespace(Searcher=searcher))
    game, states = played(3, 5)
    for index, state in enumerate(states):
        agent = AbaloneSearch(time_limit=0.05)
        move = agent.choose(game, game.view(state, game.to_move(state)), random.Random(index))
        assert move in game.legal_actions(state)
        assert len(made) == index + 1 and agent.stats.nodes == made[-1].nodes > 0


@native
def test_the_compiled_functions_refuse_bad_input() -> None:
    from qipan.games.abalone import _fast

    own, opp = sides(qipan.load("abalone").initial_state())
    with pytest.raises(ValueError, match="overlap"):
        _fast.ordered_moves(own, own)
    with pytest.raises(ValueError, match="cells of the board"):
        _fast.ordered_moves(own | 1, opp)  # bit 0 is padding
    with pytest.raises(ValueError, match="cells of the board"):
        _fast.tactics(-own, opp)
    with pytest.raises(ValueError, match="cells of the board"):
        _fast.tactics(own | 1 << 400, opp)
    with pytest.raises(TypeError):
        _fast.tactics("a1", opp)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="move id"):
        _fast.perform(own, opp, NUM_ACTIONS)
    blocked = move_id(next(m for m in ALL_MOVES if m is not None and not is_legal(own, opp, m)))
    with pytest.raises(ValueError, match="not a legal move"):
        _fast.perform(own, opp, blocked)
    searcher = _fast.Searcher(MAX, True, True, True, 1000)
    searcher.reset(0, 6)
    with pytest.raises(ValueError, match="not a legal move"):
        searcher.child(own, opp, 0, blocked, 2, -1.0, 1.0, 0, 1.0)
    assert searcher.probe(own, opp, 0) is None and searcher.nodes == 0


def test_without_the_compiled_core_the_search_is_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    game = qipan.load("abalone")
    state = game.initial_state()
    own, opp = sides(state)
    state = game.next_state(state, ordered_moves(own, opp)[0])
    expected = AbaloneSearch(depth=3, time_limit=None, native=False)
    expected_move, expected_value = expected.search(game, state)
    monkeypatch.setattr(search, "_fast", None)
    agent = AbaloneSearch(depth=3, time_limit=None)
    assert agent.search(game, state) == (expected_move, expected_value)
    assert agent._core is None and agent.stats.nodes == expected.stats.nodes


def test_qipan_pure_python_keeps_the_compiled_core_out() -> None:
    code = (
        "import random, qipan\n"
        "from qipan.games.abalone import search\n"
        "from qipan.ai import make_agent\n"
        "assert not search.NATIVE and search._fast is None\n"
        "game = qipan.load('abalone')\n"
        "state = game.initial_state()\n"
        "agent = make_agent(game, 'max', 0.05)\n"
        "move = agent.choose(game, game.view(state, 0), random.Random(0))\n"
        "assert move in game.legal_actions(state) and agent._core is None\n"
        "print('pure', game.action_text(state, move))\n"
    )
    env = {**os.environ, "QIPAN_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("pure ")



@native
def test_an_agent_pickles_after_a_search() -> None:
    # worker processes and Ray receive agents by pickle: the compiled searcher lives for one search
    game, states = played(1, 6)
    agent = AbaloneSearch(depth=2, time_limit=None)
    agent.search(game, states[0])
    agent.multipv(game, states[0], lines=2)
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.search(game, states[0]) == agent.search(game, states[0])
