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


def test_kelighine_turn_header_keeps_the_nickname_as_written(open_page: Callable[..., Page], server: Any) -> None:
    """The turn header is a panel header (upper case): 'TURN 1 · MEI', and on a Chinese page
    '第 1 輪 · MEI'."""
    created = server.api("POST", "/api/games", {"game": "kelighine", "name": "Mei",
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
    page = open_page(server.base + created["url"])
    header = page.locator("#kg-actions > header span").first
    expect(header).to_contain_text("Mei", use_inner_text=True)
    in_chinese(page)
    expect(header).to_contain_text("· Mei", use_inner_text=True)


def test_phone_replay_move_numbers_line_up_with_their_moves(open_page: Callable[..., Page], server: Any) -> None:
    """On a phone each replay move is a 44 px button; its number sat at the top of the row."""
    frames: list[dict[str, Any]] = []
    page = open_page(against_ai(server, "abalone"), *PHONE, frames=frames)
    for ply in (0, 2):
        expect(page.locator("#moves .m:not(.empty)")).to_have_count(ply)
        expect(page.locator("#status.mine")).to_have_count(1)
        legal = [f for f in frames if f.get("type") == "update" and f.get("legal")][-1]["legal"]
        page.fill("#notation", legal[0])
        page.press("#notation", "Enter")
    expect(page.locator("#moves .m:not(.empty)")).to_have_count(4)
    expect(page.locator("#status.mine")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.click("#replay")
    page.wait_for_selector("#moves button.m")
    rows = page.evaluate("""() => [...document.querySelectorAll('#moves .n')].map((n) => {
        const move = n.nextElementSibling.getBoundingClientRect();
        const text = document.createRange(); text.selectNodeContents(n);
        const r = text.getBoundingClientRect();
        return [r.top + r.height / 2, move.top + move.height / 2, move.height];
    })""")
    assert len(rows) >= 2
    for number, move, height in rows:
        assert height >= 44
        assert abs(number - move) <= 3, rows


def test_abort_countdown_speaks_to_the_player_who_must_move(open_page: Callable[..., Page], server: Any) -> None:
    """The player whose first move was missing read 'Aborted in 0:57 unless Mei makes a first
    move' about themselves; the opponent still reads it with the name."""
    created = server.api("POST", "/api/games", {"game": "abalone", "name": "Mei",
                                                 "clock": {"base": 300, "increment": 2},
                                                 "seats": [{"kind": "human"}, {"kind": "human"}]})
    invite = next(s for s in created["seats"] if s.get("invite"))
    claimed = server.api("POST", f"/api/games/{created['id']}/claim", {"invite": invite["invite"], "name": "Bo"})
    mover = open_page(server.base + created["url"])
    other = open_page(server.base + claimed["url"], *PHONE)
    expect(mover.locator("#abort-countdown")).to_contain_text("Make your first move within")
    expect(other.locator("#abort-countdown")).to_contain_text("unless Mei makes a first move")
    in_chinese(mover)
    expect(mover.locator("#abort-countdown")).to_contain_text("內下你的第一手")


def test_record_downloads_are_named_after_the_game(open_page: Callable[..., Page], server: Any) -> None:
    """The readable record downloaded as 'record.txt', whatever the game."""
    page = open_page(against_ai(server, "tellstones"))
    page.wait_for_selector("#status.mine")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    game_id = page.url.split("/play/")[1].split("#")[0]
    for link, suffix in (("#record-text", "txt"), ("#record-json", "json")):
        with page.expect_download() as download:
            page.click(link)
        assert download.value.suggested_filename == f"qipan-tellstones-{game_id}.{suffix}"


def test_shengke_score_shows_the_first_player_bonus_as_a_sum(open_page: Callable[..., Page], server: Any) -> None:
    """The first player's score read '0 (2)': cards on the field, then the total with a bonus
    the panel did not name. It reads '0+2' now, beside the panel's 'first player bonus +2'."""
    created = server.api("POST", "/api/games", {"game": "shengke", "options": {"first": "0"},
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
    page = open_page(server.base + created["url"])
    expect(page.locator('.player[data-seat="0"] .score')).to_have_text("0+2")
    expect(page.locator('.player[data-seat="1"] .score')).to_have_text("0")
    expect(page.locator("#board-extra")).to_contain_text("first player bonus +2")
