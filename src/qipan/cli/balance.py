"""``qipan balance``: how fair a game's rules are, measured by the AI playing every seat."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from qipan.ai.arena import GameResult
from qipan.ai.balance import (
    MAX_GAMES,
    Plan,
    SeatGame,
    make_plan,
    report_of,
    run,
    run_skill,
    seat_report,
    skill_report,
    skill_spec,
    weaker_levels,
)
from qipan.cli.numbers import number_option, whole_option
from qipan.cli.seats import rules_options
from qipan.cli.workers import Jobs
from qipan.core.errors import GameError, brief
from qipan.core.options import parse_option_assignments

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def pyplot() -> ModuleType:
    """matplotlib's pyplot (drawing to files only), or GameError saying how to install it."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise GameError("--plot needs matplotlib: pip install 'qipan[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(pair: list[float]) -> str:
    return f"{100 * pair[0]:.1f}–{_pct(pair[1])}"


def seats_table(report: dict[str, Any], point: dict[str, Any]) -> Table:
    """One point's positions: wins, share of the wins and its 95% interval."""
    where = "" if point["value"] is None else f", {report['sweep']['option']}={point['value']}"
    table = Table(title=f"{report['game']}{where}: {report['level']} in every seat, {point['games']} games")
    for column in ("position", "wins", "share", "95% interval"):
        table.add_column(column, justify="left" if column == "position" else "right")
    for p in point["positions"]:
        table.add_row(str(p["position"]), str(p["wins"]), _pct(p["share"]), _interval(p["interval"]))
    notes = [f"fair share {_pct(1 / len(point['positions']))}"]
    if point["uniformity"] is not None:
        u = point["uniformity"]
        notes.append(f"all positions equal? chi-square {u['chi2']:.2f} on {u['df']} df, p = {u['p']:.3f}")
    if point["first"] is not None and point["first"]["paired"]:
        notes.append("each deal played once with each player starting; interval over deals")
    notes.append(f"{point['distinct_games']} distinct games, {point['mean_moves']} moves on average")
    if point["seconds_per_move"] is not None:
        notes.append(f"{point['seconds_per_move']:.3f} s a move")
    limit = point["reasons"].get("move limit")
    if limit:
        notes.append(f"{limit} drawn at the move limit")
    if point["margin"] is not None:
        m = point["margin"]
        spread = "" if m["interval"] is None else f" ({m['interval'][0]:+.2f}…{m['interval'][1]:+.2f})"
        notes.append(f"first player's margin before the bonus {m['mean']:+.2f}{spread}")
    table.caption = "; ".join(notes)
    return table


def sweep_table(report: dict[str, Any]) -> Table:
    """A sweep's points side by side: position 1's share (the first player's score) and interval."""
    option = report["sweep"]["option"]
    table = Table(title=f"{report['game']}: {option} swept, {report['level']} in every seat")
    for column in (option, "games", "position 1", "95% interval", "first's margin before bonus"):
        table.add_column(column, justify="right")
    for point in report["points"]:
        first = point["positions"][0]
        margin = point["margin"]
        table.add_row(str(point["value"]), str(point["games"]), _pct(first["share"]), _interval(first["interval"]),
                      "-" if margin is None else f"{margin['mean']:+.2f}")
    notes = []
    best = report["fairest"]
    if best is not None:
        notes.append(f"fairest: {option}={best['value']}")
        if best.get("crossing") is not None:
            notes.append(f"the first player's score crosses 50% at {option}≈{best['crossing']}")
    if len({point["play_digest"] for point in report["points"]}) == 1:
        notes.append("every value played the very same games: only the scoring differs")
    table.caption = "; ".join(notes)
    return table


def skill_table(report: dict[str, Any], point: dict[str, Any]) -> Table:
    """The level against each weaker one: the stronger's score and interval."""
    where = "" if point["value"] is None else f", {report['sweep']['option']}={point['value']}"
    table = Table(title=f"{report['game']}{where}: skill, {report['level']} against weaker levels")
    for column in ("A", "B", "games", "A W-D-L", "A score", "95% interval"):
        table.add_column(column, justify="left" if column in ("A", "B") else "right")
    for s in point["skill"]:
        table.add_row(s["a"], s["b"], str(s["games"]), f"{s['wins']}-{s['draws']}-{s['losses']}", _pct(s["score"]),
                      _interval(s["interval"]))
    table.caption = "seats alternate; duplicate deals where the game has chance (interval over deals)"
    return table


def write_plot(report: dict[str, Any], path: Path) -> None:
    """A figure of the positions' shares (or position 1 across a sweep) and of the skill matches."""
    plt = pyplot()
    points = report["points"]
    skill = any(p.get("skill") for p in points)
    fig, axes = plt.subplots(1, 2 if skill else 1, figsize=(11 if skill else 6, 4.6), squeeze=False)
    ax = axes[0][0]
    counts = {len(p["positions"]) for p in points}
    players = min(counts)  # a sweep of the number of players: the positions every point has
    if report["sweep"] is not None:
        xs = [str(p["value"]) for p in points]
        for k in range(players if players > 2 else 1):
            ys = [p["positions"][k]["share"] for p in points]
            low = [y - p["positions"][k]["interval"][0] for y, p in zip(ys, points, strict=True)]
            high = [p["positions"][k]["interval"][1] - y for y, p in zip(ys, points, strict=True)]
            ax.errorbar(xs, ys, yerr=[low, high], capsize=4, marker="o", label=f"position {k + 1}")
        ax.set_xlabel(report["sweep"]["option"])
        ax.set_title("position 1's score" if players == 2 else "each position's share of the wins")
        if players > 2:
            ax.legend(fontsize=8)
    else:
        point = points[0]
        xs = [f"position {p['position']}" for p in point["positions"]]
        ys = [p["share"] for p in point["positions"]]
        low = [y - p["interval"][0] for y, p in zip(ys, point["positions"], strict=True)]
        high = [p["interval"][1] - y for y, p in zip(ys, point["positions"], strict=True)]
        ax.bar(xs, ys, yerr=[low, high], capsize=4, color="#4477aa")
        ax.set_title("share of the wins by position (95% interval)")
    if len(counts) == 1:
        ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    if skill:
        ax2 = axes[0][1]
        labels, ys, low, high = [], [], [], []
        for point in points:
            for s in point["skill"]:
                tag = "" if point["value"] is None else f"{report['sweep']['option']}={point['value']}\n"
                labels.append(f"{tag}vs {s['b']}")
                ys.append(s["score"])
                low.append(s["score"] - s["interval"][0])
                high.append(s["interval"][1] - s["score"])
        ax2.bar(labels, ys, yerr=[low, high], capsize=4, color="#66aa55")
        ax2.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        ax2.set_ylim(0, 1)
        ax2.set_title(f"{report['level']}'s score against weaker levels")
        ax2.tick_params(axis="x", labelsize=7)
    options = ", ".join(f"{k}={v}" for k, v in report["options"].items()) or "default options"
    fig.suptitle(f"{report['game']} ({options})\n{report['level']} in every seat, {points[0]['games']} games a point",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it: a run stopped mid-write (or a
    full disk) leaves the earlier file whole, never half a report."""
    target = path.resolve()  # a symbolic link keeps pointing where it did
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _check_outputs(json_out: Path | None, plot: Path | None) -> None:
    """Refuse, before any game, output files that could not be written at the end."""
    for path in (json_out, plot):
        if path is None:
            continue
        if not path.resolve().parent.is_dir():
            raise GameError(f"no folder {brief(str(path.parent), 80)} to write {brief(path.name, 60)} in")
        if path.exists() and not path.is_file():  # a folder fails, a FIFO blocks, after every game
            raise GameError(f"{brief(str(path), 80)} is not a file")
        try:  # a folder that takes no new file (read-only, /proc) would fail only after every game
            handle, probe = tempfile.mkstemp(dir=path.resolve().parent, prefix=".qipan-")
            os.close(handle)
            os.unlink(probe)
        except OSError as exc:
            raise GameError(f"cannot write {brief(path.name, 60)} in {brief(str(path.parent), 80)}: "
                            f"{exc.strerror or 'failed'}") from None
    if plot is not None:
        if plot.suffix.lower() not in PLOT_SUFFIXES:
            kind = plot.suffix or "a file without one"
            raise GameError(f"--plot writes {', '.join(PLOT_SUFFIXES)} files, not {brief(kind, 20)}")
        pyplot()


def _measure(plan: Plan, games: int, jobs: int, console: Console) -> list[dict[str, Any]]:
    """Play every point (and its skill matches), printing each point's tables as it finishes."""
    points = []
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        for value, spec in plan.points:
            label = "" if value is None else f"{plan.sweep[0] if plan.sweep else ''}={value} "
            task = progress.add_task(f"{label}{spec.level} in every seat", total=games)
            results: list[SeatGame] = []
            for result in run(spec, games, jobs):
                results.append(result)
                progress.update(task, advance=1)
            point = {"value": value, **seat_report(spec, results), "skill": []}
            if plan.skill:
                for weaker in weaker_levels(spec.make_game(), spec.level):
                    arena = skill_spec(spec, weaker)
                    task = progress.add_task(f"{label}{spec.level} vs {weaker}", total=games)
                    played: list[GameResult] = []
                    for game_result in run_skill(arena, games, jobs):
                        played.append(game_result)
                        progress.update(task, advance=1)
                    point["skill"].append(skill_report(arena, played))
            points.append(point)
            shown = report_of(plan, points)
            progress.console.print(seats_table(shown, point))
            if point["skill"]:
                progress.console.print(skill_table(shown, point))
    return points


def balance_command(
    game: Annotated[str, typer.Argument(help="game id, e.g. shengke")],
    games: Annotated[int, whole_option("--games", "-n", help="games per point (and per skill match)", minimum=1,
                                       maximum=MAX_GAMES)] = 100,
    jobs: Jobs = 1,
    level: Annotated[str | None, typer.Option(
        "--level", help="the AI level in every seat (default: the game's strongest practical level)")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="game variant")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = None,
    sweep: Annotated[str | None, typer.Option(
        "--sweep", help="measure each value of one option: KEY=LOW..HIGH or KEY=A,B,... "
                        "(e.g. first_bonus=0..4)")] = None,
    skill: Annotated[bool, typer.Option(
        "--skill", help="also play the level against each weaker level (how much skill matters)")] = False,
    seed: Annotated[int, whole_option("--seed", help="seed of the first game or deal")] = 0,
    time_per_move: Annotated[
        float | None, number_option("--time-per-move", "-t", minimum=0.01,
                                    help="seconds per move for search levels (replaces their depth/iterations)")
    ] = None,
    max_moves: Annotated[
        int, whole_option("--max-moves", minimum=1, help="declare a draw after this many decisions")
    ] = 1000,
    random_opening: Annotated[
        int, whole_option("--random-opening", minimum=0, help="play this many random decisions first (game variety)")
    ] = 0,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the report as JSON here")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="draw the results to this .png/.svg/.pdf (needs matplotlib, the plot extra)")] = None,
) -> None:
    """Measure how fair GAME's rules are: the same AI level in every seat, each position's share of
    the wins with its 95% interval; with --sweep, for each value of an option; with --skill, the
    level against weaker ones beside the equal match."""
    console = Console()
    try:
        _check_outputs(json_out, plot)
        options = rules_options(game, variant, parse_option_assignments(option or []))
        plan = make_plan(game, variant, options, level=level, sweep=sweep, skill=skill, games=games, seed=seed,
                         time_per_move=time_per_move, max_moves=max_moves, random_opening=random_opening, jobs=jobs)
        points = _measure(plan, games, jobs, console)
        report = report_of(plan, points)
        if report["sweep"] is not None:
            console.print(sweep_table(report))
        if json_out is not None:
            write_atomically(json_out, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
            console.print(f"report written to {json_out}")
        if plot is not None:
            write_plot(report, plot)
            console.print(f"plot written to {plot}")
    except GameError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot write the output: {escape(exc.strerror or 'failed')}")
        raise typer.Exit(2) from None
