"""Game secrets and keyed chance: unpredictable, independent per event, and replayable."""

from __future__ import annotations

import collections
import re

import pytest

import qipan
from qipan.core import GameError, Match, Record
from qipan.core.chance import KeyedRandom, check_seed, event_key, event_rng, new_secret
from qipan.core.jsonsafe import loads
from tests.core.toy import DiceRace


def test_a_default_seed_is_256_fresh_bits() -> None:
    seeds = {Match(DiceRace()).seed for _ in range(20)}
    assert len(seeds) == 20
    assert all(isinstance(s, str) and re.fullmatch("[0-9a-f]{64}", s) for s in seeds)
    assert new_secret() != new_secret()


def test_each_chance_event_has_its_own_generator() -> None:
    match = Match(DiceRace(), seed="s3cret")
    while not match.over:
        match.play("take")
    rolls = [m.text for m in match.moves if m.player == "chance"]
    assert len(rolls) > 3
    # Event n is drawn from its own keyed generator, so it can be recomputed alone ...
    game = DiceRace()
    for n, text in enumerate(rolls):
        state = match.states[[i for i, m in enumerate(match.moves) if m.player == "chance"][n]]
        assert game.action_text(state, game.sample_chance(state, event_rng("s3cret", "chance", n))) == text
    # ... and the keys of different events, purposes and seeds differ.
    keys = {event_key("s3cret", p, n) for p in ("chance", "ai") for n in range(50)} | {event_key("other", "chance", 0)}
    assert len(keys) == 101


def test_keyed_random_is_deterministic_uniform_and_has_no_twister_state() -> None:
    a, b = KeyedRandom(b"k"), KeyedRandom(b"k")
    assert [a.randrange(6) for _ in range(100)] == [b.randrange(6) for _ in range(100)]
    counts = collections.Counter(event_rng("u", "chance", n).randrange(6) for n in range(6000))
    assert set(counts) == set(range(6)) and all(850 < c < 1150 for c in counts.values())
    rng = KeyedRandom(b"x")
    deck = list(range(25))
    rng.shuffle(deck)
    assert sorted(deck) == list(range(25)) and deck != list(range(25))
    assert 0.0 <= rng.random() < 1.0 and rng.getrandbits(0) == 0 and rng.getrandbits(300) < 2**300
    state = rng.getstate()
    first = rng.random()
    rng.setstate(state)
    assert rng.random() == first
    rng.seed(123)  # not reseeded: the key stays
    assert KeyedRandom(b"x").getstate()[0] == rng.getstate()[0]


def test_a_resumed_game_draws_the_same_chance_as_an_uninterrupted_one() -> None:
    game = qipan.load("kelighine")
    whole = Match(game, seed=new_secret())
    for _ in range(12):
        whole.play(whole.legal_texts()[0])
    cut = Match(game, seed=whole.seed)
    for _ in range(5):
        cut.play(cut.legal_texts()[0])
    record = Record.from_json(loads(cut.record().dumps()))
    resumed = Match.from_record(record)
    for _ in range(7):
        resumed.play(resumed.legal_texts()[0])
    assert [m.text for m in resumed.moves] == [m.text for m in whole.moves]


def test_undo_at_the_start_keeps_the_opening_chance_outcome() -> None:
    match = Match(qipan.load("kelighine"), seed=3)
    opening = [m.text for m in match.moves]
    assert opening and match.moves[0].player == "chance"
    with pytest.raises(GameError, match="nothing to undo"):
        match.undo()
    assert [m.text for m in match.moves] == opening and match.to_move != qipan.CHANCE
    with pytest.raises(GameError):
        match.play("roll:6")  # automatic chance: no chance outcome may be played by hand


def test_truncate_takes_back_moves_and_chance_counts() -> None:
    match = Match(DiceRace(), seed=9)
    match.play("take")
    events = match.chance_events
    match.play("take")
    match.truncate(2)
    assert len(match.moves) == 2 and len(match.states) == 3
    assert match.chance_events == sum(m.player == "chance" for m in match.moves) <= events


@pytest.mark.parametrize("bad", [True, 1.5, None, [], "", "x" * 129, 2**200, -(2**200)])
def test_seeds_are_checked(bad: object) -> None:
    with pytest.raises(GameError, match="seed must be"):
        check_seed(bad)
    with pytest.raises(GameError, match="seed must be"):
        Record.from_json({"game": "abalone", "variant": "standard", "moves": [], "seed": bad}) if bad is not None \
            else check_seed(bad)


def test_core_messages_never_echo_a_huge_name() -> None:
    huge = "v" * 100_000
    for call in (lambda: qipan.load("abalone", variant=huge), lambda: qipan.load(huge),
                 lambda: qipan.load("abalone").check_player(huge)):  # type: ignore[arg-type]
        with pytest.raises(GameError) as info:
            call()
        assert len(str(info.value)) < 400
