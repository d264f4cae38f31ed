"""Clocks for every game: time controls, first moves free, increments, time-outs, takebacks
that keep time spent, and records that carry the clock."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qipan
from qipan.ai.agent import Blend, choose_within
from qipan.core import GameError, Match, Record
from qipan.core.clock import FIRST_MOVE_WINDOW, Reset, TimeControl, think_time


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def timed(control: TimeControl | None, game: str = "abalone", **options: Any) -> tuple[Match, Clock]:
    clock = Clock()
    return Match(qipan.load(game, options=options), seed=1, clock=clock, started=clock.now,
                 time_control=control), clock


def test_time_controls_parse_and_refuse_nonsense() -> None:
    assert TimeControl.parse("5+3") == TimeControl(300, 3)
    assert TimeControl.parse(" 0.5 + 0 ") == TimeControl(30)
    assert TimeControl.parse("90s+2") == TimeControl(90, 2)
    assert TimeControl.parse("10") == TimeControl(600)
    assert str(TimeControl(300, 3)) == "5+3" and str(TimeControl(90)) == "90s+0"
    assert TimeControl.from_json({"base": 60}) == TimeControl(60, 0)
    for text in ("", "five", "5+x", "nan+0", "inf", "0+0", "10081+0", "5+3601", "-1+0", "x" * 500):
        with pytest.raises(GameError) as failure:
            TimeControl.parse(text)
        assert len(str(failure.value)) < 140
    bad_clocks: list[Any] = [None, [], {"base": True}, {"base": "60"}, {"base": 60, "increment": -1},
                             {"base": 60, "x": 1}, {"increment": 3}, {"base": float("nan")}]
    for data in bad_clocks:
        with pytest.raises(GameError):
            TimeControl.from_json(data)


def test_first_moves_are_free_and_later_moves_are_charged_with_increment() -> None:
    match, clock = timed(TimeControl(60, 5))
    clock.now += 30  # black thinks about the first move: not charged
    match.play("a1b2")
    assert match.clocks() == [60, 60] and match.clock_running() == [True, False]
    clock.now += 40  # white's first move: not charged either
    match.play("i5h5")
    assert match.clocks() == [60, 60] and match.clock_running() == [True, True]
    clock.now += 10
    assert match.clocks() == [50, 60]  # black's turn runs
    match.play("b2c3")
    assert match.clocks() == [55, 60]  # 10 s charged, 5 s increment
    clock.now += 20
    match.play("h5g5")
    assert match.clocks() == [55, 45]
    assert Match.from_record(match.record(), clock=clock).clocks() == [55, 45]


def test_a_running_clock_loses_on_time_a_stopped_one_never() -> None:
    match, clock = timed(TimeControl(10))
    clock.now += 10_000
    assert not match.check_time()  # nobody has moved: no clock runs
    match.play("a1b2")
    clock.now += 10_000
    match.play("i5h5")
    clock.now += 9.5
    assert not match.check_time()
    clock.now += 1
    with pytest.raises(GameError, match="black ran out of time"):
        match.play("b2c3")
    result = match.result()
    assert result is not None and result["reason"] == "time" and result["loser"] == 0
    assert result["time"] == clock.now - 0.5  # the moment the flag fell
    assert match.clocks() == [0, 10]


def test_a_multi_player_flag_ends_the_game_as_a_resignation() -> None:
    match, clock = timed(TimeControl(5), "chinese-checkers", players=3)
    for _ in range(3):
        match.play(match.legal_texts()[0])
    clock.now += 6
    assert match.check_time() and match.over
    result = match.result()
    assert result is not None and result["returns"] == [-1.0, 0.5, 0.5] and result["loser"] == 0


def test_abalone_time_limit_is_a_clock_without_increment_and_a_given_clock_wins() -> None:
    assert Match(qipan.load("abalone", time_limit=120)).time_control == TimeControl(120, 0)
    assert Match(qipan.load("abalone", time_limit=120), time_control=TimeControl(60, 2)).time_control == \
        TimeControl(60, 2)
    assert Match(qipan.load("abalone")).time_control is None
    assert Match(qipan.load("kelighine"), time_control=TimeControl(300, 2)).clocks() == [300, 300]


def test_the_first_move_window_grows_with_long_games() -> None:
    assert TimeControl(300).first_move_window() == FIRST_MOVE_WINDOW == 60
    assert TimeControl(3600).first_move_window() == 360


def test_a_takeback_keeps_the_time_spent_and_records_it() -> None:
    match, clock = timed(TimeControl(100, 2))
    for move in ("a1b2", "i5h5"):
        match.play(move)
        clock.now += 10
    match.play("b2c3")  # black: 10 s charged, 2 s increment
    clock.now += 30  # white thinks, then agrees to take black's move back
    assert match.clocks() == [92, 70]
    match.take_back(match.takeback_ply(0))
    assert len(match.moves) == 2 and match.to_move == 0
    assert match.clock_reset == Reset(2, clock.now, (90, 70))  # the increment goes with the move
    assert match.clocks() == [90, 70]  # black's new turn starts now
    clock.now += 4
    assert match.clocks() == [86, 70]
    record = Record.from_json(match.record().to_json())
    assert record.clock == TimeControl(100, 2) and record.clock_reset == match.clock_reset
    assert Match.from_record(record, clock=clock).clocks() == [86, 70]


def test_takebacks_bank_no_time() -> None:
    """A player who moves at once and has the move taken back, again and again, gains nothing
    (each undone move's increment is taken back with it)."""
    match, clock = timed(TimeControl(100, 5))
    for move in ("a1b2", "i5h5", "b2c3", "h5g5"):
        match.play(move)
        clock.now += 1
    before = match.clocks()
    assert before is not None
    for _ in range(5):
        match.play("c3d4")
        match.take_back(match.takeback_ply(0))
    assert match.clocks() == before


def test_records_with_and_without_a_clock_round_trip_and_old_records_load() -> None:
    match, _ = timed(TimeControl(300, 3))
    match.play("a1b2")
    data = match.record().to_json()
    assert data["clock"] == {"base": 300, "increment": 3} and "clock_reset" not in data
    assert Record.from_json(data).clock == TimeControl(300, 3)
    untimed, _ = timed(None)
    plain = untimed.record().to_json()
    assert "clock" not in plain and Record.from_json(plain).clock is None
    old = {"format": "qipan-record/1", "game": "abalone", "variant": "standard", "options": {"time_limit": 60},
           "seed": 1, "moves": [{"player": 0, "move": "a1b2", "time": 5.0}], "result": None, "started": 1.0}
    resumed = Match.from_record(Record.from_json(old), clock=lambda: 100.0)
    assert resumed.time_control == TimeControl(60) and resumed.clocks() == [60, 60]
    for bad in ({"base": 0}, {"base": 60, "increment": "3"}, [300, 3]):
        with pytest.raises(GameError, match="bad record"):
            Record.from_json({**data, "clock": bad})
    with pytest.raises(GameError, match="reset"):
        Record.from_json({**data, "clock_reset": {"ply": 1}})
    with pytest.raises(GameError, match="does not fit"):
        Match.from_record(Record.from_json({**plain, "clock_reset": {"ply": 0, "time": 1.0, "left": [1, 2]}}))


@pytest.mark.parametrize(("game", "options", "why"), [
    ("kelighine", {}, "roll"),
    ("shengke", {}, "hidden information"),
    ("tellstones", {}, "hidden information"),
    ("chinese-checkers", {"players": 3}, "two-player"),
])
def test_takebacks_never_undo_chance_or_reveal_anything(game: str, options: dict[str, Any], why: str) -> None:
    match, _ = timed(None, game, **options)
    rng = random.Random(3)
    for _ in range(12):  # a few turns each, so everyone has a move to take back
        if match.over:
            break
        match.play(rng.choice(match.legal_texts()))
    asker = 1 if match.to_move == 0 else 0  # a player who finished a turn: the opponent (or a roll) came next
    with pytest.raises(GameError, match=why):
        match.takeback_ply(asker)


def test_takebacks_and_draws_in_two_player_perfect_information_games() -> None:
    match, _ = timed(None, "chinese-checkers", players=2)
    with pytest.raises(GameError, match="no move"):
        match.takeback_ply(0)
    match.play(match.legal_texts()[0])
    match.play(match.legal_texts()[0])
    assert match.takeback_ply(0) == 0 and match.takeback_ply(1) == 1
    assert match.draw_allowed()
    assert not timed(None, "kelighine")[0].draw_allowed()
    assert not timed(None, "tellstones")[0].draw_allowed()
    assert timed(None, "shengke")[0].draw_allowed()
    assert not timed(None, "chinese-checkers", players=3)[0].draw_allowed()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 50), min_size=1, max_size=40), st.floats(1, 600), st.floats(0, 10))
def test_charged_time_is_the_elapsed_time_of_running_clocks(delays: list[float], base: float, inc: float) -> None:
    """Clocks shown are never negative; what each clock lost, net of increments, is exactly the
    time its player spent on moves after their first."""
    match, clock = timed(TimeControl(base, inc), quiet_move_limit=0)
    rng = random.Random(len(delays))
    spent, increments, moved = [0.0, 0.0], [0.0, 0.0], set()
    for delay in delays:
        mover = match.to_move
        if mover is None:
            break
        clock.now += delay
        if match.check_time():
            break
        if mover in moved:
            spent[mover] += delay
            increments[mover] += inc
        moved.add(mover)
        match.play(rng.choice(match.legal_texts()))
        assert all(c >= 0 for c in match.clocks() or [])
    left = match.clocks()
    assert left is not None
    if match.over:  # a flag: the loser's clock stopped at 0 when it fell
        loser = (match.result() or {})["loser"]
        spent[loser] = base + increments[loser]
    for player in (0, 1):
        assert base + increments[player] - left[player] == pytest.approx(spent[player], abs=1e-6)


class Searcher:
    """A search agent's shape: a time limit, and a depth bounding its work (or not)."""

    def __init__(self, time_limit: float | None, bounded: bool = True):
        self.name = "spy"
        self.time_limit = time_limit
        if bounded:
            self.depth = 3
        self.seen: list[float | None] = []

    def choose(self, game: Any, view: Any, rng: random.Random) -> str:
        self.seen.append(self.time_limit)
        return "a1b2"

    def observe(self, game: Any, view: Any) -> None:
        return None


def test_an_ai_thinks_within_its_clock_and_keeps_its_own_budget_otherwise() -> None:
    game = qipan.load("abalone")
    view = game.view(game.initial_state(), 0)
    deep, quick, open_ended = Searcher(None), Searcher(0.2), Searcher(None, bounded=False)
    for agent in (deep, quick, open_ended, Blend(deep, quick, 1.0)):
        choose_within(agent, 0.5, game, view, random.Random(1))  # type: ignore[arg-type]
        choose_within(agent, None, game, view, random.Random(1))  # type: ignore[arg-type]
    assert deep.seen == [0.5, None, 0.5, None]  # capped for the decision, then its own budget again
    assert quick.seen == [0.2, 0.2]  # a shorter limit of its own stays
    assert open_ended.seen == [None, None]  # a time limit would make it think longer: left alone
    assert think_time(300, 3) == 18 and think_time(2, 10) == 1 and think_time(-1, 3) == 0
