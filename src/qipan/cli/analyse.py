"""``qipan analyse``: the best moves of a position, or a review of a whole recorded game.

A position is the start with ``--moves`` played, a ``--state`` file (then ``--moves``), or a
record's position after ``--ply`` moves. ``--record`` without ``--ply`` reviews every decision
(one seat's only with ``--seat``; hidden-information games need it) and sums up each player's
inaccuracies, mistakes and blunders. See docs/analysis.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qipan.ai.analysis import MAX_LINES, Analysis, Evaluation, ReviewedMove, analyse, review
from qipan.cli.numbers import number_option, whole_option
from qipan.core import jsonsafe
from qipan.core.errors import GameError, brief
from qipan.core.game import CHANCE, Game
from qipan.core.match import Match
from qipan.core.options import parse_option_assignments
from qipan.core.record import Record
from qipan.core.registry import load

MAX_STATE_BYTES = 1 << 20
"""The largest ``--state`` file read (a real state is a few KiB)."""

MAX_TIME = 60.0
"""The longest time per position (seconds)."""

MAX_MOVES_CHARS = 100_000
"""The longest ``--moves`` text."""

VERDICTS = ("inaccuracy", "mistake", "blunder")


def evaluation_text(evaluation: Evaluation) -> str:
    """An evaluation in words: a forced result, a winning chance, a balance (what is known).

    >>> evaluation_text(Evaluation(1.2, balance=1.2, unit="marbles"))
    '+1.20 marbles'
    >>> evaluation_text(Evaluation(0.5, win=0.625, exact=True))
    '62.5% to win (exact)'
    """
    if evaluation.mate is not None:
        n = abs(evaluation.mate)
        moves = "move" if n == 1 else "moves"
        return f"wins in {n} {moves}" if evaluation.mate > 0 else f"loses in {n} {moves}"
    parts = []
    if evaluation.win is not None:
        parts.append(f"{100 * evaluation.win:.1f}% to win" + (" (exact)" if evaluation.exact else ""))
    if evaluation.balance is not None:
        text = f"{evaluation.balance:+.2f} {evaluation.unit or ''}".rstrip()
        parts.append(f"({text})" if parts else text)
    return " ".join(parts) if parts else f"value {evaluation.value:+.4g}"


def _read_state(game: Game[Any, Any], path: Path) -> Any:
    return jsonsafe.load_file(path, MAX_STATE_BYTES, "a state", game.state_from_json)


def _position(game: Game[Any, Any], moves: str | None, state_file: Path | None, seed: int) -> Match:
    """The match at the position asked for: from the start (or the state file), ``moves`` played
    (chance drawn with ``seed`` where a move is followed by chance)."""
    match = Match(game, seed=seed)
    if state_file is not None:
        match.restart_from(_read_state(game, state_file))
    if moves:
        if len(moves) > MAX_MOVES_CHARS:
            raise GameError(f"--moves holds at most {MAX_MOVES_CHARS} characters, not {len(moves)}")
        for number, text in enumerate(moves.split(), 1):
            if match.over:
                raise GameError(f"move {number} ({brief(text, 40)}): the game is already over")
            try:
                match.play(text)
            except GameError as exc:
                raise GameError(f"move {number}: {exc}") from None
    return match


def _mover(game: Game[Any, Any], state: Any, seat: int | None) -> int:
    mover = game.to_move(state)
    if mover is None:
        raise GameError("the game is over here: there is no decision to analyse")
    if mover == CHANCE:
        raise GameError("chance is to move here (a roll or a deal), not a player")
    if seat is not None and seat != mover:
        raise GameError(f"{game.player_name(seat)} is not to move here; {game.player_name(mover)} is")
    return mover


def _print_analysis(console: Console, game: Game[Any, Any], analysis: Analysis, played: str | None) -> None:
    console.print(f"[bold]{escape(game.title)}[/bold] — {escape(game.player_name(analysis.player))} to move")
    table = Table(show_header=True, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("evaluation")
    table.add_column("line")
    for number, line in enumerate(analysis.lines, 1):
        mark = " (played)" if line.move == played else ""
        table.add_row(str(number), escape(line.move + mark), escape(evaluation_text(line.evaluation)),
                      escape(" ".join(line.pv)))
    console.print(table)
    depth = f", depth {analysis.depth}" if analysis.depth is not None else ""
    console.print(f"[dim]{analysis.method}{depth}, {analysis.nodes:,} nodes, {analysis.seconds:.2f} s[/dim]")


def summary(game: Game[Any, Any], reviewed: list[ReviewedMove]) -> dict[int, dict[str, int]]:
    """Per player (seat number): decisions reviewed and the count of each verdict."""
    counts: dict[int, Counter[str]] = {}
    for move in reviewed:
        counter = counts.setdefault(move.player, Counter())
        counter["decisions"] += 1
        if move.verdict:
            counter[move.verdict] += 1
    return {p: {k: c[k] for k in ("decisions", *VERDICTS)} for p, c in sorted(counts.items())}


def _print_review(console: Console, game: Game[Any, Any], record: Record, reviewed: list[ReviewedMove]) -> None:
    names = record.players if len(record.players) == game.num_players else \
        [game.player_name(p) for p in range(game.num_players)]
    table = Table(show_header=True, header_style="bold", title=f"{game.title}: review")
    for column in ("ply", "player", "played", "evaluation", "verdict", "better"):
        table.add_column(column)
    for move in reviewed:
        worse = move.best.evaluation.value > move.played.evaluation.value + 1e-9
        better = f"{move.best.move} ({evaluation_text(move.best.evaluation)})" if worse else ""
        table.add_row(str(move.ply + 1), escape(names[move.player]), escape(move.move),
                      escape(evaluation_text(move.played.evaluation)), move.verdict or "", escape(better))
    console.print(table)
    totals = Table(show_header=True, header_style="bold", title="summary")
    for column in ("player", "decisions", *VERDICTS):
        totals.add_column(column)
    for player, counts in summary(game, reviewed).items():
        totals.add_row(escape(names[player]), *(str(counts[k]) for k in ("decisions", *VERDICTS)))
    console.print(totals)
    if record.result:
        console.print(escape(f"result: {record.result.get('text', '')}"))


def analyse_command(
    game: Annotated[str, typer.Argument(help="the game (qipan games lists them)")],
    variant: Annotated[str | None, typer.Option("--variant", help="game variant")] = None,
    option: Annotated[list[str] | None,
                      typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")] = None,
    record_file: Annotated[Path | None, typer.Option("--record", help="a qipan record (JSON): review it, or "
                                                                        "with --ply analyse one position")] = None,
    ply: Annotated[int | None, whole_option("--ply", help="with --record: the position after this many "
                                                          "recorded moves", minimum=0)] = None,
    moves: Annotated[str | None, typer.Option("--moves", help='moves played from the start (or the --state), '
                                                                'e.g. "a1b2 i5h5"')] = None,
    state_file: Annotated[Path | None,
                          typer.Option("--state", help="a state file (JSON, as the engine's state)")] = None,
    lines: Annotated[int, whole_option("--lines", help="best moves to show", minimum=1, maximum=MAX_LINES)] = 3,
    seconds: Annotated[float, number_option("--time", help="seconds per position", minimum=0.01,
                                            maximum=MAX_TIME)] = 1.0,
    level: Annotated[str | None, typer.Option("--level", help="whose search (default: the strongest)")] = None,
    seat: Annotated[int | None, whole_option("--seat", help="the seat (1-based) whose decisions to review, or "
                                                            "who is to move", minimum=1)] = None,
    seed: Annotated[int, whole_option("--seed", help="seed of the analysis (and of chance in --moves)",
                                      minimum=0)] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of tables")] = False,
) -> None:
    """Analyse a position (the best moves, each with an evaluation and its line), or review a
    recorded game (every decision's evaluation, verdict and better move, and a summary)."""
    console = Console()
    try:
        if record_file is not None and (moves is not None or state_file is not None):
            raise GameError("give a position by --record (with --ply) or by --moves/--state, not both")
        if record_file is not None and (variant is not None or option):
            raise GameError("a record names its own variant and options: drop --variant and --option")
        if ply is not None and record_file is None:
            raise GameError("--ply needs --record")
        if record_file is not None:
            record = Record.load(record_file)
            the_game = record.make_game()
            if load(game).name != the_game.name:
                raise GameError(f"{brief(str(record_file))} is a record of {the_game.name}, not {load(game).name}")
        else:
            the_game = load(game, variant, dict(parse_option_assignments(option or [])))
        if seat is not None and seat > the_game.num_players:
            raise GameError(f"--seat must be from 1 to {the_game.num_players} here, not {seat}")
        player = None if seat is None else seat - 1
        if record_file is not None and ply is None:
            with console.status("reviewing...") as status:
                reviewed = review(the_game, record, seat=player, time=seconds, lines=lines, level=level, seed=seed,
                                  progress=lambda done, total: status.update(f"reviewed {done}/{total} decisions"))
            if as_json:
                typer.echo(json.dumps({"game": the_game.name, "moves": [m.to_json() for m in reviewed],
                                       "summary": {str(p): c for p, c in summary(the_game, reviewed).items()}}))
            else:
                _print_review(console, the_game, record, reviewed)
            return
        played = None
        if record_file is not None:
            states = record.replay()
            if ply is not None and ply > len(states) - 1:
                raise GameError(f"the record has {len(states) - 1} moves; --ply must be at most that")
            number = ply or 0
            state, earlier = states[number], states[:number]
            if number < len(record.moves) and the_game.to_move(state) not in (None, CHANCE):
                played = the_game.action_text(state, the_game.parse_action(state, record.moves[number].text))
        else:
            match = _position(the_game, moves, state_file, seed)
            state, earlier = match.state, match.states[:-1]
        mover = _mover(the_game, state, player)
        history = [the_game.view(s, mover) for s in earlier]
        include = [] if played is None else [played]
        with console.status("analysing..."):
            result = analyse(the_game, the_game.view(state, mover), lines=lines, time=seconds, level=level,
                             include=include, seed=seed, history=history)
        if as_json:
            typer.echo(json.dumps({"to_move": mover, **result.to_json()}))
        else:
            _print_analysis(console, the_game, result, played)
    except GameError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
