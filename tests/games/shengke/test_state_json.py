"""Sheng-Ke states from JSON: types, lengths and ranges are checked with short messages that name
the field, never Python's own type names or a long echo of the input."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from qipan.core import GameError

from .helpers import build, new_game

GAME = new_game()
DATA = GAME.state_to_json(build(GAME, hands=(["wood1", "fire1"], []), shown=(["wood1"], []),
                                field={"c3": (1, "earth2")}))


def player(index: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["players"][index][key] = value
    return change


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.update(phase=None), "field 'phase' must be a string, not None"),
    (lambda d: d.update(first=1.0), r"first \(or null\) must be an integer 0\.\.1, not 1\.0"),  # was a TypeError
    (lambda d: d.update(turn=10**400), r"turn must be an integer 0\.\.20, not a number of about 401 digits"),
    (lambda d: d.update(turn=-1), r"turn must be an integer 0\.\.20"),
    (lambda d: d.update(dice=[1] * 10_000), "dice must list at most 2 items"),
    (lambda d: d.update(events=[{}] * 101), "events must list at most 100 items"),
    (lambda d: d.update(picks=["x" * 1000]), "an element must be one of wood, fire, earth, metal, water, not 'xxx"),
    (lambda d: d.update(placed=["c3" * 1000]), "is not a cell a1..e5"),
    (lambda d: d["field"].update(C3={"owner": 1, "id": "earth3"}), "the field names c3 twice"),
    (lambda d: d["field"].update(d4={"owner": True, "id": "earth3"}), "field 'owner' must be an integer, not True"),
    (player(0, "shown", ["wood1", "wood1"]), "shown cards lists an item twice"),
    (player(0, "hand", ["wood1"] * 26), "hand must list at most 25 items"),
    (player(0, "hand", ["x" * 1000]), "deck has no card 'xxx"),
    (player(1, "known", {"wood": 10**30, "fire": 0, "earth": 0, "metal": 0, "water": 0}),
     r"known must be an integer 0\.\.5"),
    (player(1, "known", {"wood": 1.0, "fire": 0, "earth": 0, "metal": 0, "water": 0}),
     "field 'wood' must be an integer, not 1.0"),
])
def test_bad_fields_are_refused_briefly(mutate: Callable[[dict[str, Any]], None], message: str) -> None:
    assert GAME.state_from_json(copy.deepcopy(DATA)) == GAME.state_from_json(DATA)
    broken = copy.deepcopy(DATA)
    mutate(broken)
    with pytest.raises(GameError, match=message) as caught:
        GAME.state_from_json(broken)
    text = str(caught.value)
    assert len(text) < 200 and "NoneType" not in text and "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" not in text
