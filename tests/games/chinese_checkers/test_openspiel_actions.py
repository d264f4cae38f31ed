"""benchmarks/vs_openspiel.py translates qipan moves to OpenSpiel's per-hop actions and back;
checked here against qipan's own move generator, without OpenSpiel installed."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

import qipan
from qipan.games.chinese_checkers import ChineseCheckers, ChineseCheckersState
from qipan.games.chinese_checkers.board import NAMES, NEIGHBOURS, NUM_HOLES, hole_index
from qipan.games.chinese_checkers.moves import PASS, Move

SCRIPT = Path(__file__).parents[3] / "benchmarks" / "vs_openspiel.py"


@pytest.fixture(scope="module")
def bridge() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vs_openspiel", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_openspiel"] = module
    spec.loader.exec_module(module)
    return module


def test_openspiel_directions_are_qipans_neighbours(bridge: ModuleType) -> None:
    for hole in range(NUM_HOLES):
        theirs = {bridge.neighbour(hole, d) for d in range(6)} - {None}
        assert theirs == set(NEIGHBOURS[hole])


def test_start_moves_are_openspiels_first_actions(bridge: ModuleType) -> None:
    """OpenSpiel 2.0.2's legal actions at the two-player start, as it lists them."""
    game = qipan.load("chinese-checkers", **bridge.OPENSPIEL_OPTIONS)
    assert isinstance(game, ChineseCheckers)
    state = game.initial_state()
    actions = sorted(a for m in game.legal_actions(state) for a in bridge.to_actions(game, state, m))
    assert actions == [22, 23, 28, 29, 34, 35, 40, 41, 46, 47, 52, 53, 58, 59]
    assert bridge.to_actions(game, state, game.parse_action(state, "c1-e5")) == [22]  # OpenSpiel's 3=>14
    assert bridge.to_actions(game, state, game.parse_action(state, "d1-e5")) == [40]  # and 6->14
    assert bridge.to_move(state.board, [22]) == Move(hole_index("c1"), hole_index("e5"))


def played(game: ChineseCheckers, seed: int, plies: int) -> list[ChineseCheckersState]:
    rng = random.Random(seed)
    state, seen = game.initial_state(), []
    for _ in range(plies):
        if state.turn is None:
            break
        seen.append(state)
        state = game.next_state(state, rng.choice(game.legal_actions(state)))
    return seen


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_legal_move_survives_the_round_trip(bridge: ModuleType, players: int) -> None:
    game = qipan.load("chinese-checkers", players=players, **bridge.OPENSPIEL_OPTIONS)
    assert isinstance(game, ChineseCheckers)
    chains = ended = 0
    for state in played(game, players, 120):
        for move in game.legal_actions(state):
            actions = bridge.to_actions(game, state, move)
            assert bridge.to_move(state.board, actions) == move
            assert actions[0] // 6 == move.start
            hops = [a for a in actions if a != bridge.PASS_ACTION]
            assert bridge.PASS_ACTION not in hops or actions[-1] == bridge.PASS_ACTION
            chains += len(hops) > 1
            ended += actions[-1] == bridge.PASS_ACTION
            if move.end not in NEIGHBOURS[move.start]:  # hops: every landing two holes on, over a piece
                hole = move.start
                for action in hops:
                    source, d = divmod(action, 6)
                    over, land = bridge.neighbour(source, d), bridge.neighbour(source, d, 2)
                    assert source == hole and over is not None and land is not None
                    assert state.board[over] and (not state.board[land] or land == move.start)
                    hole = land
                assert hole == move.end
    assert chains and ended  # the positions had chains, some of which could have gone on


def test_a_pass_is_a_pass(bridge: ModuleType) -> None:
    game = qipan.load("chinese-checkers", **bridge.OPENSPIEL_OPTIONS)
    assert isinstance(game, ChineseCheckers)
    state = game.initial_state()
    assert bridge.to_actions(game, state, PASS) == [bridge.PASS_ACTION]
    assert bridge.to_move(state.board, [bridge.PASS_ACTION]) == PASS


class _FakeSpiel:
    """Records how the benchmark builds OpenSpiel's C++ bots (open_spiel 2.0.2's signatures)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def RandomRolloutEvaluator(self, n_rollouts: int, seed: int) -> str:
        self.calls.append(("evaluator", (n_rollouts, seed)))
        return "evaluator"

    def MCTSBot(self, *args: object) -> str:
        self.calls.append(("mcts", args))
        return "bot"

    def make_uniform_random_bot(self, player: int, seed: int) -> str:
        self.calls.append(("random", (player, seed)))
        return "random bot"


def test_the_cpp_mcts_bot_gets_the_simulations_and_seed(bridge: ModuleType) -> None:
    spiel = _FakeSpiel()
    assert bridge.make_bot(spiel, "game", 1, "mcts", 1000, 71) == "bot"
    # game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose
    assert spiel.calls == [("evaluator", (1, 71)), ("mcts", ("game", "evaluator", 2.0, 1000, 1000, True, 71, False))]
    assert bridge.make_bot(spiel, "game", 1, "random", 1000, 72) == "random bot"
    assert spiel.calls[-1] == ("random", (1, 72))
    assert bridge.make_bot(spiel, "game", 2, "mcts", 10000, 73, "cpp", False) == "bot"  # --no-solve
    assert spiel.calls[-1] == ("mcts", ("game", "evaluator", 2.0, 10000, 1000, False, 73, False))


def test_a_draw_at_the_move_limit_says_whose_target_is_blocked(bridge: ModuleType) -> None:
    game = qipan.load("chinese-checkers", players=2, **{**bridge.OPENSPIEL_OPTIONS, "max_moves": 6})
    assert isinstance(game, ChineseCheckers)
    state, rng = game.initial_state(), random.Random(3)
    while state.turn is not None:
        state = game.next_state(state, rng.choice(game.legal_actions(state)))
    assert not state.finished  # drawn at the limit, and qipan's game is over too
    report = bridge.draw_report(game, state, ["a", "b"])
    assert report is not None
    first, second = report.split("; ")
    # each target is the other's home: after three moves each, seven or more foreign pieces still sit in it
    for part, seat in ((first, "seat 1 (a) 0/10 own"), (second, "seat 2 (b) 0/10 own")):
        assert part.startswith(seat + ", foreign on ")
        assert len(part.split("foreign on ")[1].split()) >= 7


def test_a_won_game_has_no_draw_report(bridge: ModuleType) -> None:
    game = qipan.load("chinese-checkers", players=2, **bridge.OPENSPIEL_OPTIONS)
    assert isinstance(game, ChineseCheckers)
    target = game.target_holes(0)
    board = [0] * NUM_HOLES
    for h in target:
        board[h] = 1
    for h in game.target_holes(1):
        board[h] = 2
    won = ChineseCheckersState(tuple(board), None, (0,))
    assert bridge.draw_report(game, won, ["a", "b"]) is None
    assert bridge.targets(game, won, ["a", "b"]).startswith("seat 1 (a) 10/10 own; ")
    # one piece short: the hole it left empty, and where the piece stands
    last = max(target, key=lambda h: game.distance_table(0)[h])
    outside = game.home_holes(0)[0]
    board[last], board[outside] = 0, 1
    short = ChineseCheckersState(tuple(board), None)
    assert bridge.targets(game, short, ["a", "b"]).startswith(
        f"seat 1 (a) 9/10 own, last outside on {NAMES[outside]}; ")
