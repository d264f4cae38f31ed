"""Terminal picture of a Kelighine view: the round board with pieces, faces, coins and the
indirect-push cells of the turn, then each player's pieces and laps and the log of the turn.

A piece shows as ``●`` and its face after the cell name (``A12●1``: a piece with lap A done),
a coin as ``$`` in its owner's colour; odd (white) cells are bright, even (black) ones grey,
and the indirect-push cells of the turn are on a red background.
"""

from __future__ import annotations

import math
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

PLAYER_STYLES = ("bold red", "bold bright_blue", "bold green", "bold yellow")
WIDTH, HEIGHT = 74, 23
_CX, _CY, _ASPECT = 36, 11, 2.6


def _layout() -> dict[str, tuple[int, int]]:
    """Where each cell's label is centred: (column, row)."""
    spots: dict[str, tuple[float, float]] = {}

    def put(label: str, degrees: float, radius: float) -> None:
        t = math.radians(degrees)
        spots[label] = (_CX + radius * math.cos(t) * _ASPECT, _CY - radius * math.sin(t))

    for k in range(1, 17):
        put(f"A{k}", -78.75 + 22.5 * (k - 3), 9.0)
    for j in range(1, 9):
        put(f"B{j}", -112.5 + 45 * (j - 1), 5.8)
    for k in range(1, 9):
        put(f"C{k}", -90 + 45 * (k - 1), 3.1)
    for label, degrees in (("D", -135), ("E", -45), ("F", 45), ("G", 135)):
        put(label, degrees, 10.6)
    for label, degrees in (("I", -90), ("L", 0), ("H", 90), ("K", 180)):
        put(label, degrees, 11.0)
    spots["J"] = (_CX, _CY)
    return {k: (round(x), round(y)) for k, (x, y) in spots.items()}


LAYOUT = _layout()


def _cell_token(
    label: str, view: dict[str, Any], occupants: dict[str, list[dict[str, Any]]], coins: dict[str, list[int]]
) -> list[tuple[str, str]]:
    """The (text, style) pieces of one cell's label."""
    number = label[1:]
    style = "bright_white" if number and int(number) % 2 else "grey50"
    if not number:
        style = "cyan"
    starts = view["starts"]
    if label in starts:
        style = PLAYER_STYLES[starts.index(label)].replace("bold ", "")
    if label in view["indirect"]:
        style += " on dark_red"
    if label == view["last_piece"]:
        style += " underline"
    parts = [(label, style)]
    here = occupants.get(label, [])
    if label == "J" or (label in starts and len(here) > 1):
        by_player: dict[int, int] = {}
        for p in here:
            by_player[p["player"]] = by_player.get(p["player"], 0) + 1
        for owner, count in sorted(by_player.items()):
            parts.append((f"●{count}", PLAYER_STYLES[owner]))
    elif here:
        p = here[0]
        parts.append((f"●{p['face']}", PLAYER_STYLES[p["player"]]))
    for owner in coins.get(label, []):  # several players' coins can mark the same entry cell
        parts.append(("$", PLAYER_STYLES[owner]))
    return parts


def board_text(view: dict[str, Any]) -> Text:
    """The round board as text."""
    occupants: dict[str, list[dict[str, Any]]] = {}
    for p in view["pieces"]:
        occupants.setdefault(p["cell"], []).append(p)
    coins: dict[str, list[int]] = {}
    for coin in view["coins"]:
        coins.setdefault(coin["cell"], []).append(coin["player"])
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * WIDTH for _ in range(HEIGHT)]
    for label, (x, y) in LAYOUT.items():
        parts = _cell_token(label, view, occupants, coins)
        width = sum(len(t) for t, _ in parts)
        col = max(0, min(WIDTH - width, x - len(label) // 2 - (1 if len(label) > 2 else 0)))
        for text, style in parts:
            for ch in text:
                grid[y][col] = (ch, style)
                col += 1
    out = Text()
    for row in grid:
        line = Text()
        for ch, style in row:
            line.append(ch, style=style or None)
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def piece_text(p: dict[str, Any]) -> str:
    """``"B2 face 1 (A done, B 7/8, coin B3)"``: a piece, its completed laps, the lap under way."""
    notes = []
    done = "".join(t for t in "ABC" if p["laps"][t])
    if done:
        notes.append(f"{done} done")
    progress = p.get("lap_progress")
    if progress:
        notes.append(f"{'ABC'[progress['tier'] - 1]} {progress['steps']}/{progress['of']}")
    if p["coin"]:
        notes.append(f"coin {p['coin']}")
    return f"{p['cell']} face {p['face']}" + (f" ({', '.join(notes)})" if notes else "")


def players_table(view: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for column in ("player", "start", "pieces", "reserve", "at J"):
        table.add_column(column)
    for owner in range(view["players"]):
        mine = [piece_text(p) for p in view["pieces"] if p["player"] == owner and p["cell"] != "J"]
        pend = view["pending_push"]
        if pend and pend["player"] == owner:
            mine.append(piece_text(pend["piece"]) + " being pushed")
        pieces = "; ".join(mine) or "-"
        marker = "▶ " if owner == view["turn"] and view["winner"] is None else "  "
        table.add_row(
            Text(f"{marker}player {owner + 1} ●", style=PLAYER_STYLES[owner]),
            view["starts"][owner],
            pieces,
            str(view["reserve"][owner]),
            str(view["finished"][owner]),
        )
    return table


def status_lines(view: dict[str, Any], last: str | None) -> list[Text]:
    lines: list[Text] = []
    turn = view["turn"] + 1
    if view["winner"] is not None:
        lines.append(Text(f"player {view['winner'] + 1} wins after {view['turn_number']} turns",
                          style="bold green"))
    else:
        rolled = ",".join(map(str, view["rolled"])) or "not yet"
        left = ",".join(map(str, view["dice"])) or "none"
        extra = " (one die only: the other is forgone)" if view["one_die"] else ""
        lines.append(Text(f"turn {view['turn_number']}: player {turn} — rolled {rolled}; unused dice {left}{extra}"))
    if view["last_piece"]:
        cells = " ".join(view["indirect"]) or "none"
        lines.append(Text(f"indirect-push cells this turn (last piece on {view['last_piece']}): {cells}",
                          style="red"))
    else:
        lines.append(Text("no indirect-push cells this turn (no last piece on a tier cell)"))
    pend = view["pending_push"]
    if pend:
        lines.append(Text(
            f"player {pend['player'] + 1} chooses where the piece pushed from {pend['from']} goes "
            f"({pend['cause']}): " + " ".join(f"push:{c}" for c in pend["options"]),
            style="bold magenta",
        ))
    if last:
        lines.append(Text(f"last move: {last}", style="dim"))
    log = view["log"] or view["previous_log"]
    title = "this turn:" if view["log"] else "previous turn:"
    if log:
        lines.append(Text(title, style="bold"))
        lines.extend(Text(f"  {line}") for line in log)
    return lines


def render(game: Any, view: dict[str, Any], last: str | None = None) -> RenderableType:
    """The terminal picture of a Kelighine view."""
    return Group(board_text(view), Text(""), players_table(view), *status_lines(view, last))
