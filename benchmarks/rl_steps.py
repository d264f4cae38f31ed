"""Environment steps per second of qipan's PettingZoo environments, before and after the direct
observation and mask paths (issue 23), beside PettingZoo's own chess_v6 and connect_four_v3.

    pip install -e '.[bench]'   # pettingzoo[classic]: chess_v6 needs python-chess, both pygame
    nice -n 10 python benchmarks/rl_steps.py
    python benchmarks/rl_steps.py --game abalone --variant belgian-daisy --no-pettingzoo
    python benchmarks/rl_steps.py --game chinese-checkers --variant standard --no-pettingzoo \
        --options players=3,jump=adjacent,chain=false --options players=6,jump=adjacent

A step is one ``env.step`` with a random legal action plus the ``env.last()`` observation
(observation tensor and action mask) an agent needs to choose it; games that end are reset with
the next seed. "before" runs the same environment on the frozen pre-change encoders and mask
(tests/rl/reference: the encoded ``game.view`` and one ``action_id`` call per legal move);
"after" is the environment as shipped. Both paths give byte-identical arrays
(tests/rl/test_fast_paths.py), so they play the very same steps. The obs+mask columns time
building the observation and mask of the player to move alone, on the same positions, in
microseconds, and the mask columns the mask alone. ``--options`` runs each game and variant with
those game options (one row per ``--options``). The machine may be shared: the same steps (and positions) are replayed
``--rounds`` times, the paths in turn, and each step counts at its fastest.
"""
from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the frozen reference encoders live with the tests

from tests.rl.reference import ReferencePath  # noqa: E402

import qipan.rl  # noqa: E402
from qipan.core.registry import game_class  # noqa: E402
from qipan.rl.encoders import Encoder  # noqa: E402
from qipan.rl.env import QipanEnv  # noqa: E402


def step_times(env: Any, steps: int, seed: int) -> list[float]:
    """Seconds of each of ``steps`` random legal steps of an AEC environment (``env.last()`` and
    ``env.step``; a reset at the end of a game counts towards the next step). The same seed
    replays the same steps."""
    rng = np.random.default_rng(seed)
    episode = seed
    env.reset(seed=episode)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            episode += 1
            env.reset(seed=episode)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        now = time.perf_counter()
        times.append(now - start)
        start = now
    return times


def steps_per_second(envs: list[Any], steps: int, seed: int, rounds: int) -> list[float]:
    """Per environment, steps per second over the same random steps replayed ``rounds`` times in
    turn, each step counted at its fastest (robust against load from other processes)."""
    best = [[float("inf")] * steps for _ in envs]
    for _ in range(rounds):
        for env, fastest in zip(envs, best, strict=True):
            fastest[:] = map(min, fastest, step_times(env, steps, seed))
    return [steps / sum(fastest) for fastest in best]


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


def obs_and_mask_us(encoders: list[Encoder], states: list[Any], rounds: int) -> list[tuple[float, float]]:
    """Per encoder, microseconds to build the mover's observation and action mask per position,
    and of that the mask alone: every position timed ``rounds`` times, the encoders in turn, its
    fastest time counted."""
    game = encoders[0].game
    movers = [int(game.to_move(s)) for s in states]  # type: ignore[arg-type] # decision positions
    best = [[float("inf")] * len(states) for _ in encoders]
    best_mask = [[float("inf")] * len(states) for _ in encoders]
    clock = time.perf_counter
    for _ in range(rounds):
        for i, (state, player) in enumerate(zip(states, movers, strict=True)):
            for encoder, fastest, fastest_mask in zip(encoders, best, best_mask, strict=True):
                start = clock()
                encoder.observe(state, player)
                middle = clock()
                encoder.legal_mask(state)
                end = clock()
                fastest[i] = min(fastest[i], end - start)
                fastest_mask[i] = min(fastest_mask[i], end - middle)
    return [(sum(both) / len(states) * 1e6, sum(mask) / len(states) * 1e6)
            for both, mask in zip(best, best_mask, strict=True)]


def parse_options(text: str) -> dict[str, Any]:
    """``players=3,jump=adjacent,chain=false`` -> game options (integers and booleans read as such)."""
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        lowered = value.strip().lower()
        options[key.strip()] = (int(lowered) if lowered.lstrip("-").isdigit() else
                                {"true": True, "false": False}.get(lowered, value.strip()))
    return options


def row_label(variant: str, options: dict[str, Any]) -> str:
    return " ".join([variant, *(f"{k}={v}" for k, v in options.items())])


def compare(name: str, variant: str, options: dict[str, Any], args: argparse.Namespace) -> str:
    """One table row: steps/s and obs+mask µs of the reference path and the shipped one."""
    before = qipan.rl.env(name, variant, max_steps=args.max_steps, **options)
    before.encoder = ReferencePath(before.game)
    after = qipan.rl.env(name, variant, max_steps=args.max_steps, **options)
    rate_before, rate_after = steps_per_second([before, after], args.steps, args.seed, args.rounds)
    states = positions(after, args.positions, args.seed)
    (us_before, mask_before), (us_after, mask_after) = obs_and_mask_us([before.encoder, after.encoder], states,
                                                                       args.rounds)
    return (f"{name:<18} {row_label(variant, options):<{args.label_width}} {rate_before:>14.0f} {rate_after:>7.0f} "
            f"{rate_after / rate_before:>5.2f}×   {us_before:>18.1f} {us_after:>6.1f} {us_before / us_after:>5.2f}×   "
            f"{mask_before:>14.1f} {mask_after:>6.1f} {mask_before / mask_after:>5.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game with an encoder)")
    parser.add_argument("--variant", default=None, help="variant of --game (default: each game's every variant)")
    parser.add_argument("--steps", type=int, default=2000, help="steps per game, variant and path")
    parser.add_argument("--positions", type=int, default=300, help="positions for the obs+mask timing")
    parser.add_argument("--rounds", type=int, default=5, help="replays per path (each step's fastest counts)")
    parser.add_argument("--max-steps", type=int, default=1000, help="truncate an episode after this many decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", action="append", type=parse_options, default=None,
                        help="game options as key=value,... (repeatable: one row each; default: none)")
    parser.add_argument("--no-pettingzoo", action="store_true", help="skip chess_v6 and connect_four_v3")
    args = parser.parse_args()
    names = args.game or qipan.rl.encoded_games()
    rows = [(name, variant, options) for name in names
            for variant in ([args.variant] if args.variant else [v.name for v in game_class(name).variants])
            for options in args.options or [{}]]
    args.label_width = max(14, *(len(row_label(variant, options)) for _, variant, options in rows))
    print(f"{'game':<18} {'variant':<{args.label_width}} {'steps/s before':>14} {'after':>7} {'ratio':>6}   "
          f"{'obs+mask µs before':>18} {'after':>6} {'ratio':>6}   {'mask µs before':>14} {'after':>6} {'ratio':>6}")
    for name, variant, options in rows:
        print(compare(name, variant, options, args), flush=True)
    if not args.no_pettingzoo:
        for name in ("chess_v6", "connect_four_v3"):
            label = f"pettingzoo {name}"
            try:
                module = importlib.import_module(f"pettingzoo.classic.{name}")
            except ModuleNotFoundError as exc:  # chess_v6 needs python-chess, both pygame
                print(f"{label:<33} needs {exc.name}: pip install 'qipan[bench]' (pettingzoo[classic])")
                continue
            rate = steps_per_second([module.env()], args.steps, args.seed, args.rounds)[0]
            print(f"{label:<33} {rate:>14.0f}", flush=True)


if __name__ == "__main__":
    main()
