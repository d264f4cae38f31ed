"""Sheng-Ke rules: the data tables, each resolution step alone and together, ranges from both
sides, draws, compulsory placement, dice, the end and the notation.

Default deck indices used below: wood1 青翼龍 4/3, metal1 白牙龍 2/7, metal2 白鬃虎 6/2,
earth1 黃趾龍 1/6, fire1 赤羽鳳 3/4, water1 玄甲龜 8/1 (in/out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qipan.core import CHANCE, GameError
from qipan.games.shengke.cards import default_deck_text
from qipan.games.shengke.elements import (
    EARTH,
    ELEMENTS,
    FIRE,
    GENERATES,
    METAL,
    OVERCOMES,
    RANGES,
    WATER,
    WOOD,
    parse_cell,
    range_cells,
)
from qipan.games.shengke.state import OVER, PICK, PLACE, ROLL, Coin, Pick, Place, Roll, Shuffle

from .helpers import build, index, new_game


def cells(*names: str) -> tuple[int, ...]:
    return tuple(parse_cell(n) or 0 for n in names)


def test_cycles_follow_the_contract() -> None:
    assert [ELEMENTS[GENERATES[e]] for e in range(5)] == ["fire", "earth", "metal", "water", "wood"]
    # wood → earth → water → fire → metal → wood, listed per element in order
    assert [ELEMENTS[OVERCOMES[e]] for e in range(5)] == ["earth", "metal", "water", "wood", "fire"]
    for e in range(5):  # nothing overcomes what overcomes it, nothing generates its own generator
        assert OVERCOMES[OVERCOMES[e]] != e and GENERATES[GENERATES[e]] != e


def test_range_table_sizes_and_the_posts_entries() -> None:
    assert [len(RANGES[n]) for n in range(1, 9)] == [1, 2, 3, 4, 4, 6, 5, 8]
    assert set(RANGES[2]) == {"left", "right"}
    assert set(RANGES[7]) == {"left", "front-left", "front", "front-right", "right"}


@pytest.mark.parametrize(
    ("number", "player", "expected"),
    [
        (1, 0, ("c4",)), (1, 1, ("c2",)),
        (2, 0, ("b3", "d3")), (2, 1, ("d3", "b3")),
        (7, 0, ("b3", "b4", "c4", "d4", "d3")), (7, 1, ("d3", "d2", "c2", "b2", "b3")),
        (5, 0, ("b4", "d4", "b2", "d2")), (6, 1, ("d2", "c2", "b2", "d4", "c4", "b4")),
        (8, 0, ("b4", "c4", "d4", "b3", "d3", "b2", "c2", "d2")),
    ],
)
def test_ranges_seen_from_both_sides(number: int, player: int, expected: tuple[str, ...]) -> None:
    assert range_cells(cells("c3")[0], number, player) == cells(*expected)


def test_ranges_stop_at_the_edge() -> None:
    assert range_cells(cells("a1")[0], 8, 0) == cells("a2", "b2", "b1")
    assert range_cells(cells("a1")[0], 1, 1) == ()  # 乙's front from row 1 is off the field


# -- resolution ------------------------------------------------------------------------------


def test_xingke_destroys_an_overcome_card_in_the_out_range() -> None:
    game = new_game()
    state = build(game, field={"b4": (1, "wood1"), "c4": (1, "fire1")}, hands=(["metal1"], []), dice=(4, 4))
    after = game.play(state, "metal1@c3")
    assert after.field[cells("b4")[0]] == -1
    assert after.field[cells("c4")[0]] == 25 + index(game, 1, "fire1")  # fire overcomes metal, not vice versa
    assert after.discards[1] == (index(game, 1, "wood1"),)
    assert [game.event_text(e) for e in after.events] == ["白牙龍 at c3: 行剋 destroys 青翼龍 at b4"]
    assert "行剋 destroys 青翼龍 at b4" in game.describe_action(state, Place(index(game, 0, "metal1"), 12))


def test_xingke_hits_own_cards_too() -> None:
    game = new_game()
    state = build(game, field={"c4": (0, "wood2")}, hands=(["metal1"], []), dice=(4, 4))
    after = game.play(state, "metal1@c3")
    assert after.discards[0] == (index(game, 0, "wood2"),)


@pytest.mark.parametrize(("player", "victim", "survivor"), [(0, "b4", "d2"), (1, "d2", "b4")])
def test_out_range_is_read_from_the_owners_side(player: int, victim: str, survivor: str) -> None:
    game = new_game()
    other = 1 - player
    hands = (["metal1"], []) if player == 0 else ([], ["metal1"])
    state = build(game, field={"b4": (other, "wood1"), "d2": (other, "wood2")}, hands=hands, dice=(4, 4),
                  turn=player)
    after = game.play(state, "metal1@c3")
    assert after.field[cells(victim)[0]] == -1
    assert after.field[cells(survivor)[0]] != -1


def test_kexing_destroys_the_placed_card() -> None:
    game = new_game()
    state = build(game, field={"d3": (1, "metal2")}, hands=(["wood1"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.field[cells("c3")[0]] == -1
    assert after.discards[0] == (index(game, 0, "wood1"),)
    assert [game.event_text(e) for e in after.events] == ["青翼龍 at c3: 剋行, destroyed by 白鬃虎 at d3"]


def test_a_card_destroyed_by_kexing_neither_recycles_nor_draws() -> None:
    game = new_game()
    # 青翼龍 at c3: in 4 (c4, c2, b3, d3), out 3 (c4, b3, d3). Metal at d3 kills it; water at c2 would
    # make it draw (生行); fire at c4 would recycle the fire card in the discard (行生).
    field = {"d3": (1, "metal2"), "c2": (1, "water1"), "c4": (1, "fire1")}
    state = build(game, field=field, hands=(["wood1"], []), discards=(["fire2"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.hands[0] == ()
    assert after.decks[0] == state.decks[0]
    assert after.discards[0] == (index(game, 0, "fire2"), index(game, 0, "wood1"))
    assert [e[0] for e in after.events] == [1]


def test_without_the_killer_the_same_card_recycles_and_draws() -> None:
    game = new_game()
    field = {"c2": (1, "water1"), "c4": (1, "fire1")}
    state = build(game, field=field, hands=(["wood1"], []), discards=(["fire2"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.decks[0][FIRE][-1] == index(game, 0, "fire2") and after.known[0][FIRE] == 1
    assert after.discards[0] == ()
    assert after.hands[0] == (index(game, 0, "wood2"),)  # the top of the wood deck
    assert [game.event_text(e) for e in after.events] == [
        "青翼龍 at c3: 行生 on 赤羽鳳 at c4 returns 赤鬃獅 to the bottom of the fire deck",
        "青翼龍 at c3: 生行 from 玄甲龜 at c2 draws a wood card",
    ]


def test_xingke_then_kexing_as_in_the_post() -> None:
    game = new_game()
    # Earth in front (out range: destroyed first), metal behind (in range: then 青翼龍 dies).
    state = build(game, field={"c4": (1, "earth1"), "c2": (1, "metal2")}, hands=(["wood1"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.field[cells("c4")[0]] == -1 and after.field[cells("c3")[0]] == -1
    assert [e[0] for e in after.events] == [0, 1]


def test_xingsheng_takes_the_topmost_card_of_the_element_once_per_target() -> None:
    game = new_game()
    field = {"c4": (1, "fire1"), "b3": (0, "fire3")}  # two fire cards in 青翼龍's out range
    discards = (["fire2", "earth1", "fire4", "fire5"], [])
    state = build(game, field=field, hands=(["wood1"], []), discards=discards, dice=(1, 1))
    after = game.play(state, "wood1@c3")
    fire = [index(game, 0, c) for c in ("fire5", "fire4")]
    assert after.decks[0][FIRE][-2:] == tuple(fire) and after.known[0][FIRE] == 2
    assert after.discards[0] == (index(game, 0, "fire2"), index(game, 0, "earth1"))
    view = game.view(after, 1)
    assert [c["id"] for c in view["players"][0]["decks"]["fire"]["bottom"]] == ["fire5", "fire4"]


def test_xingsheng_with_an_empty_discard_does_nothing() -> None:
    game = new_game()
    state = build(game, field={"c4": (1, "fire1")}, hands=(["wood1"], []), discards=(["earth1"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.decks == state.decks and after.discards[0] == (index(game, 0, "earth1"),)
    assert game.event_text(after.events[0]).endswith("but no fire card is in the discard pile")


def test_shengxing_draws_once_per_generating_card_and_nothing_from_an_empty_deck() -> None:
    game = new_game()
    # 青翼龍's in range 4 around c3: water at c2 and b3 generate wood: two draws, one card left.
    field = {"c2": (1, "water1"), "b3": (0, "water2")}
    state = build(game, field=field, hands=(["wood1"], []), discards=(["wood2", "wood3", "wood4"], []),
                  dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.hands[0] == (index(game, 0, "wood5"),)
    assert after.decks[0][WOOD] == ()
    assert [e[5] for e in after.events] == [1, 0]
    assert game.event_text(after.events[1]).endswith("but the wood deck is empty")


def test_a_drawn_public_bottom_card_is_known_to_both() -> None:
    game = new_game()
    others = ["wood2", "wood3", "wood4"]
    state = build(game, field={"c2": (1, "water1")}, hands=(["wood1"], []), discards=(others, []),
                  bottoms={(0, WOOD): ["wood5"]}, dice=(1, 1))
    assert game.view(state, 1)["players"][0]["decks"]["wood"] == {
        "size": 1, "bottom": [game.view(state, 0)["players"][0]["decks"]["wood"]["bottom"][0]]}
    after = game.play(state, "wood1@c3")
    assert after.shown[0] == (index(game, 0, "wood5"),)
    assert [c["id"] for c in game.view(after, 1)["players"][0]["hand_known"]] == ["wood5"]


def test_cards_resolve_one_after_the_other() -> None:
    game = new_game()
    # 白牙龍 at c3 overcomes our own 青翼龍 at d4 (its front-right) before 青翼龍 resolves, so the
    # water at e4 (in 青翼龍's in range) never makes us draw.
    base = build(game, field={"e4": (1, "water1")}, hands=(["metal1", "wood1"], []), dice=(1, 4))
    after = game.play(game.play(base, "metal1@c3"), "wood1@d4")
    assert after.field[cells("d4")[0]] == -1
    assert [e[0] for e in after.events] == [0]
    assert after.hands[0] == ()
    # The other order: 青翼龍 resolves first (draws), then 白牙龍 destroys it.
    after = game.play(game.play(base, "wood1@d4"), "metal1@c3")
    assert [e[0] for e in after.events] == [3, 0]
    assert after.hands[0] == (index(game, 0, "wood2"),)


# -- the turn ----------------------------------------------------------------------------------


def started(**options: object) -> tuple[object, object]:
    game = new_game(**options)
    state = game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    return game, state


def test_setup_chance_events() -> None:
    game = new_game(first="random")
    state = game.initial_state()
    assert game.to_move(state) == CHANCE and game.chance_outcomes(state) == [(Coin(0), 0.5), (Coin(1), 0.5)]
    state = game.play(state, "coin yi")
    assert state.first == 1 and game.legal_actions(state) == [] and game.chance_outcomes(state) is None
    with pytest.raises(GameError, match="the shuffle comes first"):
        game.apply(state, Roll(1, 2))
    state = game.play(state, "shuffle 54321.12345.12345.12345.12345/12345.12345.12345.12345.12345")
    assert state.decks[0][WOOD] == (4, 3, 2, 1, 0) and state.phase == ROLL
    state = game.play(state, "roll 1-1")
    assert game.to_move(state) == 1 and state.hands[1] == (0, 1)


def test_roll_outcomes_and_move_counts() -> None:
    game = new_game()
    state = game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    outcomes = game.chance_outcomes(state)
    assert outcomes is not None and len(outcomes) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert sum(p for r, p in outcomes if r.high == 6) == pytest.approx(11 / 36)
    placing = game.play(state, "roll 1-3")  # wood1 and earth1 drawn
    assert len(game.legal_actions(placing)) == 50
    second = game.play(placing, "wood1@c3")
    assert len(game.legal_actions(second)) == 20  # not c3, not its four neighbours
    corner = game.play(placing, "wood1@a1")
    assert len(game.legal_actions(corner)) == 22
    assert len(game.legal_actions(game.play(state, "roll 2-2"))) == 50  # two fire cards


def test_a_six_lets_the_roller_pick() -> None:
    game = new_game()
    state = game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    state = game.play(state, "roll 6-6")
    assert state.phase == PICK and game.to_move(state) == 0
    assert game.legal_texts(state) == [f"pick {e}" for e in ELEMENTS]
    state = game.play(state, "pick 水")
    assert state.phase == PICK
    state = game.play(state, "pick water")
    assert state.phase == PLACE and state.todo == (WATER, WATER) and len(state.hands[0]) == 2
    state = game.play(game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2)),
                      "roll 3-6")
    state = game.play(state, "pick metal")
    assert state.todo == (EARTH, METAL)


def test_drawing_from_an_empty_deck_gives_nothing_and_the_game_goes_on() -> None:
    game = new_game()
    woods = ["wood1", "wood2", "wood3", "wood4", "wood5"]
    state = build(game, discards=(woods, []))
    after = game.play(state, "roll 1-1")
    assert after.hands[0] == () and after.turn == 1 and game.to_move(after) == CHANCE
    assert "no card can be placed" in game.describe_action(state, Roll(1, 1))


def test_a_die_without_a_card_places_nothing() -> None:
    game = new_game()
    fires = ["fire1", "fire2", "fire3", "fire4", "fire5"]
    state = game.play(build(game, discards=(fires, [])), "roll 1-2")  # wood drawn, fire deck empty
    assert state.todo == (WOOD, FIRE) and len(game.legal_actions(state)) == 25
    after = game.play(state, "wood1@c3")
    assert after.turn == 1 and after.phase == ROLL


FULL = {  # every cell but a1, a2, b1 (a2 and b1 touch a1, not each other)
    name: (i % 2, f"{ELEMENTS[(i // 2) % 5]}{(i // 10) % 5 + 1}")
    for i, name in enumerate(n for n in (f"{f}{r}" for r in range(1, 6) for f in "abcde")
                             if n not in ("a1", "a2", "b1"))
}


def test_placement_is_compulsory_for_both_dice_when_possible() -> None:
    game = new_game()
    state = build(game, field=FULL, hands=(["fire5", "earth5"], []), dice=(2, 3))
    assert sorted(game.legal_texts(state)) == ["earth5@a2", "earth5@b1", "fire5@a2", "fire5@b1"]
    with pytest.raises(GameError, match="placing is compulsory"):
        game.play(state, "fire5@a1")


def test_when_only_one_card_fits_one_is_placed() -> None:
    game = new_game()
    field = dict(FULL)
    field["b1"] = (1, "water5")  # free: a1, a2 (touching)
    state = build(game, field=field, hands=(["fire5", "earth5"], []), dice=(2, 3))
    assert sorted(game.legal_texts(state)) == ["earth5@a1", "earth5@a2", "fire5@a1", "fire5@a2"]
    after = game.play(state, "fire5@a1")
    assert after.turn == 1 and after.hands[0] == (index(game, 0, "earth5"),)


def test_a_full_field_places_nothing() -> None:
    game = new_game()
    field = dict(FULL)
    field.update({"a1": (1, "water5"), "a2": (1, "water4"), "b1": (0, "water5")})
    state = build(game, field=field)
    after = game.play(state, "roll 2-3")
    assert after.turn == 1 and len(after.hands[0]) == 2


# -- the end -------------------------------------------------------------------------------------


def field_of(counts: tuple[int, int]) -> dict[str, tuple[int, str]]:
    names = [f"{f}{r}" for r in range(1, 6) for f in "abcde"]
    ids = [f"{e}{n}" for e in ELEMENTS for n in range(1, 6)]
    field = {names[i]: (0, ids[i]) for i in range(counts[0])}
    field.update({names[counts[0] + i]: (1, ids[i]) for i in range(counts[1])})
    return field


@pytest.mark.parametrize(
    ("counts", "first", "bonus", "returns", "text"),
    [
        ((5, 7), 0, 2, (0.0, 0.0), "draw, 7–7 (with 甲's +2)"),
        ((5, 8), 0, 2, (-1.0, 1.0), "乙 won 8–7 (with 甲's +2)"),
        ((6, 7), 0, 2, (1.0, -1.0), "甲 won 8–7 (with 甲's +2)"),
        ((7, 5), 1, 2, (0.0, 0.0), "draw, 7–7 (with 乙's +2)"),
        ((5, 6), 0, 0, (-1.0, 1.0), "乙 won 6–5 (with 甲's +0)"),
    ],
)
def test_final_count_with_the_first_player_bonus(
    counts: tuple[int, int], first: int, bonus: int, returns: tuple[float, float], text: str
) -> None:
    game = new_game(first_bonus=bonus)
    state = build(game, field=field_of(counts), first=first, phase="over")
    assert game.to_move(state) is None
    assert game.returns(state) == returns
    assert game.result_text(state) == text


def test_the_game_ends_after_the_last_turn() -> None:
    game = new_game(turns=2)
    state = game.play(game.initial_state(), "shuffle " + "/".join([".".join(["12345"] * 5)] * 2))
    for roll, place in (("roll 1-1", ["wood1@a1", "wood2@c1"]), ("roll 2-2", ["fire1@a5", "fire2@c5"])):
        state = game.play(state, roll)
        for move in place:
            state = game.play(state, move)
    assert state.phase == OVER and state.turn == 2 and game.to_move(state) is None
    assert game.result_text(state) == "甲 won 4–2 (with 甲's +2)"
    with pytest.raises(GameError, match="over"):
        game.play(state, "roll 1-2")


# -- notation and errors --------------------------------------------------------------------------


def test_notation_is_case_insensitive_and_accepts_names() -> None:
    game = new_game()
    state = build(game, hands=(["wood1", "earth1"], []), dice=(1, 3))
    expected = Place(index(game, 0, "wood1"), cells("c3")[0])
    for text in ("wood1@c3", "WOOD1@C3", "wood1 c3", " 青翼龍@c3 "):
        assert game.parse_action(state, text) == expected
    assert game.action_text(state, expected) == "wood1@c3"
    assert game.parse_action(state, "roll 5-3") == Roll(3, 5)
    assert game.parse_action(state, "Pick 木") == Pick(WOOD) == game.parse_action(state, "pick mu")
    assert game.parse_action(state, "coin 甲") == Coin(0)
    text = "shuffle 21345.12345.12345.12345.12345/12345.12345.12345.12345.12354"
    shuffle = game.parse_action(state, text)
    assert isinstance(shuffle, Shuffle) and str(shuffle) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dragon@c3", "deck has no card 'dragon'"),
        ("wood1@f9", "not a cell"),
        ("wood1", "CARD@CELL"),
        ("roll 7-1", "roll 2-5"),
        ("pick air", "pick ELEMENT"),
        ("coin heads", "coin jia"),
        ("shuffle 12345", "five digits"),
    ],
)
def test_unreadable_moves_say_what_is_allowed(text: str, message: str) -> None:
    game = new_game()
    state = build(game, hands=(["wood1"], []), dice=(1, 1))
    with pytest.raises(GameError, match=message):
        game.parse_action(state, text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("wood2@c3", "wood2 \\(青角麟\\) is not in your hand; you hold wood1, fire1, earth1"),
        ("fire1@c3", "赤羽鳳 is fire, but the dice call for wood and earth"),
        ("wood1@b2", "b2 is occupied by 白牙龍"),
        ("pick wood", "甲 must place a card now"),
        ("roll 1-2", "甲 must place a card now \\(the dice call for wood and earth\\)"),
    ],
)
def test_illegal_moves_explain_why(move: str, message: str) -> None:
    game = new_game()
    state = build(game, field={"b2": (1, "metal1")}, hands=(["wood1", "earth1", "fire1"], []), dice=(1, 3))
    with pytest.raises(GameError, match=f"illegal move {move}: {message}"):
        game.play(state, move)


def test_the_two_cards_of_a_turn_may_not_touch() -> None:
    game = new_game()
    state = game.play(build(game, hands=(["wood1", "earth1"], []), dice=(1, 3)), "wood1@c3")
    for cell in ("c2", "c4", "b3", "d3"):
        with pytest.raises(GameError, match=f"{cell} is orthogonally next to c3"):
            game.play(state, f"earth1@{cell}")
    assert game.play(state, "earth1@d4").turn == 1  # diagonal is fine


def test_action_ids_round_trip() -> None:
    game = new_game()
    state = build(game, hands=(["wood1", "earth1"], []), dice=(1, 3))
    ids = game.legal_action_ids(state)
    assert len(set(ids)) == 50 and all(0 <= i < game.num_distinct_actions for i in ids)
    assert [game.action_from_id(state, i) for i in ids] == list(game.legal_actions(state))
    assert game.action_from_id(state, 2) == Pick(EARTH)
    with pytest.raises(GameError):
        game.action_from_id(state, game.num_distinct_actions)
    with pytest.raises(GameError, match="chance outcome"):
        game.action_id(state, Roll(1, 2))


def test_options_are_checked() -> None:
    with pytest.raises(GameError, match="odd"):
        new_game(turns=7)
    with pytest.raises(GameError, match="first"):
        new_game(first="2")
    with pytest.raises(GameError, match="option deck_1: cannot read deck file"):
        new_game(deck_1="/nonexistent/deck.toml")
    game = new_game(first="1", turns=4)
    assert game.initial_state().first == 1 and game.config["turns"] == 4


def test_a_shuffle_must_permute_every_pile() -> None:
    game = new_game()
    state = game.initial_state()
    with pytest.raises(GameError, match=r"illegal move shuffle 11345.*positions 1..5 once each"):
        game.play(state, "shuffle 11345.12345.12345.12345.12345/12345.12345.12345.12345.12345")
    with pytest.raises(GameError, match="chance acts now"):
        game.play(state, "wood1@c3")


@pytest.mark.parametrize(
    ("setup", "move", "message"),
    [
        ([], "roll 1-2", "the coin toss comes first: 'coin jia' or 'coin yi'"),
        (["coin jia"], "roll 1-2", "the shuffle comes first: 'shuffle "),
        (["coin jia"], "coin yi", "the shuffle comes first"),
        (["coin jia", "shuffle " + "/".join([".".join(["12345"] * 5)] * 2)], "coin yi",
         "it is time to roll the dice: 'roll A-B'"),
    ],
)
def test_a_chance_event_of_the_wrong_kind_says_which_one_is_due(setup: list[str], move: str, message: str) -> None:
    game = new_game(first="random")
    state = game.initial_state()
    for text in setup:
        state = game.play(state, text)
    with pytest.raises(GameError, match=f"illegal move {move}: {message}"):
        game.play(state, move)


def test_a_name_shared_by_two_cards_asks_for_the_id(tmp_path: Path) -> None:
    path = tmp_path / "twins.toml"
    path.write_text(default_deck_text().replace('name = "青角麟"', 'name = "青翼龍"'), encoding="utf-8")
    game = new_game(deck_0=str(path))
    state = build(game, hands=(["wood1", "wood2"], []), dice=(1, 1))
    with pytest.raises(GameError, match=r"two or more of 甲's cards are named '青翼龍'.*id instead: wood1, wood2"):
        game.parse_action(state, "青翼龍@c3")
    assert game.parse_action(state, "wood2@c3") == Place(index(game, 0, "wood2"), cells("c3")[0])


@pytest.mark.parametrize(
    ("player", "cell", "destroyed"),
    [(0, "c4", True), (0, "c2", False), (1, "c2", True), (1, "c4", False)],
)
def test_in_range_is_read_from_the_owners_side(player: int, cell: str, destroyed: bool) -> None:
    # 黃趾龍 (earth, in 1 = front): wood in front of it overcomes it; wood behind it does not.
    game = new_game()
    hands = (["earth1"], []) if player == 0 else ([], ["earth1"])
    state = build(game, field={cell: (1 - player, "wood1")}, hands=hands, dice=(3, 3), turn=player)
    after = game.play(state, "earth1@c3")
    assert (after.field[cells("c3")[0]] == -1) == destroyed
    assert after.discards[player] == ((index(game, player, "earth1"),) if destroyed else ())


@pytest.mark.parametrize(
    ("player", "cell", "draws"),
    [(0, "c4", True), (0, "c2", False), (1, "c2", True), (1, "c4", False)],
)
def test_shengxing_reads_the_in_range_from_the_owners_side(player: int, cell: str, draws: bool) -> None:
    # Fire generates earth: fire in front of 黃趾龍 (in 1) draws its owner an earth card.
    game = new_game()
    hands = (["earth1"], []) if player == 0 else ([], ["earth1"])
    state = build(game, field={cell: (1 - player, "fire1")}, hands=hands, dice=(3, 3), turn=player)
    after = game.play(state, "earth1@c3")
    assert after.hands[player] == ((index(game, player, "earth2"),) if draws else ())
    assert [e[0] for e in after.events] == ([3] if draws else [])


def test_xingsheng_with_an_empty_discard_pile_does_nothing() -> None:
    game = new_game()
    state = build(game, field={"c4": (1, "fire1")}, hands=(["wood1"], []), dice=(1, 1))
    after = game.play(state, "wood1@c3")
    assert after.decks == state.decks and after.discards == ((), ()) and after.known == state.known
    assert [game.event_text(e) for e in after.events] == [
        "青翼龍 at c3: 行生 on 赤羽鳳 at c4, but no fire card is in the discard pile"]


def test_two_cards_of_one_element_do_not_serve_a_die_of_another() -> None:
    game = new_game()
    state = build(game, hands=(["wood1", "wood2"], []), discards=([f"fire{i}" for i in range(1, 6)], []),
                  dice=(1, 2))
    after = game.play(state, "wood1@a1")  # the fire die has no card: the turn ends
    assert after.turn == 1 and after.phase == ROLL and after.hands[0] == (index(game, 0, "wood2"),)
