"""Abalone: the generic alpha-beta (hard's evaluation and ordering) against the specialised
searcher of the ``max`` level, side by side on the same middle-game positions and time budgets:
the specialised searcher with hard's evaluation and no pruning (the same tree, so the same value
at a fixed depth: the speed of the implementation), and as the max level searches.

For each budget, every searcher gets the same positions (seeded easy self-play, decisions 36, 48,
... as ``benchmarks/search_speed.py`` samples them) and its nodes/s and mean depth completed are
printed (the max level's searcher twice, in pure Python and with the compiled core when it is
built: the same tree); ``--depths`` adds searches to a fixed depth (nodes, CPU seconds of this process, which a
loaded machine disturbs less than wall time, and the moves chosen); ``--profile`` adds a cProfile
of each searcher at the last budget.

    python benchmarks/abalone_search.py                      # 0.3 s and 1 s, 6 positions
    python benchmarks/abalone_search.py --times 0.3 --positions 10 --profile
    python benchmarks/abalone_search.py --times --depths 4 5
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import qipan
from qipan.ai.search import AlphaBetaAgent
from qipan.games.abalone.ai import evaluate, order
from qipan.games.abalone.search import HARD, MAX, NATIVE, AbaloneSearch

sys.path.insert(0, str(Path(__file__).parent))
from search_speed import sample_positions

SEARCHERS: dict[str, Callable[[float], Any]] = {
    "generic (hard's evaluation)": lambda t: AlphaBetaAgent(evaluate, depth=64, time_limit=t, order=order),
    "specialised, hard's evaluation": lambda t: AbaloneSearch(time_limit=t, terms=HARD, quiescence=False,
                                                              null_move=False, reductions=False,
                                                              repetition_penalty=0, native=False),
    "specialised (max)": lambda t: AbaloneSearch(time_limit=t, terms=MAX, repetition_penalty=0, native=False),
}
if NATIVE:  # the compiled core (games/abalone/_fast.c): the same tree as the line above
    SEARCHERS["specialised (max), compiled"] = lambda t: AbaloneSearch(time_limit=t, terms=MAX, repetition_penalty=0)


def run(make: Callable[[float], Any], seconds: float, game: Any,
        positions: list[Any]) -> tuple[float, float, list[int]]:
    nodes = 0
    total = 0.0
    depths = []
    for index, state in enumerate(positions):
        agent = make(seconds)
        agent.search(game, state, random.Random(index))
        nodes += agent.stats.nodes
        total += agent.stats.seconds
        depths.append(agent.stats.depth)
    return nodes / total, statistics.fmean(depths), depths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--times", type=float, nargs="*", default=[0.3, 1.0], help="seconds per search")
    parser.add_argument("--depths", type=int, nargs="*", default=[], help="fixed depths to search (CPU time)")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="cProfile each searcher at the last budget")
    args = parser.parse_args()
    game = qipan.load("abalone", options={"quiet_move_limit": 100})
    positions = sample_positions(game, args.positions + 3, 12, args.seed)[3:]  # skip the opening
    print(f"{len(positions)} positions (seed {args.seed}, decisions 36, 48, ...)\n")
    print("| searcher | s/search | nodes/s | depth (mean) | depths |")
    print("|---|---|---|---|---|")
    for seconds in args.times:
        for name, make in SEARCHERS.items():
            nps, depth, depths = run(make, seconds, game, positions)
            print(f"| {name} | {seconds} | {nps:,.0f} | {depth:.2f} | {' '.join(map(str, depths))} |", flush=True)
    if args.depths:
        print("\n| searcher | depth | nodes | CPU s | nodes per CPU s | moves |")
        print("|---|---|---|---|---|---|")
    for depth in args.depths:
        for name, make in SEARCHERS.items():
            nodes, moves = 0, []
            cpu = time.process_time()
            for index, state in enumerate(positions):
                agent = make(0.0)
                agent.time_limit, agent.depth = None, depth
                move, _ = agent.search(game, state, random.Random(index))
                nodes += agent.stats.nodes
                moves.append(game.action_text(state, move))
            cpu = time.process_time() - cpu
            print(f"| {name} | {depth} | {nodes:,} | {cpu:.2f} | {nodes / cpu:,.0f} | {' '.join(moves)} |", flush=True)
    if args.profile and args.times:
        for name, make in SEARCHERS.items():
            print(f"\n{name}, {args.times[-1]} s a search:")
            profile = cProfile.Profile()
            profile.enable()
            run(make, args.times[-1], game, positions)
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(10)


if __name__ == "__main__":
    main()
