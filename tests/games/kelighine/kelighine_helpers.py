"""Building Kelighine positions for tests (through state_from_json, so they are validated)."""

from __future__ import annotations

from typing import Any

from qipan.games.kelighine import Kelighine, State, board


def piece(cell: str, done: int = 0, entry: str | None = None, a: int | None = None) -> dict[str, Any]:
    """A piece for :func:`position`; ``a`` defaults to "on its first A lap"."""
    return {"cell": cell, "done": done, "entry": entry, "a": a}


def position(
    game: Kelighine,
    pieces: list[list[dict[str, Any]]],
    turn: int = 0,
    last: str | None = None,
    phase: str = "roll",
    dice: tuple[int, ...] = (),
    one_die: bool = False,
) -> State:
    players = []
    for owner, ps in enumerate(pieces):
        start = board.GAP[game.start_of(owner)]
        out = []
        for p in ps:
            a = p["a"]
            if a is None:
                a = start
                if p["done"] == 0 and p["cell"] not in ("reserve", "J"):
                    c = board.cell(p["cell"])
                    value = board.GAP[c] if c in board.GAP else 2 * board.number(c)
                    a = start + (value - start) % 32
                elif p["done"]:
                    a = 0
            out.append({"cell": p["cell"], "a": a, "done": p["done"], "entry": p["entry"]})
        players.append(out)
    return game.state_from_json({
        "turn": turn, "phase": phase, "rolled": list(dice), "dice": list(dice), "one_die": one_die,
        "last": last, "moved": None, "pieces": players, "pending": None, "after": None,
        "log": [], "prev_log": [], "number": 1, "winner": None,
    })


def cells(game: Kelighine, state: State, player: int) -> list[str]:
    """The cells of a player's pieces ("reserve" and "J" included), sorted by cell."""
    return [("reserve" if p.cell == 41 else board.name(p.cell)) for p in state.pieces[player]]


def only(game: Kelighine, state: State, player: int) -> Any:
    """The single piece of a version-1 player."""
    (p,) = state.pieces[player]
    return p
