"""The ``qipan`` command: ``qipan --help`` lists every command."""

from __future__ import annotations

import typer

from qipan.cli.analyse import analyse_command
from qipan.cli.arena import arena_command
from qipan.cli.balance import balance_command
from qipan.cli.deck import deck_app
from qipan.cli.engine import engine_command
from qipan.cli.perft import perft_command
from qipan.cli.play import PLAY_SETTINGS, play_command
from qipan.cli.puzzle import puzzle_app
from qipan.cli.replay import replay_command
from qipan.cli.simulate import simulate_command
from qipan.server.cli import serve_command

app = typer.Typer(
    help="qipan (棋盤): play, study and automate Abalone, Chinese Checkers, Kelighine, Sheng-Ke and Tellstones.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("perft")(perft_command)
app.command("engine")(engine_command)
app.command("replay")(replay_command)
app.command("play", context_settings=PLAY_SETTINGS)(play_command)
app.command("simulate")(simulate_command)
app.command("arena")(arena_command)
app.command("balance")(balance_command)
app.command("analyse")(analyse_command)
app.command("serve")(serve_command)
app.add_typer(deck_app, name="deck")
app.add_typer(puzzle_app, name="puzzle")


@app.command("games")
def games_command() -> None:
    """List the games, their variants, AI levels and options."""
    from rich.console import Console

    from qipan.ai import agent_levels
    from qipan.cli.seats import describe
    from qipan.core.registry import game_class, game_names, load

    console = Console()
    for name in game_names():
        cls = game_class(name)
        console.print(f"[bold]{name}[/bold] — {cls.title}")
        console.print("  variants: " + ", ".join(v.name for v in cls.variants))
        console.print("  AI levels: " + ", ".join(agent_levels(load(name))))
        for option in cls.options:
            console.print(f"  --{option.name.replace('_', '-')}: {describe(option)}")


def main() -> None:
    app(prog_name="qipan")
