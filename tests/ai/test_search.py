"""The search agents: legal moves, forced wins, exact values, chance, and hidden information."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import qipan
from qipan.ai import AlphaBetaAgent, ExpectimaxAgent, ISMCTSAgent, MCTSAgent, RandomAgent, make_agent
from qipan.ai.search import WIN, BestReplyAgent, _terminal_value, greedy_policy
from qipan.core.game import CHANCE, Game
from qipan.games.abalone.ai import evaluate, order
from tests.ai.toys import DiceBet, GuessCard, Hidden, TicTacToe, ttt_evaluate


def abalone_position(black: str, white: str, turn: str = "black") -> tuple[Game[Any, Any], Any]:
    game = qipan.load("abalone")
    return game, game.state_from_json({"black": black.split(), "white": white.split(), "turn": turn})


# nine white marbles (five already pushed out); black can push a1 off with c3-b2
WHITE_NINE = "a1 i5 i6 i7 i8 i9 h5 h6 h7"
BLACK = "b2 c3 d4 e5 f5 f6 e6 d5 c4 b3 e4"


state_at_root: list[Any] = [None]


def negamax(game: Game[Any, Any], state: Any, depth: int, ply: int = 0) -> float:
    """Plain negamax with the same leaf and terminal scores as AlphaBetaAgent (alternating turns)."""
    if ply == 0:
        state_at_root[0] = state
    mover = game.to_move(state)
    if mover is None:
        # the side that would move here: the root's mover at even plies
        side = game.to_move(state_at_root[0]) if ply % 2 == 0 else 1 - game.to_move(state_at_root[0])
        return _terminal_value(game, state, side, ply)
    if depth == 0:
        return evaluate(game, state, mover) if game.name == "abalone" else ttt_evaluate(game, state, mover)
    return max(-negamax(game, game.next_state(state, a), depth - 1, ply + 1) for a in game.legal_actions(state))


def test_every_agent_returns_legal_moves_in_abalone() -> None:
    game = qipan.load("abalone")
    state = game.initial_state()
    rng = random.Random(3)
    for _ in range(6):
        state = game.next_state(state, rng.choice(game.legal_actions(state)))
    agents = [
        RandomAgent(),
        AlphaBetaAgent(evaluate, depth=2, order=order),
        ExpectimaxAgent(evaluate, depth=1),
        MCTSAgent(evaluate, iterations=60, rollout_depth=2, scale=1000),
        ISMCTSAgent(evaluate, iterations=60, rollout_depth=2, scale=1000),
        *(make_agent(game, level) for level in ("easy", "medium")),
    ]
    player = game.to_move(state)
    for agent in agents:
        action = agent.choose(game, game.view(state, player), rng)
        assert action in game.legal_actions(state), agent.name


def test_alphabeta_takes_the_winning_push_out() -> None:
    game, state = abalone_position(BLACK, WHITE_NINE)
    win = game.parse_action(state, "c3b2")
    for depth in (1, 2, 3):
        agent = AlphaBetaAgent(evaluate, depth=depth, order=order)
        move, value = agent.search(game, state, random.Random(depth))
        assert move == win
        assert value == WIN - 1
        assert game.returns(game.next_state(state, move)) == (1.0, -1.0)


def test_alphabeta_defends_against_a_winning_push_out() -> None:
    # white threatens c3-b2 pushing off a1, black's ninth marble; black to move must save it
    game, state = abalone_position("a1 e5 e6 f6 f7 g7 g8 h8 i9", "b2 c3 d4 h4 h5 i5 i6 g4 g5 g6")
    threat = game.next_state(state._replace(turn=1), game.parse_action(state, "c3b2"))
    assert game.returns(threat) == (-1.0, 1.0)
    agent = AlphaBetaAgent(evaluate, depth=2, order=order)
    move, value = agent.search(game, state, random.Random(0))
    after = game.next_state(state, move)
    assert value > -WIN / 2
    assert all(game.returns(game.next_state(after, reply)) != (-1.0, 1.0) for reply in game.legal_actions(after))


def test_alphabeta_prefers_the_faster_win() -> None:
    game = TicTacToe()
    # X on 0 and 1, O on 3 and 4, X to move: 2 wins at once
    state = (1, 1, 0, 2, 2, 0, 0, 0, 0)
    move, value = AlphaBetaAgent(ttt_evaluate, depth=5).search(game, state, random.Random(0))
    assert move == 2 and value == WIN - 1


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_iterative_deepening_and_table_match_plain_negamax_on_tictactoe(depth: int) -> None:
    game = TicTacToe()
    rng = random.Random(depth)
    for _ in range(4):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 4)):
            state = game.next_state(state, rng.choice(game.legal_actions(state)))
        agent = AlphaBetaAgent(ttt_evaluate, depth=depth)
        _move, value = agent.search(game, state, rng)
        assert value == pytest.approx(negamax(game, state, depth))


def test_alphabeta_value_matches_plain_negamax_in_abalone() -> None:
    game, state = abalone_position("a1 a2 a3 b2 b3 c3 c4 d4 e5 e4", "i9 i8 h8 h7 g7 g6 f5 f6 e6 d5", "white")
    agent = AlphaBetaAgent(evaluate, depth=2, order=order)
    for _ in range(2):  # the second search starts with a full table: same answer
        _move, value = agent.search(game, state, random.Random(1))
        assert value == pytest.approx(negamax(game, state, 2))


def test_tictactoe_perfect_play_is_a_draw_and_search_blocks() -> None:
    game = TicTacToe()
    _move, value = AlphaBetaAgent(ttt_evaluate, depth=9).search(game, game.initial_state())
    assert value == 0
    # O must block X's row at 2
    state = (1, 1, 0, 0, 2, 0, 0, 0, 0)
    move, _value = AlphaBetaAgent(ttt_evaluate, depth=4).search(game, state)
    assert move == 2


def test_alphabeta_time_limit_still_answers() -> None:
    game = qipan.load("abalone")
    agent = AlphaBetaAgent(evaluate, depth=30, time_limit=0.05, order=order)
    move = agent.choose(game, game.view(game.initial_state(), 0), random.Random(0))
    assert move in game.legal_actions(game.initial_state())
    assert agent.stats.depth < 30


def test_alphabeta_repetition_penalty_avoids_positions_seen_in_the_game() -> None:
    game = qipan.load("abalone")
    start = game.initial_state()

    def averse() -> AlphaBetaAgent:
        return AlphaBetaAgent(evaluate, depth=2, order=order, repetition_penalty=10_000, position_key=lambda s: s.key())

    favourite = averse().choose(game, game.view(start, 0), random.Random(0))
    assert favourite == AlphaBetaAgent(evaluate, depth=2, order=order).choose(
        game, game.view(start, 0), random.Random(0))  # nothing seen yet: no difference
    agent = averse()
    agent.observe(game, game.view(game.next_state(start, favourite), 1))  # that position happened
    other = agent.choose(game, game.view(start, 0), random.Random(0))
    assert other != favourite
    assert game.next_state(start, other).key() not in agent.seen


@pytest.mark.parametrize(("win_faces", "best", "expected"), [(4, "pass", 0.0), (6, "bet", 1.0), (5, "bet", 0.0)])
def test_expectimax_weighs_a_loaded_die(win_faces: int, best: str, expected: float) -> None:
    # faces 1-5 come up 10% each, six 50%: four winning faces are worth 0.4 - 0.6 = -0.2
    game = DiceBet(options={"win_faces": win_faces})
    state = game.initial_state()
    agent = ExpectimaxAgent(lambda g, s, p: 0.0, depth=1)
    move, value = agent.search(game, state)
    if win_faces != 5:
        assert move == best
    assert value / (WIN - 2) == pytest.approx(expected, abs=1e-6)
    # alpha-beta averages chance nodes the same way
    ab_move, ab_value = AlphaBetaAgent(lambda g, s, p: 0.0, depth=1).search(game, state)
    assert ab_value == pytest.approx(value)
    if win_faces != 5:
        assert ab_move == best


def test_mcts_wins_and_blocks_at_tictactoe() -> None:
    game = TicTacToe()
    agent = MCTSAgent(ttt_evaluate, iterations=400, rollout_depth=9, scale=3)
    win_now = (1, 1, 0, 2, 2, 0, 0, 0, 0)
    assert agent.choose(game, game.view(win_now, 0), random.Random(1)) == 2
    block = (1, 1, 0, 0, 2, 0, 0, 0, 0)
    assert agent.choose(game, game.view(block, 1), random.Random(1)) == 2


def test_mcts_samples_chance_nodes() -> None:
    game = DiceBet(options={"win_faces": 6})
    agent = MCTSAgent(iterations=100)
    assert agent.choose(game, game.view(game.initial_state(), 0), random.Random(0)) == "bet"
    game = DiceBet(options={"win_faces": 1})
    assert agent.choose(game, game.view(game.initial_state(), 0), random.Random(0)) == "pass"


@pytest.mark.parametrize("believed", [0, 1])
def test_ismcts_only_knows_what_sample_state_tells_it(believed: int) -> None:
    game = GuessCard(options={"believed": believed})
    truth = game.initial_state()  # secret 2; every game method refuses this state
    assert truth.secret == 2 and truth.real
    GuessCard.samples = 0
    agent = ISMCTSAgent(iterations=60)
    move = agent.choose(game, game.view(truth, 0), random.Random(0))
    assert move == believed  # follows the sampler's (wrong) belief, not the true card
    assert GuessCard.samples >= 60
    with pytest.raises(AssertionError):
        game.legal_actions(truth)
    assert game.returns(Hidden(believed, (move,))) == (1.0, -1.0)


def test_ismcts_plays_abalone_legally_and_reports_stats() -> None:
    game = qipan.load("abalone")
    agent = ISMCTSAgent(evaluate, iterations=40, rollout_depth=1, scale=1000)
    move = agent.choose(game, game.view(game.initial_state(), 0), random.Random(2))
    assert move in game.legal_actions(game.initial_state())
    assert agent.stats.depth == 40 and agent.stats.nodes > 40


def test_paranoid_alphabeta_handles_repeated_movers() -> None:
    # a chance node at the root's child: the bet is searched as an expectation
    game = DiceBet(options={"win_faces": 6})
    move, value = AlphaBetaAgent(lambda g, s, p: 0.0, depth=2).search(game, game.initial_state())
    assert move == "bet" and value == WIN - 2
    assert game.to_move(("bet",)) == CHANCE
    assert not math.isnan(value)


def test_best_reply_search_plays_three_player_chinese_checkers() -> None:
    from qipan.games.chinese_checkers.ai import lead, with_turn
    from qipan.games.chinese_checkers.ai import order as cc_order

    game = qipan.load("chinese-checkers", players=3)
    state = game.initial_state()
    agent = BestReplyAgent(lead, with_turn, depth=2, order=cc_order)
    move, value = agent.search(game, state, random.Random(0))
    assert move in game.legal_actions(state)
    assert agent.stats.depth == 2 and agent.stats.nodes > len(game.legal_actions(state))
    # the best reply layer holds both opponents' moves: its value is the minimum over all of them
    after = game.next_state(state, move)
    replies = [game.next_state(with_turn(after, p), a) for p in (1, 2) for a in game.legal_actions(with_turn(after, p))]
    assert value == pytest.approx(min(lead(game, s, 0) for s in replies))


def test_ismcts_prune_and_policy_hooks() -> None:
    game = TicTacToe()
    state = (1, 1, 0, 2, 2, 0, 0, 0, 0)
    agent = ISMCTSAgent(ttt_evaluate, iterations=50, prune=lambda g, s, actions: [8],
                        policy=greedy_policy(ttt_evaluate, 3), scale=3)
    assert agent.choose(game, game.view(state, 0), random.Random(0)) == 8
    policy = greedy_policy(ttt_evaluate, 9)
    assert policy(game, state, random.Random(0)) == 2  # completing the row is worth most
