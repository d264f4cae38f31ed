"""Agent-against-agent matches with honest statistics (the engine behind ``qipan arena``).

Games run through :class:`qipan.core.Match` with chance sampled from each game's seed; every
agent sees only its own view and observes every action. Seats alternate (two players) or rotate
with the two agents swapped every other cycle (more players), so each agent plays every seat
equally often over ``2 * players`` games. In *duplicate* mode each deal (seed) is played once per
seating of that cycle, so chance (dice, shuffles, the random opening) is the same for both agents,
which balances the luck in the score, and the interval is computed over deals (:func:`deal_interval`).

>>> round(elo(0.75), 1)
190.8
>>> [round(x, 4) for x in wilson(8, 10)]
[0.4902, 0.9433]
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qipan.ai import runner
from qipan.ai.agent import make_agent, movers
from qipan.ai.runner import RayCluster, play_all
from qipan.core.errors import GameError
from qipan.core.game import Game
from qipan.core.match import Match
from qipan.core.record import Record
from qipan.core.registry import load

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws may count as half successes)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom (no SciPy):
    bisection on the exact distribution function of a whole ``df`` (Abramowitz and Stegun
    26.7.3-4), the Cornish-Fisher expansion (26.7.5, within 1e-8 there) above 100.

    >>> round(t_quantile(0.975, 19), 3), round(t_quantile(0.975, 1), 3), round(t_quantile(0.025, 4), 3)
    (2.093, 12.706, -2.776)
    """
    if df < 1 or not 0 < p < 1:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df >= 1, not p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if df > 100:
        z = statistics.NormalDist().inv_cdf(p)
        g = ((z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96,
             (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
             (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160)
        return z + sum(gk / float(df) ** (k + 1) for k, gk in enumerate(g))
    target = 2 * p - 1  # P(|T| <= t), which grows with theta = atan(t / sqrt(df))
    low, high = 0.0, math.pi / 2
    for _ in range(100):
        theta = (low + high) / 2
        if _t_central(theta, df) < target:
            low = theta
        else:
            high = theta
    return math.sqrt(df) * math.tan((low + high) / 2)


def _t_central(theta: float, df: int) -> float:
    """P(|T| <= sqrt(df) tan theta) for Student's t with a whole ``df`` (the finite series)."""
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2 == 0:
        term = total = 1.0
        for k in range(1, (df - 2) // 2 + 1):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(1, (df - 3) // 2 + 1):
        term *= c2 * (2 * k) / (2 * k + 1)
        total += term
    return 2 / math.pi * (theta + s * total)


def effective_deals(mean: float, variance: float, deals: int, confidence: float = 0.95) -> float:
    """Korn and Graubard's (1998) effective number of deals: how many coin flips would pin the
    mean down as well as these deals do, ``mean (1 - mean) / se**2`` with ``se**2 = variance /
    deals``, times ``(z / t)**2`` for the ``deals - 1`` degrees of freedom of the spread's estimate;
    capped at ``deals`` (design effect at least 1), which is also its value with no spread.

    >>> effective_deals(0.5, 0.0, 20), round(effective_deals(0.75, 1 / 12, 4), 3)
    (20, 3.414)
    """
    if deals < 2 or variance <= 0:
        return deals
    z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    t = t_quantile((1 + confidence) / 2, deals - 1)
    return min(float(deals), mean * (1 - mean) * deals / variance * (z / t) ** 2)


def deal_interval(deal_scores: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """Interval of the mean of per-deal scores (each in 0..1): Wilson's score interval with the
    Korn-Graubard :func:`effective_deals` as its size. Never narrower than Wilson's over the deals
    (as if each deal were one coin flip), and exactly that when every deal scored the same.

    >>> [round(x, 3) for x in deal_interval([0.5, 1.0, 0.5, 1.0])]
    [0.276, 0.959]
    """
    k = len(deal_scores)
    if k == 0:
        return (0.0, 1.0)
    mean = sum(deal_scores) / k
    variance = statistics.variance(deal_scores) if k > 1 else 0.0
    n = effective_deals(mean, variance, k, confidence)
    # the normal quantile, not t: the effective size already carries (z / t)**2, as in Korn-Graubard
    return wilson(mean * n, n, statistics.NormalDist().inv_cdf((1 + confidence) / 2))


def deal_size(players: int) -> int:
    """Games per deal in duplicate mode: one per seating of the arena's cycle.

    >>> deal_size(2), deal_size(3)
    (2, 6)
    """
    return 2 if players == 2 else 2 * players


def elo(score: float) -> float:
    """Elo difference implied by an expected score (±inf at 0 and 1).

    >>> elo(0.5)
    0.0
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


@dataclass
class Summary:
    """W/D/L of agent A against agent B, its score with a 95% interval and the Elo difference."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    deal: int = 1
    """Games per deal (duplicate mode; 1: every game its own deal)."""
    deals: dict[int, list[float]] = field(default_factory=dict)
    """A's outcomes by deal, in duplicate mode."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @property
    def paired(self) -> bool:
        """Whether the interval is over deals (duplicate mode) rather than over games."""
        return self.deal > 1 and bool(self.deals)

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval of the score. In duplicate mode the unit is the deal (:func:`deal_interval`:
        Wilson's with the Korn-Graubard effective number of deals); otherwise Wilson's over the games."""
        if self.paired:
            return deal_interval([sum(v) / len(v) for v in self.deals.values()])
        return wilson(self.wins + 0.5 * self.draws, self.games)

    @property
    def elo(self) -> float:
        return elo(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval
        return elo(low), elo(high)

    def add(self, outcome: float, index: int = 0) -> None:
        """Count A's ``outcome`` of game ``index`` (the index places it in its deal)."""
        if self.deal > 1:
            self.deals.setdefault(index // self.deal, []).append(outcome)
        if outcome > 0.5:
            self.wins += 1
        elif outcome < 0.5:
            self.losses += 1
        else:
            self.draws += 1

    def to_json(self) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return round(x, 1) if math.isfinite(x) else None

        low, high = self.interval
        e_low, e_high = self.elo_interval
        return {"a": self.a, "b": self.b, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "score": round(self.score, 4),
                "interval": [round(low, 4), round(high, 4)], "paired": self.paired,
                "elo": finite(self.elo), "elo_interval": [finite(e_low), finite(e_high)]}


@dataclass
class GameResult:
    """One arena game: who sat where, the payoffs, A's outcome (1 win, 0.5 draw, 0 loss), costs."""

    index: int
    seed: int
    seats: list[str]
    returns: list[float]
    outcome: float
    reason: str
    moves: int
    seconds: float
    think: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)
    record: str | None = None


MAX_TIME_PER_MOVE = 60.0
"""The longest time per move a batch accepts (seconds): more would keep one game going for days."""


@dataclass(frozen=True)
class ArenaSpec:
    """Everything a worker process needs to play one game (picklable)."""

    game: str
    a: str
    b: str
    variant: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    time_per_move: float | None = None
    max_moves: int = 1000
    random_opening: int = 0
    records_dir: str | None = None
    duplicate: bool = False

    def make_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, dict(self.options))

    def game_seed(self, index: int, players: int) -> int:
        """The seed of game ``index``: ``seed + index``, or in duplicate mode the seed of its deal.

        >>> [ArenaSpec("abalone", "a", "b", seed=10, duplicate=True).game_seed(i, 2) for i in range(4)]
        [10, 10, 11, 11]
        """
        return self.seed + (index // deal_size(players) if self.duplicate else index)


def seating(index: int, players: int) -> list[str]:
    """Which agent ("a" or "b") sits in each seat in game ``index``.

    >>> [seating(i, 2) for i in range(2)]
    [['a', 'b'], ['b', 'a']]
    >>> [''.join(seating(i, 3)) for i in range(6)]
    ['aba', 'aab', 'baa', 'bab', 'bba', 'abb']
    """
    pattern = ["a" if k % 2 == 0 else "b" for k in range(players)]
    if players == 2:
        return pattern if index % 2 == 0 else pattern[::-1]
    shift = index % players
    seats = pattern[-shift:] + pattern[:-shift] if shift else pattern
    if (index // players) % 2:
        seats = ["b" if s == "a" else "a" for s in seats]
    return seats


def outcome_for_a(seats: list[str], returns: list[float]) -> float:
    """1 if A alone holds the best payoff, 0 if B alone does, 0.5 otherwise."""
    best = max(returns)
    holders = {seats[i] for i, r in enumerate(returns) if r == best}
    if holders == {"a"}:
        return 1.0
    if holders == {"b"}:
        return 0.0
    return 0.5


def play_game(spec: ArenaSpec, index: int) -> GameResult:
    """Play game number ``index`` of an arena (seeded by :meth:`ArenaSpec.game_seed`) and save
    its record."""
    return save_record(spec, *play_unsaved(spec, index))


def play_unsaved(spec: ArenaSpec, index: int) -> tuple[GameResult, Record]:
    """Play game number ``index``; its result (no record path yet) and its record, for the
    process that saves the records (a worker may be on another machine)."""
    game = spec.make_game()
    seed = spec.game_seed(index, game.num_players)
    seats = seating(index, game.num_players)
    names = {"a": spec.a, "b": spec.b}
    agents = [make_agent(game, names[s], spec.time_per_move) for s in seats]
    labels = [f"{s.upper()}:{names[s]}" for s in seats]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(game.num_players)]
    opening = random.Random(f"{seed}:opening")
    match = Match(game, seed=seed, chance="auto", players=labels)
    think = {"a": 0.0, "b": 0.0}
    decisions = {"a": 0, "b": 0}
    nodes = {"a": 0, "b": 0}
    started = time.perf_counter()
    reason = "rules"
    count = 0
    for seat in movers(match, agents):
        if count >= spec.max_moves:
            reason = "move limit"
            break
        view = game.view(match.state, seat)
        t0 = time.perf_counter()
        if count < spec.random_opening:
            action = opening.choice(list(game.legal_actions(match.state)))
        else:
            action = agents[seat].choose(game, view, rngs[seat])
            who = seats[seat]
            think[who] += time.perf_counter() - t0
            decisions[who] += 1
            stats = getattr(agents[seat], "stats", None)
            nodes[who] += getattr(stats, "nodes", 0)
        try:
            match.play(action, player=seat)
        except GameError:
            if not match.over:  # an agent's illegal move is a bug worth seeing, not a loss
                raise
        count += 1
    record = match.record()
    if reason == "move limit":
        returns = [0.0] * game.num_players
        record.result = {"returns": returns, "text": f"draw: arena limit of {spec.max_moves} moves",
                         "reason": "move limit"}
    else:
        result = match.result()
        assert result is not None
        returns = [float(r) for r in result["returns"]]
        reason = str(result.get("reason", "rules"))
    return GameResult(index, seed, labels, returns, outcome_for_a(seats, returns), reason, count,
                      time.perf_counter() - started, think, decisions, nodes), record


def save_record(spec: ArenaSpec, result: GameResult, record: Record) -> GameResult:
    """Save game ``result.index``'s record in the spec's records folder (if any), noted in the result."""
    if spec.records_dir is not None:
        folder = Path(spec.records_dir)
        folder.mkdir(parents=True, exist_ok=True)
        result.record = str(folder / f"{record.game}-{result.index + 1:04d}.json")
        record.save(result.record)
    return result


def check(spec: ArenaSpec, games: int = 1, jobs: int = 1, ray: RayCluster | None = None) -> None:
    """Raise GameError for a bad game, option, agent name, count or runner, before any game starts."""
    if games < 1:
        raise GameError("games must be at least 1")
    if spec.time_per_move is not None and spec.time_per_move > MAX_TIME_PER_MOVE:
        raise GameError(f"the time per move must be at most {MAX_TIME_PER_MOVE:g} seconds, "
                        f"not {spec.time_per_move:.3g}")
    runner.check(jobs, ray)
    game = spec.make_game()
    for name in (spec.a, spec.b):
        make_agent(game, name)
    size = deal_size(game.num_players)
    if spec.duplicate and games % size:
        raise GameError(f"with duplicate deals, games must be a multiple of {size} (each deal is played "
                        f"once per seating), not {games}")


def run(spec: ArenaSpec, games: int, jobs: int = 1, ray: RayCluster | None = None) -> Iterator[GameResult]:
    """Play ``games`` games, yielding each result as it finishes: here, in ``jobs`` worker
    processes or on ``ray`` (:mod:`qipan.ai.runner`); this process saves the records."""
    check(spec, games, jobs, ray)
    for result, record in play_all(play_unsaved, spec, games, jobs, ray):
        yield save_record(spec, result, record)


def summary_of(spec: ArenaSpec) -> Summary:
    """An empty summary for ``spec`` (counting by deal in duplicate mode)."""
    deal = deal_size(spec.make_game().num_players) if spec.duplicate else 1
    return Summary(spec.a, spec.b, deal=deal)


def summarise(spec: ArenaSpec, results: list[GameResult]) -> dict[str, Any]:
    """The JSON report of an arena: summary, per-agent costs and every game."""
    summary = summary_of(spec)
    for result in results:
        summary.add(result.outcome, result.index)

    def per_agent(key: str) -> dict[str, Any]:
        think = sum(r.think[key] for r in results)
        moves = sum(r.decisions[key] for r in results)
        nodes = sum(r.nodes[key] for r in results)
        return {"decisions": moves, "seconds_per_move": round(think / moves, 4) if moves else None,
                "nodes_per_second": round(nodes / think) if think > 0 and nodes else None}

    return {"game": spec.game, "variant": spec.variant, "options": dict(spec.options),
            "seed": spec.seed, "duplicate": spec.duplicate, "time_per_move": spec.time_per_move,
            "summary": summary.to_json(),
            "agents": {"a": per_agent("a"), "b": per_agent("b")},
            "games": [asdict(r) for r in sorted(results, key=lambda r: r.index)]}


