"""``qipan deck``: check and show Sheng-Ke deck files (TOML or JSON, see docs/games/shengke.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from qipan.core.errors import GameError
from qipan.games.shengke.cards import Deck, deck_from_data, deck_json, deck_problems, default_deck, read_deck_data
from qipan.games.shengke.elements import DIRECTIONS, ELEMENTS, GLYPHS, RANGES, Ranges, parse_ranges

deck_app = typer.Typer(
    help="Sheng-Ke (生剋棋) decks: check a deck file against the deck rules, show a deck, or print it as "
         "one line of JSON.",
    no_args_is_help=True,
    add_completion=False,
)

STYLES = ("green", "red", "yellow", "bright_white", "blue")


@deck_app.command("check")
def check_command(file: Annotated[Path, typer.Argument(help="deck file (.toml, or JSON)")]) -> None:
    """Validate FILE: print every violation and exit with code 1 if the deck is illegal."""
    console = Console()
    try:
        data = read_deck_data(file)
    except GameError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from None
    problems = deck_problems(data)
    if problems:
        console.print(f"[red]{file}: {len(problems)} problem{'s' if len(problems) > 1 else ''}[/red]")
        for problem in problems:
            console.print(f"  - {problem}", markup=False)
        raise typer.Exit(1)
    deck = deck_from_data(data)
    console.print(f"[green]{file}: {deck.name!r} is a legal deck[/green] (25 cards, 5 per element, "
                  "in and out numbers each add up to 100)")


def range_picture(number: int, ranges: Ranges = RANGES) -> str:
    """Range ``number`` as three lines, front row first: ``■`` in range, ``·`` not, ``◆`` the card.

    >>> print(range_picture(7))
    ■■■
    ■◆■
    ···
    """
    cells = {DIRECTIONS[d] for d in ranges[number]}
    return "\n".join(
        "".join("◆" if (f, r) == (0, 0) else "■" if (f, r) in cells else "·" for r in (-1, 0, 1))
        for f in (1, 0, -1)
    )


def deck_table(deck: Deck, ranges: Ranges = RANGES) -> Table:
    """A rich table of the deck's cards, each range drawn (front row on top) as the range table
    ``ranges`` has it."""
    table = Table(title=f"{deck.name} (25 cards)")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("element")
    table.add_column("in", justify="right")
    table.add_column("out", justify="right")
    table.add_column("in range")
    table.add_column("out range")
    for card in deck.cards:
        style = STYLES[card.element]
        table.add_row(card.id, f"[{style}]{card.name}[/{style}]",
                      f"[{style}]{GLYPHS[card.element]} {ELEMENTS[card.element]}[/{style}]",
                      str(card.range_in), str(card.range_out),
                      range_picture(card.range_in, ranges), range_picture(card.range_out, ranges))
    table.add_section()
    table.add_row("", "", "total", str(sum(c.range_in for c in deck.cards)),
                  str(sum(c.range_out for c in deck.cards)), "", "")
    return table


def _read(console: Console, file: Path | None) -> Deck:
    """The deck in ``file`` (the built-in one for None); exit 1 with its problems if illegal."""
    try:
        return default_deck() if file is None else deck_from_data(read_deck_data(file))
    except GameError as exc:
        console.print(f"[red]{exc}[/red]", markup=True)
        console.print(f"run 'qipan deck check {file}' to list every problem")
        raise typer.Exit(1) from None


@deck_app.command("show")
def show_command(
    file: Annotated[Path | None, typer.Argument(help="deck file; the built-in deck if omitted")] = None,
    ranges: Annotated[str | None, typer.Option(help="draw the ranges by this range table (the game option "
                                                    "ranges, e.g. 8/46/846/8246/7913/789123/47896/78946123)")] = None,
) -> None:
    """Show a deck (the built-in one without FILE) as a table."""
    console = Console()
    try:
        table = RANGES if ranges is None else parse_ranges("".join(ranges.split()))
    except GameError as exc:
        console.print(f"--ranges: {exc}", style="red", markup=False)
        raise typer.Exit(1) from None
    console.print(deck_table(_read(console, file), table))


@deck_app.command("json")
def json_command(
    file: Annotated[Path | None, typer.Argument(help="deck file; the built-in deck if omitted")] = None,
) -> None:
    """Print a legal deck as one line of JSON: the value the deck_0/deck_1 options (and the
    server) take, and what records store."""
    deck = _read(Console(stderr=True), file)
    typer.echo(deck_json(deck))
