"""Options, notation, JSON, views, action ids and error messages."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import qipan
from qipan.core import CHANCE, Match
from qipan.core.errors import GameError
from qipan.games.kelighine import Action, Kelighine
from tests.games.kelighine.kelighine_helpers import piece, position


def game(**options: object) -> Kelighine:
    g = qipan.load("kelighine", **options)
    assert isinstance(g, Kelighine)
    return g


def test_options_and_defaults() -> None:
    g = game()
    assert dict(g.config) == {"version": 1, "players": 2, "die": 6}
    assert g.num_players == 2 and g.pieces_per_player == 1
    assert [o.name for o in Kelighine.options] == ["version", "players", "die"]
    assert all(o.help and (o.choices or o.maximum) for o in Kelighine.options)
    assert game(version=2).die == 4
    assert game(players="4").num_players == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"version": 2, "players": 3}, "version 2 is for exactly 2 players, not 3"),
        ({"version": 2, "die": 6}, "version 2 always rolls two d4"),
        ({"version": 3}, "choose one of 1, 2"),
        ({"players": 5}, "above the maximum"),
        ({"die": 8}, "choose one of 6, 4"),
        ({"dice": 4}, "has no option 'dice'"),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        qipan.load("kelighine", **options)


def test_start_cells_by_player_count() -> None:
    g = game(players=4)
    assert g.view(g.initial_state(), None)["starts"] == ["I", "H", "K", "L"]
    assert [p["cell"] for p in g.view(g.initial_state(), None)["pieces"]] == ["I", "H", "K", "L"]


def test_notation_round_trips_and_is_case_insensitive() -> None:
    g = game(version=2)
    s = position(
        g,
        [[piece("A4", done=1), piece("B6", done=2), piece("E")],
         [piece("A12"), piece("reserve"), piece("reserve")]],
    )
    s = g.play(s, "roll:1,3")
    for action in g.legal_actions(s):
        text = g.action_text(s, action)
        assert g.parse_action(s, text) == action
        assert g.parse_action(s, text.lower()) == action
    assert g.parse_action(s, " b6^c5/1 ") == Action("promote", 21, 1, 28)
    assert str(g.parse_action(s, "e+2")) == "E+2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X+3", "unknown cell 'X'"),
        ("J+2", "nothing moves from J"),
        ("A3+9", "a move is 1 to"),
        ("A3^C1", "a promotion goes from a tier cell to a touching cell"),
        ("ones:five", "ones:four, ones:reroll or ones:two"),
        ("roll:1", "version 2 rolls 2 dice"),
        ("roll:x", "cannot read roll"),
        ("jump:A3", "prefixes are roll:, ones: and push:"),
        ("hello", "cannot read move 'hello'"),
    ],
)
def test_unreadable_moves(text: str, message: str) -> None:
    g = game(version=2)
    with pytest.raises(GameError, match=message):
        g.parse_action(g.initial_state(), text)


def test_illegal_moves_are_explained() -> None:
    g = game()
    s = g.initial_state()
    with pytest.raises(GameError, match="illegal move I\\+3: the dice must be rolled first"):
        g.play(s, "I+3")
    with pytest.raises(GameError, match="not a possible roll; outcomes: roll:1, roll:2"):
        g.play(s, "roll:7")
    s = g.play(s, "roll:3")
    with pytest.raises(GameError, match="the dice are already rolled; the moves now are: I\\+3"):
        g.play(s, "roll:3")
    with pytest.raises(GameError, match="no unused die shows 2"):
        g.play(s, "I+2")
    with pytest.raises(GameError, match="belongs to player 2"):
        g.play(s, "H+3")
    with pytest.raises(GameError, match="there is no piece on A5"):
        g.play(s, "A5+3")
    with pytest.raises(GameError, match="no piece is waiting to be placed"):
        g.play(s, "push:A1")
    with pytest.raises(GameError, match="no double-1 choice"):
        g.play(s, "ones:four")
    with pytest.raises(GameError, match="corner or start cell \\(I\\) cannot promote"):
        g.apply(s, Action("promote", 36, 0, 17))


def test_push_start_is_notation_but_never_a_choice() -> None:
    g = game()
    s = position(g, [[piece("C1", done=2, entry="C1")], [piece("C8", done=2, entry="C8")]], turn=1)
    s = g.play(g.play(s, "roll:1"), "C8+1")
    assert str(g.parse_action(s, "push:start")) == "push:start"
    with pytest.raises(GameError, match="must first be placed: choose one of B1, B2"):
        g.play(s, "push:start")


def test_json_round_trip_and_validation() -> None:
    g = game(version=2)
    match = Match(g, seed=3)
    for _ in range(30):
        match.play(match.legal_texts()[0]) if match.to_move != CHANCE else None
    s = match.state
    data = json.loads(json.dumps(g.state_to_json(s)))
    assert g.state_from_json(data) == s
    bad = json.loads(json.dumps(data))
    bad["pieces"][0][0] = dict(bad["pieces"][1][0])
    bad["pieces"][0][0]["cell"] = "H"
    with pytest.raises(GameError, match="another player's start cell H"):
        g.state_from_json(bad)
    for key, value, message in [
        ("phase", "dance", "phase must be one of"),
        ("turn", 5, "turn must be an integer 0..1"),
        ("dice", [7], r"die value\(s\) 1\.\.4"),
        ("pieces", [[]], "pieces of each of the 2 players"),
        ("winner", 0, "the game is over exactly when there is a winner"),
        ("log", [["fly", 1]], "malformed event"),
    ]:
        broken = dict(data)
        broken[key] = value
        with pytest.raises(GameError, match=message):
            g.state_from_json(broken)
    with pytest.raises(GameError, match="expected a JSON object"):
        g.state_from_json([1, 2])


def test_json_rejects_two_pieces_on_a_cell_and_bad_coins() -> None:
    g = game()
    base = g.state_to_json(position(g, [[piece("A5")], [piece("A6")]]))
    base["pieces"][1][0]["cell"] = "A5"
    with pytest.raises(GameError, match="two pieces on A5"):
        g.state_from_json(base)
    coin = g.state_to_json(position(g, [[piece("B5", done=1, entry="B6")], [piece("A6")]]))
    coin["pieces"][0][0]["entry"] = None
    with pytest.raises(GameError, match="a coin must mark its entry cell"):
        g.state_from_json(coin)


def test_view_contents() -> None:
    g = game()
    s = position(g, [[piece("B5", done=1, entry="B6")], [piece("A7")]], turn=0, last="A7")
    view = g.view(s, 1)
    json.dumps(view)
    assert view["player"] == 1 and view["to_move"] == "chance" and view["phase"] == "roll"
    assert view["pieces"][0] == {
        "player": 0, "cell": "B5", "face": 1, "laps": {"A": True, "B": False, "C": False},
        "coin": "B6", "lap_progress": {"tier": 2, "steps": 7, "of": 8},
    }
    assert view["coins"] == [{"player": 0, "cell": "B6"}]
    assert view["indirect"][:3] == ["A3", "A11", "A15"]
    assert g.sample_state(view, __import__("random").Random(1)) == s
    with pytest.raises(GameError, match=r"player must be 0\.\.1 or None"):
        g.view(s, 2)


def test_action_ids() -> None:
    g = game(version=2)
    assert g.num_distinct_actions == 806
    seen = set()
    for i in range(g.num_distinct_actions):
        action = g.action_from_id(g.initial_state(), i)
        assert g.action_id(g.initial_state(), action) == i
        seen.add(action)
    assert len(seen) == 806
    with pytest.raises(GameError, match="chance outcomes"):
        g.action_id(g.initial_state(), Action("roll", value=1, target=2))
    with pytest.raises(GameError, match=r"action id must be 0\.\.805"):
        g.action_from_id(g.initial_state(), 806)


def test_describe_action_and_result() -> None:
    g = game()
    s = g.initial_state()
    assert g.describe_action(s, g.parse_action(s, "roll:3")) == "player 1 rolls 3"
    s = g.play(s, "roll:3")
    assert g.describe_action(s, g.parse_action(s, "I+3")) == "player 1: I+3 → A5"
    assert g.result_text(s) == "the game is not over"
    assert g.returns(s) == (0.0, 0.0)


def test_returns_with_four_players() -> None:
    g = game(players=4)
    s = position(g, [[piece("A1")], [piece("C2", done=3)], [piece("A5")], [piece("A9")]], turn=1)
    s = g.play(g.play(s, "roll:1"), "C2^J")
    assert g.returns(s) == pytest.approx((-1 / 3, 1.0, -1 / 3, -1 / 3))


def _states_json() -> dict[str, tuple[Kelighine, dict[str, Any]]]:
    g, g2 = game(), game(version=2)
    s = position(g, [[piece("A7")], [piece("C2", done=2, entry="C2")]], turn=1, last="A7")
    v2 = position(g2, [[piece("A4", done=1), piece("B3", done=1, entry="B4"), piece("reserve")],
                       [piece("A12"), piece("reserve"), piece("reserve")]])
    return {
        "roll": (g, g.state_to_json(s)),
        "act": (g, g.state_to_json(g.play(s, "roll:1"))),
        "push": (g, g.state_to_json(g.play(g.play(s, "roll:1"), "C2+1"))),
        "v2": (g2, g2.state_to_json(v2)),
    }


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        node: Any = data
        for key in keys:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value
    return change


@pytest.mark.parametrize(
    ("base", "change", "message"),
    [
        ("act", _set("dice", []), "the act phase needs unused dice"),
        ("act", _set("dice", [1, 2]), "dice must list at most 1 die value(s) 1..6"),
        ("act", _set("one_die", True), "one_die is a version 2 rule"),
        ("act", _set("after", "A7"), "after is only set while a push is pending"),
        ("push", _set("after", "A1"), "after names the empty cell A1"),
        ("act", _set("log", [[[], 1, 6, 0]]), "malformed event"),
        ("roll", _set("dice", [3]), "no unused dice before the roll"),
        ("roll", lambda d: d.update(phase="ones", rolled=[1]), "the double-1 choice is a version 2 rule"),
        ("v2", lambda d: d.update(phase="ones", rolled=[1, 2]), "the double-1 choice follows a roll of 1,1"),
        ("v2", _set("pieces.0.2.entry", "C3"), "a reserve piece has no laps and no coin"),
        ("v2", _set("pieces.0.2.done", 2), "a reserve piece has no laps and no coin"),
        ("v2", lambda d: d["pieces"][0][0].update(cell="B2", entry="B2"), "two pieces in the middle of a B lap"),
        ("push", _set("pending.options", ["A1", "A2"]), "the piece pushed from C3 can only go to B3, B4"),
        ("push", _set("pending.options", ["B3", "J"]), "the piece pushed from C3 can only go to B3, B4"),
        ("push", _set("pending.rule", "corner"), "the piece pushed from C3 can only go to B3, B4 (rule down)"),
        ("push", _set("pending.piece.cell", "C5"), "the pending piece must stand on the cell it is pushed from"),
        ("roll", lambda d: d.update(phase="over", winner=0), "player 1 won without every piece at J"),
    ],
)
def test_json_rejects_inconsistent_states(
    base: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    # each of these used to be accepted (or crashed with a TypeError/IndexError), and some then
    # crashed or broke the rules on the next move
    g, data = _states_json()[base]
    g.state_from_json(copy.deepcopy(data))  # the unchanged state is fine
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(GameError, match=re.escape(message)):
        g.state_from_json(broken)
