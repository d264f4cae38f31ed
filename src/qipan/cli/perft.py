"""``qipan perft``: count the leaves of the legal-move tree (chance outcomes count as branches)."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.console import Console

from qipan.cli.numbers import whole_option
from qipan.cli.seats import load_game
from qipan.core.errors import GameError
from qipan.core.game import CHANCE, Game
from qipan.core.options import parse_option_assignments

MAX_DEPTH = 64
"""Deepest perft asked for on the command line (deeper would never finish anyway)."""


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Leaves of the tree of every legal action (and chance outcome) ``depth`` plies deep.

    >>> import qipan
    >>> game = qipan.load("abalone")
    >>> perft(game, game.initial_state(), 2)
    1936
    """
    if depth == 0 or game.to_move(state) is None:
        return 1
    actions = game.legal_actions(state)
    if game.to_move(state) == CHANCE and not actions:
        raise GameError("perft cannot branch on a chance event whose outcomes cannot be listed")
    if depth == 1:
        return len(actions)
    return sum(perft(game, game.next_state(state, a), depth - 1) for a in actions)


def perft_command(
    game: Annotated[str, typer.Argument(help="game id, e.g. abalone")],
    depth: Annotated[int, whole_option("--depth", "-d", help="plies to search", minimum=0, maximum=MAX_DEPTH)],
    variant: str | None = typer.Option(None, "--variant", help="variant name"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE (repeatable)"),
    divide: bool = typer.Option(False, "--divide", help="also print the count below each first move"),
) -> None:
    """Count leaf nodes of the legal-move tree and print the count and the time taken."""
    console = Console()
    try:
        the_game = load_game(game, variant, parse_option_assignments(option))
        state = the_game.initial_state()
        started = time.perf_counter()
        if divide and depth > 0:
            total = 0
            for action in the_game.legal_actions(state):
                n = perft(the_game, the_game.next_state(state, action), depth - 1)
                total += n
                console.print(f"{the_game.action_text(state, action)}: {n}")
        else:
            total = perft(the_game, state, depth)
        elapsed = time.perf_counter() - started
    except GameError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    rate = total / elapsed if elapsed > 0 else float("inf")
    console.print(f"perft({depth}) = {total}   {elapsed:.3f} s   {rate:,.0f} leaves/s")
