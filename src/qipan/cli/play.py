"""``qipan play <game>``: play in the terminal against people (hot seat) or the AI.

Each game becomes a subcommand whose flags come from the game's own options, so
``qipan play chinese-checkers --players 3 --jump adjacent`` needs no game-specific code here.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import typer
from rich.console import Console
from rich.panel import Panel

from qipan.ai.agent import Agent, agent_levels, make_agent
from qipan.cli.boards import renderer
from qipan.cli.numbers import WholeNumber
from qipan.cli.seats import load_game, shown
from qipan.core.chance import event_rng
from qipan.core.errors import GameError, choices_text
from qipan.core.game import CHANCE, Game
from qipan.core.match import Match
from qipan.core.registry import _GAMES, game_class

HELP = """commands: a move in notation, [bold]moves[/bold] (legal moves), [bold]undo[/bold] (games \
without AI), [bold]log[/bold] (moves so far), [bold]save FILE[/bold] (record), [bold]resign[/bold], \
[bold]quit[/bold], [bold]help[/bold]"""


@dataclass
class Seat:
    kind: str  # "human" or "ai"
    level: str = "easy"


def parse_seat(text: str, default_level: str) -> Seat:
    """``human``, ``ai`` or ``ai:LEVEL``."""
    kind, _, level = text.strip().lower().partition(":")
    if kind not in ("human", "ai"):
        raise GameError(f"a seat is 'human', 'ai' or 'ai:LEVEL', not {text!r}")
    return Seat(kind, level or default_level)


class PlayLoop:
    """The terminal game loop. ``ask`` reads a line (tests pass a scripted function)."""

    def __init__(self, match: Match, seats: list[Seat], console: Console, practice: bool = False):
        self.match = match
        self.game: Game[Any, Any] = match.game
        self.seats = seats
        self.console = console
        self.practice = practice
        self.render = renderer(self.game)
        self.agents: dict[int, Agent] = {
            i: make_agent(self.game, seat.level) for i, seat in enumerate(seats) if seat.kind == "ai"
        }
        self.rng = event_rng(match.seed, "ai", 0)
        self.last_shown: int | None = None
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        self.hot_seat = not self.game.perfect_information and len(humans) > 1
        self.humans = humans
        self.practice_memory: dict[int, dict[str, Any]] = {seat: {} for seat in humans}
        self.renders_practice = practice and "practice" in inspect.signature(self.render).parameters

    def last_text(self, viewer: int | None) -> str | None:
        if not self.match.moves:
            return None
        index = len(self.match.moves) - 1
        state = self.match.states[index]
        action = self.game.parse_action(state, self.match.moves[index].text)
        return self.game.public_action_text(state, action, viewer)

    def show(self, viewer: int | None) -> None:
        view = self.game.view(self.match.state, viewer)
        kwargs: dict[str, Any] = {}
        if self.renders_practice and viewer in self.practice_memory:
            kwargs["practice"] = self.practice_memory[viewer]
        self.console.print(self.render(self.game, view, self.last_text(viewer), **kwargs))
        clocks = self.match.clocks()
        if clocks is not None:
            self.console.print(
                "   ".join(f"{self.match.players[i]} {max(0.0, t) // 60:.0f}:{max(0.0, t) % 60:04.1f}"
                           for i, t in enumerate(clocks))
            )

    def after_action(self) -> None:
        """Let AI seats (and a practice memory aid) see every view, not only their own turns."""
        for seat, agent in self.agents.items():
            agent.observe(self.game, self.game.view(self.match.state, seat))
        if self.renders_practice:
            for seat, memory in self.practice_memory.items():
                self.render(self.game, self.game.view(self.match.state, seat), None, practice=memory)

    def public_log(self, viewer: int | None) -> list[str]:
        texts = []
        for state, move in zip(self.match.states, self.match.moves, strict=False):
            action = self.game.parse_action(state, move.text)
            texts.append(self.game.public_action_text(state, action, viewer))
        return texts

    def run(self, ask: Any = None) -> dict[str, Any] | None:
        ask = ask or (lambda prompt: self.console.input(prompt))
        while not self.match.over:
            mover = self.match.to_move
            assert mover is not None and mover != CHANCE  # Match samples chance itself
            if mover in self.agents:
                view = self.game.view(self.match.state, mover)
                action = self.agents[mover].choose(self.game, view, self.rng)
                before = self.match.state
                self.match.play(action, player=mover)
                self.console.print(f"[cyan]{self.match.players[mover]}[/cyan] plays "
                                   f"{self.game.public_action_text(before, action, None)}")
                self.after_action()
                continue
            if self.hot_seat and self.last_shown != mover:
                if self.last_shown is not None:
                    ask("Press Enter to hide your board ")
                self.console.clear()
                ask(f"Pass the device to {self.match.players[mover]} and press Enter ")
                self.last_shown = mover
            viewer = mover if not self.game.perfect_information else None
            self.show(viewer)
            try:
                line = ask(f"[bold]{self.match.players[mover]}>[/bold] ").strip()
            except EOFError:
                return None
            if not self.command(line, mover):
                return None
        self.show(None)
        result = self.match.result()
        assert result is not None
        self.console.print(Panel(result["text"], title="game over", style="bold green"))
        return result

    def command(self, line: str, mover: int) -> bool:
        """Handle one line; False ends the session."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return True
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.console.print(HELP)
        elif word in ("moves", "legal"):
            self.console.print(choices_text(self.match.legal_texts(), limit=300))
        elif word == "log":
            if self.game.perfect_information or self.practice:
                self.console.print(" ".join(self.public_log(mover)) or "(none)")
            else:
                self.console.print("[red]the move log is a memory aid in this game: use --practice[/red]")
        elif word == "undo":
            if self.agents:
                self.console.print("[red]undo is for games between people only[/red]")
            else:
                try:
                    self.match.undo()
                except GameError as exc:
                    self.console.print(f"[red]{exc}[/red]")
        elif word == "save" and rest.strip():
            self.match.record().save(Path(rest.strip()))
            self.console.print(f"saved to {rest.strip()}")
        elif word == "resign":
            self.match.forfeit(mover, "resigned")
        else:
            try:
                self.match.play(line, player=mover)
                self.after_action()
                if not self.game.perfect_information and not self.match.over:
                    self.show(mover)  # what the move revealed to its player (a peek, a draw)
            except GameError as exc:
                self.console.print(f"[red]{exc}[/red] (type [bold]moves[/bold] for the legal moves)")
        return True


def build_play_command(cls: type[Game[Any, Any]]) -> click.Command:
    default_game = cls()
    names = [default_game.player_name(i) for i in range(default_game.num_players)]
    params: list[click.Parameter] = [
        click.Option(["--variant"], type=click.Choice([v.name for v in cls.variants]), default=None,
                     help="variant: " + "; ".join(f"{v.name}: {v.help}" for v in cls.variants)),
    ]
    for option in cls.options:
        flag = "--" + option.name.replace("_", "-")
        if isinstance(option.default, bool):
            params.append(click.Option([f"{flag}/--no-{flag[2:]}", option.name], default=None, help=option.help))
        elif option.seat:  # counted from 1 here; checked against the variant's seats in the callback
            choices = ", ".join(shown(option, c) for c in option.choices or ())
            params.append(click.Option([flag, option.name], default=None,
                                       help=f"{option.help} (seats count from 1: {choices}; "
                                            f"default {shown(option, option.default)})"))
        else:
            kind = click.Choice([str(c) for c in option.choices]) if option.choices else click.STRING
            params.append(click.Option([flag, option.name], type=kind, default=None,
                                       help=f"{option.help} (default {option.default})"))
    for name in names:
        if name.isidentifier() and name.isalpha():
            params.append(click.Option([f"--{name}", f"seat_{name}"], default=None,
                                       help=f"{name}: human, ai or ai:LEVEL"))
    params += [
        click.Option(["--seat"], multiple=True, help="SEAT=human|ai|ai:LEVEL; SEAT is a number from 1 or a name"),
        click.Option(["--level"], default="easy", show_default=True,
                     help=f"AI level for seats given as 'ai': {', '.join(agent_levels(default_game))}"),
        click.Option(["--seed"], type=WholeNumber(), default=None, help="random seed (dice, shuffles, AI)"),
        click.Option(["--practice"], is_flag=True, default=False,
                     help="practice mode: show memory aids where the game has them (never in rated play)"),
        click.Option(["--record"], type=click.Path(dir_okay=False), default=None,
                     help="save the game record to this file at the end"),
    ]

    def callback(**kwargs: Any) -> None:
        console = Console()
        try:
            options = {o.name: kwargs[o.name] for o in cls.options if kwargs.get(o.name) is not None}
            game = load_game(cls.name, kwargs["variant"], options)
            seats = [Seat("human") for _ in range(game.num_players)]
            players = [game.player_name(i) for i in range(game.num_players)]
            assignments = [(name, kwargs.get(f"seat_{name}")) for name in names]
            for item in kwargs["seat"]:
                key, sep, value = item.partition("=")
                if not sep:
                    raise GameError(f"--seat {item!r}: write SEAT=human|ai|ai:LEVEL, e.g. --seat 2=ai")
                assignments.append((key.strip(), value))
            for key, value in assignments:
                if value is None:
                    continue
                if key.isdigit() and 1 <= int(key) <= game.num_players:
                    index = int(key) - 1
                elif key in players:
                    index = players.index(key)
                else:
                    raise GameError(f"no seat {key!r}; seats are 1..{game.num_players} or {choices_text(players)}")
                seats[index] = parse_seat(value, kwargs["level"])
            for seat in seats:
                if seat.kind == "ai" and seat.level not in agent_levels(game):
                    raise GameError(f"no AI level {seat.level!r}; choose one of {choices_text(agent_levels(game))}")
            match = Match(game, seed=kwargs["seed"])
        except GameError as exc:
            raise click.UsageError(str(exc)) from None
        console.print(f"[bold]{game.title}[/bold] ({game.variant}). Type help for commands.")
        loop = PlayLoop(match, seats, console, practice=kwargs["practice"])
        loop.run()
        if kwargs["record"]:
            match.record().save(Path(kwargs["record"]))
            console.print(f"record saved to {kwargs['record']}")

    return click.Command(cls.name, params=params, callback=callback,
                         help=f"Play {cls.title} in the terminal (people at one keyboard and/or the AI).")


PLAY_HELP = """Play a game in the terminal: qipan play GAME [OPTIONS]; qipan play GAME --help lists the
game's own options (generated from its rules options). Games: """ + ", ".join(_GAMES)


def play_command(ctx: typer.Context, game: str = typer.Argument(None, help="game id")) -> None:
    if game is None or game in ("--help", "-h"):
        typer.echo(PLAY_HELP)
        raise typer.Exit(0 if game else 2)
    try:
        cls = game_class(game)
    except GameError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    build_play_command(cls).main(args=list(ctx.args), prog_name=f"qipan play {cls.name}")


play_command.__doc__ = PLAY_HELP
PLAY_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
