"""Memory of face-down stones, built only from the views a player receives.

Everything in Tellstones is public at some moment, so a player's knowledge is what they
*remember*. :class:`Memory` keeps, for each face-down stone it knows, a trace ``(symbol,
confidence)``: confidence is the chance the trace is still right. Traces are created when a
stone is hidden in view or peeked at, follow the stones through the swaps the player watches,
and fade: each action may make a trace vanish (``forget``), each watched swap may be
mis-followed (``confuse``), and at most ``capacity`` traces are held. The confidences decay by
the same rates, so they stay calibrated. With ``MemoryParams.perfect()`` nothing is ever lost:
that is the practice aid of the terminal board and the ceiling AI.

>>> import qipan
>>> game = qipan.load("tellstones")
>>> memory = Memory(MemoryParams.perfect())
>>> state = game.initial_state()
>>> for move in ["place crown 3", "hide 3", "swap 3 4"]:
...     state = game.play(state, move)
...     _ = memory.observe(game, game.view(state, 1))
>>> memory.best_guess(game, game.view(state, 1))
{'4': ('crown', 1.0)}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from qipan.games.tellstones.game import Tellstones
from qipan.games.tellstones.stones import HIDE, NAME, PLACE, SLOTS, SWAP, SYMBOLS

Slot = tuple[int, int]


@dataclass(frozen=True)
class MemoryParams:
    """How a memory fails: per-action chance of forgetting a trace, chance of mis-following a
    watched swap, and how many face-down stones it can hold at once."""

    forget: float
    confuse: float
    capacity: int

    @classmethod
    def perfect(cls) -> MemoryParams:
        return cls(0.0, 0.0, 2 * SLOTS)


def candidates(view: Mapping[str, Any], line: int) -> list[int]:
    """Symbols that may lie face down in ``line``: neither face up there nor in its pool."""
    shown = {s for s in view["lines"][line] if s not in (None, "?")} | set(view["pools"][line])
    return [i for i, s in enumerate(SYMBOLS) if s not in shown]


def face_down(view: Mapping[str, Any]) -> list[Slot]:
    return [(n, i) for n, line in enumerate(view["lines"]) for i, s in enumerate(line) if s == "?"]


class Memory:
    """One player's fallible memory of the face-down stones (see the module docstring)."""

    def __init__(self, params: MemoryParams, rng: random.Random | None = None):
        self.params = params
        self.rng = rng or random.Random(0)
        self.traces: dict[Slot, tuple[int, float]] = {}
        self.ply: int | None = None
        self.lines: list[list[str | None]] = []

    def observe(self, game: Tellstones, view: Mapping[str, Any]) -> tuple[int, Any] | None:
        """Take in a view. Returns ``(player, action)`` of the action just watched, or None when
        the view repeats the last one or follows a gap (then only the view itself is used)."""
        ply = view["ply"]
        if ply == self.ply:
            return None
        watched = None
        last = view.get("last")
        if self.ply is not None and ply > self.ply and last is not None:
            action = game.read_action(last["action"])
            watched = (last["player"], action)
            if ply > self.ply + 1:
                self._catch_up(view, action, ply - self.ply - 1)
            self._watch(action)
        else:
            self.traces = {}
        self.ply = ply
        self.lines = [list(line) for line in view["lines"]]
        revealed = view.get("revealed")
        if revealed:
            self.traces[self._slot(game, revealed["slot"])] = (SYMBOLS.index(revealed["stone"]), 1.0)
        self._tidy(view)
        return watched

    def _watch(self, action: Any) -> None:
        params = self.params
        if params.forget:
            keep = 1.0 - params.forget
            self.traces = {k: (s, c * keep) for k, (s, c) in self.traces.items()
                           if self.rng.random() >= params.forget}
        if action.kind == HIDE:
            shown = self.lines[action.line][action.a]
            if shown in SYMBOLS:
                self.traces[(action.line, action.a)] = (SYMBOLS.index(shown), 1.0)
        elif action.kind == SWAP:
            a, b = (action.line, action.a), (action.line, action.b)
            ta, tb = self.traces.pop(a, None), self.traces.pop(b, None)
            if params.confuse and self.rng.random() < params.confuse:
                ta, tb = tb, ta  # lost track: the memories stay where they were
            keep = 1.0 - params.confuse
            if ta is not None:
                self.traces[b] = (ta[0], ta[1] * keep)
            if tb is not None:
                self.traces[a] = (tb[0], tb[1] * keep)

    def _catch_up(self, view: Mapping[str, Any], last: Any, missed: int) -> None:
        # Actions were missed before ``last``. Rebuild the lines as they were just before
        # ``last`` and compare them with the lines last seen. One missed action that changed
        # something visible is known exactly (a hide, a place, a swap involving a face-up
        # stone, an answer); otherwise (a peek or a swap of two face-down stones leaves no
        # trace) every memory is doubted a little per missed action.
        old = self.lines
        before = [list(line) for line in view["lines"]]
        if last.kind == SWAP:
            line = before[last.line]
            line[last.a], line[last.b] = line[last.b], line[last.a]
        elif last.kind == PLACE:
            before[last.line][last.a] = None
        elif last.kind == HIDE and old[last.line][last.a] in SYMBOLS:
            before[last.line][last.a] = old[last.line][last.a]
        elif last.kind == NAME:
            for n, line in enumerate(before):
                for i, cell in enumerate(line):
                    if old[n][i] == "?" and cell in SYMBOLS:
                        line[i] = "?"
        changed = [(n, i) for n, line in enumerate(before) for i, cell in enumerate(line)
                   if old[n][i] != cell]
        if missed == 1 and changed:
            doubt = 1.0 - self.params.forget
            if len(changed) == 2 and changed[0][0] == changed[1][0]:
                a, b = changed
                ta, tb = self.traces.pop(a, None), self.traces.pop(b, None)
                if ta is not None:
                    self.traces[b] = ta
                if tb is not None:
                    self.traces[a] = tb
        else:
            doubt = (0.9 * (1.0 - self.params.forget)) ** missed
        self.traces = {k: (s, c * doubt) for k, (s, c) in self.traces.items()}
        for n, i in changed:
            if before[n][i] == "?" and old[n][i] in SYMBOLS:
                self.traces[(n, i)] = (SYMBOLS.index(old[n][i]), doubt)
        self.lines = before

    def _tidy(self, view: Mapping[str, Any]) -> None:
        lines = view["lines"]
        traces = {k: v for k, v in self.traces.items()
                  if lines[k[0]][k[1]] == "?" and v[0] in candidates(view, k[0])}
        if len(traces) > self.params.capacity:
            ranked = sorted(traces.items(), key=lambda kv: -kv[1][1])
            traces = dict(ranked[: self.params.capacity])
        self.traces = traces

    @staticmethod
    def _slot(game: Tellstones, label: str) -> Slot:
        line = "ab".index(label[0]) if label[0] in "ab" else 0
        return line, int(label.lstrip("ab")) - 1

    # -- beliefs ---------------------------------------------------------------------------------

    def distribution(self, view: Mapping[str, Any], slot: Slot,
                     cands: list[int] | None = None) -> dict[int, float]:
        """P(symbol) for a face-down stone, from its trace and the other traces of its line
        (``cands``: the line's :func:`candidates`, when the caller has them)."""
        if cands is None:
            cands = candidates(view, slot[0])
        weights = dict.fromkeys(cands, 1.0)
        for other, (s, c) in self.traces.items():
            if other != slot and other[0] == slot[0] and s in weights:
                weights[s] *= 1.0 - c
        total = sum(weights.values()) or 1.0
        base = {s: w / total for s, w in weights.items()}
        trace = self.traces.get(slot)
        if trace is None:
            return base
        s, c = trace
        return {t: (c if t == s else 0.0) + (1.0 - c) * p for t, p in base.items()}

    def assignment(self, view: Mapping[str, Any]) -> dict[Slot, tuple[int, float]]:
        """The best naming of every face-down stone (no symbol twice in a line), surest first,
        each with the chance it is right."""
        result: dict[Slot, tuple[int, float]] = {}
        used: set[Slot | tuple[int, str, int]] = set()
        cands = [candidates(view, n) for n in range(len(view["lines"]))]
        dists = {slot: self.distribution(view, slot, cands[slot[0]]) for slot in face_down(view)}
        while dists:
            slot, dist = max(dists.items(), key=lambda kv: max(kv[1].values(), default=0.0))
            options = [(p, s) for s, p in dist.items() if (slot[0], "s", s) not in used]
            p, s = max(options, default=(0.0, 0))
            result[slot] = (s, p)
            used.add((slot[0], "s", s))
            del dists[slot]
        return result

    def best_guess(self, game: Tellstones, view: Mapping[str, Any]) -> dict[str, tuple[str, float]]:
        """Slot label -> (stone, confidence) for every remembered face-down stone."""
        return {game.label(*slot): (SYMBOLS[s], round(c, 3)) for slot, (s, c) in sorted(self.traces.items())}
