"""Playing puzzles: the catalogue, the puzzle of the day, and attempts judged move by move."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from qipan.core.errors import GameError
from qipan.puzzles.attempt import MAX_MOVE_TEXT, Eject, Judged, replay, solution, start
from qipan.puzzles.catalogue import catalogue, find, puzzle_of_the_day
from qipan.puzzles.eject import shipped, winning_moves


def test_the_puzzle_of_the_day_is_fixed_by_the_date_and_visits_every_puzzle() -> None:
    day = datetime.date(2026, 11, 28)
    assert puzzle_of_the_day(day) == puzzle_of_the_day(datetime.date(2026, 11, 28))
    days = {puzzle_of_the_day(day + datetime.timedelta(days=k)).id for k in range(365)}
    assert days == {e.id for e in catalogue()}


def test_a_new_puzzle_takes_only_the_days_it_wins() -> None:
    """Rendezvous hashing: with one more puzzle a day keeps its puzzle unless the new one wins it
    (with the date taken modulo the catalogue's size, nearly every day would change)."""
    entries = catalogue()
    added = [*entries, dataclasses.replace(entries[0], id="a-new-puzzle")]
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=k) for k in range(730)]
    before = [puzzle_of_the_day(day, entries) for day in days]
    after = [puzzle_of_the_day(day, added) for day in days]
    moved = [b for b, a in zip(before, after, strict=True) if a != b]
    assert all(a.id == "a-new-puzzle" for b, a in zip(before, after, strict=True) if a != b)
    # the new puzzle wins about one day in len(added), not none and not most
    assert 0 < len(moved) < len(days) / 5
    assert puzzle_of_the_day(days[0]) == before[0]


def test_an_unknown_puzzle_is_refused_briefly() -> None:
    with pytest.raises(GameError, match="no puzzle") as info:
        find("x" * 10_000)
    assert len(str(info.value)) < 200


def test_the_27_move_crossing_played_through_an_attempt_is_the_optimum() -> None:
    attempt = start(find("crossing"))
    moves = solution(find("crossing"))
    for text in moves[:-1]:
        attempt.play(text)
        assert not attempt.done
    assert "26 moves so far, 9 of 10 pieces in the target" in attempt.status()
    last = attempt.play(moves[-1])
    assert attempt.solved and "crossed in 27 moves, the optimum" in last
    with pytest.raises(GameError, match="over"):
        attempt.play("a1-b1")


def test_a_longer_crossing_says_how_far_from_the_best_it_is() -> None:
    attempt = start(find("crossing"))
    attempt.play("d1-e6")  # a step out
    attempt.play("e6-d1")  # and back: two moves wasted
    for text in solution(find("crossing")):
        result = attempt.play(text)
    assert attempt.solved and "crossed in 29 moves, 2 more than the best known (27)" in result


def test_the_long_jump_crossing_is_never_called_the_optimum() -> None:
    """Its 20 moves are only the best found: matching them is not the optimum (nobody knows it)."""
    attempt = start(find("crossing-long"))
    for text in solution(find("crossing-long")):
        result = attempt.play(text)
    assert attempt.solved and "crossed in 20 moves, as few as the best known (20; the optimum is unknown)" in result
    assert "the optimum," not in result


def test_bad_moves_change_nothing_and_say_why() -> None:
    attempt = start(find("crossing"))
    before = attempt.state
    with pytest.raises(GameError, match="cannot read move"):
        attempt.play("hello")
    with pytest.raises(GameError, match=f"at most {MAX_MOVE_TEXT}"):
        attempt.play("a1-" * 1000)
    with pytest.raises(GameError, match=r"'d1-d4': d4 is occupied"):
        attempt.play("d1-d4")
    assert attempt.state == before and attempt.moves == 0


def test_shiqi_hint_is_legal_and_keeps_a_finish() -> None:
    attempt = start(find("shiqi"))
    hint = attempt.hint()
    assert hint.startswith("try ")
    attempt.play(hint.split()[1])
    assert attempt.moves == 1 and "59 pieces left" in attempt.status()


def test_an_abalone_puzzle_solved_with_its_answer() -> None:
    easy = next(p for p in shipped() if p.n == 1)
    attempt = start(find(easy.id))
    assert attempt.hint() == f"try {easy.solution}"
    assert "pushes a marble off: solved in 1 of 1" in attempt.play(easy.solution)
    assert attempt.solved


def test_a_wrong_first_move_is_refuted_by_the_defender() -> None:
    medium = next(p for p in shipped() if p.n == 2)
    attempt = start(find(medium.id))
    game = attempt.game
    wrong = next(m for m in game.legal_actions(attempt.state) if game.action_text(attempt.state, m) != medium.solution)
    attempt.play(game.action_text(attempt.state, wrong))
    assert not attempt.done
    assert attempt.hint() == "no forced ejection is left from here"


def test_the_defender_resists_as_long_as_it_can() -> None:
    """After the right first move of an 'eject in 3' every reply loses, but the defender picks one
    that leaves the attacker two more moves to find, not a blunder that allows a push-off at once."""
    for puzzle in (p for p in shipped() if p.n == 3):
        attempt = start(find(puzzle.id))
        attempt.play(puzzle.solution)
        assert not attempt.done
        assert winning_moves(attempt.state, 1) == [], puzzle.id
        assert winning_moves(attempt.state, 2) != [], puzzle.id


def test_a_legal_but_losing_abalone_try_is_wrong_and_changes_nothing() -> None:
    hard = next(p for p in shipped() if p.n == 3)
    attempt = start(find(hard.id))
    assert isinstance(attempt, Eject)
    game = attempt.game
    wrong = next(game.action_text(attempt.state, m) for m in game.legal_actions(attempt.state)
                 if game.action_text(attempt.state, m) != hard.solution)
    before = attempt.state
    assert attempt.judge(wrong) == Judged("wrong", wrong, "not the winning move")
    assert attempt.state == before and attempt.moves == 0
    illegal = attempt.judge("a1a9")
    assert illegal.kind == "illegal" and illegal.reason and attempt.moves == 0
    played = attempt.judge(hard.solution)
    assert played.kind == "played" and attempt.moves == 1 and attempt.reply
    # after the reply several moves may win: the prover judges them, and a losing one is wrong
    second = solution(find(hard.id))[2]
    assert replay(find(hard.id), [hard.solution, second]).moves == 2
    losing = next(game.action_text(attempt.state, m) for m in game.legal_actions(attempt.state)
                  if not attempt.wins(m))
    assert attempt.judge(losing).kind == "wrong"


def test_replay_names_the_first_move_that_is_not_played() -> None:
    hard = next(p for p in shipped() if p.n == 3)
    attempt = start(find(hard.id))
    wrong = next(attempt.game.action_text(attempt.state, m) for m in attempt.game.legal_actions(attempt.state)
                 if attempt.game.action_text(attempt.state, m) != hard.solution)
    with pytest.raises(GameError, match="move 1: not the winning move"):
        replay(find(hard.id), [wrong, hard.solution])
    with pytest.raises(GameError, match=r"move 2: .*d1"):
        replay(find("crossing"), ["d1-e6", "d1-e6"])
