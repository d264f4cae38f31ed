"""``qipan replay``: step through a recorded game."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from qipan.cli.boards import renderer
from qipan.cli.numbers import whole_option
from qipan.core.errors import GameError
from qipan.core.game import CHANCE
from qipan.core.record import Record
from qipan.core.record_text import record_text


def replay_command(
    record_file: Path = typer.Argument(..., exists=True, dir_okay=False, help="a qipan record (JSON)"),
    to: Annotated[int | None, whole_option("--to", help="show the position after this many moves and stop",
                                           minimum=0)] = None,
    list_moves: bool = typer.Option(False, "--list", help="print the moves and the result only"),
    as_text: bool = typer.Option(False, "--text", help="print the record as readable text (players, result, "
                                                       "numbered moves) and stop"),
) -> None:
    """Step through a recorded game: Enter = next, b = back, a number = jump there, q = quit.

    Without a terminal (or with --to) it prints one position and stops."""
    console = Console()
    try:
        record = Record.load(record_file)
        states = record.replay()
        game = record.make_game()
        players = record.players or [game.player_name(p) for p in range(game.num_players)]
        if len(players) != game.num_players:
            raise GameError(f"the record names {len(players)} players; {game.name} here has {game.num_players}")
    except GameError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if as_text:
        typer.echo(record_text(record), nl=False)
        return
    render = renderer(game)
    texts = [m.text for m in record.moves]
    if list_moves:
        for ply, move in enumerate(record.moves, 1):
            who = move.player if move.player == "chance" else players[int(move.player)]
            console.print(escape(f"{ply:4}. {who}: {move.text}"))
        console.print(escape(f"result: {(record.result or {}).get('text', 'unfinished')}"))
        return

    def show(ply: int) -> None:
        state = states[ply]
        mover = game.to_move(state)
        viewer = None
        console.print(render(game, game.view(state, viewer), texts[ply - 1] if ply else None))
        who = "chance" if mover == CHANCE else ("game over" if mover is None else players[mover])
        console.print(f"[dim]move {ply}/{len(texts)} — {escape(str(who))}[/dim]")

    if to is not None or not sys.stdin.isatty():
        show(max(0, min(len(texts), to if to is not None else len(texts))))
        if record.result:
            console.print(escape(f"result: {record.result.get('text')}"))
        return
    ply = 0
    while True:
        show(ply)
        answer = console.input("[bold]Enter/b/number/q> [/bold]").strip().lower()
        if answer == "q":
            return
        if answer == "b":
            ply = max(0, ply - 1)
        elif answer.isdigit():
            ply = min(len(texts), int(answer))
        else:
            ply = min(len(texts), ply + 1)
