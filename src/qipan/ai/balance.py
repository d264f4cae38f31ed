"""How fair a game's rules are, measured by AI self-play (the engine behind ``qipan balance``).

Every seat is played by the same AI level, so a difference between the seats is the rules'
doing, not the players'. Positions count in the order of play: position 1 moves first. In a
two-player game whose rules let the players choose who starts (Sheng-Ke's ``first``), each deal
(seed) is played twice, once with each player starting, through the arena's duplicate deals: the
same shuffles and dice, the luck of the cards balanced between the two positions, and the interval
of the first player's score is computed over deals. Otherwise position *p* is seat *p* and game
*i* has seed ``seed + i``.

A sweep measures the same for each value of one option (Sheng-Ke's ``first_bonus``), on the same
seeds for every value, and names the value whose seats are closest to even. *Skill* matches play
the level against each weaker level (seats alternating, duplicate deals where the game has chance)
to show how much of a result is skill, beside the equal match.

>>> parse_sweep("first_bonus=0..4"), parse_sweep("first-bonus=1,3")
(('first_bonus', ['0', '1', '2', '3', '4']), ('first_bonus', ['1', '3']))
>>> shares([0, 1], [1.0, -1.0]), shares([1, 0], [0.0, 0.0]), shares([0, 1, 2], [-0.5, 1.0, -0.5])
([1.0, 0.0], [0.5, 0.5], [0.0, 1.0, 0.0])
"""

from __future__ import annotations

import hashlib
import itertools
import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from qipan.ai.agent import agent_levels, make_agent
from qipan.ai.arena import (
    ArenaSpec,
    GameResult,
    Summary,
    play_unsaved,
    summarise,
    t_quantile,
    wilson,
)
from qipan.ai.arena import check as check_arena
from qipan.ai.arena import run as run_arena
from qipan.ai.runner import play_all
from qipan.core.errors import GameError, brief, choices_text
from qipan.core.game import Game
from qipan.core.registry import game_class, load

SCHEMA = "qipan-balance/1"
"""The ``schema`` field of the JSON report (docs/balance.md describes it)."""

MAX_GAMES = 100_000
MAX_SWEEP_VALUES = 21
MAX_SWEEP_TEXT = 200

PRACTICAL_LEVELS: dict[str, str] = {
    "abalone": "hard",
    "chinese-checkers": "hard",
    "kelighine": "hard",
    "shengke": "medium",
    "tellstones": "perfect",
}
"""The strongest level that plays enough games in minutes, by game (docs/balance.md says why
some are not the very strongest): Abalone's max and two-player Chinese Checkers' max think 1 s and
3 s a move; Sheng-Ke's hard takes twice medium's time for a 58% score against it."""

MULTI_PLAYER_LEVELS: dict[str, str] = {"chinese-checkers": "medium"}
"""The same with three or more players: Chinese Checkers' hard thinks 0.3-0.6 s a move over games
of 200-450 moves, half a minute to four minutes a game."""


def practical_level(game: Game[Any, Any]) -> str:
    """The level ``qipan balance`` plays ``game`` with unless told otherwise.

    >>> practical_level(load("chinese-checkers")), practical_level(load("chinese-checkers", None, {"players": 3}))
    ('hard', 'medium')
    """
    if game.num_players > 2 and game.name in MULTI_PLAYER_LEVELS:
        return MULTI_PLAYER_LEVELS[game.name]
    levels = agent_levels(game)
    return PRACTICAL_LEVELS.get(game.name, levels[-1])


def starter_option(game: Game[Any, Any]) -> str | None:
    """The option that chooses who starts (a seat option offering ``random``), for two players."""
    if game.num_players != 2:
        return None
    for option in type(game).options:
        if option.seat and option.choices is not None and "random" in option.choices:
            return option.name
    return None


def has_chance(game: Game[Any, Any]) -> bool:
    """Whether the rules roll dice or shuffle (the game defines its chance outcomes)."""
    return type(game).chance_outcomes is not Game.chance_outcomes


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``KEY=LOW..HIGH`` (whole numbers) or ``KEY=A,B,...`` as the option name and its values
    (checked against the game later, by loading it with each); GameError if malformed."""
    if len(text) > MAX_SWEEP_TEXT:
        raise GameError(f"--sweep: a text of {len(text)} characters is longer than {MAX_SWEEP_TEXT}")
    key, sep, spec = text.partition("=")
    key, spec = key.strip().replace("-", "_"), spec.strip()  # first-bonus, as --option takes it
    if not sep or not key or not spec:
        raise GameError(f"--sweep {brief(text, 60)} must be written KEY=LOW..HIGH or KEY=A,B,..., "
                        "e.g. first_bonus=0..4")
    low, dots, high = spec.partition("..")
    if dots:
        try:
            first, last = int(low), int(high)
        except ValueError:
            raise GameError(f"--sweep {brief(text, 60)}: LOW..HIGH takes two whole numbers") from None
        if last < first:
            raise GameError(f"--sweep {brief(text, 60)}: HIGH is below LOW")
        if last - first + 1 > MAX_SWEEP_VALUES:
            raise GameError(f"--sweep {brief(text, 60)}: at most {MAX_SWEEP_VALUES} values")
        return key, [str(v) for v in range(first, last + 1)]
    values = [v.strip() for v in spec.split(",")]
    if any(not v for v in values):
        raise GameError(f"--sweep {brief(text, 60)}: an empty value")
    if len(values) > MAX_SWEEP_VALUES:
        raise GameError(f"--sweep {brief(text, 60)}: at most {MAX_SWEEP_VALUES} values")
    if len(set(values)) < len(values):
        raise GameError(f"--sweep {brief(text, 60)}: a value given twice")
    return key, values


def shares(order: list[int], returns: list[float]) -> list[float]:
    """Each position's share of one game's win: 1 to the position that alone holds the best
    payoff, split evenly between those that share it (a draw is half a win for two players)."""
    best = max(returns)
    holders = [p for p, seat in enumerate(order) if returns[seat] == best]
    return [1 / len(holders) if p in holders else 0.0 for p in range(len(order))]


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (no SciPy: the
    closed forms for df 1 and 2, then Q(a + 1) = Q(a) + (x/2)^a e^(-x/2) / Γ(a + 1) with a = df/2).

    >>> [round(chi_square_sf(x, df), 3) for x, df in ((3.841, 1), (5.991, 2), (7.815, 3), (11.070, 5))]
    [0.05, 0.05, 0.05, 0.05]
    """
    if x <= 0:
        return 1.0
    half = x / 2
    a, q = (0.5, math.erfc(math.sqrt(half))) if df % 2 else (1.0, math.exp(-half))
    while a < df / 2:
        q += math.exp(a * math.log(half) - half - math.lgamma(a + 1))
        a += 1
    return min(1.0, q)


def uniformity(totals: list[float], games: int) -> dict[str, Any]:
    """Pearson's chi-square test that every position wins equally often (shares as counts).

    >>> uniformity([30, 30, 30], 90)
    {'chi2': 0.0, 'df': 2, 'p': 1.0}
    """
    expected = games / len(totals)
    chi2 = sum((t - expected) ** 2 / expected for t in totals) if expected else 0.0
    return {"chi2": round(chi2, 3), "df": len(totals) - 1, "p": round(chi_square_sf(chi2, len(totals) - 1), 4)}


@dataclass(frozen=True)
class BalanceSpec:
    """One measurement: a game with its options, every seat played by ``level`` (picklable)."""

    game: str
    level: str
    variant: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    time_per_move: float | None = None
    max_moves: int = 1000
    random_opening: int = 0
    starter: str | None = None
    """The option choosing who starts: each deal is played once with each player starting."""

    def make_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, dict(self.options))

    def arena_spec(self, index: int) -> ArenaSpec:
        """The arena game behind game ``index``: the level against itself, in duplicate deals
        with the starting player alternating when the game has a starter option."""
        options = self.options
        if self.starter is not None:
            options = (*options, (self.starter, str(index % 2)))
        return ArenaSpec(self.game, self.level, self.level, self.variant, options, self.seed, self.time_per_move,
                         self.max_moves, self.random_opening, duplicate=self.starter is not None)

    def order(self, index: int, players: int) -> list[int]:
        """The seats in the order they play in game ``index``."""
        start = index % 2 if self.starter is not None else 0
        return [(start + k) % players for k in range(players)]


@dataclass
class SeatGame:
    """One self-play game: the seats in order of play, the payoffs (by seat) and what it cost."""

    index: int
    seed: int
    order: list[int]
    returns: list[float]
    reason: str
    moves: int
    decisions: int
    think: float
    digest: str
    margin: float | None = None
    """Points games (Sheng-Ke): the first player's count minus the second's, before any bonus."""


def play_seated(spec: BalanceSpec, index: int) -> SeatGame:
    """Play game ``index`` of a measurement (a worker function: module level, picklable)."""
    arena = spec.arena_spec(index)
    result, record = play_unsaved(arena, index)
    game = arena.make_game()
    order = spec.order(index, game.num_players)
    digest = hashlib.sha256("\n".join(m.text for m in record.moves).encode()).hexdigest()[:16]
    margin = None
    on_field: Callable[[Any], tuple[int, ...]] | None = getattr(game, "on_field", None)
    if on_field is not None and result.reason != "move limit":
        counts = on_field(record.replay()[-1])
        margin = float(counts[order[0]] - counts[order[1]])
    return SeatGame(index, result.seed, order, result.returns, result.reason, result.moves,
                    sum(result.decisions.values()), sum(result.think.values()), digest, margin)


def check(spec: BalanceSpec, games: int, jobs: int = 1) -> None:
    """Raise GameError for a bad game, option, level or count, before any game starts."""
    if not 1 <= games <= MAX_GAMES:
        raise GameError(f"games must be from 1 to {MAX_GAMES}, not {games}")
    spec.make_game()
    if spec.starter is not None and games % 2:
        raise GameError(f"{spec.game}: each deal is played once with each player starting, so games must be even, "
                        f"not {games}")
    check_arena(spec.arena_spec(0), games, jobs)


def run(spec: BalanceSpec, games: int, jobs: int = 1) -> Iterator[SeatGame]:
    """Play the measurement's games, yielding each as it finishes (``jobs`` worker processes)."""
    check(spec, games, jobs)
    yield from play_all(play_seated, spec, games, jobs)


def seat_report(spec: BalanceSpec, results: list[SeatGame]) -> dict[str, Any]:
    """The seats' shares of the wins with 95% intervals (over deals when the starter alternates,
    else Wilson's), the first player's score for two players, and what the games cost."""
    results = sorted(results, key=lambda r: r.index)
    count = len(results)
    players = len(results[0].order) if results else spec.make_game().num_players
    per_game = [shares(r.order, r.returns) for r in results]
    first: Summary | None = None
    if players == 2:
        first = Summary("first", "second", deal=2 if spec.starter is not None else 1)
        for r, s in zip(results, per_game, strict=True):
            first.add(s[0], r.index)
    positions = []
    for p in range(players):
        total = sum(s[p] for s in per_game)
        wins = sum(1 for s in per_game if s[p] == 1.0)
        if first is not None:
            low, high = first.interval
            interval = (low, high) if p == 0 else (1 - high, 1 - low)
        else:
            interval = wilson(total, count)
        positions.append({"position": p + 1, "wins": wins, "share": round(total / count, 4) if count else None,
                          "interval": [round(interval[0], 4), round(interval[1], 4)]})
    decisions = sum(r.decisions for r in results)
    report: dict[str, Any] = {
        "options": dict(spec.options), "games": count, "positions": positions,
        "first": first.to_json() if first is not None else None,
        "uniformity": uniformity([sum(s[p] for s in per_game) for p in range(players)], count)
        if first is None else None,
        "margin": margin_report(results, spec.starter is not None),
        "distinct_games": len({r.digest for r in results}),
        "play_digest": hashlib.sha256(" ".join(r.digest for r in results).encode()).hexdigest()[:16],
        "reasons": dict(Counter(r.reason for r in results)),
        "mean_moves": round(sum(r.moves for r in results) / count, 1) if count else None,
        "seconds_per_move": round(sum(r.think for r in results) / decisions, 4) if decisions else None,
    }
    return report


def margin_report(results: list[SeatGame], paired: bool) -> dict[str, Any] | None:
    """Mean of the first player's margin before the bonus, with Student's t 95% interval (over
    deals when paired; None with a single deal), and how often each margin occurred; None for
    games without points."""
    margins = [r.margin for r in results if r.margin is not None]
    if len(margins) < 2 or len(margins) < len(results):
        return None
    values: list[float] = margins
    if paired:
        deals: dict[int, list[float]] = {}
        for r in results:
            assert r.margin is not None
            deals.setdefault(r.index // 2, []).append(r.margin)
        values = [sum(v) / len(v) for v in deals.values()]
    mean = sum(values) / len(values)
    interval = None
    if len(values) > 1:
        half = t_quantile(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
        interval = [round(mean - half, 3), round(mean + half, 3)]
    counts = Counter(int(m) for m in margins)
    return {"mean": round(mean, 3), "interval": interval,
            "counts": {str(k): counts[k] for k in sorted(counts)}}


def fairest(points: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Of a sweep's points, the value whose positions are closest to even (for two players the
    first player's score closest to 50%), and for two players where the score crosses 50%
    between neighbouring values (linear interpolation), if it does."""
    if len(points) < 2:
        return None

    def unevenness(point: dict[str, Any]) -> float:
        fair = 1 / len(point["positions"])
        return max(abs(float(p["share"]) - fair) for p in point["positions"])

    best = min(points, key=unevenness)
    result: dict[str, Any] = {"value": best["value"], "unevenness": round(unevenness(best), 4)}
    if best["first"] is not None:
        result["score"] = best["first"]["score"]
        result["interval"] = best["first"]["interval"]
        result["crossing"] = _crossing(points)
    return result


def _crossing(points: list[dict[str, Any]]) -> float | None:
    """Where the first player's score first passes 50% between two numeric neighbours (in
    numeric order), or None (also when some point has more than two players)."""
    if any(p["first"] is None for p in points):
        return None
    try:
        curve = sorted((float(p["value"]), float(p["first"]["score"]) - 0.5) for p in points)
    except ValueError:
        return None
    for (x0, y0), (x1, y1) in itertools.pairwise(curve):
        if y0 == 0:
            return round(x0, 2)
        if y0 * y1 < 0:
            return round(x0 - y0 * (x1 - x0) / (y1 - y0), 2)
    return round(curve[-1][0], 2) if curve[-1][1] == 0 else None


def weaker_levels(game: Game[Any, Any], level: str) -> list[str]:
    """The levels below ``level``, strongest first (``random`` last)."""
    levels = agent_levels(game)
    return levels[: levels.index(level)][::-1]


def skill_spec(spec: BalanceSpec, weaker: str) -> ArenaSpec:
    """The arena match of the spec's level (A) against ``weaker`` (B): seats alternate, and with
    duplicate deals where the game has chance."""
    game = spec.make_game()
    return ArenaSpec(spec.game, spec.level, weaker, spec.variant, spec.options, spec.seed, spec.time_per_move,
                     spec.max_moves, spec.random_opening, duplicate=has_chance(game))


def skill_report(arena: ArenaSpec, results: list[GameResult]) -> dict[str, Any]:
    """The arena's summary of a skill match, with each side's seconds per move."""
    report = summarise(arena, results)
    return {**report["summary"], "duplicate": arena.duplicate,
            "seconds_per_move": {"a": report["agents"]["a"]["seconds_per_move"],
                                 "b": report["agents"]["b"]["seconds_per_move"]}}


def run_skill(arena: ArenaSpec, games: int, jobs: int = 1) -> Iterator[GameResult]:
    """Play a skill match (the arena's games, no records)."""
    yield from run_arena(arena, games, jobs)


@dataclass
class Plan:
    """What ``qipan balance`` measures: one spec per point (sweep value), and the skill matches."""

    base: BalanceSpec
    sweep: tuple[str, list[str]] | None = None
    skill: bool = False
    points: list[tuple[str | None, BalanceSpec]] = field(default_factory=list)


def make_plan(game: str, variant: str | None, options: dict[str, Any], *, level: str | None = None,
              sweep: str | None = None, skill: bool = False, games: int = 100, seed: int = 0,
              time_per_move: float | None = None, max_moves: int = 1000, random_opening: int = 0,
              jobs: int = 1) -> Plan:
    """Check everything (GameError with one line saying what is wrong) and lay out the points."""
    cls = game_class(game)
    options = {key.replace("-", "_"): value for key, value in options.items()}
    loaded = load(game, variant, options)
    chosen = level if level is not None else practical_level(loaded)
    if chosen not in agent_levels(loaded):
        raise GameError(f"{game} has no AI level {brief(chosen, 40)}; choose one of "
                        f"{choices_text(agent_levels(loaded))}")
    starter = starter_option(loaded)
    if starter is not None and starter in options:
        raise GameError(f"leave out the option {starter}: balance plays every deal once with each player starting")
    parsed = parse_sweep(sweep) if sweep is not None else None
    if parsed is not None:
        key = parsed[0]
        if key not in {o.name for o in cls.options}:
            raise GameError(f"{game} has no option {brief(key, 40)} to sweep; choose one of "
                            f"{choices_text([o.name for o in cls.options])}")
        if key == starter:
            raise GameError(f"the option {key} cannot be swept: balance plays every deal once with each player "
                            "starting")
        if key in options:
            raise GameError(f"the option {key} is swept: leave it out of --option")
    if skill and not weaker_levels(loaded, chosen):
        raise GameError(f"--skill needs a level below {chosen}")
    base = BalanceSpec(game, chosen, variant, tuple(options.items()), seed, time_per_move, max_moves,
                       random_opening, starter)
    plan = Plan(base, parsed, skill)
    values: list[str | None] = list(parsed[1]) if parsed is not None else [None]
    for value in values:
        point_options = dict(options)
        if parsed is not None:
            point_options[parsed[0]] = value
        point_game = load(game, variant, point_options)
        point_starter = starter_option(point_game)
        point = BalanceSpec(game, chosen, variant, tuple(point_options.items()), seed, time_per_move, max_moves,
                            random_opening, point_starter)
        if chosen not in agent_levels(point_game):
            raise GameError(f"{game} with {parsed[0] if parsed else 'these options'}={value} has no level {chosen}")
        check(point, games, jobs)
        if skill:
            for weaker in weaker_levels(point_game, chosen):
                check_arena(skill_spec(point, weaker), games, jobs)
        plan.points.append((value, point))
    make_agent(loaded, chosen, time_per_move)
    return plan


def report_of(plan: Plan, points: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole JSON report (schema ``qipan-balance/1``, docs/balance.md)."""
    base = plan.base
    return {
        "schema": SCHEMA, "game": base.game, "variant": base.variant, "options": dict(base.options),
        "level": base.level, "time_per_move": base.time_per_move, "max_moves": base.max_moves,
        "random_opening": base.random_opening, "seed": base.seed, "starter_option": base.starter,
        "sweep": {"option": plan.sweep[0], "values": plan.sweep[1]} if plan.sweep else None,
        "points": points, "fairest": fairest(points) if plan.sweep else None,
    }
