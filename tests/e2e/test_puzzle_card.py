"""The lobby's puzzle of the day (issue 22), in Chromium: today's puzzle with the command that
plays it, in English and 繁體中文, without accessibility findings."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from qipan.puzzles.catalogue import puzzle_of_the_day
from tests.e2e.test_audit import axe_findings

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]


def test_the_lobby_shows_the_puzzle_of_the_day_in_both_languages(open_page: OpenPage, server: Any,
                                                                  shots: Any) -> None:
    entry = puzzle_of_the_day(datetime.datetime.now(datetime.UTC).date())
    page = open_page(server.base + "/")
    card = page.locator("#puzzle-of-the-day")
    expect(card.locator("h2")).to_have_text("Puzzle of the day")
    expect(page.locator("#puzzle-name")).to_have_text(entry.title)
    expect(page.locator("#puzzle-rating")).to_have_text(f"{entry.rating.capitalize()} · Par: {entry.par} moves")
    expect(page.locator("#puzzle-command")).to_have_text(f"qipan puzzle play {entry.id}")
    assert axe_findings(page, "lobby with the puzzle of the day") == []
    shots(page, "puzzle-of-the-day-en")
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    expect(card.locator("h2")).to_have_text("每日謎題")
    expect(page.locator("#puzzle-name")).to_have_text(entry.title_zh)
    expect(page.locator("#puzzle-rating")).to_contain_text(f"標準：{entry.par} 步")
    expect(page.locator("#puzzle-command")).to_have_text(f"qipan puzzle play {entry.id}")
    shots(page, "puzzle-of-the-day-zh")
