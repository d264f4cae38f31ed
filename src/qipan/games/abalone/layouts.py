"""The three start layouts of the rules contract, as (black, white) bitboards."""

from __future__ import annotations

from qipan.games.abalone.board import cell_index


def _mask(names: str) -> int:
    bits = 0
    for name in names.split():
        bits |= 1 << cell_index(name)
    return bits


def _rows(spec: str) -> str:
    """Expand "a1-a5 c3-c5" into cell names."""
    names = []
    for part in spec.split():
        start, _, end = part.partition("-")
        if not end:
            names.append(start)
            continue
        row = start[0]
        names.extend(f"{row}{n}" for n in range(int(start[1:]), int(end[1:]) + 1))
    return " ".join(names)


LAYOUTS: dict[str, tuple[int, int]] = {
    "standard": (_mask(_rows("a1-a5 b1-b6 c3-c5")), _mask(_rows("i5-i9 h4-h9 g5-g7"))),
    "belgian-daisy": (
        _mask("a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9"),
        _mask("a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6"),
    ),
    "german-daisy": (
        _mask("b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9"),
        _mask("b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5"),
    ),
}
