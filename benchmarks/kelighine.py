"""Kelighine speed: random and AI games per second, for each version.

    python benchmarks/kelighine.py [--seconds 3] [--ai-games 20]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.ai import make_agent
from qipan.core import CHANCE


def random_games(options: dict[str, int], seconds: float) -> tuple[float, float, float]:
    """Games per second, actions per second and mean turns of random play (chance included)."""
    game = qipan.load("kelighine", **options)
    rng = random.Random(1)
    games = actions = turns = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.initial_state()
        while game.to_move(state) is not None:
            if game.to_move(state) == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.next_state(state, action)
            actions += 1
        games += 1
        turns += state.number
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed, turns / games


def ai_games(options: dict[str, int], count: int) -> tuple[float, float]:
    """Games per second and decisions per second of the easy AI against itself."""
    game = qipan.load("kelighine", **options)
    agent = make_agent(game, "easy")
    rng = random.Random(2)
    decisions = 0
    started = time.perf_counter()
    for _ in range(count):
        state = game.initial_state()
        while (mover := game.to_move(state)) is not None:
            if mover == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = agent.choose(game, game.view(state, mover), rng)
                decisions += 1
            state = game.next_state(state, action)
    elapsed = time.perf_counter() - started
    return count / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each random-play measurement")
    parser.add_argument("--ai-games", type=int, default=20, help="easy-vs-easy games per configuration")
    args = parser.parse_args()
    configs: list[dict[str, int]] = [{"version": 1}, {"version": 1, "players": 4}, {"version": 2}]
    for options in configs:
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        gps, aps, turns = random_games(options, args.seconds)
        print(f"{label}: random games {gps:,.1f}/s ({aps:,.0f} actions/s, {turns:.0f} turns a game)")
        gps, dps = ai_games(options, args.ai_games)
        print(f"{label}: easy-vs-easy games {gps:,.2f}/s ({dps:,.0f} decisions/s)")


if __name__ == "__main__":
    main()
