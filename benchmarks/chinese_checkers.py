"""Chinese Checkers speed: legal-move generation at the start and in a midgame position, and
moves per second in greedy self-play. Times are CPU seconds of this process
(``time.process_time``), so a busy shared machine does not lower the figures.

    python benchmarks/chinese_checkers.py [--players 2] [--seconds 1.0] [--games 3]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.ai import make_agent
from qipan.games.chinese_checkers import ChineseCheckers, ChineseCheckersState


def generation_rate(game: ChineseCheckers, states: list[ChineseCheckersState], seconds: float) -> tuple[float, float]:
    """(legal moves generated per CPU second, CPU microseconds per legal_actions call)."""
    calls = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            moves += len(game.legal_actions(state))
        calls += len(states)
    elapsed = time.process_time() - start
    return moves / elapsed, elapsed / calls * 1e6


def midgame(game: ChineseCheckers, seed: int, plies: int) -> ChineseCheckersState:
    """The position after ``plies`` moves of greedy self-play (pieces spread over the board)."""
    agent = make_agent(game, "easy")
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        mover = game.to_move(state)
        if mover is None:
            break
        state = game.next_state(state, agent.choose(game, game.view(state, mover), rng))
    return state


def self_play(game: ChineseCheckers, games: int, cap: int) -> tuple[int, float, int]:
    """(moves played, CPU seconds, games finished) of greedy self-play."""
    agent = make_agent(game, "easy")
    moves = finished = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(cap):
            mover = game.to_move(state)
            if mover is None:
                break
            state = game.next_state(state, agent.choose(game, game.view(state, mover), rng))
            moves += 1
        finished += game.to_move(state) is None
    return moves, time.process_time() - start, finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 6))
    parser.add_argument("--pieces", type=int, default=10, choices=(10, 15))
    parser.add_argument("--jump", default="long", choices=("long", "adjacent"))
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per generation measurement")
    parser.add_argument("--games", type=int, default=3, help="greedy self-play games")
    args = parser.parse_args()
    game = qipan.load("chinese-checkers", players=args.players, pieces=args.pieces, jump=args.jump)
    assert isinstance(game, ChineseCheckers)
    print(f"{game!r}")
    start = game.initial_state()
    rate, per_call = generation_rate(game, [start], args.seconds)
    print(f"start position:   {len(game.legal_actions(start)):4d} moves   {per_call:8.1f} us/call"
          f"   {rate:12,.0f} moves/s")
    mid = midgame(game, seed=1, plies=12 * args.players)
    rate, per_call = generation_rate(game, [mid], args.seconds)
    print(f"midgame position: {len(game.legal_actions(mid)):4d} moves   {per_call:8.1f} us/call"
          f"   {rate:12,.0f} moves/s")
    moves, seconds, finished = self_play(game, args.games, cap=1000)
    print(f"greedy self-play: {moves} moves in {seconds:.2f} CPU s = {moves / seconds:,.0f} moves/s"
          f"   ({finished}/{args.games} games finished, {moves / max(1, args.games):.0f} moves per game)")


if __name__ == "__main__":
    main()
