"""How long analysis takes: seconds per position and per review of a recorded game, per game.

    python benchmarks/analysis.py [GAME ...] [--positions 4] [--time 0.3] [--decisions 40] [--seed 2026]

For every game configuration: ``--positions`` positions of seeded easy self-play (every 7th
decision), each analysed with ``--time`` seconds and 3 lines at the strongest analysing level
(wall-clock seconds, depth, nodes, method); then one record of easy self-play cut after
``--decisions`` decisions, reviewed whole at ``--time`` seconds a decision (hidden-information
games: seat 1's decisions), with the number of verdicts. Wall-clock on a shared machine: quote
the load with the numbers.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import qipan
from qipan.ai import make_agent
from qipan.ai.analysis import analyse, review, strongest_level
from qipan.core import Match
from qipan.core.game import CHANCE

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("abalone", {}),
    ("chinese-checkers", {}),
    ("chinese-checkers", {"players": 3}),
    ("chinese-checkers", {"players": 6}),
    ("kelighine", {}),
    ("kelighine", {"version": 2}),
    ("kelighine", {"players": 3}),
    ("shengke", {}),
    ("tellstones", {}),
]


def self_play(game: Any, seed: int, decisions: int) -> Match:
    """Easy against easy (every seat), cut after ``decisions`` decisions or at the end."""
    match = Match(game, seed=seed)
    agents = [make_agent(game, "easy") for _ in range(game.num_players)]
    rng = random.Random(seed)
    done = 0
    while not match.over and done < decisions:
        for seat, agent in enumerate(agents):
            agent.observe(game, game.view(match.state, seat))
        mover = match.to_move
        assert mover is not None and mover != CHANCE
        match.play(agents[mover].choose(game, game.view(match.state, mover), rng))
        done += 1
    return match


def positions(game: Any, seed: int, count: int) -> list[tuple[Any, int, list[Any]]]:
    """(state, mover, earlier states) at every 7th decision of a self-played game."""
    match = self_play(game, seed, 7 * count + 1)
    found = []
    decisions = [i for i, s in enumerate(match.states) if game.to_move(s) not in (None, CHANCE)]
    for i in decisions[::7][:count]:
        found.append((match.states[i], game.to_move(match.states[i]), match.states[:i]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="game names (default: every configuration)")
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--time", type=float, default=0.3)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    configs = [c for c in CONFIGS if not args.games or c[0] in args.games]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.time} s a position, 3 lines")
    print("| game | options | level | method | s/position (mean) | s/position (max) | depth | nodes |"
          " review: decisions | review s | s/decision | verdicts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, options in configs:
        game = qipan.load(name, **options)
        level = strongest_level(game)
        seconds, depths, nodes, method = [], [], [], ""
        for state, mover, earlier in positions(game, args.seed, args.positions):
            start = time.perf_counter()
            result = analyse(game, game.view(state, mover), lines=3, time=args.time, seed=args.seed,
                             history=[game.view(s, mover) for s in earlier])
            seconds.append(time.perf_counter() - start)
            depths.append(result.depth)
            nodes.append(result.nodes)
            method = result.method
        record = self_play(game, args.seed + 1, args.decisions).record()
        seat = None if game.perfect_information else 0
        start = time.perf_counter()
        reviewed = review(game, record, seat=seat, time=args.time, seed=args.seed)
        spent = time.perf_counter() - start
        marks = sum(m.verdict is not None for m in reviewed)
        depth = "-" if None in depths else f"{statistics.mean(d for d in depths if d is not None):.1f}"
        shown = " ".join(f"{key} {value}" for key, value in options.items()) or "-"
        print(f"| {name} | {shown} | {level} | {method} | {statistics.mean(seconds):.3f} | "
              f"{max(seconds):.3f} | {depth} | {statistics.mean(nodes):,.0f} | {len(reviewed)} | {spent:.1f} | "
              f"{spent / max(1, len(reviewed)):.3f} | {marks} |", flush=True)


if __name__ == "__main__":
    main()
