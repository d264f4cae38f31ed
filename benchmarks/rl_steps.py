"""Environment steps per second of qipan's PettingZoo environments, before and after the direct
observation and mask paths (issue 23), beside PettingZoo's own chess_v6 and connect_four_v3.

    nice -n 10 python benchmarks/rl_steps.py --steps 3000
    python benchmarks/rl_steps.py --game abalone --variant belgian-daisy --no-pettingzoo

A step is one ``env.step`` with a random legal action plus the ``env.last()`` observation
(observation tensor and action mask) an agent needs to choose it; games that end are reset with
the next seed. "before" runs the same environment on the frozen pre-change encoders and mask
(tests/rl/reference: the encoded ``game.view`` and one ``action_id`` call per legal move);
"after" is the environment as shipped. Both paths give byte-identical arrays
(tests/rl/test_fast_paths.py). The obs+mask columns time building the observation and mask of
the player to move alone, on the same positions, in microseconds. Runs alternate between the two
paths and each figure is the best of ``--rounds``, so that load from other processes hits both
alike.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the frozen reference encoders live with the tests

from tests.rl.reference import ReferencePath  # noqa: E402

import qipan.rl  # noqa: E402
from qipan.core.registry import game_class  # noqa: E402
from qipan.rl.env import QipanEnv  # noqa: E402


def steps_per_second(env: Any, steps: int, seed: int) -> float:
    """Random legal steps per second of an AEC environment (reset with the next seed at the end)."""
    rng = np.random.default_rng(seed)
    episode = seed
    env.reset(seed=episode)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            episode += 1
            env.reset(seed=episode)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return steps / (time.perf_counter() - start)


def positions(env: QipanEnv, count: int, seed: int) -> list[Any]:
    """Decision positions met in random play."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    seen: list[Any] = []
    while len(seen) < count:
        if any(env.terminations.values()) or any(env.truncations.values()):
            env.reset()
            continue
        seen.append(env.game_state)
        env.step(rng.choice(env.legal_action_ids()))
    return seen


def obs_and_mask_us(env: QipanEnv, states: list[Any]) -> float:
    """Microseconds to build the mover's observation and action mask, per position."""
    encoder, game = env.encoder, env.game
    movers = [int(game.to_move(s)) for s in states]  # type: ignore[arg-type] # decision positions
    start = time.perf_counter()
    for state, player in zip(states, movers, strict=True):
        encoder.observe(state, player)
        encoder.legal_mask(state)
    return (time.perf_counter() - start) / len(states) * 1e6


def best(rounds: int, measures: list[Callable[[], float]], highest: bool) -> list[float]:
    """Each measure's best value over ``rounds`` alternating runs."""
    runs = [[m() for m in measures] for _ in range(rounds)]
    pick = max if highest else min
    return [pick(r[i] for r in runs) for i in range(len(measures))]


def compare(name: str, variant: str, args: argparse.Namespace) -> str:
    """One table row: steps/s and obs+mask µs of the reference path and the shipped one."""
    before = qipan.rl.env(name, variant, max_steps=args.max_steps)
    before.encoder = ReferencePath(before.game)
    after = qipan.rl.env(name, variant, max_steps=args.max_steps)
    states = positions(after, args.positions, args.seed)
    rate_before, rate_after = best(args.rounds, [
        lambda: steps_per_second(before, args.steps, args.seed),
        lambda: steps_per_second(after, args.steps, args.seed)], highest=True)
    us_before, us_after = best(args.rounds, [
        lambda: obs_and_mask_us(before, states), lambda: obs_and_mask_us(after, states)], highest=False)
    return (f"{name:<18} {variant:<14} {rate_before:>14.0f} {rate_after:>7.0f} {rate_after / rate_before:>5.2f}×   "
            f"{us_before:>18.1f} {us_after:>6.1f} {us_before / us_after:>5.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game with an encoder)")
    parser.add_argument("--variant", default=None, help="variant of --game (default: each game's every variant)")
    parser.add_argument("--steps", type=int, default=2000, help="steps per game, variant and path")
    parser.add_argument("--positions", type=int, default=300, help="positions for the obs+mask timing")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per path (best one counts)")
    parser.add_argument("--max-steps", type=int, default=1000, help="truncate an episode after this many decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pettingzoo", action="store_true", help="skip chess_v6 and connect_four_v3")
    args = parser.parse_args()
    names = args.game or qipan.rl.encoded_games()
    print(f"{'game':<18} {'variant':<14} {'steps/s before':>14} {'after':>7} {'ratio':>6}   "
          f"{'obs+mask µs before':>18} {'after':>6} {'ratio':>6}")
    for name in names:
        variants = [args.variant] if args.variant else [v.name for v in game_class(name).variants]
        for variant in variants:
            print(compare(name, variant, args), flush=True)
    if not args.no_pettingzoo:
        for name in ("chess_v6", "connect_four_v3"):
            label = f"pettingzoo {name}"
            try:
                module = importlib.import_module(f"pettingzoo.classic.{name}")
            except ModuleNotFoundError as exc:  # chess_v6 needs python-chess
                print(f"{label:<33} needs {exc.name}: pip install 'pettingzoo[classic]'")
                continue
            env = module.env()
            rate = best(args.rounds, [partial(steps_per_second, env, args.steps, args.seed)], highest=True)[0]
            print(f"{label:<33} {rate:>14.0f}", flush=True)


if __name__ == "__main__":
    main()
