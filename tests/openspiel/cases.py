"""Game strings the OpenSpiel tests run on: every game, and variants and options of each.

Abalone, Chinese Checkers and Kelighine are long between random players: their cases cap the
game length so a random simulation stays short."""

from __future__ import annotations

CASES: list[str] = [
    "qipan_abalone(max_game_length=120)",
    "qipan_abalone(variant=belgian-daisy,quiet_move_limit=30,max_game_length=120)",
    "qipan_chinese_checkers(max_game_length=120)",
    "qipan_chinese_checkers(players=3,variant=capture,max_game_length=150)",
    "qipan_kelighine(max_game_length=300)",
    "qipan_kelighine(version=2,max_game_length=200)",
    "qipan_kelighine(players=3,die=4,max_game_length=300)",
    "qipan_shengke",
    "qipan_shengke(turns=6,first='1',first_bonus=0)",
    "qipan_tellstones",
    "qipan_tellstones(first_player=random,turn_limit=12)",
    "qipan_tellstones(variant=two-lines)",
    "qipan_tellstones(variant=round-table)",
]

HIDDEN: list[str] = [case for case in CASES if case.startswith(("qipan_shengke", "qipan_tellstones"))]
