"""Abalone rules: published move counts, every push case, the end of the game, the options."""

from __future__ import annotations

from typing import Any

import pytest

import qipan
from qipan.cli.perft import perft
from qipan.core import GameError, Match
from qipan.games.abalone import Abalone, AbaloneState
from tests.games.abalone.reference import legal_moves


def position(black: str, white: str, turn: str = "black", pad: bool = True, extra: str = "") -> AbaloneState:
    """A hand-built position. With ``pad``, each side gets idle marbles (two cells or more away
    from every marble named) up to 10, so that nobody has already lost."""
    blacks, whites = black.split(), white.split()
    if pad:
        named = [_rc(c) for c in [*blacks, *whites, *extra.split()]]
        free = [c for c in _all_cells() if all(_distance(c, n) >= 2 for n in named)]
        for side in (blacks, whites):
            while len(side) < 10:
                cell = free.pop()
                side.append(f"{'abcdefghi'[cell[0]]}{cell[1]}")
    return Abalone().state_from_json({"black": blacks, "white": whites, "turn": turn})


def _all_cells() -> list[tuple[int, int]]:
    return [(r, n) for r in range(9) for n in range(1, 10) if max(1, r - 3) <= n <= min(9, r + 5)]


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dr, dn = a[0] - b[0], a[1] - b[1]
    return max(abs(dr), abs(dn), abs(dr - dn))


def texts(game: Abalone, state: AbaloneState) -> set[str]:
    return set(game.legal_texts(state))


@pytest.mark.parametrize(("variant", "depth", "count"), [
    ("standard", 1, 44), ("standard", 2, 1936), ("belgian-daisy", 1, 52), ("german-daisy", 1, 80),
])
def test_published_perft(variant: str, depth: int, count: int) -> None:
    game = Abalone(variant=variant)
    assert perft(game, game.initial_state(), depth) == count


@pytest.mark.parametrize("variant", ["standard", "belgian-daisy", "german-daisy"])
def test_perft_3_matches_naive_reference(variant: str) -> None:
    game = Abalone(variant=variant)
    total = 0
    for a in game.legal_actions(game.initial_state()):
        s1 = game.next_state(game.initial_state(), a)
        for b in game.legal_actions(s1):
            s2 = game.next_state(s1, b)
            own = {_rc(c) for c in game.state_to_json(s2)["black"]}
            opp = {_rc(c) for c in game.state_to_json(s2)["white"]}
            reference = legal_moves(own, opp)
            assert texts(game, s2) == reference
            total += len(reference)
    assert total == perft(game, game.initial_state(), 3)


def _rc(name: str) -> tuple[int, int]:
    return "abcdefghi".index(name[0]), int(name[1])


# --- pushes (sumito) and blocked pushes, one position each ------------------------------------


@pytest.mark.parametrize(("black", "white", "move", "legal", "white_after"), [
    ("e1 e2", "e3", "e1e2", True, "e4"),                 # 2 push 1
    ("e1 e2 e3", "e4", "e1e2", True, "e5"),              # 3 push 1
    ("e1 e2 e3", "e4 e5", "e1e2", True, "e5 e6"),        # 3 push 2
    ("e1 e2", "e3 e4", "e1e2", False, None),             # 2 against 2: equal never pushes
    ("e1 e2 e3", "e4 e5 e6", "e1e2", False, None),       # 3 against 3
    ("e1", "e2", "e1e2", False, None),                   # a single marble never pushes
    ("e1 e2 e4", "e3", "e1e2", False, None),             # own marble behind the opponent blocks
    ("e1 e2 e3 e6", "e4 e5", "e1e2", False, None),       # 3 push 2 blocked by own marble
    ("e1 e2 e3 e4", "e5", "e1e2", False, None),          # a fourth own marble blocks the line
    ("e1 e2 e3", "e4", "e2e3", True, "e5"),              # the front two of a line push alone
    ("e1 e2 e3", "e4 e5 e6", "e2e3", False, None),       # 2 cannot push 3
    ("e7 e8", "e9", "e7e8", True, ""),                   # push off the edge: ejected
    ("e6 e7 e8", "e9", "e6e7", True, ""),                # 3 push 1 off
    ("e5 e6 e7", "e8 e9", "e5e6", True, "e9"),           # 3 push 2, the last one off
    ("c3 d3", "e3", "c3d3", True, "f3"),                 # along a column
    ("a1 b2", "c3", "a1b2", True, "d4"),                 # along a diagonal
    ("e5 f5 g5", "h5 i5", "g5f5", True, "h5 i5"),        # the same line moving away: no push
])
def test_push_cases(black: str, white: str, move: str, legal: bool, white_after: str | None) -> None:
    game = Abalone()
    state = position(black, white, extra=white_after or "")
    if not legal:
        with pytest.raises(GameError, match=f"illegal move {move}"):
            game.play(state, move)
        assert move not in texts(game, state)
        return
    after = game.play(state, move)
    moved = set(game.state_to_json(after)["white"]) - set(game.state_to_json(state)["white"])
    gone = set(game.state_to_json(state)["white"]) - set(game.state_to_json(after)["white"])
    assert gone | moved <= set(white.split()) | set(white_after.split())
    assert sorted(set(game.state_to_json(after)["white"]) & (set(white.split()) | set(white_after.split()))) == sorted(
        white_after.split())


def test_blocked_push_messages() -> None:
    game = Abalone()
    state = position("c3 d3 f3", "e3")
    with pytest.raises(GameError, match="f3 holds your own marble behind"):
        game.play(state, "c3d3")
    with pytest.raises(GameError, match="2 marbles cannot push 2"):
        game.play(position("c3 d3", "e3 f3"), "c3d3")
    with pytest.raises(GameError, match="a single marble cannot push"):
        game.play(position("c3", "d3"), "c3d3")
    with pytest.raises(GameError, match="there is no black marble on e5"):
        game.play(game.initial_state(), "e5e6")
    with pytest.raises(GameError, match="your own marble would leave the board"):
        game.play(position("a1 a2", "i9"), "a2a1")


def test_broadside_moves() -> None:
    game = Abalone()
    state = position("e4 e5 e6", "i9")
    legal = texts(game, state)
    assert {"e4e6f4", "e4e6d4", "e4e5f4", "e5e6d5"} <= legal
    after = game.play(state, "e6e4f6")  # either end may come first, with its own target
    assert after == game.play(state, "e4e6f4")
    assert {"f4", "f5", "f6"} <= set(game.state_to_json(after)["black"])
    assert not {"e4", "e5", "e6"} & set(game.state_to_json(after)["black"])
    blocked = position("e4 e5 e6", "f6")
    with pytest.raises(GameError, match="f6 is occupied; broadside moves need empty cells and never push"):
        game.play(blocked, "e4e6f4")
    with pytest.raises(GameError, match="moving along the line is an in-line move"):
        game.parse_action(state, "e4e6e5")


def test_notation_parsing() -> None:
    game = Abalone()
    state = game.initial_state()
    assert game.action_text(state, game.parse_action(state, " A1B2 ")) == "a1b2"
    for bad, why in [("a1", "cannot read move"), ("a1c3", "not next to"), ("z1b2", "not a cell"),
                     ("a1b3b1", "not the ends of a straight line"), ("", "cannot read move")]:
        with pytest.raises(GameError, match=why):
            game.parse_action(state, bad)


# --- the end of the game ----------------------------------------------------------------------


def test_sixth_marble_wins() -> None:
    game = Abalone()
    # White has 9 marbles: 5 already out. Black pushes the sixth off.
    state = position("g5 h5 a1 a2 a3 a4 a5 b1 b2", "i5 c5 c6 c7 d5 d6 d7 e6 e7", pad=False)
    assert game.to_move(state) == 0
    after = game.play(state, "g5h5")
    assert game.to_move(after) is None and game.returns(after) == (1.0, -1.0)
    assert game.result_text(after) == "black won, pushing out 6 marbles"
    with pytest.raises(GameError, match="the game is over"):
        game.play(after, "a1b2")
    assert game.legal_actions(after) == []


def test_quiet_move_draw() -> None:
    game = Abalone(options={"quiet_move_limit": 4})
    match = Match(game, seed=1)
    for move in ["c3d4", "g5f5", "d4c3", "f5g5"]:
        match.play(move)
    assert match.over and match.result()["text"] == "draw: 4 moves without a marble pushed out"


def test_threefold_repetition() -> None:
    game = Abalone(options={"repetition_draw": True})
    match = Match(game, seed=1)
    cycle = ["c3d4", "g5f5", "d4c3", "f5g5"]
    for move in cycle * 2:
        assert not match.over
        match.play(move)
    assert match.over and match.result()["text"] == "draw by threefold repetition"
    plain = Match(Abalone(), seed=1)
    for move in cycle * 3:
        plain.play(move)
    assert not plain.over


def test_tournament_preset() -> None:
    game = qipan.load("abalone", tournament=True, time_limit=600)
    assert game.config["repetition_draw"] is True
    assert game.config["quiet_move_limit"] == 100
    assert game.time_limit() == 600.0
    assert qipan.load("abalone").time_limit() is None


def test_state_json_validation() -> None:
    game = Abalone()
    with pytest.raises(GameError, match="hold two marbles"):
        position("a1 a2", "a1 i9")
    with pytest.raises(GameError, match="bad Abalone state"):
        game.state_from_json({"black": ["a1"], "turn": "red"})
    with pytest.raises(GameError, match="not a cell"):
        position("a1 z9", "i9", pad=False)


def test_view_shape() -> None:
    game = Abalone()
    view: dict[str, Any] = game.view(game.initial_state(), 0)
    assert view["player"] == 0 and view["to_move"] == 0
    assert len(view["marbles"]["black"]) == 14 and view["pushed_out"] == {"black": 0, "white": 0}
    with pytest.raises(GameError, match=r"player must be 0\.\.1"):
        game.view(game.initial_state(), 2)


def test_action_ids_round_trip() -> None:
    game = Abalone(variant="german-daisy")
    state = game.initial_state()
    ids = game.legal_action_ids(state)
    assert len(set(ids)) == len(ids) and all(0 <= i < game.num_distinct_actions for i in ids)
    assert [game.action_from_id(state, i) for i in ids] == list(game.legal_actions(state))
    with pytest.raises(GameError, match="not an Abalone action id"):
        game.action_from_id(state, -1)


@pytest.mark.parametrize(("black", "white", "move", "text"), [
    ("e1 e2 e3", "e4 e5", "e1e2", "black e1e2: 3 marbles east, pushing 2"),
    ("e5 e6 e7", "e8 e9", "e5e6", "black e5e6: 3 marbles east, pushing 2 (one off the board)"),
    ("e4 e5 e6", "i9", "e4e6f4", "black e4e6f4: 3 marbles broadside north-west"),
    ("c3", "i9", "c3d4", "black c3d4: 1 marble north-east"),
])
def test_describe_action(black: str, white: str, move: str, text: str) -> None:
    game = Abalone()
    state = position(black, white)
    assert game.describe_action(state, game.parse_action(state, move)) == text
