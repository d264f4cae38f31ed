"""docs/openspiel.md: its examples run and print what the page says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import qipan.openspiel
from qipan.rl.encoders import encoded_games

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "openspiel.md").read_text(encoding="utf-8")


def test_the_examples_run_and_print_what_the_page_says() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS, re.S)
    assert len(blocks) == 4
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/openspiel.md", "exec"), namespace)
    lines = out.getvalue().splitlines()
    assert lines[:3] == ["4 110", "place crown 3", "True"]  # the third: a saved state read back
    decisions = [line for line in lines if line.startswith("ismcts: ")]
    assert len(decisions) >= 6  # three turns of player 0, at least two placements each
    assert re.fullmatch(r"returns: \[(1\.0, -1\.0|-1\.0, 1\.0|0\.0, 0\.0)\]", lines[-2])
    assert re.match(r"(甲 won|乙 won|draw,) \d+–\d+", lines[-1])


def test_the_games_table_names_every_game_with_its_default_actions() -> None:
    import pyspiel

    for name in qipan.openspiel.GAMES:
        game = pyspiel.load_game(name)
        row = f"| `{name}` | "
        assert row in DOCS
        line = next(line for line in DOCS.splitlines() if line.startswith(row))
        assert f"| {game.num_distinct_actions()} |" in line
        assert str(game.observation_tensor_shape()) in line


def test_a_game_registered_by_another_package_is_not_offered_to_openspiel() -> None:
    import importlib

    from qipan.core import registry
    from tests.core.toy import DiceRace

    registry.register(DiceRace)  # what tests/core does; a game with no observation encoder
    try:
        reloaded = importlib.reload(qipan.openspiel)
        assert sorted(reloaded.GAMES.values()) == sorted(encoded_games())
    finally:
        registry._GAMES.pop(DiceRace.name, None)
        registry._CLASSES.pop(DiceRace.name, None)
        importlib.reload(qipan.openspiel)


def test_a_saved_state_of_a_game_registered_by_another_package_is_refused_in_one_line() -> None:
    import pytest

    from qipan.core import registry
    from tests.core.toy import DiceRace

    registry.register(DiceRace)
    try:
        with pytest.raises(ValueError, match=r"names a qipan game .*not 'qipan_dice-race'"):
            qipan.openspiel.loads('{"game": "qipan_dice-race", "history": []}')
    finally:
        registry._GAMES.pop(DiceRace.name, None)
        registry._CLASSES.pop(DiceRace.name, None)
