"""``qipan simulate <game>``: many AI-vs-AI games, and statistics a game designer would ask for.

Generic statistics for every game: game length (mean, spread, range), win rate by seat, and how
often a decision was a real choice (more than one legal action). A game may add its own
counters with a hook module ``qipan.games.<game>.stats`` defining ``collect(game, states) ->
dict[str, int]`` (and optionally ``turns(game, states) -> int``; otherwise a game's length is its
number of decisions). Kelighine's hook counts every push rule, promotions and double-1 choices.

>>> import qipan
>>> report = simulate(qipan.load("kelighine"), games=2, levels=["random", "random"], seed=1)
>>> report["games"], len(report["lengths"]), sum(report["wins"]) + report["draws"]
(2, 2, 2)
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qipan.ai import runner
from qipan.ai.agent import make_agent, movers
from qipan.ai.runner import RayCluster, play_all
from qipan.cli.numbers import whole_option
from qipan.cli.seats import load_game
from qipan.cli.workers import Jobs, RayAddress, UseRay, ray_cluster
from qipan.core.errors import GameError
from qipan.core.game import Game
from qipan.core.match import Match
from qipan.core.options import parse_option_assignments
from qipan.core.registry import load


def stats_hook(game: Game[Any, Any]) -> ModuleType | None:
    """The game's statistics module (``qipan.games.<game>.stats``), or None."""
    module_name = type(game).__module__.rsplit(".", 1)[0] + ".stats"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None


def _spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "stdev": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    return {
        "mean": statistics.fmean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "median": float(statistics.median(values)),
        "min": float(min(values)),
        "max": float(max(values)),
    }


@dataclass(frozen=True)
class SimulationSpec:
    """Everything a worker needs to play one game of a simulation (picklable)."""

    game: str
    variant: str
    options: tuple[tuple[str, Any], ...]
    levels: tuple[str, ...]
    seed: int = 0
    max_moves: int = 20000

    def make_game(self) -> Game[Any, Any]:
        return load(self.game, self.variant, dict(self.options))


@dataclass
class GameStats:
    """What one game of a simulation adds to the report."""

    index: int
    winners: list[int] | None
    """The seats holding the best payoff; None: unfinished."""
    length: float
    decisions: int
    choices: int
    """Decisions that had more than one legal action."""
    counters: dict[str, int] = field(default_factory=dict)


def play_one(spec: SimulationSpec, index: int) -> GameStats:
    """Play game ``index`` (seeded ``spec.seed + index``) with fresh agents, so that it is the same
    game whichever worker plays it, after whichever others. The agents are told of every
    position as in the arena (:func:`qipan.ai.agent.movers`)."""
    game = spec.make_game()
    agents = [make_agent(game, level) for level in spec.levels]
    hook = stats_hook(game)
    match = Match(game, seed=spec.seed + index)
    rng = random.Random(spec.seed + index)
    moves = choices = 0
    for mover in movers(match, agents):
        if moves >= spec.max_moves:
            break
        state = match.state
        choices += len(game.legal_actions(state)) > 1
        match.play(agents[mover].choose(game, game.view(state, mover), rng))
        moves += 1
    winners = None
    if match.over:
        returns = game.returns(match.state)
        winners = [p for p, r in enumerate(returns) if r == max(returns)]
    length = float(hook.turns(game, match.states) if hook and hasattr(hook, "turns") else moves)
    counters = {key: int(value) for key, value in hook.collect(game, match.states).items()} if hook else {}
    return GameStats(index, winners, length, moves, choices, counters)


def simulate(
    game: Game[Any, Any],
    games: int,
    levels: Sequence[str],
    seed: int = 0,
    max_moves: int = 20000,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    ray: RayCluster | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (game i seeded ``seed + i``) with the given AI level in each seat:
    here, in ``jobs`` worker processes or on ``ray`` (:mod:`qipan.ai.runner`)."""
    n = game.num_players
    if len(levels) == 1:
        levels = list(levels) * n
    if len(levels) != n:
        raise GameError(f"give one AI level for every seat ({n}) or a single level, not {len(levels)}")
    for level in set(levels):
        make_agent(game, level)  # an unknown level fails before any game starts
    runner.check(jobs, ray)
    spec = SimulationSpec(game.name, game.variant, tuple(game.config.items()), tuple(levels), seed, max_moves)
    played: list[GameStats] = []
    for stats in play_all(play_one, spec, games, jobs, ray):
        played.append(stats)
        if progress is not None:
            progress(len(played))
    played.sort(key=lambda stats: stats.index)
    hook = stats_hook(game)
    wins = [0] * n
    for stats in played:
        if stats.winners is not None and len(stats.winners) == 1:
            wins[stats.winners[0]] += 1
    counters: dict[str, list[int]] = {}
    for stats in played:
        for key, value in stats.counters.items():
            counters.setdefault(key, []).append(value)
    lengths = [stats.length for stats in played]
    total = sum(stats.decisions for stats in played)
    return {
        "game": game.name,
        "variant": game.variant,
        "options": dict(game.config),
        "games": games,
        "levels": list(levels),
        "seed": seed,
        "length_unit": "turns" if hook and hasattr(hook, "turns") else "decisions",
        "lengths": lengths,
        "length": _spread(lengths),
        "decisions": _spread([float(stats.decisions) for stats in played]),
        "choice_rate": sum(stats.choices for stats in played) / total if total else 0.0,
        "wins": wins,
        "win_rate": [w / games if games else 0.0 for w in wins],
        "draws": games - sum(wins),
        "unfinished": sum(stats.winners is None for stats in played),
        "rules": {
            key: {"per_game": statistics.fmean(values), "games_with": sum(v > 0 for v in values) / len(values)}
            for key, values in counters.items()
        },
    }


def report_tables(report: dict[str, Any]) -> list[Table]:
    """The report as rich tables."""
    options = ", ".join(f"{k}={v}" for k, v in report["options"].items())
    head = Table(title=f"{report['game']} ({options}): {report['games']} games, "
                       f"seats {', '.join(report['levels'])}")
    head.add_column("statistic")
    head.add_column("value", justify="right")
    length = report["length"]
    unit = report["length_unit"]
    head.add_row(f"game length ({unit})", f"{length['mean']:.1f} ± {length['stdev']:.1f}")
    head.add_row(f"median, range ({unit})", f"{length['median']:.0f}, {length['min']:.0f}–{length['max']:.0f}")
    head.add_row("decisions per game", f"{report['decisions']['mean']:.1f}")
    head.add_row("decisions with a real choice", f"{report['choice_rate']:.1%}")
    head.add_row("draws / unfinished", f"{report['draws']} / {report['unfinished']}")
    seats = Table(title="win rate by seat")
    seats.add_column("seat")
    seats.add_column("level")
    seats.add_column("wins", justify="right")
    seats.add_column("rate", justify="right")
    for seat, (wins, rate) in enumerate(zip(report["wins"], report["win_rate"], strict=True)):
        seats.add_row(str(seat + 1), report["levels"][seat], str(wins), f"{rate:.1%}")
    tables = [head, seats]
    if report["rules"]:
        rules = Table(title="rules fired")
        rules.add_column("rule")
        rules.add_column("per game", justify="right")
        rules.add_column("games with it", justify="right")
        for key, value in report["rules"].items():
            rules.add_row(key, f"{value['per_game']:.2f}", f"{value['games_with']:.0%}")
        tables.append(rules)
    return tables


def write_plot(report: dict[str, Any], path: Path) -> None:
    """A PNG with the game lengths, the win rate by seat and the rules fired (needs matplotlib)."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise GameError("--plot needs matplotlib: pip install 'qipan[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 3 if report["rules"] else 2
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 4.2))
    axes[0].hist(report["lengths"], bins=min(30, max(5, len(report["lengths"]) // 5)), color="#4477aa")
    axes[0].set_title(f"game length ({report['length_unit']})")
    axes[0].set_xlabel(report["length_unit"])
    axes[0].set_ylabel("games")
    seats = [f"seat {i + 1}\n{lvl}" for i, lvl in enumerate(report["levels"])]
    axes[1].bar(seats, report["win_rate"], color="#66aa55")
    axes[1].set_ylim(0, 1)
    axes[1].set_title("win rate by seat")
    if report["rules"]:
        keys = list(report["rules"])
        axes[2].barh(keys, [report["rules"][k]["per_game"] for k in keys], color="#cc6677")
        axes[2].invert_yaxis()
        axes[2].set_title("rules fired per game")
    options = ", ".join(f"{k}={v}" for k, v in report["options"].items())
    fig.suptitle(f"{report['game']} ({options}), {report['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def simulate_command(
    game: Annotated[str, typer.Argument(help="game id, e.g. kelighine")],
    games: Annotated[int, whole_option("--games", "-n", help="number of games", minimum=1)] = 200,
    jobs: Jobs = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
    version: Annotated[
        int | None, whole_option("--version", help="rules version, for games with a version option (kelighine)")
    ] = None,
    players: Annotated[
        int | None, whole_option("--players", help="number of players, where the game has the option")
    ] = None,
    level: Annotated[
        str, typer.Option("--level", help="AI level of every seat (random, easy, ...) or one per seat: easy,random")
    ] = "easy",
    variant: Annotated[str | None, typer.Option("--variant", help="game variant")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = None,
    seed: Annotated[int, whole_option("--seed", help="seed of game 1; game i uses seed + i - 1")] = 0,
    max_moves: Annotated[
        int, whole_option("--max-moves", minimum=1, help="stop a game as unfinished after this many decisions")
    ] = 20000,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="write a PNG of the statistics here (needs matplotlib)")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the full report as JSON here")] = None,
) -> None:
    """Play AI-vs-AI games and print game length, win rate by seat and how often each rule fired."""
    console = Console()
    try:
        options: dict[str, object] = dict(parse_option_assignments(option or []))
        if version is not None:
            options["version"] = version
        if players is not None:
            options["players"] = players
        game_obj = load_game(game, variant, options)
        levels = [x.strip() for x in level.split(",") if x.strip()]
        with console.status(f"playing {games} games of {game_obj.name}...") as status:
            report = simulate(
                game_obj, games, levels, seed=seed, max_moves=max_moves,
                progress=lambda done: status.update(f"played {done}/{games} games"),
                jobs=jobs, ray=ray_cluster(ray, ray_address),
            )
        for table in report_tables(report):
            console.print(table)
        if json_out is not None:
            json_out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
            console.print(f"report written to {json_out}")
        if plot is not None:
            write_plot(report, plot)
            console.print(f"plot written to {plot}")
    except GameError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
