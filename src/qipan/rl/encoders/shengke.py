"""Sheng-Ke observations: a flat vector of the field, this player's hand, what is public of the
opponent's hand, decks and discard piles, and the turn's dice and phase.

Cards are named by their index in their owner's deck (``game.decks[p].cards``, the order of the
deck file; the decks themselves are options, so public). "Own" and "opponent" are from the viewer's
side; the field is not turned (cell a1 is index 0, e5 index 24, 甲 sits on row 1), because
action ids are absolute.

>>> import qipan
>>> game = qipan.load("shengke", first="0")
>>> encoder = ShengKeEncoder(game)
>>> encoder.shape
(471,)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from qipan.games.shengke import elements as game_elements
from qipan.games.shengke.state import EMPTY, OVER
from qipan.rl.encoders import Encoder, Layout, Observation, scatter

ELEMENTS = ("wood", "fire", "earth", "metal", "water")
PHASES = ("coin", "shuffle", "roll", "pick", "place", "over")
CELLS = 25
DECK = 25
_CELL_FEATURES = 10  # own, opponent, element (5), in / 8, out / 8, placed this turn


def _cell(name: str) -> int:
    return (int(name[1:]) - 1) * 5 + "abcde".index(name[0])


_ELEMENT = tuple(ELEMENTS.index(name) for name in game_elements.ELEMENTS)
"""The encoded index of each of the game's element numbers."""
assert all(_cell(game_elements.cell_name(c)) == c for c in range(CELLS))  # the field is in the game's cell order


class ShengKeEncoder(Encoder):
    def __init__(self, game: Any):
        super().__init__(game)
        self.ids: tuple[dict[str, int], ...] = game.card_ids
        self.layout = Layout(
            ("field", CELLS * _CELL_FEATURES, "per cell a1, b1, ..., e5: own card, opponent's card, its element "
                                              "one-hot (wood fire earth metal water), in number / 8, out number / 8, "
                                              "placed this turn"),
            ("hand", DECK, "own hand, by card index in own deck"),
            ("hand_shown", DECK, "own hand cards the opponent saw drawn"),
            ("opp_hand_shown", DECK, "opponent's hand cards both saw drawn, by index in the opponent's deck"),
            ("opp_hand_counts", 5, "opponent's hand cards per element / 5"),
            ("deck_sizes", 10, "own then opponent's deck size per element / 5"),
            ("deck_bottoms", 2 * DECK, "own then opponent's cards known at the bottom of their decks"),
            ("discards", 2 * DECK, "own then opponent's discard pile"),
            ("counts", 4, "own, opponent's cards on the field / 25; own, opponent's score (with bonus) / 50"),
            ("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES)),
            ("seats", 4, "first player known; viewer is first; viewer is the current player; turn / turns"),
            ("dice", 6, "dice of this turn: count of each face 1–6 / 2"),
            ("picks", 5, "elements picked for 6s / 2"),
            ("todo", 5, "elements still to place this turn / 2"),
            ("bonus", 1, "first_bonus / 25"),
        )
        self.indices = self._indices()
        """Per player, the encoded index of each card of their deck (:meth:`_indices`)."""

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.layout.size,)

    def _index(self, card: Mapping[str, Any]) -> int:
        index: int = self.ids[card["owner"]][card["id"]]
        return index

    def encode(self, view: Mapping[str, Any]) -> Observation:
        obs = self.zeros()
        lay = self.layout
        me: int = view["player"]
        field = obs[lay["field"]].reshape(CELLS, _CELL_FEATURES)
        for name, card in view["field"].items():
            row = field[_cell(name)]
            row[0 if card["owner"] == me else 1] = 1
            row[2 + ELEMENTS.index(card["element"])] = 1
            row[7] = card["in"] / 8
            row[8] = card["out"] / 8
        for name in view["placed"]:
            field[_cell(name), 9] = 1
        own, opp = view["players"][me], view["players"][1 - me]
        for card in own["hand"] or ():
            obs[lay["hand"].start + self._index(card)] = 1
        for card in own["hand_known"]:
            obs[lay["hand_shown"].start + self._index(card)] = 1
        for card in opp["hand_known"]:
            obs[lay["opp_hand_shown"].start + self._index(card)] = 1
        for e, element in enumerate(ELEMENTS):
            obs[lay["opp_hand_counts"].start + e] = min(1.0, opp["hand_counts"][element] / 5)
        for k, side in enumerate((own, opp)):
            for e, element in enumerate(ELEMENTS):
                deck = side["decks"][element]
                obs[lay["deck_sizes"].start + 5 * k + e] = min(1.0, deck["size"] / 5)
                for card in deck["bottom"]:
                    obs[lay["deck_bottoms"].start + DECK * k + self._index(card)] = 1
            for card in side["discard"]:
                obs[lay["discards"].start + DECK * k + self._index(card)] = 1
        obs[lay["counts"]] = [own["on_field"] / CELLS, opp["on_field"] / CELLS,
                              min(1.0, own["score"] / 50), min(1.0, opp["score"] / 50)]
        obs[lay["phase"].start + PHASES.index(view["phase"])] = 1
        seats = lay["seats"].start
        if view["first"] is not None:
            obs[seats] = 1
            obs[seats + 1] = float(view["first"] == me)
        obs[seats + 2] = float(view["current"] == me)
        obs[seats + 3] = min(1.0, view["turn"] / view["turns"])
        for face in view["dice"]:
            obs[lay["dice"].start + face - 1] += 0.5
        for element in view["picks"]:
            obs[lay["picks"].start + ELEMENTS.index(element)] += 0.5
        for element in view["todo"]:
            obs[lay["todo"].start + ELEMENTS.index(element)] += 0.5
        obs[lay["bonus"]] = view["first_bonus"] / 25
        np.clip(obs, 0.0, 1.0, out=obs)
        return obs

    def observe(self, state: Any, player: int) -> Observation:
        """:meth:`encode` of the view, straight from the state: of the hidden parts (hands, deck
        orders) it reads, like the view, only the viewer's own hand, the cards shown when drawn,
        the opponent's hand size per element and the known bottoms of the decks. The values are
        gathered in a dict and written with one numpy call."""
        game: Any = self.game
        starts = self.layout.starts
        me, opp = player, 1 - player
        index = self.indices
        elements = game.card_elements  # by card key: owner * DECK + index in the deck
        values: dict[int, float] = {}
        for cell, key in enumerate(state.field):  # the field comes first in the layout
            if key != EMPTY:
                owner = key // DECK
                card = game.decks[owner].cards[key % DECK]
                at = cell * _CELL_FEATURES
                values[at + (0 if owner == me else 1)] = 1
                values[at + 2 + _ELEMENT[card.element]] = 1
                values[at + 7] = card.range_in / 8
                values[at + 8] = card.range_out / 8
        for cell in state.placed:
            values[cell * _CELL_FEATURES + 9] = 1
        for part, side, cards in (("hand", me, state.hands[me]), ("hand_shown", me, state.shown[me]),
                                  ("opp_hand_shown", opp, state.shown[opp])):
            start = starts[part]
            for i in cards:
                values[start + index[side][i]] = 1
        counts = [0] * 5
        for i in state.hands[opp]:
            counts[_ELEMENT[elements[opp * DECK + i]]] += 1
        for e in range(5):
            values[starts["opp_hand_counts"] + e] = min(1.0, counts[e] / 5)
        for k, side in enumerate((me, opp)):
            sizes = starts["deck_sizes"] + 5 * k
            bottoms = starts["deck_bottoms"] + DECK * k
            for game_element, pile in enumerate(state.decks[side]):
                values[sizes + _ELEMENT[game_element]] = min(1.0, len(pile) / 5)
                for i in pile[len(pile) - state.known[side][game_element]:]:
                    values[bottoms + index[side][i]] = 1
            discards = starts["discards"] + DECK * k
            for i in state.discards[side]:
                values[discards + index[side][i]] = 1
        on_field = game.on_field(state)
        scores = game.scores(state)
        counts_at = starts["counts"]
        values[counts_at] = on_field[me] / CELLS
        values[counts_at + 1] = on_field[opp] / CELLS
        values[counts_at + 2] = min(1.0, scores[me] / 50)
        values[counts_at + 3] = min(1.0, scores[opp] / 50)
        values[starts["phase"] + state.phase] = 1
        seats = starts["seats"]
        if state.first != EMPTY:
            values[seats] = 1
            values[seats + 1] = float(state.first == me)
        values[seats + 2] = float(state.first != EMPTY and state.phase != OVER and state.current == me)
        values[seats + 3] = min(1.0, state.turn / game.config["turns"])
        for part, items in (("dice", [face - 1 for face in state.dice]),
                            ("picks", [_ELEMENT[e] for e in state.picks]),
                            ("todo", [_ELEMENT[e] for e in state.todo])):
            for item in items:
                key = starts[part] + item
                values[key] = values.get(key, 0.0) + 0.5
        values[starts["bonus"]] = game.config["first_bonus"] / 25
        obs = scatter(self.zeros(), values)
        np.clip(obs, 0.0, 1.0, out=obs)
        return obs

    def _indices(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per player, the encoded index of each card of their deck (by its id, as views name it)."""
        game: Any = self.game
        own, other = (tuple(self.ids[p][card.id] for card in game.decks[p].cards) for p in (0, 1))
        return own, other
