"""``qipan arena``: pit two agents against each other and measure the difference honestly."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from qipan.ai.arena import ArenaSpec, GameResult, check, elo, run, summarise, summary_of
from qipan.cli.numbers import number_option, whole_option
from qipan.cli.seats import rules_options
from qipan.cli.workers import Jobs, RayAddress, UseRay, ray_cluster
from qipan.core.errors import GameError
from qipan.core.options import parse_option_assignments


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:+.0f}"


def results_table(report: dict[str, Any]) -> Table:
    """The arena results as a rich table (one row per agent, from its own point of view)."""
    s = report["summary"]
    table = Table(title=f"{report['game']}: {s['a']} (A) vs {s['b']} (B), {s['games']} games")
    for column in ("agent", "W", "D", "L", "score", "95% CI", "Elo", "Elo 95% CI", "s/move", "nodes/s"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    low, high = s["interval"]
    rows = (("a", f"A {s['a']}", (s["wins"], s["draws"], s["losses"]), s["score"], (low, high)),
            ("b", f"B {s['b']}", (s["losses"], s["draws"], s["wins"]), 1 - s["score"], (1 - high, 1 - low)))
    for key, label, wdl, score, (lo, hi) in rows:
        costs = report["agents"][key]
        spm = costs["seconds_per_move"]
        nps = costs["nodes_per_second"]
        table.add_row(
            label, *map(str, wdl), f"{score:.0%}", f"{100 * lo:.0f}–{hi:.0%}", _elo_text(elo(score)),
            f"{_elo_text(elo(lo))}…{_elo_text(elo(hi))}",
            "-" if spm is None else f"{spm:.3f}", "-" if nps is None else f"{nps:,.0f}",
        )
    if s.get("paired"):
        table.caption = "duplicate deals: the interval is over per-deal scores"
    return table


RECORDS_ROOT = "arena-records"
"""Where the arena saves its game records unless told otherwise (relative to the working folder)."""


def default_records_dir(game: str, a: str, b: str, seed: int) -> Path:
    """The folder for one arena run's records: a rerun of the same match and seed replaces them.

    >>> default_records_dir("abalone", "hard", "medium", 7).as_posix()
    'arena-records/abalone-hard-vs-medium-seed7'
    """
    return Path(RECORDS_ROOT) / f"{game}-{a}-vs-{b}-seed{seed}"


def arena_command(
    game: Annotated[str, typer.Argument(help="game id, e.g. abalone")],
    a: Annotated[str, typer.Option("--a", help="agent A: random or a level (easy, medium, hard; "
                                                 "`qipan games` lists every game's)")],
    b: Annotated[str, typer.Option("--b", help="agent B: random or a level")],
    games: Annotated[int, whole_option("--games", "-n", help="number of games", minimum=1)] = 20,
    jobs: Jobs = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
    time_per_move: Annotated[
        float | None, number_option("--time-per-move", "-t", minimum=0.01,
                                    help="seconds per move for search agents (replaces their depth/iterations)")
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="game variant")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = None,
    seed: Annotated[int, whole_option("--seed", help="seed of game 1; game i uses seed + i - 1")] = 0,
    max_moves: Annotated[
        int, whole_option("--max-moves", minimum=1, help="declare a draw after this many decisions")
    ] = 1000,
    random_opening: Annotated[
        int, whole_option("--random-opening", minimum=0, help="play this many random decisions first (game variety)")
    ] = 0,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the full report as JSON here")] = None,
    records_dir: Annotated[
        Path | None, typer.Option("--records", help="save every game record in this folder "
                                                    f"(default: {RECORDS_ROOT}/GAME-A-vs-B-seedS)")
    ] = None,
    no_records: Annotated[bool, typer.Option("--no-records", help="do not save the game records")] = False,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="play each deal (seed) once per seating, so both agents get the "
                                               "same luck; the interval is then over deals")
    ] = False,
) -> None:
    """Play agent A against agent B: seats alternate (rotate with more players), every game is
    seeded and recorded; prints W/D/L, win rate with a 95% Wilson interval and the Elo difference."""
    console = Console()
    if no_records:
        records_dir = None
    elif records_dir is None:
        records_dir = default_records_dir(game, a, b, seed)
    try:
        options = rules_options(game, variant, parse_option_assignments(option or []))
        spec = ArenaSpec(
            game=game, a=a, b=b, variant=variant, options=tuple(options.items()), seed=seed,
            time_per_move=time_per_move, max_moves=max_moves, random_opening=random_opening,
            records_dir=str(records_dir) if records_dir is not None else None, duplicate=duplicate,
        )
        cluster = ray_cluster(ray, ray_address)
        check(spec, games, jobs, cluster)
        results: list[GameResult] = []
        summary = summary_of(spec)
        with Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("A {task.fields[w]}-{task.fields[d]}-{task.fields[l]}"), TimeElapsedColumn(),
            console=console, transient=False,
        ) as progress:
            task = progress.add_task(f"{game} {a} vs {b}", total=games, w=0, d=0, l=0)
            for result in run(spec, games, jobs, cluster):
                results.append(result)
                summary.add(result.outcome, result.index)
                progress.update(task, advance=1, w=summary.wins, d=summary.draws, l=summary.losses)
    except GameError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    report = summarise(spec, results)
    console.print(results_table(report))
    if records_dir is not None:
        console.print(f"{len(results)} records saved in {records_dir} (replay one with `qipan replay FILE`)")
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        console.print(f"report written to {json_out}")
