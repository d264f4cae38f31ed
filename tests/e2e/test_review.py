"""What a reviewer playing every game in the browser (English and 繁體中文, both themes, desktop
and phone) found wrong, each pinned by a test that failed before its fix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

PHONE = (390, 844)


def in_chinese(page: Page) -> None:
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()


def against_ai(server: Any, game: str, options: dict[str, Any] | None = None) -> str:
    created = server.api("POST", "/api/games", {"game": game, "options": options or {},
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
    return str(server.base + created["url"])


def test_ai_seat_and_chance_moves_read_in_chinese(open_page: Callable[..., Page], server: Any) -> None:
    """The AI's tag said 'AI random' on a Chinese page; chance moves were marked with the rare
    glyph ⚄, titled 'chance', and Sheng-Ke's hidden deal read 'chance'."""
    page = open_page(against_ai(server, "shengke"))
    in_chinese(page)
    expect(page.locator('.player[data-seat="1"] .tag')).to_have_text("電腦（隨機）")
    expect(page.locator("#moves .m.chance").first).to_be_visible()
    expect(page.locator("#moves .m.chance svg.icon").first).to_be_visible()
    expect(page.locator("#moves")).to_contain_text("（不公開）")
    html = page.inner_html("#moves")
    assert "⚄" not in html and "chance</span>" not in html
    titles = page.locator("#moves .m.chance").evaluate_all("els => els.map(e => e.title)")
    assert titles and set(titles) == {"機運"}
