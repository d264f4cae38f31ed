"""What keyed chance costs: one HMAC-keyed SHA-256 generator per chance event, against the single
Mersenne Twister per game that qipan used before (side by side, in one run).

Prints the cost of one die roll both ways, and random games per second of the dice and card
games played through :class:`qipan.core.Match` with keyed chance and with the old generator.

    python benchmarks/chance.py
    python benchmarks/chance.py --games 300
"""

from __future__ import annotations

import argparse
import random
import time
import timeit
from typing import Any

import qipan
from qipan.core import CHANCE, Match
from qipan.core.chance import event_rng, new_secret


def random_game(game: Any, sample: Any, rng: random.Random) -> int:
    """Play one game with random decisions; chance drawn by ``sample(state, event_index)``."""
    state, plies, events = game.initial_state(), 0, 0
    while (mover := game.to_move(state)) is not None:
        if mover == CHANCE:
            action = game.sample_chance(state, sample(events))
            events += 1
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.next_state(state, action)
        plies += 1
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per game and generator")
    args = parser.parse_args()

    secret = new_secret()
    twister = random.Random(1)
    n = 50_000
    keyed = timeit.timeit(lambda: event_rng(secret, "chance", 7).randint(1, 6), number=n) / n
    plain = timeit.timeit(lambda: twister.randint(1, 6), number=n) / n
    print(f"one die roll: keyed {keyed * 1e6:.2f} µs, one twister {plain * 1e6:.2f} µs ({keyed / plain:.0f}x)")

    print("\n| game | keyed games/s | twister games/s | ratio |\n|---|---|---|---|")
    for name, options in (("kelighine", {}), ("shengke", {}), ("tellstones", {"first_player": "random"})):
        game = qipan.load(name, options=options)
        timings = {}
        for label in ("keyed", "twister"):
            decisions = random.Random(5)
            started = time.perf_counter()
            for i in range(args.games):
                if label == "keyed":
                    seed = new_secret()
                    random_game(game, lambda e, s=seed: event_rng(s, "chance", e), decisions)
                else:
                    one = random.Random(i)
                    random_game(game, lambda e, g=one: g, decisions)
            timings[label] = args.games / (time.perf_counter() - started)
        print(f"| {name} | {timings['keyed']:.0f} | {timings['twister']:.0f} | "
              f"{timings['keyed'] / timings['twister']:.2f} |")
    match = Match(qipan.load("kelighine"))
    assert isinstance(match.seed, str) and len(match.seed) == 64  # Match uses keyed chance by default


if __name__ == "__main__":
    main()
