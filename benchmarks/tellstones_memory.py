"""Tellstones AI levels against each other: win rates with 95% intervals (seeded).

    python benchmarks/tellstones_memory.py --games 200
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import qipan
from qipan.ai import play_out
from qipan.ai.arena import wilson
from qipan.games.tellstones.ai import PARAMS, MemoryAgent


def play(game: Any, levels: tuple[str, str], seed: int) -> tuple[float, ...]:
    """One game with seat p played by ``levels[p % 2]``; every agent observes every action."""
    agents = [MemoryAgent(PARAMS[levels[p % 2]], levels[p % 2], seed=seed * 10 + p)
              for p in range(game.num_players)]
    return game.returns(play_out(game, agents, random.Random(seed)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--turn-limit", type=int, default=300, help="turns before the game is scored")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default="medium:easy,hard:medium,hard:easy,perfect:hard",
                        help="comma-separated STRONG:WEAK pairings")
    args = parser.parse_args()
    game = qipan.load("tellstones", variant=args.variant, first_player="random",
                      turn_limit=args.turn_limit)
    print(f"{args.variant}, {args.games} games per pairing, seats alternate by a random first player")
    for pair in args.pairs.split(","):
        strong, weak = pair.split(":")
        score = draws = 0.0
        started = time.perf_counter()
        for g in range(args.games):
            # The strong level sits on team A in even games and on team B in odd ones.
            order = (strong, weak) if g % 2 == 0 else (weak, strong)
            result = play(game, order, args.seed * 100003 + g)
            mine = result[0] if g % 2 == 0 else result[1]
            score += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
            draws += mine == 0
        low, high = wilson(score, args.games)
        rate = args.games / (time.perf_counter() - started)
        print(f"{strong:>8} vs {weak:<8} {score / args.games:6.1%}  95% CI [{low:.1%}, {high:.1%}]"
              f"  draws {int(draws)}  ({rate:.0f} games/s)")


if __name__ == "__main__":
    main()
