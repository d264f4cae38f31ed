"""Abalone "eject in N": the shipped puzzles re-verified by the search, and the search checked
against a plain search through the game's own API."""

from __future__ import annotations

import re
from typing import Any

import pytest

from qipan.games.abalone.game import Abalone, AbaloneState
from qipan.games.abalone.moves import generate
from qipan.puzzles import eject
from qipan.puzzles.eject import RATINGS, analyse, shipped, winning_moves


def marbles(state: AbaloneState, side: int) -> int:
    board: int = state.black if side == 0 else state.white
    return board.bit_count()


def forces(game: Abalone, state: AbaloneState, move: Any, n: int) -> bool:
    """Plain version on legal_actions/next_state: ``move`` pushes a marble off within n moves."""
    me = state.turn
    after = game.next_state(state, move)
    if marbles(after, 1 - me) < marbles(state, 1 - me):
        return True
    if n == 1 or game.to_move(after) is None:
        return False
    for reply in game.legal_actions(after):
        back = game.next_state(after, reply)
        if game.to_move(back) is None or not any(forces(game, back, m, n - 1) for m in game.legal_actions(back)):
            return False
    return True


def pick(n: int) -> Any:
    return next(p for p in shipped() if p.n == n)


def test_the_shipped_set_has_every_rating_and_well_formed_entries() -> None:
    puzzles = shipped()
    assert sorted(p.rating for p in puzzles) == sorted(list(RATINGS.values()) * 4)
    assert len({p.id for p in puzzles}) == len(puzzles)
    game = Abalone()
    for p in puzzles:
        state = p.position(game)
        assert game.to_move(state) is not None
        assert game.parse_action(state, p.solution) in game.legal_actions(state)
        assert "seed" in p.source


@pytest.mark.parametrize("puzzle_id", [p.id for p in shipped()])
def test_every_shipped_puzzle_has_a_unique_first_move_at_its_depth(puzzle_id: str) -> None:
    game = Abalone()
    puzzle = next(p for p in shipped() if p.id == puzzle_id)
    n = puzzle.n
    verdict = analyse(puzzle.position(game), max_n=n)
    assert verdict.n == n
    assert verdict.unique
    assert game.action_text(puzzle.position(game), verdict.moves[0]) == puzzle.solution


@pytest.mark.parametrize("n", [1, 2])
def test_the_bitboard_search_agrees_with_a_plain_search_through_the_game(n: int) -> None:
    game = Abalone()
    state = pick(n).position(game)
    plain = [m for m in game.legal_actions(state) if forces(game, state, m, n)]
    assert plain == winning_moves(state, n)
    assert len(plain) == 1
    if n == 2:  # and nothing ejects at once: the depth is the smallest
        assert not [m for m in game.legal_actions(state) if forces(game, state, m, 1)]


def test_the_start_has_no_forced_ejection() -> None:
    game = Abalone()
    verdict = analyse(game.initial_state(), max_n=2)
    assert verdict.n == 0 and not verdict.unique


def test_the_generator_takes_no_continuation_and_spreads_over_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every position a puzzle, a game gives at most ``per_game`` of them, ``gap`` plies
    apart: the shipped set had pairs two plies apart (one the other's continuation) and ten of
    twelve from one game."""
    def every_position_a_puzzle(state: Any, max_n: int, max_nodes: int | None = None) -> eject.Verdict:
        own, opp = eject.sides(state)
        return eject.Verdict(1 + state.black.bit_count() % 3, [generate(own, opp)[0]], 1)

    monkeypatch.setattr(eject, "analyse", every_position_a_puzzle)
    found = eject.generate_puzzles(3, 5, (("random", "random"),), per_rating=10, per_game=2, gap=20)
    sources = [p.source.rsplit(", ", 2) for p in found]
    by_game: dict[str, list[int]] = {}
    for _, seed, move in sources:
        by_game.setdefault(seed, []).append(int(move.removeprefix("move ")))
    assert list(by_game) == ["seed 5", "seed 6", "seed 7"]
    assert all(len(moves) == 2 and moves[1] - moves[0] >= 20 for moves in by_game.values())


def test_every_shipped_puzzle_is_its_source_games_position() -> None:
    """The shipped set is what ``qipan puzzle generate`` finds (docs/puzzles.md gives the
    command): each puzzle is the position of the AI game its source names, at that move, and no
    two come from the same game less than 20 plies apart; six games give the twelve."""
    game = Abalone()
    by_game: dict[tuple[str, str, int], list[tuple[int, Any]]] = {}
    for puzzle in shipped():
        match = re.fullmatch(r"(\w+) \(black\) against (\w+) \(white\), seed (\d+), move (\d+)", puzzle.source)
        assert match, puzzle.source
        black, white, seed, move = match.groups()
        by_game.setdefault((black, white, int(seed)), []).append((int(move) - 1, puzzle))
    assert len(by_game) == 6 and all(len(kept) == 2 for kept in by_game.values())
    for (black, white, seed), kept in list(by_game.items())[1:]:  # the first: the next test
        plies = dict(kept)
        assert kept[1][0] - kept[0][0] >= 20
        for ply, state in eject.game_positions((black, white), seed, max(plies) + 1):
            if ply in plies:
                assert game.state_to_json(state) == plies[ply].state, plies[ply].id


def test_the_generator_reproduces_the_first_games_puzzles_exactly() -> None:
    """``qipan puzzle generate --seed 22001`` (docs/puzzles.md): its first game, analysed again,
    gives the first two shipped puzzles, byte for byte (about 20 s)."""
    pairings = (("easy", "medium"), ("medium", "hard"), ("hard", "easy"))
    found = eject.generate_puzzles(1, 22001, pairings, per_rating=4)
    assert [p.to_json() for p in found] == [p.to_json() for p in shipped()[:2]]
