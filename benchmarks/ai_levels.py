"""Measure a game's AI levels: each level against the one below it and against random.

Prints a Markdown table (the one in docs/ai.md) with W/D/L, the score and its 95% Wilson
interval, the Elo difference with its interval, seconds per move and search speed, plus a probe
of each level's first move from the start position (depth or iterations reached, nodes, time).

    python benchmarks/ai_levels.py abalone --games 20 --jobs 2 --option quiet_move_limit=100
    python benchmarks/ai_levels.py chinese-checkers --games 40 --levels easy medium hard
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from qipan.ai import agent_levels, make_agent
from qipan.ai.arena import ArenaSpec, run, summarise
from qipan.core.options import parse_option_assignments
from qipan.core.registry import load


def _elo(x: float | None) -> str:
    return "∞" if x is None else f"{x:+.0f}"


def probe(game_id: str, variant: str | None, options: dict[str, str], levels: list[str]) -> list[str]:
    """One move from the start position per level: what the search reached and how fast."""
    game = load(game_id, variant, options)
    lines = ["| level | first move | depth / iterations | nodes | seconds | nodes/s |", "|---|---|---|---|---|---|"]
    for level in levels:
        agent = make_agent(game, level)
        state = game.initial_state()
        while game.to_move(state) == -1:
            state = game.next_state(state, game.sample_chance(state, random.Random(0)))
        player = game.to_move(state)
        start = time.perf_counter()
        action = agent.choose(game, game.view(state, player), random.Random(0))
        seconds = time.perf_counter() - start
        stats = getattr(agent, "stats", None)
        depth = getattr(stats, "depth", "-")
        nodes = getattr(stats, "nodes", 0)
        nps = f"{nodes / seconds:,.0f}" if nodes else "-"
        lines.append(f"| {level} | {game.action_text(state, action)} | {depth} | {nodes or '-'} | "
                     f"{seconds:.2f} | {nps} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant")
    parser.add_argument("--option", action="append", default=[], help="game option KEY=VALUE")
    parser.add_argument("--levels", nargs="*", help="levels to measure (default: all of the game's)")
    parser.add_argument("--no-random", action="store_true", help="skip the matches against random")
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--random-opening", type=int, default=0,
                        help="random decisions at the start of each game (variety for deterministic agents)")
    parser.add_argument("--time-per-move", type=float)
    parser.add_argument("--duplicate", action="store_true",
                        help="play each deal once per seating; intervals over deals (luck-heavy games)")
    parser.add_argument("--json", help="write every pairing's report to this file")
    args = parser.parse_args(argv)

    options = parse_option_assignments(args.option)
    game = load(args.game, args.variant, options)
    levels = [name for name in agent_levels(game) if name != "random"]
    chosen = args.levels or levels
    pairs: list[tuple[str, str]] = []
    for level in chosen:
        index = levels.index(level)
        below = levels[index - 1] if index > 0 else "random"
        pairs.append((level, below))
        if below != "random" and not args.no_random:
            pairs.append((level, "random"))
    print(f"## {args.game} ({game.variant}; options {options or 'default'}; {args.games} games per pairing, "
          f"seed {args.seed}, random opening {args.random_opening}{', duplicate deals' if args.duplicate else ''})\n",
          flush=True)
    print("\n".join(probe(args.game, args.variant, options, chosen)) + "\n", flush=True)
    header = ("| A | B | games | A W-D-L | A score | 95% interval | Elo A−B (95%) | A s/move | A nodes/s | "
              "B s/move | wall s |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    reports: list[dict[str, Any]] = []
    for a, b in pairs:
        spec = ArenaSpec(args.game, a, b, variant=args.variant, options=tuple(options.items()), seed=args.seed,
                         time_per_move=args.time_per_move, max_moves=args.max_moves,
                         random_opening=args.random_opening, duplicate=args.duplicate)
        start = time.perf_counter()
        results = []
        for result in run(spec, args.games, args.jobs):
            results.append(result)
            print(f"  {a} vs {b}: game {len(results)}/{args.games} A {result.outcome} ({result.reason}, "
                  f"{result.moves} moves, {result.seconds:.0f} s)", file=sys.stderr, flush=True)
        wall = time.perf_counter() - start
        report = summarise(spec, results)
        report["wall_seconds"] = round(wall, 1)
        reports.append(report)
        s = report["summary"]
        low, high = s["interval"]
        e_low, e_high = s["elo_interval"]
        agents = report["agents"]

        def spm(key: str, agents: dict[str, Any] = agents) -> str:
            value = agents[key]["seconds_per_move"]
            return "-" if value is None else f"{value:.3f}"

        nps = agents["a"]["nodes_per_second"]
        print(f"| {a} | {b} | {s['games']} | {s['wins']}-{s['draws']}-{s['losses']} | {s['score']:.0%} | "
              f"{low:.0%}–{high:.0%} | {_elo(s['elo'])} ({_elo(e_low)}…{_elo(e_high)}) | {spm('a')} | "
              f"{'-' if nps is None else f'{nps:,}'} | {spm('b')} | {wall:.0f} |", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(reports, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
