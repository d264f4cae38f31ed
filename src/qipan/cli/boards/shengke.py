"""Sheng-Ke in the terminal: the 5×5 field seen from the viewer's seat, the dice, and each
player's hand, decks and discard pile as far as the viewer may know them.

Each card shows its name, owner (甲/乙) and in/out range numbers on its element's colour; the
viewer's own row is at the bottom (a spectator sees 甲's side at the bottom).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from qipan.core.game import Game
from qipan.games.shengke import elements

ELEMENTS = ("wood", "fire", "earth", "metal", "water")
GLYPHS = {"wood": "木", "fire": "火", "earth": "土", "metal": "金", "water": "水"}
STYLES = {"wood": "green", "fire": "red", "earth": "yellow", "metal": "bright_white", "water": "blue"}
OWNERS = ("甲", "乙")


def _face(face: int) -> str:
    """``"1木"``: a die face with its element from the game's dice table (任 for any element)."""
    element = elements.DICE[face - 1]
    return f"{face}{'任' if element == elements.ANY else elements.GLYPHS[element]}"


def _card_text(card: dict[str, Any], with_id: bool = False) -> Text:
    element = card["element"]
    text = Text()
    if with_id:
        text.append(f"{card['id']} ", style="bold")
    text.append(f"{card['name']} {GLYPHS[element]} {card['in']}/{card['out']}", style=STYLES[element])
    return text


def _field(view: dict[str, Any], viewer: int | None) -> Table:
    flipped = viewer == 1
    files = "edcba" if flipped else "abcde"
    ranks = range(1, 6) if flipped else range(5, 0, -1)
    placed = set(view.get("placed", []))
    table = Table(show_lines=True, box=None, padding=(0, 1), pad_edge=False)
    table.add_column("", justify="right", style="dim")
    for f in files:
        table.add_column(f, justify="center", min_width=8)
    for rank in ranks:
        row: list[RenderableType] = [Text(str(rank))]
        for f in files:
            cell = f"{f}{rank}"
            card = view["field"].get(cell)
            if card is None:
                row.append(Text(f"·{cell}·", style="dim"))
                continue
            style = STYLES[card["element"]] + (" underline" if cell in placed else "")
            owner = OWNERS[card["owner"]]
            row.append(Text(f"{card['name']}\n{owner} {GLYPHS[card['element']]}{card['in']}/{card['out']}",
                            style=style + (" bold" if card["owner"] == viewer else "")))
        table.add_row(*row)
    return table


def _player(view: dict[str, Any], p: int) -> Table:
    info = view["players"][p]
    viewer = view["player"]
    first = view.get("first")
    bonus = f" (+{view['first_bonus']} first)" if first == p else ""
    title = f"{info['name']}{' (you)' if viewer == p else ''}: {info['on_field']} on the field{bonus}, " \
            f"score {info['score']}"
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 1))
    table.add_column(style="dim")
    table.add_column()
    if info["hand"] is not None:
        hand = Text(", ").join(_card_text(c, with_id=True) for c in info["hand"]) or Text("(empty)", style="dim")
    else:
        size = info["hand_size"]
        hand = Text(f"{size} card{'' if size == 1 else 's'}: ")
        hand.append_text(Text(" ").join(
            Text(f"{GLYPHS[e]}×{n}", style=STYLES[e]) for e, n in info["hand_counts"].items() if n
        ) or Text("none", style="dim"))
        if info["hand_known"]:
            hand.append("; known: ")
            hand.append_text(Text(", ").join(_card_text(c) for c in info["hand_known"]))
    table.add_row("hand", hand)
    decks = Text("  ").join(
        Text(f"{GLYPHS[e]}{d['size']}" + (f" (bottom {', '.join(c['name'] for c in d['bottom'])})"
                                          if d["bottom"] else ""), style=STYLES[e])
        for e, d in info["decks"].items()
    )
    table.add_row("decks", decks)
    discard = Text(", ").join(_card_text(c) for c in info["discard"]) or Text("(empty)", style="dim")
    table.add_row("discard", discard)
    return table


def _status(view: dict[str, Any]) -> Text:
    text = Text(f"生剋棋 turn {min(view['turn'] + 1, view['turns'])}/{view['turns']}", style="bold")
    if view["result"]:
        text.append(f" · game over: {view['result']}", style="bold")
        return text
    if view["current"] is not None:
        text.append(f" · {OWNERS[view['current']]}'s turn")
    if view["dice"]:
        text.append(" · dice ")
        text.append(" ".join(_face(d) for d in view["dice"]))
    if view["picks"]:
        text.append(" · picked " + " ".join(GLYPHS[e] for e in view["picks"]))
    if view["todo"]:
        text.append(" · to place: ")
        text.append_text(Text(" ").join(Text(f"{GLYPHS[e]} {e}", style=STYLES[e]) for e in view["todo"]))
    if view["phase"] == "pick":
        text.append(" · name the element of the 6: pick wood|fire|earth|metal|water")
    return text


def render(game: Game[Any, Any], view: dict[str, Any], last: str | None = None, **_: Any) -> RenderableType:
    """Draw ``view``: status line, the opponent's side, the field, the viewer's side.

    >>> import qipan
    >>> from rich.console import Console
    >>> game = qipan.load("shengke", first="0")
    >>> console = Console(record=True, width=100)
    >>> console.print(render(game, game.view(game.initial_state(), 0)))  # doctest: +ELLIPSIS
    生剋棋 turn 1/20...
    """
    viewer = view["player"]
    me = viewer if viewer is not None else 0
    parts: list[RenderableType] = [_status(view)]
    if last:
        parts.append(Text(f"last: {last}", style="italic"))
    if view.get("events"):
        parts.append(Text("last resolution:", style="italic"))
    for event in view.get("events", []):
        parts.append(Text(f"  {event['text']}", style="magenta"))
    parts += [_player(view, 1 - me), _field(view, viewer), _player(view, me)]
    return Group(*parts)
