"""``qipan games`` lists every game with its variants, AI levels and options."""

from __future__ import annotations

from typer.testing import CliRunner

from qipan.cli.main import app


def test_games_lists_variants_levels_and_options() -> None:
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    blocks = result.output.split("\n")
    abalone = blocks.index(next(line for line in blocks if line.startswith("abalone")))
    assert blocks[abalone + 1] == "  variants: standard, belgian-daisy, german-daisy"
    assert blocks[abalone + 2] == "  AI levels: random, easy, medium, hard, max"
    assert "  AI levels: random, easy, medium, hard, perfect" in blocks  # Tellstones' own level
    assert any(line.startswith("  --quiet-move-limit") for line in blocks)
