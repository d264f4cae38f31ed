"""Chance events as OpenSpiel chance actions: integer outcomes with their probabilities.

Where qipan lists a chance event's outcomes (dice, a coin, the first player), outcome ``i`` is the
``i``-th of ``game.chance_outcomes(state)``. Sheng-Ke's setup shuffle has (5!)^10 outcomes, too
many to list: it becomes ten chance events, one per pile (each player's five element piles), each
choosing one of the 120 orders of that pile; the shuffle is played once the tenth is known.

>>> import qipan
>>> game = qipan.load("shengke", first="0")
>>> chance = ChanceEvents(game)
>>> state, pending = game.initial_state(), ()
>>> len(chance.outcomes(state, pending)), chance.outcomes(state, pending)[0]
(120, (0, 0.008333333333333333))
>>> chance.text(state, pending, 0)
'shuffle jia wood 12345'
>>> for _ in range(10):
...     state, pending = chance.apply(state, pending, 0)
>>> pending, [(game.action_text(state, a), p) for a, p in game.chance_outcomes(state)][:2]
((), [('roll 1-1', 0.027777777777777776), ('roll 1-2', 0.05555555555555555)])
"""

from __future__ import annotations

import itertools
from typing import Any

from qipan.core.errors import GameError
from qipan.core.game import Game
from qipan.games.shengke.cards import PER_ELEMENT
from qipan.games.shengke.elements import ELEMENTS
from qipan.games.shengke.state import PLAYER_ASCII, Shuffle

Pending = tuple[int, ...]
"""Outcomes of a split chance event drawn so far (empty when none is under way)."""

ORDERS = tuple(itertools.permutations(range(PER_ELEMENT)))
PILES = 2 * len(ELEMENTS)


class ChanceEvents:
    """The chance events of one game (with its options) as integer outcomes."""

    def __init__(self, game: Game[Any, Any]):
        self.game = game

    def outcomes(self, state: Any, pending: Pending) -> list[tuple[int, float]]:
        listed = self.game.chance_outcomes(state)
        if listed:
            return [(i, p) for i, (_, p) in enumerate(listed)]
        self._check_split()
        p = 1.0 / len(ORDERS)
        return [(i, p) for i in range(len(ORDERS))]

    def apply(self, state: Any, pending: Pending, outcome: int) -> tuple[Any, Pending]:
        """The state after chance outcome ``outcome`` (and the pending part of a split event)."""
        listed = self.game.chance_outcomes(state)
        if listed:
            if not 0 <= outcome < len(listed):
                raise GameError(f"chance outcome {outcome} is not one of 0..{len(listed) - 1}")
            return self.game.next_state(state, listed[outcome][0]), ()
        self._check_split()
        if not 0 <= outcome < len(ORDERS):
            raise GameError(f"chance outcome {outcome} is not one of 0..{len(ORDERS) - 1}")
        pending = (*pending, outcome)
        if len(pending) < PILES:
            return state, pending
        orders = tuple(tuple(ORDERS[i] for i in pending[p * len(ELEMENTS):(p + 1) * len(ELEMENTS)]) for p in (0, 1))
        return self.game.next_state(state, Shuffle(orders)), ()

    def text(self, state: Any, pending: Pending, outcome: int) -> str:
        listed = self.game.chance_outcomes(state)
        if listed:
            if 0 <= outcome < len(listed):
                return self.game.action_text(state, listed[outcome][0])
            return f"chance {outcome}"
        if self.game.name != "shengke" or not 0 <= outcome < len(ORDERS):
            return f"chance {outcome}"
        player, element = divmod(len(pending), len(ELEMENTS))
        order = "".join(str(i + 1) for i in ORDERS[outcome])
        return f"shuffle {PLAYER_ASCII[player]} {ELEMENTS[element]} {order}"

    def _check_split(self) -> None:
        # Sheng-Ke's shuffle is the only chance event qipan does not list.
        if self.game.name != "shengke":
            raise GameError(f"{self.game.name} has a chance event whose outcomes cannot be listed")


def max_outcomes(game: Game[Any, Any]) -> int:
    """The most outcomes any chance event of ``game`` has (0 without chance)."""
    name, config = game.name, game.config
    if name == "kelighine":
        return int(config["die"]) if config["version"] == 1 else 10
    if name == "shengke":
        return len(ORDERS)
    if name == "tellstones":
        return game.num_players if config["first_player"] == "random" else 0
    return 0
