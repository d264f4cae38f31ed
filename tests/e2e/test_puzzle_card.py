"""The lobby's puzzle of the day (issue 22), in Chromium: today's puzzle with a link to its page
and the command that plays it in the terminal, in English and 繁體中文, without accessibility
findings."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from qipan.puzzles.catalogue import puzzle_of_the_day
from qipan.puzzles.data import load
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
    optimal = entry.kind == "crossing" and load("crossings.json")[entry.jump]["optimal"]
    goals = {"crossing": f"Optimum: {entry.par} moves" if optimal else f"Best known: {entry.par} moves",
             "eject": f"Eject in {entry.par}", "shiqi": "Leave one piece"}
    expect(page.locator("#puzzle-rating")).to_have_text(f"{entry.rating.capitalize()} · {goals[entry.kind]}")
    expect(page.locator("#puzzle-command")).to_have_text(f"qipan puzzle play {entry.id}")
    expect(page.locator("#puzzle-open")).to_have_attribute("href", f"/puzzles/{entry.id}")
    expect(page.locator("#puzzle-all")).to_have_attribute("href", "/puzzles")
    assert axe_findings(page, "lobby with the puzzle of the day") == []
    shots(page, "puzzle-of-the-day-en")
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    expect(card.locator("h2")).to_have_text("每日謎題")
    expect(page.locator("#puzzle-name")).to_have_text(entry.title_zh)
    ratings = {"easy": "簡單", "medium": "中等", "hard": "困難"}
    goals = {"crossing": f"最佳解：{entry.par} 步" if optimal else f"已知最佳：{entry.par} 步",
             "eject": f"{entry.par} 步內逐出一顆棋子",
             "shiqi": "只留下一顆棋子"}
    expect(page.locator("#puzzle-rating")).to_have_text(f"{ratings[entry.rating]} · {goals[entry.kind]}")
    expect(page.locator("#puzzle-command")).to_have_text(f"qipan puzzle play {entry.id}")
    expect(page.locator("#puzzle-open")).to_have_text("開始解題")
    shots(page, "puzzle-of-the-day-zh")
    page.click("#puzzle-open")
    expect(page.locator("#puzzle-heading")).to_have_text(entry.title_zh)


def answering(body: dict[str, Any]) -> Callable[[Any], None]:
    return lambda route: route.fulfill(json=body)


def test_every_kind_of_puzzle_and_an_unavailable_server(open_page: OpenPage, server: Any) -> None:
    """Whatever the date: each kind's goal line, and a failed request, through a routed answer."""
    page = open_page(server.base + "/")
    expect(page.locator("#puzzle-command")).to_be_visible()
    cases = {"crossing": ("hard", 20, "Hard · Best known: 20 moves"),
             "crossing-optimal": ("hard", 27, "Hard · Optimum: 27 moves"),
             "shiqi": ("medium", 59, "Medium · Leave one piece"),
             "eject": ("easy", 2, "Easy · Eject in 2")}
    for kind, (rating, par, line) in cases.items():
        answer = {"date": "2026-11-28", "id": kind, "kind": kind.removesuffix("-optimal"), "rating": rating, "par": par,
                  "optimal": kind != "crossing",
                  "title": {"en": f"a {kind} puzzle", "zh-Hant": "謎題"}, "command": f"qipan puzzle play {kind}"}
        page.unroute("**/api/puzzles/today")
        page.route("**/api/puzzles/today", answering(answer))
        page.reload()
        expect(page.locator("#puzzle-name")).to_have_text(f"a {kind} puzzle")
        expect(page.locator("#puzzle-rating")).to_have_text(line)
    page.unroute("**/api/puzzles/today")
    page.route("**/api/puzzles/today", lambda route: route.fulfill(status=503, json={"error": "busy"}))
    page.reload()
    expect(page.locator("#puzzle-of-the-day")).to_contain_text("The puzzle of the day is not available right now.")
    expect(page.locator("#puzzle-command")).to_have_count(0)
