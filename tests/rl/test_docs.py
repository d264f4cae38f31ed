"""docs/rl.md documents every flat observation layout as the encoders build it."""

from __future__ import annotations

from pathlib import Path

import pytest

import qipan
from qipan.rl.encoders import encoded_games, make_encoder

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", encoded_games())
def test_each_game_has_a_section_with_its_default_shape(name: str) -> None:
    encoder = make_encoder(qipan.load(name))
    assert f"`{name}`" in DOCS
    shape = encoder.shape
    text = f"{shape[0]} planes of {shape[1]}×{shape[2]}" if len(shape) == 3 else f"({shape[0]},)"
    assert text in DOCS or (len(shape) == 3 and f"{shape}" in DOCS) or f"{shape[0]} values" in DOCS


@pytest.mark.parametrize("name", ["kelighine", "shengke", "tellstones"])
def test_flat_layouts_match_the_tables(name: str) -> None:
    layout = make_encoder(qipan.load(name)).layout  # type: ignore[attr-defined]
    for span, part, _ in layout.rows():
        assert f"| {span} | `{part}` |" in DOCS, f"{name}: docs/rl.md lacks the row {span} `{part}`"
