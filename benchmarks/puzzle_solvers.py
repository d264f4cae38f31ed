"""Puzzle solvers: solve time (CPU seconds of this process, ``time.process_time``) and
positions expanded.

    python benchmarks/puzzle_solvers.py [--only solitaire|capture|eject|hint] [--width 4000]
        [--long-width 16000] [--bound-nodes 100000] [--hint-positions 60]

* solitaire: the ten-piece Chinese Checkers crossing by beam search from both ends, with
  adjacent jumps (the optimum is 27) and with long jumps (the best found, at widths 2000 and
  ``--long-width``),
  the lower bound proved for each (``--bound-nodes``), and the exact bidirectional search on the
  three-piece triangle.
* eject: the proof of every shipped Abalone puzzle (smallest N, unique first move).
* capture: a one-piece finish of 食棋 solitaire from the start, by the default step bounds and
  with one step at most between captures.
* hint: the 食棋 hint's search (what the server's hint budget must cover): from positions after
  1-50 random moves (seed 22), the positions searched until a finish is found, against budgets.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from qipan.games.abalone.game import Abalone
from qipan.puzzles import capture, eject
from qipan.puzzles.solitaire import Result, Solitaire, crossing, lower_bound, shortest


def timed(solve: Callable[[], Result]) -> tuple[Result, float]:
    start = time.process_time()
    result = solve()
    return result, time.process_time() - start


def bounds(max_nodes: int) -> None:
    print(f"proved lower bounds, ten pieces (iterative deepening on wasted moves, {max_nodes} positions)")
    for jump in ("adjacent", "long"):
        began = time.process_time()
        bound = lower_bound(Solitaire(jump=jump), max_nodes=max_nodes)
        seconds = time.process_time() - began
        print(f"  jump={jump:8}: at least {bound.moves} moves{' (exact)' if bound.exact else ''}, "
              f"{bound.nodes} positions, {seconds:.1f} s")


def solitaire(width: int, long_width: int, bound_nodes: int) -> None:
    print("Chinese Checkers solitaire (beam search from both ends, ten pieces)")
    for jump, w in (("adjacent", width), ("long", 2000), ("long", long_width)):
        puzzle = Solitaire(jump=jump)
        result, seconds = timed(lambda p=puzzle, w=w: crossing(p, width=w))  # type: ignore[misc]
        assert result.moves is not None and puzzle.replay(result.moves) == puzzle.target
        print(f"  jump={jump:8} width {w:5}: {len(result.moves)} moves, {result.nodes} positions, {seconds:.1f} s")
    bounds(bound_nodes)
    print("exact bidirectional breadth-first search, three pieces (rows a-b to rows p-q)")
    for jump in ("adjacent", "long"):
        puzzle = Solitaire(rows=2, jump=jump)
        result, seconds = timed(lambda p=puzzle: shortest(p, max_nodes=10**6))  # type: ignore[misc]
        assert result.moves is not None
        print(f"  jump={jump:8}: optimum {len(result.moves)} moves, {result.nodes} positions, {seconds:.1f} s")


def shiqi() -> None:
    print("食棋 solitaire from the start (depth-first search over the engine's moves)")
    start = capture.game().initial_state()
    for bound in (None, 1):
        began = time.process_time()
        result = capture.solve(start, max_quiet=bound)
        seconds = time.process_time() - began
        steps = sum(not capture.is_capture(m) for m in result.moves)
        label = "bounds 2, 8, 60" if bound is None else f"bound {bound}"
        print(f"  {label:15}: found {result.found}, {len(result.moves)} moves ({steps} steps), "
              f"{result.nodes} positions, {seconds:.2f} s")


def hints(positions: int) -> None:
    print(f"食棋 hints from {positions} positions after 1-50 random moves (seed 22), search up to 400,000")
    rules = capture.game()
    rng = random.Random(22)
    needed: list[int] = []
    spent = 0.0
    searched = found_none = 0
    for _ in range(positions):
        state = rules.initial_state()
        for _ in range(rng.randint(1, 50)):
            if state.turn is None:
                break
            state = rules.next_state(state, rng.choice(rules.legal_actions(state)))
        began = time.process_time()
        result = capture.solve(state, max_nodes=400_000)
        spent += time.process_time() - began
        searched += result.nodes
        if result.found:
            needed.append(result.nodes)
        else:
            found_none += 1
    print(f"  found {len(needed)}, none found {found_none}; most positions needed {max(needed, default=0):,}; "
          f"{searched / spent:,.0f} positions a second")
    for budget in (20_000, 50_000, 100_000, 200_000):
        print(f"  budget {budget:7,}: a hint for {sum(n <= budget for n in needed)} of {positions}, "
              f"at most {budget / (searched / spent):.2f} s")


def abalone() -> None:
    print("Abalone 'eject in N': the proof of each shipped puzzle")
    game = Abalone()
    for puzzle in eject.shipped():
        began = time.process_time()
        verdict = eject.analyse(puzzle.position(game), puzzle.n)
        seconds = time.process_time() - began
        assert verdict.n == puzzle.n and verdict.unique
        print(f"  {puzzle.id} (n={puzzle.n}, {puzzle.rating:6}): {verdict.nodes:6} positions, {seconds:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("solitaire", "capture", "eject", "hint"), default=None)
    parser.add_argument("--width", type=int, default=4000, help="beam width of the adjacent-jump crossing search")
    parser.add_argument("--long-width", type=int, default=16000, help="beam width of the long-jump crossing search")
    parser.add_argument("--bound-nodes", type=int, default=100_000, help="positions the lower-bound proofs may expand")
    parser.add_argument("--hint-positions", type=int, default=60, help="random 食棋 positions the hint is timed on")
    args = parser.parse_args()
    if args.only in (None, "solitaire"):
        solitaire(args.width, args.long_width, args.bound_nodes)
    if args.only in (None, "capture"):
        shiqi()
    if args.only in (None, "eject"):
        abalone()
    if args.only in (None, "hint"):
        hints(args.hint_positions)


if __name__ == "__main__":
    main()
