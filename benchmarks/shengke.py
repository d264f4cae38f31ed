"""Sheng-Ke speed: random playouts (games and actions per second), view + sample_state, and the
easy AI against random.

    python benchmarks/shengke.py [--seconds 3] [--ai-games 10]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.ai import make_agent
from qipan.core import CHANCE
from qipan.games.shengke import ShengKe, State


def playout(game: ShengKe, rng: random.Random) -> tuple[State, int]:
    """One whole random game with the unchecked fast path; returns the end and the action count."""
    state = game.initial_state()
    actions = 0
    while (mover := game.to_move(state)) is not None:
        action = game.sample_chance(state, rng) if mover == CHANCE else rng.choice(game.legal_actions(state))
        state = game.next_state(state, action)
        actions += 1
    return state, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each timed measurement")
    parser.add_argument("--ai-games", type=int, default=10, help="games of easy against random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = qipan.load("shengke")
    assert isinstance(game, ShengKe)
    rng = random.Random(args.seed)

    games = actions = 0
    wins = [0, 0, 0]
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        end, n = playout(game, rng)
        games += 1
        actions += n
        wins[int(game.returns(end)[0]) + 1] += 1
    elapsed = time.perf_counter() - started
    print(f"random playouts: {games / elapsed:,.1f} games/s, {actions / elapsed:,.0f} actions/s "
          f"({actions / games:.1f} actions per game)")
    print(f"  甲 wins {wins[2]}, draws {wins[1]}, 乙 wins {wins[0]} (the first player is random)")

    states = []
    for _ in range(20):
        state = game.initial_state()
        while game.to_move(state) is not None:
            if game.to_move(state) != CHANCE and rng.random() < 0.2:
                states.append(state)
            mover = game.to_move(state)
            action = (game.sample_chance(state, rng) if mover == CHANCE
                      else rng.choice(game.legal_actions(state)))
            state = game.next_state(state, action)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        state = states[count % len(states)]
        game.sample_state(game.view(state, state.current), rng)
        count += 1
    elapsed = time.perf_counter() - started
    print(f"view + sample_state: {count / elapsed:,.0f} per second")

    easy_wins = draws = decisions = 0
    started = time.perf_counter()
    for number in range(args.ai_games):
        easy_seat = number % 2
        agents = {easy_seat: make_agent(game, "easy"), 1 - easy_seat: make_agent(game, "random")}
        state = game.initial_state()
        while (mover := game.to_move(state)) is not None:
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = agents[mover].choose(game, game.view(state, mover), rng)
                if mover == easy_seat:
                    decisions += 1
            state = game.next_state(state, action)
        result = game.returns(state)[easy_seat]
        easy_wins += result > 0
        draws += result == 0
    elapsed = time.perf_counter() - started
    if args.ai_games:
        print(f"easy vs random: easy won {easy_wins}/{args.ai_games} ({draws} draws), "
              f"{args.ai_games / elapsed:.2f} games/s, {elapsed / max(decisions, 1) * 1e3:.1f} ms per easy decision")


if __name__ == "__main__":
    main()
