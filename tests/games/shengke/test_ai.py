"""The turn search weighs whole turns against the opponent's reply, from its view only."""

from __future__ import annotations

import random

from qipan.games.shengke.ai import TurnPlanner, TurnSearch, exposed
from qipan.games.shengke.state import Place, State

from .helpers import build, index, new_game

# 乙's last turn follows 甲's: 甲 places wood1 on c3 or c4 and 乙 fills the other cell with its only
# card, metal4 (out-range 3: its front, left and right). From c4 it destroys wood1 on c3 and 甲's
# wood on b4 and d4; from c3 it destroys 乙's own wood on c2, b3 and d3.
OTHERS = ["a1", "b1", "c1", "d1", "e1", "a2", "b2", "d2", "e2", "a3", "e3", "a4", "e4", "a5", "b5", "d5", "e5"]
YI_FILLERS = ["fire1", "fire2", "fire3", "fire4", "fire5", "earth1", "earth2", "earth3", "earth4", "earth5",
              "water1", "water2", "water3", "water4", "water5", "metal1"]


def trap(game) -> State:  # type: ignore[no-untyped-def]
    field = {"c2": (1, "wood1"), "b3": (1, "wood2"), "d3": (1, "wood3"),
             "b4": (0, "wood2"), "d4": (0, "wood3"), "c5": (0, "wood4"), OTHERS[0]: (0, "wood5")}
    field.update({cell: (1, card) for cell, card in zip(OTHERS[1:], YI_FILLERS, strict=True)})
    return build(game, field=field, hands=(["wood1"], ["metal4"]),
                 discards=([], ["wood4", "wood5", "metal2", "metal3", "metal5"]), dice=(1, 2))


def test_the_turn_search_leaves_the_opponent_the_harmless_cell() -> None:
    game = new_game(turns=2)
    state = trap(game)
    view = game.view(state, 0)
    c4 = Place(index(game, 0, "wood1"), 17)
    assert set(game.legal_actions(state)) == {Place(c4.card, 12), c4}
    for seed in range(4):
        assert TurnSearch(plans=4, samples=8).choose(game, view, random.Random(seed)) == c4
    # The planner sees no difference between the two cells: both leave the field as it is.
    picks = {TurnPlanner().choose(game, view, random.Random(seed)) for seed in range(12)}
    assert len(picks) == 2


def test_the_turn_search_plays_the_rest_of_its_plan() -> None:
    game = new_game()
    state = build(game, hands=(["wood1", "water2", "water3"], []), dice=(1, 5))
    agent = TurnSearch(plans=3, samples=4)
    rng = random.Random(1)
    first = agent.choose(game, game.view(state, 0), rng)
    planned = list(agent._rest)
    assert len(planned) == 1
    after = game.next_state(state, first)
    assert agent.choose(game, game.view(after, 0), rng) == planned[0]
    assert planned[0] in game.legal_actions(after)


def test_exposed_counts_cards_the_opponent_can_still_reach() -> None:
    game = new_game()
    # Metal overcomes wood: 乙 holds metal cards, so 甲's wood on c3 is exposed, its earth on a1 not
    # (wood overcomes earth and all of 乙's wood is discarded).
    woods = ["wood1", "wood2", "wood3", "wood4", "wood5"]
    state = build(game, field={"c3": (0, "wood1"), "a1": (0, "earth1")}, discards=([], woods))
    assert exposed(game, state, 0) == 1
    metals = ["metal1", "metal2", "metal3", "metal4", "metal5"]
    safe = build(game, field={"c3": (0, "wood1"), "a1": (0, "earth1")}, discards=([], woods + metals))
    assert exposed(game, safe, 0) == 0


def test_the_turn_search_adds_deals_while_its_time_lasts() -> None:
    """With a time limit the search plays every candidate on more deals, in whole rounds, and
    still finds the harmless cell."""
    game = new_game(turns=2)
    state = trap(game)
    view = game.view(state, 0)
    c4 = Place(index(game, 0, "wood1"), 17)
    fixed = TurnSearch(plans=4, samples=3)
    assert fixed.choose(game, view, random.Random(0)) == c4
    assert fixed.stats.nodes == 2 * 3  # two candidates, three deals each
    timed = TurnSearch(plans=4, samples=3, time_limit=0.3)
    assert timed.choose(game, view, random.Random(0)) == c4
    rounds, rest = divmod(timed.stats.nodes, 2)
    assert rest == 0 and rounds > 3  # every candidate on the same (and more) deals
    assert timed.stats.seconds < 1.5
