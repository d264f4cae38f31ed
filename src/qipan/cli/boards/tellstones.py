"""Terminal picture of a Tellstones view: the line(s), the pool, scores and what is asked.

Face-down stones show as ``▒▒▒``; a stone appears only when the view reveals it (right after
the viewer peeked). Practice mode is a memory aid for learning the game and is off unless the
caller passes a ``practice`` dict (kept by the caller between calls, one per viewer): the board
then remembers what the viewer saw and prints it under the face-down stones, clearly labelled.
It follows swaps exactly when it is given the viewer's view after every action (it catches up
as well as it can otherwise). Never turn it on in rated or competitive play.

>>> import io, qipan
>>> from rich.console import Console
>>> game = qipan.load("tellstones")
>>> console = Console(record=True, width=100, file=io.StringIO())
>>> console.print(render(game, game.view(game.initial_state(), 0)))
>>> "scale" in console.export_text()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from qipan.core.game import Game
from qipan.games.tellstones.memory import Memory, MemoryParams
from qipan.games.tellstones.stones import CHINESE, SYMBOLS

COLOURS = {"crown": "bold yellow", "shield": "bold blue", "sword": "bold white", "flag": "bold red",
           "knight": "bold magenta", "hammer": "bold cyan", "scale": "bold green"}

PRACTICE_LABEL = "PRACTICE MODE — memory aid on (not for rated play)"


def _name(game: Game[Any, Any], player: int) -> str:
    return game.player_name(player)


def _prompt(game: Game[Any, Any], view: Mapping[str, Any]) -> str:
    phase = view["phase"]
    mover = view["to_move"]
    if mover is None:
        return str(view["result"])
    if mover == "chance":
        return "drawing who starts"
    who = _name(game, mover)
    if phase == "turn":
        extra = " (may peek up to 3 stones)" if view["peek_allowance"] == 3 else ""
        return f"{who} to act: place, hide, swap, peek, challenge or boast{extra}"
    if phase == "peeking":
        return f"{who} may peek again ({view['peeks_left']} left) or stop"
    if phase == "answer-challenge":
        return f"{who} must name the stone on {view['challenged']}"
    if phase == "answer-boast":
        return f"{_name(game, view['boaster'])} boasts: {who} must believe, doubt or counter"
    if phase == "answer-counter":
        return f"{_name(game, view['boaster'])} counter-boasts: {who} must believe or doubt"
    return f"{who} must prove: name the stone on {view['proving']}"


def _practice_memory(game: Game[Any, Any], view: Mapping[str, Any],
                     practice: dict[str, Any]) -> dict[str, tuple[str, float]]:
    memory = practice.get("memory")
    if not isinstance(memory, Memory) or practice.get("player") != view["player"]:
        memory = practice["memory"] = Memory(MemoryParams.perfect())
        practice["player"] = view["player"]
    memory.observe(game, view)  # type: ignore[arg-type]
    return memory.best_guess(game, view)  # type: ignore[arg-type]


def render(game: Game[Any, Any], view: Mapping[str, Any], last: str | None = None,
           practice: dict[str, Any] | None = None) -> RenderableType:
    """The board of ``view``; ``practice`` (a dict the caller keeps) turns the memory aid on."""
    aid = _practice_memory(game, view, practice) if practice is not None else {}
    two = len(view["lines"]) > 1
    revealed = view.get("revealed")
    grid = Table(show_header=True, box=None, padding=(0, 1), header_style="dim")
    if two:
        grid.add_column("")
    for i in range(7):
        grid.add_column(str(i + 1), justify="center", min_width=8)
    for n, line in enumerate(view["lines"]):
        letter = "ab"[n]
        cells: list[Text] = []
        hints: list[Text] = []
        for i, stone in enumerate(line):
            label = f"{letter}{i + 1}" if two else str(i + 1)
            hint = Text("")
            if stone is None:
                cell = Text("·", style="dim")
            elif stone == "?":
                if revealed and revealed["slot"] == label:
                    cell = Text(f"[{revealed['stone']}]", style=COLOURS[revealed["stone"]] + " reverse")
                else:
                    cell = Text("▒▒▒", style="grey50")
                if label in aid:
                    guess, confidence = aid[label]
                    hint = Text(guess + ("" if confidence >= 1 else "?"), style="italic dim yellow")
            else:
                cell = Text(stone, style=COLOURS[stone])
            if view.get("challenged") == label or view.get("proving") == label:
                cell.stylize("underline")
            cells.append(cell)
            hints.append(hint)
        grid.add_row(*([Text(letter, style="bold")] if two else []), *cells)
        if aid:
            grid.add_row(*([Text("")] if two else []), *hints)
    parts: list[RenderableType] = [grid]
    for n, pool in enumerate(view["pools"]):
        title = f"pool {'ab'[n]}" if two else "pool"
        text = Text(f"{title}: ", style="dim")
        for stone in pool:
            text.append(f"{stone}({CHINESE[SYMBOLS.index(stone)]}) ", style=COLOURS[stone])
        if not pool:
            text.append("empty", style="dim")
        parts.append(text)
    if view["players"] > 2:
        score = "   ".join(f"team {'AB'[t]} (players {', '.join(str(p + 1) for p in view['teams'][t])}): "
                           f"{view['scores'][t]}" for t in (0, 1))
    else:
        score = "   ".join(f"{_name(game, p)}: {view['scores'][p]}" for p in (0, 1))
    parts.append(Text(f"score to {view['target']} — {score}", style="bold"))
    shown_last = last if last is not None else (view["last"] or {}).get("action")
    if shown_last:
        parts.append(Text(f"last: {shown_last}", style="dim"))
    if revealed:
        parts.append(Text(f"You peeked: the stone on {revealed['slot']} is the {revealed['stone']}. "
                          "Remember it — it will not be shown again.", style="bold yellow"))
    parts.append(Text(_prompt(game, view), style="cyan"))
    if practice is not None:
        parts.append(Text(PRACTICE_LABEL, style="bold black on yellow"))
    title = f"Tellstones — {view['variant']}, turn {view['turn'] + 1}"
    return Panel(Group(*parts), title=title, expand=False,
                 border_style="yellow" if practice is not None else "white")
