"""A deliberately naive Abalone move generator, written straight from the rules contract, used
to cross-check the bitboard generator. Cells are (row, number) pairs; nothing is precomputed."""

from __future__ import annotations

ROWS = "abcdefghi"
DIRS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def on_board(cell: tuple[int, int]) -> bool:
    row, number = cell
    return 0 <= row <= 8 and max(1, row - 3) <= number <= min(9, row + 5)


def name(cell: tuple[int, int]) -> str:
    return f"{ROWS[cell[0]]}{cell[1]}"


def add(cell: tuple[int, int], d: tuple[int, int], k: int = 1) -> tuple[int, int]:
    return (cell[0] + k * d[0], cell[1] + k * d[1])


def legal_moves(own: set[tuple[int, int]], opp: set[tuple[int, int]]) -> set[str]:
    """Every legal move, in notation: in-line 'a1b2', broadside as the sorted set of
    (first end, last end, first end's target) rendered in canonical low-end-first order."""
    moves: set[str] = set()
    cells = [(r, n) for r in range(9) for n in range(1, 10) if on_board((r, n))]
    for start in own:
        for d in DIRS:
            line = [start]
            while len(line) < 3 and add(line[-1], d) in own:
                line.append(add(line[-1], d))
            front = add(line[-1], d)
            if front in own or not on_board(front):
                continue  # a fourth own marble, or stepping off the board
            if front not in opp:
                moves.add(name(start) + name(add(start, d)))
                continue
            pushed = []
            cell = front
            while cell in opp:
                pushed.append(cell)
                cell = add(cell, d)
            if len(pushed) < len(line) and (cell not in own):
                moves.add(name(start) + name(add(start, d)))
    for start in cells:
        for axis in DIRS[:3]:
            for size in (2, 3):
                line = [add(start, axis, i) for i in range(size)]
                if not all(c in own for c in line):
                    continue
                for d in DIRS:
                    if d in (axis, (-axis[0], -axis[1])):
                        continue
                    targets = [add(c, d) for c in line]
                    if all(on_board(t) and t not in own and t not in opp for t in targets):
                        moves.add(name(line[0]) + name(line[-1]) + name(targets[0]))
    return moves
