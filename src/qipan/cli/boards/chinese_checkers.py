"""The Chinese Checkers star in the terminal: rows a..q, every hole showing its number.

Empty holes show their number dimmed (tinted with the colour of the player whose target they
are); a piece shows its player's initial and the hole number (``R5``) on the player's colour
(``o5`` in the capture variant). The last move's start and jump landings are underlined.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from qipan.core.errors import GameError
from qipan.core.game import Game
from qipan.games.chinese_checkers.board import HOLES, NAMES, NUMBER_OF, ROW_LETTERS, ROW_OF

STYLES = {
    "red": "red",
    "blue": "blue",
    "green": "green",
    "yellow": "yellow",
    "purple": "magenta",
    "cyan": "cyan",
}
_TOKEN = re.compile(r"[a-q]\d{1,2}")
_MARGIN = 4


def _column(hole: int) -> int:
    q, r, _ = HOLES[hole]
    return 2 * (2 * q + r + 12) + _MARGIN


def _last_path(game: Game[Any, Any], view: dict[str, Any], last: str | None) -> list[str]:
    if not last:
        return []
    tokens = _TOKEN.findall(last.lower())
    if len(tokens) < 2:
        return []
    if len(tokens) > 2:
        return tokens
    move_path = getattr(game, "move_path", None)
    if move_path is None:
        return tokens
    try:
        state = game.state_from_json(view["state"])
        path: list[str] = move_path(state, game.parse_action(state, f"{tokens[0]}-{tokens[-1]}"))
    except GameError:
        return tokens
    return path


def render(game: Game[Any, Any], view: dict[str, Any], last: str | None = None, **_: Any) -> RenderableType:
    """Draw a view of the star, player 1's home (row a) at the bottom.

    >>> import qipan
    >>> from rich.console import Console
    >>> game = qipan.load("chinese-checkers")
    >>> console = Console(width=120, record=True, color_system=None)
    >>> console.print(render(game, game.view(game.initial_state(), 0)))  # doctest: +ELLIPSIS
    <BLANKLINE>
    ...
    >>> text = console.export_text()
    >>> "i             1   2   3   4   5   6   7   8   9  i" in text, "a                            R1  a" in text
    (True, True)
    """
    names = [str(n) for n in view["players"]]
    colour_of = [STYLES.get(n, "white") for n in names]
    pieces: dict[str, int] = view["pieces"]
    capture = view.get("variant") == "capture"
    target_owner: dict[str, int] = {}
    for p, holes in enumerate(view.get("target_holes", [])):
        for hole in holes:
            target_owner.setdefault(hole, p)
    path = _last_path(game, view, last)
    landed = set(path)

    lines: list[Text] = [Text("")]
    for row in range(16, -1, -1):
        holes = [h for h in range(len(HOLES)) if ROW_OF[h] == row]
        letter = ROW_LETTERS[row]
        line = Text(letter, style="bold")
        pos = len(letter)
        for hole in holes:
            col = _column(hole)
            name = NAMES[hole]
            owner = pieces.get(name)
            number = NUMBER_OF[hole]
            if owner is None:
                label = str(number)
                style = "dim"
                if name in target_owner:
                    style = f"dim {colour_of[target_owner[name]]}"
            elif capture:
                label, style = f"o{number}", "bold black on white"
            else:
                label, style = f"{names[owner][0].upper()}{number}", f"bold white on {colour_of[owner]}"
            if name in landed:
                style += " underline"
            line.append(" " * (col + 3 - len(label) - pos))
            line.append(label, style=style)
            pos = col + 3
        line.append("  " + letter, style="bold")
        lines.append(line)
    lines.append(Text(""))
    lines.extend(_legend(game, view, names, colour_of, capture))
    if path:
        lines.append(Text("last move: " + "-".join(path)))
    if view.get("result"):
        lines.append(Text(str(view["result"]), style="bold green"))
    elif view.get("to_move") is not None:
        mover = view["to_move"]
        lines.append(Text(f"{names[mover]} to move", style=f"bold {colour_of[mover]}"))
    return Group(*lines)


def _legend(
    game: Game[Any, Any], view: dict[str, Any], names: list[str], colour_of: list[str], capture: bool
) -> list[Text]:
    out: list[Text] = []
    if capture:
        line = Text(f"pieces left {view['pieces_left']}   captures: ")
        for p, score in enumerate(view["scores"]):
            line.append(f"{names[p]} {score}", style=f"bold {colour_of[p]}")
            line.append("  ")
        out.append(line)
        return out
    finished: list[int] = view.get("finished", [])
    ordinals = ["1st", "2nd", "3rd", "4th", "5th", "6th"]
    for p, name in enumerate(names):
        line = Text("> " if view.get("to_move") == p else "  ")
        line.append(f" {name} ", style=f"bold white on {colour_of[p]}")
        size = len(view["target_holes"][p])
        line.append(
            f"  home point {view['homes'][p]} -> target point {view['targets'][p]}"
            f"   in target {view['in_target'][p]}/{size}"
        )
        if p in finished:
            line.append(f"   finished {ordinals[finished.index(p)]}", style="bold")
        out.append(line)
    return out
