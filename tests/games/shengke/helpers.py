"""Building Sheng-Ke positions for tests: name the cards that matter, the rest stay in their decks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import qipan
from qipan.core.match import Match
from qipan.games.shengke import ShengKe
from qipan.games.shengke.elements import DICE, parse_cell
from qipan.games.shengke.state import EMPTY, OVER, PHASES, PLACE, State
from qipan.games.shengke.views import state_problem

DECK = 25


def new_game(**options: object) -> ShengKe:
    game = qipan.load("shengke", options={"first": "0", **options})
    assert isinstance(game, ShengKe)
    return game


def index(game: ShengKe, player: int, card_id: str) -> int:
    found = game.decks[player].index(card_id)
    assert found is not None, card_id
    return found


def build(
    game: ShengKe,
    *,
    field: Mapping[str, tuple[int, str]] | None = None,
    hands: Sequence[Sequence[str]] = ((), ()),
    discards: Sequence[Sequence[str]] = ((), ()),
    bottoms: Mapping[tuple[int, int], Sequence[str]] | None = None,
    shown: Sequence[Sequence[str]] = ((), ()),
    turn: int = 0,
    first: int = 0,
    phase: str = "roll",
    dice: tuple[int, int] | None = None,
) -> State:
    """A checked state. ``field`` maps cells to (owner, card id); ``bottoms[(p, e)]`` are cards put
    at the bottom of a deck as publicly known; every other card is in its deck in file order.
    With ``dice`` the state is in the place phase of player ``(first + turn) % 2``."""
    cells = [EMPTY] * 25
    used: list[set[int]] = [set(), set()]
    for name, (owner, card_id) in (field or {}).items():
        cell = parse_cell(name)
        assert cell is not None
        i = index(game, owner, card_id)
        cells[cell] = owner * DECK + i
        used[owner].add(i)
    hand_idx = tuple(tuple(sorted(index(game, p, c) for c in hands[p])) for p in (0, 1))
    disc_idx = tuple(tuple(index(game, p, c) for c in discards[p]) for p in (0, 1))
    shown_idx = tuple(tuple(sorted(index(game, p, c) for c in shown[p])) for p in (0, 1))
    bottom_idx = {k: [index(game, k[0], c) for c in v] for k, v in (bottoms or {}).items()}
    decks = []
    known = []
    for p in (0, 1):
        taken = used[p] | set(hand_idx[p]) | set(disc_idx[p]) | {i for (q, _), v in bottom_idx.items()
                                                                  if q == p for i in v}
        piles = []
        counts = []
        for e, pile in enumerate(game.decks[p].piles):
            bottom = bottom_idx.get((p, e), [])
            piles.append(tuple([i for i in pile if i not in taken] + bottom))
            counts.append(len(bottom))
        decks.append(tuple(piles))
        known.append(tuple(counts))
    state = State(
        phase=PHASES.index(phase), first=first, turn=turn, dice=(), picks=(), todo=(), placed=(),
        field=tuple(cells), hands=(hand_idx[0], hand_idx[1]), shown=(shown_idx[0], shown_idx[1]),
        decks=(decks[0], decks[1]), known=(known[0], known[1]), discards=(disc_idx[0], disc_idx[1]),
    )
    if dice is not None:
        state = state._replace(phase=PLACE, dice=tuple(sorted(dice)),
                               todo=tuple(sorted(DICE[f - 1] for f in dice)))
    if phase == "over":
        state = state._replace(phase=OVER, turn=game.config["turns"])
    problem = state_problem(game, state)
    assert problem is None, problem
    return state


def random_game(game: ShengKe, seed: int) -> Match:
    """A finished game between uniformly random players (chance sampled from ``seed``)."""
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.play(rng.choice(list(game.legal_actions(match.state))))
    return match
