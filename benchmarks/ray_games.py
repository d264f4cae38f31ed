"""AI games per second here (one process), in two worker processes (``--jobs 2``) and on a local
Ray instance with two CPUs (``--ray``), side by side in one run, with a check that all three
give the same results.

Two workloads: ``qipan simulate`` of random Kelighine games (about 20 ms each: the runners'
overheads show) and ``qipan arena`` of Sheng-Ke, easy against random (about a quarter of a
second each). The Ray instance is started once and its start is timed apart; a few games of
each workload warm its workers up before the clock runs (the worker processes of ``--jobs`` are
forked from this one, which has loaded everything already). The runners take turns, round after
round, so that the machine's other work weighs on each alike; each one's best round is shown.

    python benchmarks/ray_games.py
    python benchmarks/ray_games.py --simulate-games 1000 --arena-games 100 --repeat 5
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import ray

import qipan
from qipan.ai.arena import ArenaSpec, run, summarise
from qipan.ai.runner import RayCluster
from qipan.cli.simulate import simulate

Runner = dict[str, Any]


def simulation(games: int) -> Callable[[Runner], Any]:
    game = qipan.load("kelighine")
    return lambda runner: simulate(game, games, ["random"], seed=1, **runner)


def arena(games: int) -> Callable[[Runner], Any]:
    spec = ArenaSpec("shengke", "easy", "random", seed=1)

    def play(runner: Runner) -> Any:
        report = summarise(spec, list(run(spec, games, **runner)))
        return [{k: v for k, v in g.items() if k not in ("seconds", "think")} for g in report["games"]]

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulate-games", type=int, default=400)
    parser.add_argument("--arena-games", type=int, default=40)
    parser.add_argument("--cpus", type=int, default=2, help="worker processes and the Ray instance's CPUs")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each runner's best round is shown")
    args = parser.parse_args()
    workloads = {
        "simulate kelighine, random": (args.simulate_games, simulation(args.simulate_games)),
        "arena shengke, easy vs random": (args.arena_games, arena(args.arena_games)),
    }
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    started = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    print(f"local Ray instance ({args.cpus} CPUs) started in {time.perf_counter() - started:.1f} s")
    runners: dict[str, Runner] = {"one process": {}, f"--jobs {args.cpus}": {"jobs": args.cpus},
                                  f"Ray, {args.cpus} CPUs": {"ray": RayCluster()}}
    rates: dict[tuple[str, str], list[float]] = {}
    results: dict[str, list[Any]] = {label: [] for label in workloads}
    try:
        for warm_up in (simulation(4 * args.cpus), arena(4 * args.cpus)):  # the workers start and import the games
            warm_up({"ray": RayCluster()})
        for _ in range(args.repeat):
            for label, (games, workload) in workloads.items():
                for name, runner in runners.items():
                    t0 = time.perf_counter()
                    results[label].append(workload(runner))
                    rates.setdefault((label, name), []).append(games / (time.perf_counter() - t0))
    finally:
        t0 = time.perf_counter()
        ray.shutdown()
        print(f"Ray instance stopped in {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.1f}")
    print(f"\nbest of {args.repeat} rounds (all rounds)\n")
    print("| workload | games | " + " | ".join(f"{name} games/s" for name in runners) + " | same results |")
    print("|---|---|" + "---|" * (len(runners) + 1))
    for label, (games, _) in workloads.items():
        same = all(r == results[label][0] for r in results[label])
        cells = [f"{max(rates[label, name]):.1f} ({', '.join(f'{r:.1f}' for r in rates[label, name])})"
                 for name in runners]
        print(f"| {label} | {games} | " + " | ".join(cells) + f" | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
