"""How long a human waits for the AI's answer while all-AI games keep the AI workers busy.

Starts ``qipan serve`` (AI delay 0, 2 AI workers), creates ``--all-ai`` games between two AIs of
``--level`` (default: 40 hard Abalone games), lets them run for ``--warmup`` seconds, then plays
one human-vs-AI game per ``--human-levels`` level: the human plays a random legal move as soon as
it is their turn and times the round trip until the AI's answer arrives. Prints p50/p99/max per
level.

With ``--before DIR`` (the ``src`` directory of an older qipan, e.g. from
``git archive <commit> src | tar -x -C /tmp/before``), the same run alternates between that
version and this one (``--rounds`` each, before first), so both meet the same machine load, and
prints the ratios. The script speaks both wire protocols (tokens in the URL before issue 18, a
hello message after).

    python benchmarks/ai_fairness.py --before /tmp/qipan-before/src --moves 12
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from running_server import HERE, create_all_ai, play_as_human, server


async def measure(args: argparse.Namespace, base: str) -> dict[str, list[float]]:
    for _ in range(args.all_ai):
        await create_all_ai(base, args.game, args.level)
    await asyncio.sleep(args.warmup)
    rng = random.Random(args.seed)
    results: dict[str, list[float]] = {}
    for level in args.human_levels:
        waits = results[level] = []

        def answered(seconds: float, waits: list[float] = waits) -> bool:
            waits.append(seconds)
            return len(waits) < args.moves

        body = {"game": args.game, "seats": [{"kind": "human"}, {"kind": "ai", "level": level}]}
        await play_as_human(base, body, random.Random(rng.random()), answered)
    return results


def run_server(src: Path, args: argparse.Namespace) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp, server(src, Path(tmp) / "fair.db", "--ai-workers", "2") as (base, _):
        return asyncio.run(measure(args, base))


def stats(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    if not values:
        return (float("nan"),) * 3
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return statistics.median(values), p99, values[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="abalone")
    parser.add_argument("--level", default="hard", help="level of both AIs in the all-AI games")
    parser.add_argument("--all-ai", type=int, default=40, help="all-AI games running meanwhile")
    parser.add_argument("--human-levels", nargs="+", default=["random", "easy"])
    parser.add_argument("--moves", type=int, default=20, help="AI answers timed per level and round")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds the all-AI games run first")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, help="src directory of an older qipan to compare with")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    versions = [("before", args.before.resolve()), ("after", HERE)] if args.before else [("this", HERE)]
    waits: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        for name, src in versions:
            started = time.perf_counter()
            for level, values in run_server(src, args).items():
                waits.setdefault((name, level), []).extend(values)
            print(f"round {round_ + 1}, {name}: {time.perf_counter() - started:.0f} s", flush=True)
    print(f"\n{args.all_ai} all-AI {args.level} {args.game} games running; "
          f"a human's wait for the AI's answer (seconds):")
    print(f"{'version':8} {'level':8} {'n':>4} {'p50':>8} {'p99':>8} {'max':>8}")
    for (name, level), values in waits.items():
        p50, p99, top = stats(values)
        print(f"{name:8} {level:8} {len(values):4d} {p50:8.3f} {p99:8.3f} {top:8.3f}")
    if args.before:
        print("\nbefore / after:")
        for level in args.human_levels:
            b, a = stats(waits[("before", level)]), stats(waits[("after", level)])
            print(f"  {level:8} p50 {b[0] / a[0]:8.1f}x   p99 {b[1] / a[1]:8.1f}x")


if __name__ == "__main__":
    main()
