"""Kelighine observations: a flat vector of per-cell features over the 41 cells, then the dice,
phase, reserves and the pending push.

Cells in the order A1..A16, B1..B8, C1..C8, D, E, F, G, I, L, H, K, J (``board.NAMES``). Seats
are counted from the viewer: seat +0 is the viewer, +1 the next player, and so on.

>>> import qipan
>>> game = qipan.load("kelighine")
>>> encoder = KelighineEncoder(game)
>>> encoder.shape
(769,)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipan.games.kelighine.board import INDIRECT, NAMES, J
from qipan.games.kelighine.state import RESERVE
from qipan.rl.encoders import Encoder, Layout, Observation, relative, scatter

PHASES = ("roll", "ones", "act", "push", "over")
CAUSES = ("direct", "indirect", "persistence")
_INDEX = {name: i for i, name in enumerate(NAMES)}
_KINDS = ("A", "B", "C", "corner", "start", "J")
_KIND = {name: (_KINDS.index(name[0]) if name[0] in "ABC" and len(name) > 1 else
                3 if name in "DEFG" else 4 if name in "ILHK" else 5) for name in NAMES}
_SHARED = 4 + len(_KINDS)  # indirect, last piece, pushed from, push option; cell kind


class KelighineEncoder(Encoder):
    def __init__(self, game: Any):
        super().__init__(game)
        n = self.players = int(game.num_players)
        self.per_cell = 4 * n + _SHARED
        self.pieces_each = 3 if game.config["version"] == 2 else 1
        self.layout = Layout(
            ("cells", len(NAMES) * self.per_cell,
             f"per cell, {self.per_cell} values: for each seat +0..+{n - 1} (4 each): its pieces here / "
             "pieces each, highest completed tier of them / 3 (the die face: 6 → 0, 1 → 1/3, 2 → 2/3, "
             "3 → 1), lap progress of the lap under way (steps / of), its coin here; then indirect-push "
             "cell this turn, cell of the last piece, cell a pending push comes from, allowed "
             "destination of the pending push; then the cell kind one-hot (A, B, C, corner, start, J)"),
            ("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES)),
            ("turn", n, "whose turn it is, by seat from the viewer"),
            ("rolled", 6, "faces rolled this turn: count of each face 1–6 / 2"),
            ("dice", 6, "unused dice: count of each face 1–6 / 4 (four 1s after a double 1)"),
            ("one_die", 1, "only one die may be used (version 2, one piece left)"),
            ("reserve", n, "pieces in reserve / pieces each, by seat"),
            ("finished", n, "pieces at J / pieces each, by seat"),
            ("push_owner", n, "owner of the piece being pushed (who chooses), by seat"),
            ("push_cause", len(CAUSES), "why it is pushed: " + ", ".join(CAUSES)),
            ("push_piece", 2, "pushed piece: highest completed tier / 3, lap progress"),
        )
        self.template = self._template()
        """The observation's constant part, which :meth:`observe` starts from."""

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.layout.size,)

    def encode(self, view: Mapping[str, Any]) -> Observation:
        obs = self.zeros()
        lay = self.layout
        me: int = view["player"]
        n = self.players
        each = self.pieces_each
        cells = obs[lay["cells"]].reshape(len(NAMES), self.per_cell)
        for piece in view["pieces"]:
            row = cells[_INDEX[piece["cell"]]]
            base = 4 * relative(piece["player"], me, n)
            row[base] += 1 / each
            row[base + 1] = max(row[base + 1], _tier(piece["face"]))
            row[base + 2] = max(row[base + 2], _lap(piece["lap_progress"]))
        for coin in view["coins"]:
            cells[_INDEX[coin["cell"]], 4 * relative(coin["player"], me, n) + 3] = 1
        shared = 4 * n
        for name in view["indirect"]:
            cells[_INDEX[name], shared] = 1
        if view["last_piece"] is not None:
            cells[_INDEX[view["last_piece"]], shared + 1] = 1
        for name, kind in _KIND.items():
            cells[_INDEX[name], shared + 4 + kind] = 1
        obs[lay["phase"].start + PHASES.index(view["phase"])] = 1
        obs[lay["turn"].start + relative(view["turn"], me, n)] = 1
        for face in view["rolled"]:
            obs[lay["rolled"].start + face - 1] += 0.5
        for face in view["dice"]:
            obs[lay["dice"].start + face - 1] += 0.25
        obs[lay["one_die"]] = float(view["one_die"])
        for seat in range(n):
            obs[lay["reserve"].start + relative(seat, me, n)] = view["reserve"][seat] / each
            obs[lay["finished"].start + relative(seat, me, n)] = view["finished"][seat] / each
        push = view["pending_push"]
        if push is not None:
            cells[_INDEX[push["from"]], shared + 2] = 1
            for name in push["options"]:
                if name in _INDEX:  # "start" (back to the start cell) is the piece's start cell
                    cells[_INDEX[name], shared + 3] = 1
                else:
                    cells[_INDEX[view["starts"][push["player"]]], shared + 3] = 1
            obs[lay["push_owner"].start + relative(push["player"], me, n)] = 1
            obs[lay["push_cause"].start + CAUSES.index(push["cause"])] = 1
            obs[lay["push_piece"]] = [_tier(push["piece"]["face"]), _lap(push["piece"]["lap_progress"])]
        return obs


    def observe(self, state: Any, player: int) -> Observation:
        """:meth:`encode` of the view, straight from the state (everything is public). The values
        are gathered in a dict and written with one numpy call: per-element numpy writes cost more
        than the whole rest."""
        game: Any = self.game
        starts = self.layout.starts
        n = self.players
        each = self.pieces_each
        per = self.per_cell  # the cells come first in the layout
        shared = 4 * n
        values: dict[int, float] = {}
        for owner, pieces in enumerate(state.pieces):
            base = 4 * relative(owner, player, n)
            for piece in pieces:
                if piece.cell != RESERVE:
                    at = piece.cell * per + base
                    values[at] = values.get(at, 0.0) + 1 / each
                    values[at + 1] = max(values.get(at + 1, 0.0), _tier(piece.face))
                    values[at + 2] = max(values.get(at + 2, 0.0), _lap(game.lap_progress(owner, piece)))
        for owner, pieces in enumerate(state.pieces):
            for piece in pieces:
                if piece.entry >= 0:
                    values[piece.entry * per + 4 * relative(owner, player, n) + 3] = 1
        if state.last >= 0:
            for cell in INDIRECT[state.last]:
                values[cell * per + shared] = 1
            values[state.last * per + shared + 1] = 1
        values[starts["phase"] + state.phase] = 1
        values[starts["turn"] + relative(state.turn, player, n)] = 1
        for face in state.rolled:
            at = starts["rolled"] + face - 1
            values[at] = values.get(at, 0.0) + 0.5
        for face in state.dice:
            at = starts["dice"] + face - 1
            values[at] = values.get(at, 0.0) + 0.25
        values[starts["one_die"]] = float(state.one_die)
        for seat, pieces in enumerate(state.pieces):
            values[starts["reserve"] + relative(seat, player, n)] = sum(p.cell == RESERVE for p in pieces) / each
            values[starts["finished"] + relative(seat, player, n)] = sum(p.cell == J for p in pieces) / each
        push = state.pending
        if push is not None:
            values[push.origin * per + shared + 2] = 1
            for option in push.options:
                values[_INDEX[NAMES[option]] * per + shared + 3] = 1  # as the view names it
            values[starts["push_owner"] + relative(push.owner, player, n)] = 1
            values[starts["push_cause"] + push.cause] = 1
            piece = push.piece._replace(cell=push.origin, entry=-1)
            values[starts["push_piece"]] = _tier(piece.face)
            values[starts["push_piece"] + 1] = _lap(game.lap_progress(push.owner, piece))
        return scatter(self.template.copy(), values)

    def _template(self) -> Observation:
        """The observation's constant part: the cell kinds."""
        obs = self.zeros()
        cells = obs[self.layout["cells"]].reshape(len(NAMES), self.per_cell)
        for name, kind in _KIND.items():
            cells[_INDEX[name], 4 * self.players + 4 + kind] = 1
        return obs


def _tier(face: int) -> float:
    """Highest completed tier / 3 from the die face a piece shows (6: none yet)."""
    return 0.0 if face == 6 else face / 3


def _lap(lap: Mapping[str, int] | None) -> float:
    """Progress of the lap under way (a view's ``lap_progress``), 0 when there is none."""
    return 0.0 if lap is None else min(1.0, lap["steps"] / lap["of"])
