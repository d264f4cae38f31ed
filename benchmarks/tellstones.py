"""Tellstones speed: random playouts and memory-AI games per second, per variant.

    python benchmarks/tellstones.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.ai import play_out
from qipan.games.tellstones.ai import PARAMS, MemoryAgent


def random_games(game: qipan.Game, games: int, seed: int) -> tuple[float, float]:
    """(games/s, actions/s) of uniformly random play with the unchecked fast path."""
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.initial_state()
        while game.to_move(state) is not None:
            state = game.next_state(state, rng.choice(game.legal_actions(state)))
            actions += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed


def ai_games(game: qipan.Game, games: int, level: str, seed: int) -> float:
    """Games/s of two memory agents, each observing every action."""
    started = time.perf_counter()
    for g in range(games):
        agents = [MemoryAgent(PARAMS[level], seed=seed + g * 7 + p) for p in range(game.num_players)]
        play_out(game, agents, random.Random(seed + g))
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random playouts per variant")
    parser.add_argument("--ai-games", type=int, default=100, help="AI-vs-AI games per variant")
    parser.add_argument("--level", default="medium", choices=sorted(PARAMS))
    parser.add_argument("--turn-limit", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'variant':<12} {'random games/s':>15} {'actions/s':>11} {args.level + ' AI games/s':>20}")
    for variant in ("standard", "round-table", "two-lines"):
        game = qipan.load("tellstones", variant=variant, first_player="random", turn_limit=args.turn_limit)
        per_game, per_action = random_games(game, args.games, args.seed)
        ai = ai_games(game, args.ai_games, args.level, args.seed)
        print(f"{variant:<12} {per_game:>15.0f} {per_action:>11.0f} {ai:>20.1f}")


if __name__ == "__main__":
    main()
