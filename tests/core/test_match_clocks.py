"""Match.clocks carries its totals forward between calls; taking moves back must recount them
(undo keeps the time spent: the record's clock reset makes a resumed copy agree)."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import Match


def test_clocks_stay_exact_through_undo_truncate_and_replay() -> None:
    now = [1000.0]
    match = Match(qipan.load("abalone", options={"time_limit": 600}), clock=lambda: now[0], started=1000.0)

    def fresh() -> list[float] | None:
        """The same clocks counted from scratch: a resumed copy of the record."""
        return Match.from_record(match.record(), clock=lambda: now[0]).clocks()

    for step, move in enumerate(["a1b2", "i5h5", "b2c3", "h5g5"]):
        now[0] += 3.0 + step
        match.play(move)
        assert match.clocks() == pytest.approx(fresh())
    match.undo()
    now[0] += 7.0
    match.play("h5g4")  # a different move at the same ply: the carried totals must not be reused
    assert match.clocks() == pytest.approx(fresh())
    match.undo()
    assert match.clocks() == pytest.approx(fresh())
    match.play("h5g5")
    match.truncate(1)
    now[0] += 2.0
    match.play("i5h4")
    assert match.clocks() == pytest.approx(fresh())
    assert match.clocks() == pytest.approx([600.0, 600.0])  # two first moves: not charged
