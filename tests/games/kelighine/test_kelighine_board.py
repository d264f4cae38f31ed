"""The board as data, against every adjacency statement of the contract and the rulebook."""

from __future__ import annotations

import pytest

from qipan.core.errors import GameError
from qipan.games.kelighine import board
from qipan.games.kelighine.board import ADJACENT, cell, name


def adj(text: str) -> set[str]:
    return {name(c) for c in ADJACENT[cell(text)]}


def test_cell_counts_and_names() -> None:
    assert len(board.NAMES) == board.NUM_CELLS == 41
    assert [name(c) for c in range(16)] == [f"A{i}" for i in range(1, 17)]
    assert [board.tier(cell(n)) for n in ("A1", "B8", "C3", "D", "I", "J")] == [1, 2, 3, 0, 0, 0]
    assert cell("b7") == cell("B7")
    with pytest.raises(GameError, match="unknown cell 'A17'"):
        cell("A17")


def test_adjacency_is_symmetric_and_has_no_loops() -> None:
    for x in range(board.NUM_CELLS):
        assert x not in ADJACENT[x]
        for y in ADJACENT[x]:
            assert x in ADJACENT[y]


@pytest.mark.parametrize("i", range(1, 17))
def test_a_ring(i: int) -> None:
    a = adj(f"A{i}")
    assert {f"A{(i - 2) % 16 + 1}", f"A{i % 16 + 1}"} <= a
    assert f"B{(i + 1) // 2}" in a
    assert sum(n.startswith("B") for n in a) == 1
    assert not any(n.startswith("C") for n in a)


@pytest.mark.parametrize("j", range(1, 9))
def test_b_ring(j: int) -> None:
    expected = {f"B{(j - 2) % 8 + 1}", f"B{j % 8 + 1}", f"A{2 * j - 1}", f"A{2 * j}",
                f"C{j}", f"C{(j - 2) % 8 + 1}"}
    assert adj(f"B{j}") == expected


@pytest.mark.parametrize("k", range(1, 9))
def test_c_ring(k: int) -> None:
    expected = {f"C{(k - 2) % 8 + 1}", f"C{k % 8 + 1}", f"B{k}", f"B{k % 8 + 1}", "J"}
    assert adj(f"C{k}") == expected


def test_c8_touches_b8_and_b1() -> None:
    assert {"B8", "B1"} <= adj("C8")


def test_j_touches_every_c_cell() -> None:
    assert adj("J") == {f"C{k}" for k in range(1, 9)}


@pytest.mark.parametrize(
    ("corner", "cells"),
    [("D", {"A16", "A1"}), ("E", {"A4", "A5"}), ("F", {"A8", "A9"}), ("G", {"A12", "A13"}),
     ("I", {"A2", "A3"}), ("L", {"A6", "A7"}), ("H", {"A10", "A11"}), ("K", {"A14", "A15"})],
)
def test_corners_and_start_cells(corner: str, cells: set[str]) -> None:
    assert adj(corner) == cells


def test_rulebook_adjacency_examples() -> None:
    # 2.1.3: B7 touches A14, A13, C6, C7; A13 touches A14, A12, B7, G and not B6
    assert {"A13", "A14", "C6", "C7"} <= adj("B7")
    assert adj("A13") == {"A12", "A14", "B7", "G"}
    assert "B6" not in adj("A13")
    # 2.2.4: B2 touches C1 and C2
    assert {"C1", "C2"} <= adj("B2")
    # the figure's lower-left "B6" is B8: it touches A15, A16
    assert {"A15", "A16"} <= adj("B8")


def test_colours() -> None:
    assert board.colour(cell("A5")) == "white"
    assert board.colour(cell("B2")) == "black"
    assert board.colour(cell("C7")) == "white"
    assert board.colour(cell("E")) is None and board.colour(cell("J")) is None


def test_steps_wrap_within_the_tier() -> None:
    assert name(board.step(cell("A15"), 3)) == "A2"
    assert name(board.step(cell("B8"), 1)) == "B1"
    assert name(board.step(cell("C1"), -1)) == "C8"
    assert name(board.step(cell("A3"), 4)) == "A7"  # rulebook 2.2.1
    assert name(board.step(cell("C3"), 4)) == "C7"


def test_promotion_targets() -> None:
    assert [name(c) for c in board.upper_cells(cell("A4"))] == ["B2"]
    assert [name(c) for c in board.upper_cells(cell("B2"))] == ["C1", "C2"]
    assert [name(c) for c in board.upper_cells(cell("B1"))] == ["C1", "C8"]
    assert [name(c) for c in board.upper_cells(cell("C3"))] == ["J"]
    assert [name(c) for c in board.lower_cells(cell("C1"))] == ["B1", "B2"]


def test_distances_to_corners() -> None:
    assert board.DISTANCE[cell("A2")][cell("D")] == 2
    assert board.DISTANCE[cell("A2")][cell("E")] == 3
    assert board.DISTANCE[cell("B3")][cell("E")] == 2
    free = set(board.CORNERS)
    assert [name(c) for c in board.nearest_corners(cell("C1"), free)] == ["D", "E"]
    assert board.nearest_corners(cell("A1"), set()) == ()


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        ("A5", "A1 A9 A13 B1 B3 B5 B7 C1 C3 C5 C7"),
        ("A7", "A3 A11 A15 B1 B3 B5 B7 C1 C3 C5 C7"),
        ("A16", "A4 A8 A12 B2 B4 B6 B8 C2 C4 C6 C8"),
        ("B3", "B1 B5 B7 C1 C3 C5 C7"),
        ("C2", "C4 C6 C8"),
        ("E", ""),
        ("I", ""),
        ("J", ""),
    ],
)
def test_indirect_cells(last: str, expected: str) -> None:
    got = " ".join(name(c) for c in sorted(board.indirect_cells(cell(last))))
    assert got == expected
    assert board.indirect_cells(-1) == frozenset()
