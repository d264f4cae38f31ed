"""Environment steps per second of qipan's PettingZoo environments (random legal actions).

    python benchmarks/rl_steps.py --steps 5000
    python benchmarks/rl_steps.py --game abalone --variant belgian-daisy

Each step is one ``env.step`` plus the ``env.last()`` observation (view, encoding, action mask)
that an agent needs to choose it; games that end are reset with the next seed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import qipan.rl
from qipan.core.registry import game_class


def measure(name: str, variant: str | None, steps: int, seed: int, max_steps: int | None) -> tuple[float, int]:
    """(steps per second, games finished) for ``steps`` random steps."""
    env = qipan.rl.env(name, variant, max_steps=max_steps)
    rng = np.random.default_rng(seed)
    episode = seed
    env.reset(seed=episode)
    finished = 0
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finished += terminated
            episode += 1
            env.reset(seed=episode)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        done += 1
    return steps / (time.perf_counter() - start), finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game with an encoder)")
    parser.add_argument("--variant", default=None, help="variant of --game (default: each game's every variant)")
    parser.add_argument("--steps", type=int, default=3000, help="steps per game and variant")
    parser.add_argument("--max-steps", type=int, default=1000, help="truncate an episode after this many decisions")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = args.game or qipan.rl.encoded_games()
    print(f"{'game':<18} {'variant':<16} {'steps/s':>9} {'games ended':>12}")
    for name in names:
        variants = [args.variant] if args.variant else [v.name for v in game_class(name).variants]
        for variant in variants:
            rate, finished = measure(name, variant, args.steps, args.seed, args.max_steps)
            print(f"{name:<18} {variant:<16} {rate:>9.0f} {finished:>12}")


if __name__ == "__main__":
    main()
