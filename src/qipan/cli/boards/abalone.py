"""The Abalone board in the terminal: a hexagon with rows A..I and diagonal numbers 1..9."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from qipan.core.game import Game

ROWS = "abcdefghi"
SYMBOL = {"black": ("●", "bold bright_white on grey11"), "white": ("○", "bold yellow")}


def _cells_of_move(last: str | None) -> set[str]:
    if not last:
        return set()
    text = last.strip().lower()
    return {text[i : i + 2] for i in range(0, len(text), 2)}


def render(game: Game[Any, Any], view: dict[str, Any], last: str | None = None, **_: Any) -> RenderableType:
    """Draw a view: black ● and white ○ marbles, empty cells ·, the last move's cells underlined.

    >>> import qipan
    >>> from rich.console import Console
    >>> game = qipan.load("abalone")
    >>> console = Console(width=60, record=True, color_system=None)
    >>> console.print(render(game, game.view(game.initial_state(), None)))  # doctest: +ELLIPSIS
    <BLANKLINE>
    ...
    >>> "I ○ ○ ○ ○ ○" in console.export_text()
    True
    """
    owner: dict[str, str] = {}
    for colour in ("black", "white"):
        for cell in view["marbles"][colour]:
            owner[cell] = colour
    marked = _cells_of_move(last)
    lines: list[Text] = [Text("")]
    for row in range(8, -1, -1):
        lo, hi = max(1, row - 3), min(9, row + 5)
        line = Text(" " * (abs(row - 4) + 2))
        line.append(ROWS[row].upper() + " ", style="bold cyan")
        for number in range(lo, hi + 1):
            cell = f"{ROWS[row]}{number}"
            symbol, style = SYMBOL[owner[cell]] if cell in owner else ("·", "dim")
            if cell in marked:
                style += " underline"
            line.append(symbol, style=style)
            line.append(" ")
        if row <= 3:  # diagonals 6..9 start just above-right of rows A..D
            line.append(f" {hi + 1}", style="cyan")
        lines.append(line)
    numbers = Text(" " * 7)
    for number in range(1, 6):
        numbers.append(f"{number} ", style="bold cyan")
    lines.append(numbers)
    pushed = view["pushed_out"]
    status = Text()
    status.append("● black", style=SYMBOL["black"][1])
    status.append(f" pushed out {pushed['black']}/6   ")
    status.append("○ white", style=SYMBOL["white"][1])
    status.append(f" pushed out {pushed['white']}/6")
    lines.append(status)
    if view.get("result"):
        lines.append(Text(view["result"], style="bold green"))
    elif view.get("to_move") is not None:
        lines.append(Text(f"{game.player_name(view['to_move'])} to move" + (f"   last: {last}" if last else "")))
    return Group(*lines)
