"""Tellstones observations: a flat vector of the public line(s), pools, scores and phase, the
stone this player may be looking at right now, and the last action.

A view only shows what a player may see *now*: face-down stones are ``"?"`` except the one a
player has just peeked at. The last action (a swap, a hide...) is included so that an agent with
memory (a recurrent policy) can track the stones; the observation itself has none.

>>> import qipan
>>> game = qipan.load("tellstones")
>>> encoder = TellstonesEncoder(game)
>>> encoder.shape
(188,)
>>> state = game.play(game.play(game.play(game.initial_state(), "place crown 3"), "hide 3"), "peek 3")
>>> obs = encoder.encode(game.view(state, 0))
>>> slot3 = obs[encoder.layout["slots"]].reshape(7, 19)[2]
>>> int(slot3[8]), int(slot3[9])  # face down, and revealed to player 0: the crown
(1, 1)
>>> int(encoder.encode(game.view(state, 1))[encoder.layout["slots"]].reshape(7, 19)[2, 9])
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipan.core.game import CHANCE
from qipan.games.tellstones.game import PROVE, TARGET
from qipan.games.tellstones.stones import CHALLENGE, HIDE, KIND_WORDS, NAME, PEEK, PLACE, SLOTS, SWAP, SYMBOLS
from qipan.rl.encoders import Encoder, Layout, Observation, relative, scatter

PHASES = ("start", "turn", "peeking", "answer-challenge", "answer-boast", "answer-counter", "prove", "over")
# Per slot: empty, face up (7 symbols), face down, revealed to this player (7), peeked this turn,
# challenged, to be named next in a proof.
_SLOT = 1 + 7 + 1 + 7 + 3
_COLUMN = {0: 0, **{s + 1: s + 1 for s in range(7)}, **{-s - 1: 8 for s in range(7)}}
"""The slot column of each stone value of a line: empty, the face-up symbol, face down."""
_POOL_SYMBOLS = range(7)
_NAMED = {PLACE: (True, False, True), HIDE: (True, False, False), SWAP: (True, True, False),
          PEEK: (True, False, False), CHALLENGE: (True, False, False), NAME: (False, False, True)}
"""Per action kind, whether its notation names slot ``a``, slot ``b`` and a symbol."""


class TellstonesEncoder(Encoder):
    def __init__(self, game: Any):
        super().__init__(game)
        self.players: int = game.num_players
        self.lines: int = len(game.view(game.initial_state(), None)["lines"])
        n, cells = self.players, self.lines * SLOTS
        self.layout = Layout(
            ("slots", cells * _SLOT, f"per slot (line a slots 1–7{', then line b' if self.lines > 1 else ''}), "
                                     f"{_SLOT} values: empty; face-up symbol one-hot (7, symbol order "
                                     "crown shield sword flag knight hammer scale); face down; symbol "
                                     "revealed to this player now (7); peeked this turn; challenged; "
                                     "to be named next in a proof"),
            ("pools", self.lines * 7, "symbols still in each line's pool"),
            ("scores", 2, "own team's score / 3, opposing team's score / 3"),
            ("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES)),
            ("turn_player", n, "whose turn it is, one-hot by seat counted from the viewer (0 = self)"),
            ("boaster", n, "who boasted (same seat order), all 0 if nobody"),
            ("catch_up", n, "seats whose next turn has the catch-up peek bonus (same seat order)"),
            ("peeks", 2, "peek allowance / 3, peeks left / 3"),
            ("turns", 1, "turns played / turn_limit (0 when there is no limit)"),
            ("last_actor", n + 1, "who took the last action (same seat order; last = chance); 0 at the start"),
            ("last_kind", len(KIND_WORDS), "last action's kind one-hot: " + ", ".join(KIND_WORDS)),
            ("last_slots", cells, "slots the last action named"),
            ("last_symbol", 7, "symbol the last action named (place, name)"),
        )

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.layout.size,)

    def _slot(self, label: str) -> int:
        """Index in 0..lines*7-1 of a slot label ("4" or "b4")."""
        if label[0].isalpha():
            return "ab".index(label[0]) * SLOTS + int(label[1:]) - 1
        return int(label) - 1

    def encode(self, view: Mapping[str, Any]) -> Observation:
        obs = self.zeros()
        lay = self.layout
        me: int = view["player"]
        n = self.players
        my_team = next(t for t, seats in enumerate(view["teams"]) if me in seats)
        slots = obs[lay["slots"]].reshape(self.lines * SLOTS, _SLOT)
        for line, stones in enumerate(view["lines"]):
            for i, stone in enumerate(stones):
                row = slots[line * SLOTS + i]
                if stone is None:
                    row[0] = 1
                elif stone == "?":
                    row[8] = 1
                else:
                    row[1 + SYMBOLS.index(stone)] = 1
        if view["revealed"] is not None:
            slots[self._slot(view["revealed"]["slot"]), 9 + SYMBOLS.index(view["revealed"]["stone"])] = 1
        for label in view["peeked"]:
            slots[self._slot(label), 16] = 1
        if view["challenged"] is not None:
            slots[self._slot(view["challenged"]), 17] = 1
        if view["proving"] is not None:
            slots[self._slot(view["proving"]), 18] = 1
        pools = obs[lay["pools"]]
        for line, pool in enumerate(view["pools"]):
            for stone in pool:
                pools[line * 7 + SYMBOLS.index(stone)] = 1
        target = view["target"]
        obs[lay["scores"]] = [min(1.0, view["scores"][my_team] / target),
                              min(1.0, view["scores"][1 - my_team] / target)]
        obs[lay["phase"].start + PHASES.index(view["phase"])] = 1
        obs[lay["turn_player"].start + relative(view["turn_player"], me, n)] = 1
        if view["boaster"] is not None:
            obs[lay["boaster"].start + relative(view["boaster"], me, n)] = 1
        for seat, bonus in enumerate(view["catch_up"]):
            obs[lay["catch_up"].start + relative(seat, me, n)] = float(bonus)
        obs[lay["peeks"]] = [view["peek_allowance"] / 3, view["peeks_left"] / 3]
        limit = self.game.config["turn_limit"]
        if limit:
            obs[lay["turns"]] = min(1.0, view["turn"] / limit)
        last = view["last"]
        if last is not None:
            self._last(obs, n if last["player"] == "chance" else relative(last["player"], me, n), last["action"])
        return obs

    def _last(self, out: Observation, actor: int, text: str) -> None:
        """Encode the last action: its actor (seat from the viewer, or n for chance) and its notation."""
        lay = self.layout
        out[lay["last_actor"].start + actor] = 1
        words = text.split()
        out[lay["last_kind"].start + KIND_WORDS.index(words[0])] = 1
        if words[0] != "first":
            for word in words[1:]:
                if word in SYMBOLS:
                    out[lay["last_symbol"].start + SYMBOLS.index(word)] = 1
                elif word[-1].isdigit():
                    out[lay["last_slots"].start + self._slot(word)] = 1

    def observe(self, state: Any, player: int) -> Observation:
        """:meth:`encode` of the view, straight from the state. Like the view, it reads a face-down
        stone only when ``player`` is the one looking at it right now (``game.looker``). The values
        are gathered in a dict and written with one numpy call."""
        game: Any = self.game
        starts = self.layout.starts
        n = self.players
        values: dict[int, float] = {}  # the slots come first in the layout, _SLOT values each
        pools = starts["pools"]
        for line, stones in enumerate(state.lines):
            row = line * SLOTS * _SLOT
            for value in stones:
                values[row + _COLUMN[value]] = 1
                row += _SLOT
            pool = pools + line * 7
            for symbol in _POOL_SYMBOLS:
                values[pool + symbol] = 1
            for value in stones:
                if value:
                    values.pop(pool + abs(value) - 1, None)
        if game.looker(state) == player:
            action = state.last[1]
            values[(action.line * SLOTS + action.a) * _SLOT + 8 - state.lines[action.line][action.a]] = 1
        for line, i in state.peeked:
            values[(line * SLOTS + i) * _SLOT + 16] = 1
        if state.target is not None:
            values[(state.target[0] * SLOTS + state.target[1]) * _SLOT + 17] = 1
        if state.phase == PROVE:
            line, i = game._next_proof_stone(state)
            values[(line * SLOTS + i) * _SLOT + 18] = 1
        my_team = game.team(player)
        scores = starts["scores"]
        values[scores] = min(1.0, state.scores[my_team] / TARGET)
        values[scores + 1] = min(1.0, state.scores[1 - my_team] / TARGET)
        values[starts["phase"] + state.phase] = 1
        values[starts["turn_player"] + relative(state.turn_player, player, n)] = 1
        if state.boaster >= 0:
            values[starts["boaster"] + relative(state.boaster, player, n)] = 1
        for seat, bonus in enumerate(state.catch_up):
            values[starts["catch_up"] + relative(seat, player, n)] = float(bonus)
        values[starts["peeks"]] = (3 if state.bonus else 1) / 3
        values[starts["peeks"] + 1] = state.peeks_left / 3
        limit = game.config["turn_limit"]
        if limit:
            values[starts["turns"]] = min(1.0, state.turn / limit)
        if state.last is not None:
            who, action = state.last
            values[starts["last_actor"] + (n if who == CHANCE else relative(who, player, n))] = 1
            values[starts["last_kind"] + action.kind] = 1
            # What the action's notation names (as _last reads it): slots and a symbol.
            slot_a, slot_b, symbol = _NAMED.get(action.kind, (False, False, False))
            if slot_a:
                values[starts["last_slots"] + action.line * SLOTS + action.a] = 1
            if slot_b:
                values[starts["last_slots"] + action.line * SLOTS + action.b] = 1
            if symbol:
                values[starts["last_symbol"] + action.symbol] = 1
        return scatter(self.zeros(), values)
