"""``qipan puzzle``: list, play and solve the puzzles of :mod:`qipan.puzzles` (docs/puzzles.md)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from qipan.cli.boards import renderer
from qipan.core.errors import GameError, brief
from qipan.puzzles.attempt import MAX_MOVE_TEXT, Attempt, solution, start
from qipan.puzzles.catalogue import Entry, catalogue, find, puzzle_of_the_day

puzzle_app = typer.Typer(
    help="Puzzles: Chinese Checkers solitaire (cross in 27 moves), 食棋 (leave one piece) and Abalone "
         "'eject in N'. `qipan puzzle play --today` plays the puzzle of the day.",
    no_args_is_help=True,
    add_completion=False,
)

HELP = ("Type a move (e.g. d1-e6, i3-i5, a1b2), `hint`, `status`, `board` or `quit`.")


@puzzle_app.command("list")
def list_command() -> None:
    """List the puzzles: id, rating and what to do."""
    table = Table(title="qipan puzzles")
    table.add_column("id", style="bold")
    table.add_column("rating")
    table.add_column("goal")
    table.add_column("puzzle")
    for entry in catalogue():
        table.add_row(entry.id, entry.rating, goal(entry), entry.title)
    Console().print(table)


def goal(entry: Entry) -> str:
    """What counts as solved, in a few words."""
    if entry.kind == "crossing":
        return f"cross; best known {entry.par} moves"
    if entry.kind == "eject":
        return f"eject in {entry.par}"
    return "leave one piece"


def _day(date: str | None) -> datetime.date:
    if date is None:
        return datetime.datetime.now(datetime.UTC).date()
    try:
        return datetime.date.fromisoformat(date[:20])
    except ValueError:
        raise GameError(f"bad date {brief(date, 20)}: write it as YYYY-MM-DD") from None


def _entry(puzzle_id: str | None, today: bool, date: str | None) -> Entry:
    if puzzle_id is None or today:
        return puzzle_of_the_day(_day(date))
    return find(puzzle_id)


def _fail(console: Console, exc: GameError) -> typer.Exit:
    console.print(str(exc), highlight=False, markup=False, style="red")
    return typer.Exit(1)


@puzzle_app.command("today")
def today_command(
    date: Annotated[str | None, typer.Option(help="another day, YYYY-MM-DD (UTC today by default)")] = None,
) -> None:
    """Show the puzzle of the day (the same for everyone on a date)."""
    console = Console()
    try:
        entry = puzzle_of_the_day(_day(date))
    except GameError as exc:
        raise _fail(console, exc) from None
    console.print(f"puzzle of the day: [bold]{entry.id}[/bold] ({entry.rating}) — {entry.title}")
    console.print(f"play it with: qipan puzzle play {entry.id}")


@puzzle_app.command("solution")
def solution_command(puzzle_id: Annotated[str, typer.Argument(help="a puzzle id (qipan puzzle list)")]) -> None:
    """Print a whole solution of a puzzle: every move of the crossing or the 食棋 finish; for
    Abalone the winning line with the defender's replies."""
    console = Console()
    try:
        entry = find(puzzle_id)
    except GameError as exc:
        raise _fail(console, exc) from None
    moves = solution(entry)
    if entry.kind == "eject":
        # the line alternates the attacker's moves and the defender's replies
        console.print(f"{entry.id}: eject in {entry.par}, against the defence that resists longest", markup=False)
        for number in range(0, len(moves), 2):
            reply = f"  (reply {moves[number + 1]})" if number + 1 < len(moves) else "  pushes a marble off"
            console.print(f"{number // 2 + 1}. {moves[number]}{reply}", markup=False)
        return
    console.print(f"{entry.id}: {len(moves)} move{'s' if len(moves) != 1 else ''}")
    console.print(" ".join(moves), markup=False)


def run(attempt: Attempt, ask: Callable[[str], str], console: Console) -> bool:
    """The play loop: show the board, read moves until the puzzle is over; True if solved."""
    render = renderer(attempt.game)
    console.print(f"[bold]{attempt.entry.title}[/bold]")
    console.print(HELP)
    console.print(render(attempt.game, attempt.view()))
    console.print(attempt.status())
    while not attempt.done:
        try:
            text = ask("> ")
        except (EOFError, KeyboardInterrupt):
            console.print("bye")
            return False
        command = text.strip().lower()[:MAX_MOVE_TEXT + 1]
        if command in ("quit", "exit", "q"):
            return False
        if command in ("hint", "status", "board", "help", ""):
            message = {"hint": attempt.hint, "status": attempt.status}.get(command)
            if command == "board":
                console.print(render(attempt.game, attempt.view(), last=attempt.last))
            else:
                console.print(message() if message else HELP, markup=False)
            continue
        try:
            outcome = attempt.play(command)
        except GameError as exc:
            console.print(str(exc), markup=False, style="red")
            continue
        console.print(render(attempt.game, attempt.view(), last=attempt.last))
        console.print(outcome, markup=False)
    if attempt.solved:
        console.print("[green]solved![/green]")
    return attempt.solved


@puzzle_app.command("play")
def play_command(
    puzzle_id: Annotated[str | None, typer.Argument(help="a puzzle id (default: the puzzle of the day)")] = None,
    today: Annotated[bool, typer.Option("--today", help="play the puzzle of the day")] = False,
    date: Annotated[str | None, typer.Option(help="the puzzle of another day, YYYY-MM-DD")] = None,
) -> None:
    """Play a puzzle in the terminal."""
    console = Console()
    try:
        entry = _entry(puzzle_id, today, date)
    except GameError as exc:
        raise _fail(console, exc) from None
    run(start(entry), input, console)


@puzzle_app.command("generate")
def generate_command(
    out: Annotated[Path, typer.Option(help="where to write the puzzles (JSON)")],
    games: Annotated[int, typer.Option(min=1, max=1000, help="AI games to play")] = 6,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed + i)")] = 22001,
    per_rating: Annotated[int, typer.Option(min=1, max=100, help="puzzles to keep per rating")] = 4,
    per_game: Annotated[int, typer.Option(min=1, max=100, help="most puzzles taken from one game")] = 2,
    gap: Annotated[int, typer.Option(min=0, max=1000, help="fewest plies between two puzzles of a game")] = 20,
) -> None:
    """Find Abalone 'eject in N' puzzles in AI games (easy/medium, medium/hard, hard/easy in turn):
    positions with exactly one first move that forces a push-off within N moves (N = 1, 2, 3), at
    most --per-game from one game and --gap plies apart (so no puzzle continues another)."""
    from qipan.puzzles.eject import generate_puzzles

    console = Console()
    # Checked before the games (minutes of play): a FIFO would block the write, a folder fail it.
    if out.is_dir() or not out.parent.is_dir() or (out.exists() and not out.is_file()):
        raise _fail(console, GameError(f"cannot write {brief(str(out), 60)}: give a file in an existing folder"))
    pairings = (("easy", "medium"), ("medium", "hard"), ("hard", "easy"))
    found = generate_puzzles(games, seed, pairings, per_rating, per_game=per_game, gap=gap,
                             log=lambda line: console.print(line, markup=False))
    try:
        out.write_text(json.dumps({"puzzles": [p.to_json() for p in found]}, ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
    except OSError as exc:
        raise _fail(console, GameError(f"cannot write {brief(str(out), 60)}: {exc.strerror}")) from None
    console.print(f"{len(found)} puzzles written to {out}", markup=False)
