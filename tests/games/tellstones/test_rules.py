"""Tellstones rules: scenarios from the rulebook and the contract, counts, errors."""

from __future__ import annotations

from typing import Any

import pytest

import qipan
from qipan.core import CHANCE, GameError
from qipan.games.tellstones import Tellstones
from qipan.games.tellstones.game import State
from qipan.games.tellstones.stones import HIDE, PEEK, PLACE, SWAP, Action


def play(game: Tellstones, *moves: str, state: State | None = None) -> State:
    state = game.initial_state() if state is None else state
    for move in moves:
        state = game.play(state, move)
    return state


def texts(game: Tellstones, state: State) -> list[str]:
    return game.legal_texts(state)


def line(game: Tellstones, state: State, n: int = 0) -> list[str | None]:
    return list(game.state_to_json(state)["lines"][n])


@pytest.fixture
def game() -> Tellstones:
    return Tellstones()


# -- setup ---------------------------------------------------------------------------------------


def test_setup_puts_the_scale_face_up_in_the_middle(game: Tellstones) -> None:
    state = game.initial_state()
    assert line(game, state) == [None, None, None, "scale", None, None, None]
    assert game.to_move(state) == 0
    assert state.scores == (0, 0)
    assert game.view(state, 0)["pools"] == [["crown", "shield", "sword", "flag", "knight", "hammer"]]


def test_first_stone_and_first_player_options() -> None:
    game = Tellstones(options={"first_stone": "crown", "first_player": "1"})
    state = game.initial_state()
    assert line(game, state)[3] == "crown"
    assert game.to_move(state) == 1


def test_random_first_player_is_a_chance_event() -> None:
    game = Tellstones(options={"first_player": "random"})
    state = game.initial_state()
    assert game.to_move(state) == CHANCE
    assert game.legal_texts(state) == ["first 0", "first 1"]
    assert game.chance_outcomes(state) == [(a, 0.5) for a in game.legal_actions(state)]
    assert game.to_move(game.play(state, "first 1")) == 1


@pytest.mark.parametrize("options, message", [
    ({"first_player": "2"}, "not a seat"),
    ({"first_stone": "dragon"}, "not allowed"),
    ({"turn_limit": -1}, "below the minimum"),
    ({"players": 3}, "no option"),
])
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        Tellstones(options=options)


def test_registry_loads_every_variant() -> None:
    assert [qipan.load("tellstones", variant=v).num_players
            for v in ("standard", "round-table", "two-lines")] == [2, 4, 2]
    with pytest.raises(GameError, match="no variant"):
        qipan.load("tellstones", variant="three-lines")


# -- the six actions -----------------------------------------------------------------------------


def test_opening_moves_are_twelve_placements_and_one_hide(game: Tellstones) -> None:
    moves = texts(game, game.initial_state())
    assert len(moves) == 13
    assert "place crown 3" in moves and "place crown 5" in moves and "hide 4" in moves
    assert not any(m.startswith(("swap", "peek", "challenge", "boast")) for m in moves)


def test_placement_only_directly_beside_the_ends(game: Tellstones) -> None:
    state = play(game, "place crown 3", "place shield 2")
    places = {m.split()[2] for m in texts(game, state) if m.startswith("place")}
    assert places == {"1", "5"}
    with pytest.raises(GameError, match="directly left or right of the line: 1 or 5"):
        game.play(state, "place sword 6")
    with pytest.raises(GameError, match="already in the line"):
        game.play(state, "place crown 1")


def test_placement_stops_at_the_edge_of_the_seven_slots(game: Tellstones) -> None:
    state = play(game, "place crown 3", "place shield 2", "place sword 1")
    places = {m.split()[2] for m in texts(game, state) if m.startswith("place")}
    assert places == {"5"}  # the left end is the edge; only the right end takes stones
    with pytest.raises(GameError, match="reaches its left edge"):
        game.parse_action(state, "place flag left")
    with pytest.raises(GameError, match="directly left or right of the line: 5"):
        game.play(state, "place flag 6")


def test_no_hide_when_every_stone_is_face_down(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "hide 4")
    moves = texts(game, state)
    assert not any(m.startswith("hide") for m in moves)
    assert {"swap 3 4", "peek 3", "peek 4", "challenge 3", "challenge 4", "boast"} <= set(moves)
    with pytest.raises(GameError, match="face down already"):
        game.play(state, "hide 4")


def test_place_left_and_right_words(game: Tellstones) -> None:
    state = game.initial_state()
    assert game.parse_action(state, "place Crown left") == game.parse_action(state, "place crown 3")
    assert game.parse_action(state, "PLACE SW RIGHT") == game.parse_action(state, "place sword 5")


def test_full_line_cannot_take_more_stones(game: Tellstones) -> None:
    state = play(game, "place crown 3", "place shield 2", "place sword 1", "place flag 5",
                 "place knight 6", "place hammer 7")
    assert not any(m.startswith("place") for m in texts(game, state))
    assert game.view(state, 0)["pools"] == [[]]
    with pytest.raises(GameError, match="the line is full"):
        game.play(state, "place crown 3")
    # 7 hides and 21 swaps; nothing is face down yet.
    assert len(texts(game, state)) == 7 + 21


def test_hide_keeps_the_slot_and_swap_keeps_faces(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3")
    assert line(game, state)[2:4] == ["-crown", "scale"]
    with pytest.raises(GameError, match="face down already"):
        game.play(state, "hide 3")
    state = game.play(state, "swap 3 4")
    assert line(game, state)[2:4] == ["scale", "-crown"]
    with pytest.raises(GameError, match="no stone on 6"):
        game.play(state, "swap 4 6")
    assert game.parse_action(state, "swap 4 3") == game.parse_action(state, "swap 3 4")


def test_counts_with_face_down_stones(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 4")
    # 4 stones in the pool x 2 ends, hide the sword, 3 swaps, 2 peeks, 2 challenges, boast.
    assert len(texts(game, state)) == 8 + 1 + 3 + 2 + 2 + 1


def test_a_single_peek_ends_the_turn(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "peek 3")
    assert game.to_move(state) == 1
    with pytest.raises(GameError, match="face up"):
        game.play(state, "peek 4")


def test_challenge_answered_right_scores_for_the_answerer(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "challenge 3")
    assert game.to_move(state) == 1
    assert texts(game, state) == [f"name {s}" for s in
                                  ("crown", "shield", "sword", "flag", "knight", "hammer", "scale")]
    with pytest.raises(GameError, match="must answer the challenge"):
        game.play(state, "boast")
    after = game.play(state, "crown")
    assert after.scores == (0, 1)
    assert line(game, after)[2] == "crown"  # turned face up and stays so
    assert game.to_move(after) == 1  # the challenged player's turn comes next


def test_challenge_answered_wrong_scores_for_the_challenger(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "challenge 3", "name scale")
    assert state.scores == (1, 0)
    assert line(game, state)[2] == "crown"


def test_boast_believed_scores_for_the_boaster(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "boast")
    assert texts(game, state) == ["believe", "doubt", "counter"]
    state = game.play(state, "believe")
    assert state.scores == (1, 0) and game.to_move(state) == 1


def test_doubted_boast_proven_wins_at_once_whatever_the_score(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5",
                 "challenge 3", "name crown", "hide 3",  # player 2 leads 1-0
                 "boast", "doubt")
    assert state.scores == (0, 1)
    assert game.to_move(state) == 0 and game.view(state, None)["proving"] == "3"
    state = game.play(state, "name crown")
    assert game.to_move(state) == 0 and game.view(state, None)["proving"] == "5"
    state = game.play(state, "name sword")
    assert game.to_move(state) is None
    assert game.returns(state) == (1.0, -1.0)
    assert game.result_text(state) == "player 1 won by a proof (0-1)"


def test_doubted_boast_with_one_mistake_loses_at_once(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5", "boast", "doubt",
                 "name sword")
    assert game.to_move(state) is None
    assert game.returns(state) == (-1.0, 1.0)
    assert game.result_text(state) == "player 2 won by a failed proof (0-0)"


def test_counter_boast_is_answered_only_by_believe_or_doubt(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "boast", "counter")
    assert game.to_move(state) == 0
    assert texts(game, state) == ["believe", "doubt"]
    with pytest.raises(GameError, match="no counter-boast again"):
        game.play(state, "counter")
    believed = game.play(state, "believe")
    assert believed.scores == (0, 1) and game.to_move(believed) == 1
    doubted = game.play(state, "doubt")
    assert game.to_move(doubted) == 1  # the counter-boaster proves
    assert game.returns(game.play(doubted, "name crown")) == (-1.0, 1.0)
    assert game.returns(game.play(doubted, "name flag")) == (1.0, -1.0)


def test_boast_needs_a_face_down_stone(game: Tellstones) -> None:
    with pytest.raises(GameError, match="needs at least one face-down stone"):
        game.play(game.initial_state(), "boast")
    with pytest.raises(GameError, match="no stone on 1"):
        game.play(game.initial_state(), "challenge 1")


def test_three_points_win() -> None:
    game = Tellstones()
    state = play(game, "place crown 3", "hide 3", "challenge 3", "name scale")  # 1-0
    state = play(game, "hide 4", "hide 3", "challenge 3", "name scale", state=state)  # 1-1
    state = play(game, "boast", "believe", state=state)  # player 1 boasts: 2-1
    assert state.scores == (2, 1)
    state = play(game, "boast", "believe", state=state)  # player 2 boasts: 2-2
    assert state.scores == (2, 2) and game.to_move(state) == 0
    state = play(game, "boast", "believe", state=state)
    assert game.to_move(state) is None and state.scores == (3, 2)
    assert game.result_text(state) == "player 1 won by scoring 3 (3-2)"


# -- peeking up to three after the opponent scored -----------------------------------------------


def three_down(game: Tellstones) -> State:
    return play(game, "place crown 3", "hide 3", "place sword 5", "hide 5", "place flag 6", "hide 6")


def test_peek_three_after_the_opponent_scored_in_their_turn() -> None:
    game = Tellstones()
    state = play(game, "challenge 3", "name scale", state=three_down(game))  # player 1 scores 1-0
    assert state.scores == (1, 0)
    assert game.view(state, 1)["peek_allowance"] == 3
    state = game.play(state, "peek 5")
    assert game.to_move(state) == 1 and game.view(state, 1)["phase"] == "peeking"
    assert texts(game, state) == ["peek 6", "stop"]  # the crown is face up, 5 is done
    state = game.play(state, "peek 6")
    assert game.to_move(state) == 0  # nothing left to peek
    # Player 1 scored during their own turn, so player 1 has no bonus.
    assert game.view(state, 0)["peek_allowance"] == 1


def test_peek_three_after_the_opponent_scored_in_your_last_turn() -> None:
    game = Tellstones()
    # Player 1 challenges and player 2 names right: player 2 scored during player 1's turn.
    state = play(game, "challenge 3", "name crown", state=three_down(game))
    assert state.scores == (0, 1)
    assert game.view(state, 1)["peek_allowance"] == 1
    state = game.play(state, "hide 4")
    assert game.view(state, 0)["peek_allowance"] == 3
    state = play(game, "peek 4", "stop", state=state)
    assert game.to_move(state) == 1
    # The allowance lasts one turn only.
    state = play(game, "swap 3 4", state=state)
    assert game.view(state, 0)["peek_allowance"] == 1


def test_peek_three_after_a_believed_boast_or_a_believed_counter_boast() -> None:
    game = Tellstones()
    # Player 1's boast is believed: player 1 scored in their own turn, player 2 may peek three.
    state = play(game, "boast", "believe", state=three_down(game))
    assert state.scores == (1, 0) and game.view(state, 1)["peek_allowance"] == 3
    # Player 2 boasts, player 1 counter-boasts and player 2 believes: player 1 scores during
    # player 2's turn, so player 2 peeks three next turn too; player 1 does not.
    state = play(game, "boast", "counter", "believe", state=state)
    assert state.scores == (2, 0) and game.view(state, 0)["peek_allowance"] == 1
    state = game.play(state, "swap 3 5")
    assert game.view(state, 1)["peek_allowance"] == 3


def test_peeks_in_a_series_must_differ_and_stop_is_only_for_series(game: Tellstones) -> None:
    state = play(game, "challenge 3", "name scale", "peek 5", state=three_down(game))
    with pytest.raises(GameError, match="peeked already this turn"):
        game.play(state, "peek 5")
    with pytest.raises(GameError, match="still peeking"):
        game.play(state, "boast")
    with pytest.raises(GameError, match="stop only ends a series"):
        game.play(three_down(game), "stop")


# -- round table ---------------------------------------------------------------------------------


def test_round_table_turns_answers_and_team_scores() -> None:
    game = Tellstones(variant="round-table")
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5")
    assert game.to_move(state) == 0
    state = game.play(state, "challenge 3")
    assert game.to_move(state) == 1  # the next player in turn order answers
    state = game.play(state, "name hammer")
    assert state.scores == (1, 0)  # team A (seats 0 and 2)
    assert game.to_move(state) == 1
    state = play(game, "boast", state=state)
    assert game.to_move(state) == 2
    state = play(game, "counter", state=state)
    assert game.to_move(state) == 1
    state = game.play(state, "believe")
    assert state.scores == (2, 0) and game.to_move(state) == 2
    assert game.returns(play(game, "boast", "believe", state=state)) == (1.0, -1.0, 1.0, -1.0)


def test_round_table_partner_peeks_and_shared_allowance() -> None:
    game = Tellstones(variant="round-table")
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5", "place flag 6", "hide 6")
    assert game.to_move(state) == 2
    state = play(game, "challenge 3", "name hammer", state=state)  # team A scores in seat 2's turn
    assert game.to_move(state) == 3 and game.view(state, 3)["peek_allowance"] == 3
    # The team's three peeks are this turn's, split between seats 3 and 1 as seat 3 chooses.
    assert game.view(state, 3)["catch_up"] == [False, False, False, False]
    state = game.play(state, "peek 5 partner")
    assert game.view(state, 1)["revealed"] == {"slot": "5", "stone": "sword"}
    assert game.view(state, 3)["revealed"] is None
    state = game.play(state, "peek 6")
    assert game.view(state, 3)["revealed"] == {"slot": "6", "stone": "flag"}
    assert game.view(state, 1)["revealed"] is None
    assert game.to_move(state) == 0
    # Three in all for the team: seat 1 gets no second allowance from the same point.
    assert game.view(play(game, "place knight 2", state=state), 1)["peek_allowance"] == 1


def test_round_table_peek_three_goes_to_the_next_turn_of_the_team_scored_against() -> None:
    game = Tellstones(variant="round-table")
    start = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5", "place flag 6", "hide 6")
    assert game.to_move(start) == 2
    # Team A scores in its own turn (seat 2 boasts, seat 3 believes): seat 3 peeks three next.
    state = play(game, "boast", "believe", state=start)
    assert state.scores == (1, 0)
    allowances = []
    for move in ["swap 3 5", "swap 3 5", "swap 3 5", "swap 3 5", "swap 3 5"]:
        allowances.append((game.to_move(state), game.view(state, None)["peek_allowance"]))
        state = game.play(state, move)
    assert allowances == [(3, 3), (0, 1), (1, 1), (2, 1), (3, 1)]
    # Team B scores in team A's turn (seat 2 challenges, seat 3 names right): team B's last turn
    # was seat 1's, so the team that just lost the point, A, peeks three in seat 0's turn.
    state = play(game, "challenge 3", "name crown", state=start)
    assert state.scores == (0, 1)
    allowances = []
    for move in ["swap 5 6", "swap 5 6", "swap 5 6", "swap 5 6", "swap 5 6"]:
        allowances.append((game.to_move(state), game.view(state, None)["peek_allowance"]))
        state = game.play(state, move)
    assert allowances == [(3, 1), (0, 3), (1, 1), (2, 1), (3, 1)]


def test_round_table_proof_alternates_between_teammates() -> None:
    game = Tellstones(variant="round-table")
    state = play(game, "place crown 3", "hide 3", "place sword 5", "hide 5", "place flag 6", "hide 6",
                 "boast", "doubt")
    assert game.to_move(state) == 2  # seat 2 boasted, seat 3 doubted
    state = game.play(state, "name crown")
    assert game.to_move(state) == 0
    state = game.play(state, "name sword")
    assert game.to_move(state) == 2
    state = game.play(state, "name flag")
    assert game.returns(state) == (1.0, -1.0, 1.0, -1.0)


def test_two_player_games_have_no_partner_peek(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3")
    with pytest.raises(GameError, match="only the round-table variant"):
        game.play(state, "peek 3 partner")


# -- two lines -----------------------------------------------------------------------------------


def test_two_lines_act_on_one_line_and_prove_both() -> None:
    game = Tellstones(variant="two-lines")
    state = game.initial_state()
    assert len(texts(game, state)) == 2 * 13
    state = play(game, "place crown a3", "place crown b5", "hide a3", "hide b5", state=state)
    assert line(game, state, 0)[2] == "-crown" and line(game, state, 1)[4] == "-crown"
    with pytest.raises(GameError, match="same line"):
        game.play(state, "swap a3 b4")
    with pytest.raises(GameError, match="needs its line"):
        game.play(state, "hide 4")
    state = play(game, "boast", "doubt", state=state)
    assert game.view(state, None)["proving"] == "a3"
    state = game.play(state, "name crown")
    assert game.view(state, None)["proving"] == "b5"
    state = game.play(state, "name crown")
    assert game.returns(state) == (1.0, -1.0)


# -- turn limit, notation, errors ----------------------------------------------------------------


def test_turn_limit_scores_the_game() -> None:
    game = Tellstones(options={"turn_limit": 4})
    state = play(game, "place crown 3", "hide 3", "challenge 3", "name scale")
    assert game.to_move(state) == 1
    state = game.play(state, "swap 3 4")
    assert game.to_move(state) is None and game.returns(state) == (1.0, -1.0)
    assert "turn limit" in game.result_text(state)
    draw = play(Tellstones(options={"turn_limit": 2}), "place crown 3", "hide 3")
    assert draw.winner == 2 and "draw" in Tellstones().result_text(draw)


@pytest.mark.parametrize("text, message", [
    ("", "empty move"),
    ("dance", "unknown action"),
    ("hide 8", "not a slot"),
    ("hide", "write it as: hide SLOT"),
    ("place dragon 3", "not a stone"),
    ("place s 3", "not a stone"),
    ("peek 3 friend", "only 'partner'"),
    ("swap 3 3", "two different"),
    ("first 9", "first takes a seat"),
    ("hide \u00b2", "not a slot"),  # a digit to isdigit(), not to int()
    ("swap 1 b\u00b3", "not a slot"),
    ("place crown \u00b2", "not a slot"),
    ("first \u00b9", "first takes a seat"),
])
def test_unreadable_moves(game: Tellstones, text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        game.parse_action(game.initial_state(), text)


def test_names_accept_chinese_abbreviations_and_prefixes(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "challenge 3")
    wanted = game.parse_action(state, "name crown")
    assert {game.parse_action(state, t) for t in ("王冠", "C", "cro", "Name CROWN")} == {wanted}


def test_illegal_moves_say_why(game: Tellstones) -> None:
    state = play(game, "place crown 3")
    with pytest.raises(GameError, match="illegal move challenge 3: the stone on 3 is face up"):
        game.play(state, "challenge 3")
    with pytest.raises(GameError, match="illegal move name crown: nothing to answer"):
        game.play(state, "name crown")
    with pytest.raises(GameError, match="illegal move believe: nothing to answer"):
        game.play(state, "believe")
    with pytest.raises(GameError, match="the game is over"):
        game.play(play(game, "hide 3", "boast", "doubt", "crown", state=state), "hide 4")


def test_describe_action(game: Tellstones) -> None:
    state = play(game, "place crown 3", "hide 3", "challenge 3")
    assert game.describe_action(state, game.parse_action(state, "name scale")) == \
        "player 2 names 3 the scale: wrong, it is the crown"
    hidden = play(game, "place crown 3", "hide 3")
    assert "crown" not in game.describe_action(hidden, game.parse_action(hidden, "peek 3"))


def test_action_ids_cover_the_space(game: Tellstones) -> None:
    assert game.num_distinct_actions == 49 + 7 + 21 + 7 + 7 + 5 + 7
    ids = {game.action_id(game.initial_state(), game.action_from_id(game.initial_state(), i))
           for i in range(game.num_distinct_actions)}
    assert ids == set(range(game.num_distinct_actions))
    assert Tellstones(variant="round-table").num_distinct_actions == 49 + 7 + 21 + 14 + 7 + 5 + 7
    with pytest.raises(GameError, match="out of range"):
        game.action_from_id(game.initial_state(), -1)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(lines=[[None] * 7]), "unbroken row"),
    (lambda d: d.update(lines=[["scale", "-scale", None, None, None, None, None]]), "twice"),
    (lambda d: d.update(lines=[["dragon", None, None, None, None, None, None]]), "slot value"),
    (lambda d: d.update(scores=[4, 0]), "scores"),
    (lambda d: d.update(phase="lunch"), "phase must be one of start, turn, peeking"),
    (lambda d: d.update(turn_player=7), r"turn_player must be an integer 0\.\.1, not 7"),
    (lambda d: d.update(winner=1), "winner"),
    (lambda d: d.pop("catch_up"), "catch_up"),
])
def test_bad_state_json_is_refused(game: Tellstones, mutate: object, message: str) -> None:
    data = game.state_to_json(play(game, "place crown 3"))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(GameError, match=message):
        game.state_from_json(data)


@pytest.mark.parametrize("action", [
    Action(99),
    Action(-1),
    Action(HIDE, 0, 9),
    Action(SWAP, 0, 3, -2),
    Action(PLACE, 0, 2, symbol=7),
    Action(PEEK, 0, 3, 5),
    "hide 3",
])
def test_malformed_actions_are_refused_with_a_game_error(game: Tellstones, action: object) -> None:
    state = play(game, "place crown 3", "hide 3")
    with pytest.raises(GameError, match="not a Tellstones action"):
        game.apply(state, action)  # type: ignore[arg-type]


def inconsistent(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**data, **changes}


FULL_UP = [None, None, None, "scale", "crown", None, None]


@pytest.mark.parametrize("changes, message", [
    ({"phase": "prove", "actor": 0, "lines": [FULL_UP]}, "face-down stone"),
    ({"phase": "answer-boast", "boaster": 0, "actor": 1, "lines": [FULL_UP]}, "face-down stone"),
    ({"phase": "answer-boast", "boaster": 1, "actor": 0}, "boaster"),
    ({"phase": "answer-counter", "boaster": 0, "actor": 0}, "counter"),
    ({"phase": "answer-challenge", "challenged": "3", "actor": 0}, "answer"),
    ({"actor": 1}, "actor"),
    ({"scores": [3, 0]}, "game is over"),
    ({"scores": [True, 0]}, "scores"),
    ({"turn": -3}, "turn"),
    ({"peeks_left": -5}, "peeks"),
    ({"peek_allowance": 7}, "peek_allowance"),
    ({"catch_up": "ab"}, "catch_up"),
    ({"phase": "peeking", "peeked": ["5"], "peeks_left": 2, "peek_allowance": 3}, "face-down"),
    ({"phase": "peeking", "peeked": ["3"], "peeks_left": 0, "peek_allowance": 3}, "peeks"),
    ({"phase": "peeking", "peeked": ["3"], "peeks_left": 2, "peek_allowance": 1}, "peeks"),
    ({"end": "proof"}, "end"),
    ({"phase": "over", "winner": 0, "end": None}, "end"),
    ({"phase": "over", "winner": 2, "end": "proof"}, "draw"),
])
def test_inconsistent_state_json_is_refused(game: Tellstones, changes: dict[str, Any],
                                            message: str) -> None:
    data = game.state_to_json(play(game, "place crown 3", "hide 3", "hide 4", "swap 3 4"))
    assert game.state_from_json(data).phase == 1  # the untouched state loads
    with pytest.raises(GameError, match=message):
        game.state_from_json(inconsistent(data, **changes))
