"""Search speed of every game's AI levels: nodes (or iterations) per second, depth, time per move.

Each level chooses a move in the same sample of positions per game: the start and positions
reached by seeded greedy play (so opening, middle game and late game all count). Prints one
Markdown table per game, then Abalone's acceptance probes: how long a plain alpha-beta search
with hard's evaluation and ordering takes to complete depth 1, 2, ... from the standard start, and
to search depth 4 and 5 from the start and a dozen sampled positions.

    python benchmarks/search_speed.py                      # every game, 6 positions each
    python benchmarks/search_speed.py abalone --positions 10
    python benchmarks/search_speed.py chinese-checkers --option players=3
    python benchmarks/search_speed.py abalone --levels --abalone-depth 0 --fixed-depth 4 5 --seed 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from qipan.ai import agent_levels, make_agent
from qipan.ai.search import AlphaBetaAgent
from qipan.core.game import CHANCE, Game
from qipan.core.options import parse_option_assignments
from qipan.core.registry import game_names, load


def sample_positions(game: Game[Any, Any], count: int, spacing: int, seed: int) -> list[Any]:
    """The start and positions every ``spacing`` decisions into games of seeded easy self-play."""
    rng = random.Random(seed)
    easy = make_agent(game, "easy") if "easy" in agent_levels(game) else None
    positions: list[Any] = []
    state = game.initial_state()
    decisions = 0
    while len(positions) < count:
        player = game.to_move(state)
        if player is None:  # game over: start another one
            state, decisions = game.initial_state(), 0
            continue
        if player == CHANCE:
            state = game.next_state(state, game.sample_chance(state, rng))
            continue
        if decisions % spacing == 0:
            positions.append(state)
        view = game.view(state, player)
        if easy is None or rng.random() < 0.2:  # some randomness, so the games differ
            action = rng.choice(list(game.legal_actions(state)))
        else:
            action = easy.choose(game, view, rng)
        state = game.next_state(state, action)
        decisions += 1
    return positions


def measure(game: Game[Any, Any], level: str, positions: list[Any], seed: int) -> dict[str, float]:
    """Average seconds per move, nodes per second and depth/iterations of ``level`` over ``positions``."""
    agent = make_agent(game, level)
    seconds: list[float] = []
    nodes = 0
    depths: list[float] = []
    for index, state in enumerate(positions):
        player = game.to_move(state)
        start = time.perf_counter()
        agent.choose(game, game.view(state, player), random.Random(seed + index))
        seconds.append(time.perf_counter() - start)
        stats = getattr(agent, "stats", None)
        if stats is not None:
            nodes += stats.nodes
            depths.append(stats.depth)
    total = sum(seconds)
    return {
        "mean": statistics.fmean(seconds),
        "max": max(seconds),
        "nodes_per_second": nodes / total if nodes and total else 0.0,
        "depth": statistics.fmean(depths) if depths else 0.0,
        "searches": float(bool(depths)),
    }


def abalone_depth_probe(max_depth: int) -> list[str]:
    """Time for hard's alpha-beta (no time cap) to complete each depth from the standard start."""
    from qipan.games.abalone.ai import evaluate, order

    game = load("abalone")
    lines = ["| depth | nodes | seconds | nodes/s |", "|---|---|---|---|"]
    for depth in range(1, max_depth + 1):
        agent = AlphaBetaAgent(evaluate, depth=depth, order=order)
        state = game.initial_state()
        agent.choose(game, game.view(state, 0), random.Random(0))
        s = agent.stats
        lines.append(f"| {s.depth} | {s.nodes:,} | {s.seconds:.3f} | {s.nodes_per_second:,.0f} |")
    return lines


def abalone_fixed_depth(depths: list[int], count: int, seed: int) -> list[str]:
    """Hard's alpha-beta searched to each fixed depth (a fresh agent per search) from the start and
    ``count`` positions of seeded easy self-play: nodes, wall and CPU seconds per search, nodes/s."""
    from qipan.games.abalone.ai import evaluate, order

    game = load("abalone")
    positions = [game.initial_state(), *sample_positions(game, count + 1, 7, seed)[1:]]
    lines = ["| depth | positions | nodes | s/search (mean) | s/search (max) | CPU s (total) | nodes/s |",
             "|---|---|---|---|---|---|---|"]
    for depth in depths:
        nodes, walls, cpu = 0, [], 0.0
        for index, state in enumerate(positions):
            agent = AlphaBetaAgent(evaluate, depth=depth, order=order)
            wall, start = time.perf_counter(), time.process_time()
            agent.search(game, state, random.Random(index))
            cpu += time.process_time() - start
            walls.append(time.perf_counter() - wall)
            nodes += agent.stats.nodes
        lines.append(f"| {depth} | {len(positions)} | {nodes:,} | {statistics.fmean(walls):.3f} | {max(walls):.3f} "
                     f"| {cpu:.2f} | {nodes / sum(walls):,.0f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--positions", type=int, default=6, help="positions per game (default 6)")
    parser.add_argument("--spacing", type=int, default=12, help="decisions between sampled positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant")
    parser.add_argument("--option", action="append", default=[], help="game option KEY=VALUE")
    parser.add_argument("--levels", nargs="*", help="levels to measure (default: all but random; none: no level)")
    parser.add_argument("--abalone-depth", type=int, default=5, help="deepest depth of the Abalone probe")
    parser.add_argument("--fixed-depth", type=int, nargs="*", default=[4, 5],
                        help="Abalone depths searched from the start and sampled positions (default 4 5)")
    parser.add_argument("--fixed-positions", type=int, default=12, help="sampled positions besides the start")
    args = parser.parse_args(argv)

    options = parse_option_assignments(args.option)
    for name in args.games or game_names():
        game = load(name, args.variant, options)
        positions = sample_positions(game, args.positions, args.spacing, args.seed)
        print(f"## {name} ({game.variant}; options {options or 'default'}; {len(positions)} positions)\n")
        levels = args.levels if args.levels is not None else [lv for lv in agent_levels(game) if lv != "random"]
        if levels:
            print("| level | s/move (mean) | s/move (max) | depth or iterations | nodes/s |")
            print("|---|---|---|---|---|")
        for level in levels:
            m = measure(game, level, positions, args.seed)
            depth = f"{m['depth']:.1f}" if m["searches"] else "-"
            nps = f"{m['nodes_per_second']:,.0f}" if m["nodes_per_second"] else "-"
            print(f"| {level} | {m['mean']:.3f} | {m['max']:.3f} | {depth} | {nps} |", flush=True)
        print()
        if name == "abalone" and not args.variant and not options:
            if args.abalone_depth:
                print("Abalone, hard's search from the standard start without a time cap:\n")
                print("\n".join(abalone_depth_probe(args.abalone_depth)) + "\n", flush=True)
            if args.fixed_depth:
                print(f"Abalone, hard's search to a fixed depth from the start and {args.fixed_positions} "
                      f"positions of seeded easy self-play (seed {args.seed}):\n")
                print("\n".join(abalone_fixed_depth(args.fixed_depth, args.fixed_positions, args.seed)) + "\n",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
