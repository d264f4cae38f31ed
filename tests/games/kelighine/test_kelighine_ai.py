"""The greedy player easy and medium slip from: sensible promotions and pushes, better than random."""

from __future__ import annotations

import random

import qipan
from qipan.ai import agent_levels, make_agent
from qipan.core import Match
from qipan.games.kelighine import Kelighine, State
from qipan.games.kelighine.ai import LEVELS, evaluate, greedy, piece_value
from tests.games.kelighine.kelighine_helpers import piece, position


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def choose(g: Kelighine, s: State) -> str:
    mover = g.to_move(s)
    assert mover is not None and mover >= 0
    action = greedy(g).choose(g, g.view(s, mover), random.Random(0))
    return g.action_text(s, action)


def test_levels() -> None:
    assert "easy" in LEVELS
    assert agent_levels(game()) == ["random", *LEVELS]
    assert list(LEVELS) == ["easy", "medium", "hard"]


def test_piece_values_grow_with_progress() -> None:
    g = game()
    s = position(g, [[piece("A16")], [piece("A9")]])
    first_lap = piece_value(g, 0, s.pieces[0][0])
    values = [
        first_lap,
        piece_value(g, 0, position(g, [[piece("A4", done=1)], [piece("A9")]]).pieces[0][0]),
        piece_value(g, 0, position(g, [[piece("B2", done=1, entry="B2")], [piece("A9")]]).pieces[0][0]),
        piece_value(g, 0, position(g, [[piece("B1", done=1, entry="B2")], [piece("A9")]]).pieces[0][0]),
        piece_value(g, 0, position(g, [[piece("C1", done=2, entry="C1")], [piece("A9")]]).pieces[0][0]),
        piece_value(g, 0, position(g, [[piece("C1", done=3)], [piece("A9")]]).pieces[0][0]),
    ]
    assert values == sorted(values) and values[-1] < 100
    assert evaluate(g, s, 0) == -evaluate(g, s, 1)


def test_greedy_promotes_when_the_lap_is_done() -> None:
    g = game()
    s = g.play(position(g, [[piece("A4", done=1)], [piece("A12")]]), "roll:3")
    assert choose(g, s) == "A4^B2"


def test_greedy_pushes_an_opponent_out_of_its_lap() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("B1", done=2), piece("J", done=3), piece("J", done=3)],
         [piece("B5", done=1, entry="B4"), piece("C1", done=2, entry="C1"), piece("C8", done=3)]],
    )
    s = g.play(s, "roll:1,4")  # one die only; C1 and C8 are taken, so no promotion
    assert choose(g, s) in ("B1+4", "B1-4")  # either way onto B5: player 2 loses its B lap


def test_greedy_owner_picks_the_push_destination_that_is_not_indirect() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("C1", done=2, entry="C1"), piece("B4", done=2), piece("reserve")],
         [piece("C8", done=2, entry="C8"), piece("A12"), piece("reserve")]],
        turn=1, last="B4",
    )
    s = g.play(g.play(s, "roll:1,2"), "C8+1")
    assert g.to_move(s) == 0 and g.legal_texts(s) == ["push:B1", "push:B2"]
    assert choose(g, s) == "push:B1"  # B2 is indirect: it would be pushed on down to A


def test_greedy_beats_random() -> None:
    g = game()
    wins = 0
    for seed in range(30):
        greedy_seat = seed % 2
        agents = {greedy_seat: greedy(g), 1 - greedy_seat: make_agent(g, "random")}
        rng = random.Random(seed)
        match = Match(g, seed=seed)
        while not match.over:
            mover = match.to_move
            assert mover is not None
            match.play(agents[mover].choose(g, g.view(match.state, mover), rng))
        wins += match.state.winner == greedy_seat
    assert wins >= 20
