"""End-to-end: the lobby. Open games appear live in another browser and are joined in one click;
play the AI in one click; my games lead back to an unfinished game; the nickname is checked like
the server checks it; the create form offers only the seats a game has and the players option up
front; everything reads in 繁體中文 after the switch and stays so; phones get 44 px controls, no
text under 12 px and no sideways scroll. Screenshots of the lobby go to artifacts/e2e/."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]

# Words that may stay in Latin letters on the Chinese lobby: the brand, a game whose name has no
# Chinese form in its rulebook, and the switch back to English.
LATIN_ALLOWED = {"qipan", "Kelighine", "English"}


def set_name(page: Page, name: str) -> None:
    """Choose a nickname from the header's button, as a person would."""
    page.click("#nick")
    page.fill("#name-input", name)
    page.click("#name-save")
    expect(page.locator("dialog.name-dialog")).to_have_count(0)


def open_row(page: Page, game_id: str) -> Any:
    return page.locator(f'#open tr[data-id="{game_id}"]')


def game_id(url: str) -> str:
    match = re.search(r"/play/([^/#?]+)", url)
    assert match, url
    return match.group(1)


def test_open_game_appears_live_elsewhere_and_is_joined_in_one_click(
        open_page: OpenPage, server: Any, shots: Any) -> None:
    frames: list[dict[str, Any]] = []
    watcher = open_page(server.base + "/", frames=frames)
    expect(watcher.locator("#open .feed-status")).to_have_text("live")
    joiner = open_page(server.base + "/")
    set_name(joiner, "Lin")
    joiner.evaluate("window.notReloaded = true")

    creator = open_page(server.base + "/?game=abalone")
    set_name(creator, "Mei")
    expect(creator.locator("#you-as")).to_contain_text("Mei")
    creator.click('.seat-row[data-seat="1"] [data-kind="human"]')
    # A seat is open: the game is public unless the creator says otherwise.
    expect(creator.locator('input[name="visibility"][value="public"]')).to_be_checked()
    creator.click('[data-clock="300+3"]')
    creator.click("#create-game")
    creator.wait_for_selector("#invite")
    expect(creator.locator("#invite")).to_contain_text("listed in the lobby")
    gid = game_id(creator.locator("#play-first").get_attribute("href") or "")
    summary = server.api("GET", f"/api/games/{gid}")
    assert summary["public"] is True and summary["clock"] == {"base": 300, "increment": 3}
    assert summary["seats"][0]["name"] == "Mei"

    # The other browsers see it without reloading, pushed by /ws/lobby.
    row = open_row(joiner, gid)
    expect(row).to_contain_text("Mei")
    expect(row).to_contain_text("5+3")
    expect(row).to_contain_text("White: open seat")
    assert joiner.evaluate("window.notReloaded") is True
    expect(open_row(watcher, gid)).to_have_count(1)
    assert any(f.get("type") == "lobby" and any(g["id"] == gid for g in f.get("open", [])) for f in frames)
    shots(joiner, "lobby-open-desktop")

    row.locator("button.join").click()
    joiner.wait_for_url(re.compile(rf"/play/{gid}#seat=1$|/play/{gid}$"))
    expect(joiner.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    expect(joiner.locator('.player[data-seat="1"] .pname')).to_have_text("Lin")
    expect(joiner.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")
    # Taken: it leaves the open list of the browser still in the lobby, live.
    expect(open_row(watcher, gid)).to_have_count(0)
    creator.click("#play-first")
    expect(creator.locator('.player[data-seat="0"] .tag.you')).to_have_count(1)
    expect(creator.locator('.player[data-seat="1"] .pname')).to_have_text("Lin")
    expect(creator.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")


def test_the_open_list_falls_back_to_polling_when_the_socket_fails(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/")
    page.route_web_socket(re.compile(r".*/ws/lobby$"), lambda ws: ws.close())
    page.reload()
    expect(page.locator("#open .feed-status")).to_have_text("updated every 5 s")
    created = server.api("POST", "/api/games", {"game": "tellstones", "public": True, "name": "Ada",
                                                "seats": [{"kind": "human"}, {"kind": "human"}]})
    expect(open_row(page, created["id"])).to_contain_text("Ada", timeout=15000)


def test_play_the_ai_in_one_click(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/")
    page.click('[data-quick="kelighine"] [data-level="medium"]')
    # No nickname yet: the game starts at once under the side's name, and the page offers one.
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0$|/play/[^#]+$"))
    expect(page.locator('.player[data-seat="0"] .tag.you')).to_have_count(1)
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Player 1")
    page.click("#name-offer-choose")
    page.fill("#name-input", "Mei")
    page.click("#name-save")
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")
    summary = server.api("GET", f"/api/games/{game_id(page.url)}")
    assert summary["game"] == "kelighine" and summary["variant"] == "standard" and summary["public"] is True
    assert [(s["kind"], s.get("level")) for s in summary["seats"]] == [("human", None), ("ai", "medium")]
    assert summary["clock"] is None
    # The nickname is remembered: the next game starts at once.
    page.goto(server.base + "/")
    page.click('[data-quick="abalone"] [data-level="easy"]')
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")


def wait_moves(page: Page, n: int) -> None:
    expect(page.locator("#moves .m[data-ply]")).to_have_count(n, timeout=20000)


def test_my_games_lead_back_to_an_unfinished_game(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/")
    set_name(page, "Mei")
    page.click('[data-quick="abalone"] [data-level="random"]')
    page.wait_for_url(re.compile(r"/play/"))
    gid = game_id(page.url)
    expect(page.locator("#status")).to_have_text("Your move")
    page.click('[data-cell="a1"]')
    page.click('g.target[data-cell="d4"]')
    wait_moves(page, 2)

    page.goto(server.base + "/")
    row = page.locator(f'#my-games tr[data-id="{gid}"]')
    expect(row).to_contain_text("2 moves")
    expect(row).to_contain_text("Mei")
    row.locator("a").click()
    page.wait_for_url(re.compile(rf"/play/{gid}"))
    expect(page.locator('.player[data-seat="0"] .tag.you')).to_have_count(1)
    expect(page.locator("#status")).to_have_text("Your move")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#result-box")).to_be_visible()
    page.goto(server.base + "/")
    # Finished: out of the unfinished games, into the short history with a replay link.
    expect(page.locator("#my-games h3.sub")).to_have_text("Recently finished")
    finished = page.locator(f'#my-games tr[data-id="{gid}"]')
    expect(finished).to_have_count(1)
    expect(finished).to_contain_text("Mei resigned · AI (Random) wins")
    expect(finished.locator("a")).to_have_text("Replay")
    expect(page.locator("#my-games .empty")).to_contain_text("No unfinished game")


@pytest.mark.parametrize("bad, why", [
    ("", "Please type a nickname"),
    ("   ", "Please type a nickname"),
    ("M" * 25, "at most 24 characters; this one has 25"),
    ("Mei\u202eieM", "control or invisible"),
    ("Mei\u200b", "control or invisible"),
    ("Mei\u2028Lin", "control or invisible"),
])
def test_a_bad_nickname_is_refused_and_nothing_is_kept(open_page: OpenPage, server: Any, bad: str, why: str) -> None:
    page = open_page(server.base + "/")
    page.click("#nick")
    page.fill("#name-input", bad)
    page.click("#name-save")
    expect(page.locator("#name-error")).to_contain_text(why)
    expect(page.locator("dialog.name-dialog")).to_be_visible()
    expect(page.locator("#name-input")).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("localStorage.getItem('qipan.name')") is None
    page.keyboard.press("Escape")
    expect(page.locator("#nick")).to_have_text("Choose a nickname")
    # The server refuses it too (the browser's check only spares a round trip).
    created = server.api("POST", "/api/games", {"game": "abalone", "public": True,
                                                "seats": [{"kind": "human"}, {"kind": "human"}]})
    status = page.evaluate("""async ([id, name]) => (await fetch(`/api/games/${id}/join`, {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({name})})).status""",
                           [created["id"], bad])
    assert status == 400


def test_a_nickname_is_stripped_kept_and_editable(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/")
    page.evaluate("localStorage.setItem('qipan.name', 'bad\\u0007name')")  # unusable: treated as none
    page.reload()
    expect(page.locator("#nick")).to_have_text("Choose a nickname")
    set_name(page, "  梅 Mei  ")
    expect(page.locator("#nick")).to_have_text("梅 Mei")
    assert page.evaluate("localStorage.getItem('qipan.name')") == "梅 Mei"
    page.reload()
    expect(page.locator("#nick")).to_have_text("梅 Mei")
    expect(page.locator("#nick")).to_have_attribute("aria-label", "Nickname: 梅 Mei (change)")
    page.click("#you-as-change")
    expect(page.locator("#name-input")).to_have_value("梅 Mei")
    page.fill("#name-input", "Lin")
    page.keyboard.press("Enter")
    expect(page.locator("#you-as")).to_contain_text("Lin")


def test_the_form_offers_only_the_seats_a_game_has(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/?game=tellstones")
    first = page.locator('select[name="opt-first_player"]')
    expect(first.locator("option")).to_have_text(["Player 1", "Player 2", "Random"])
    page.select_option('select[name="variant"]', "round-table")
    expect(page.locator(".seat-row")).to_have_count(4)
    expect(first.locator("option")).to_have_text(
        ["Player 1 (team A)", "Player 2 (team B)", "Player 3 (team A)", "Player 4 (team B)", "Random"])
    page.select_option('select[name="opt-first_player"]', "3")
    page.select_option('select[name="variant"]', "standard")
    expect(page.locator(".seat-row")).to_have_count(2)
    expect(first.locator("option")).to_have_text(["Player 1", "Player 2", "Random"])
    expect(page.locator("#create-error")).to_have_text("")

    page.click('[data-game="shengke"]')
    expect(page.locator('select[name="opt-first"] option')).to_have_text(["Coin toss", "甲", "乙"])

    # Chinese Checkers: the players option is up front, not folded away, and offers 2, 3, 4, 6.
    page.click('[data-game="chinese-checkers"]')
    players = page.locator('select[name="opt-players"]')
    expect(players).to_be_visible()
    expect(page.locator("details.more-options")).not_to_have_attribute("open", "")
    expect(players.locator("option")).to_have_text(["2", "3", "4", "6"])
    page.select_option('select[name="opt-players"]', "3")
    expect(page.locator(".seat-row")).to_have_count(3)
    expect(page.locator(".seat-row .seat-name")).to_have_text(["Red", "Blue", "Green"])
    page.select_option('select[name="variant"]', "capture")
    expect(players.locator("option")).to_have_text(["1", "2", "3", "4", "5", "6"])

    page.click('[data-game="kelighine"]')
    page.fill('input[name="opt-players"]', "4")
    page.press('input[name="opt-players"]', "Tab")
    expect(page.locator(".seat-row .seat-name")).to_have_text(["Player 1", "Player 2", "Player 3", "Player 4"])


def visible_latin_words(page: Page) -> list[str]:
    """Latin words a person can read (or hear) anywhere on the page outside inputs' values."""
    words: list[str] = page.evaluate("""() => {
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode, el = node.parentElement;
            if (!el || el.closest("script, style, noscript, code, option:not(:checked)")) continue;
            if (!el.closest("select") && !el.getClientRects().length) continue;
            out.push(node.textContent);
        }
        for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
            if (el.closest("code")) continue;  // a link's address
            for (const a of ["aria-label", "title", "placeholder"]) out.push(el.getAttribute(a) || "");
        }
        return out.join(" ").match(/[A-Za-z]{2,}/g) || [];
    }""")
    return sorted(set(words) - LATIN_ALLOWED)


def test_the_language_switch_turns_the_whole_lobby_to_chinese_and_is_remembered(
        open_page: OpenPage, make_server: Any, tmp_path: Any, shots: Any) -> None:
    server = make_server(tmp_path / "lobby.sqlite")  # its own: no other test's nicknames in the lists
    server.start()
    try:
        lobby_in_both_languages(open_page, server, shots)
    finally:
        server.stop()


def lobby_in_both_languages(open_page: OpenPage, server: Any, shots: Any) -> None:
    # Something in the lists: an open game, and one in play (the AI moved first).
    server.api("POST", "/api/games", {"game": "shengke", "public": True, "name": "梅",
                                      "clock": {"base": 600, "increment": 5}, "seats": [{"kind": "human"}] * 2})
    server.api("POST", "/api/games", {"game": "abalone", "public": True, "name": "林", "seat": 1,
                                      "seats": [{"kind": "ai", "level": "random"}, {"kind": "human"}]})
    page = open_page(server.base + "/")
    set_name(page, "梅")
    expect(page.locator("#open tbody tr").first).to_be_visible()
    expect(page.locator("#games tbody tr").first).to_be_visible()
    shots(page, "lobby-desktop")
    # From the keyboard: the switch is a button in the tab order.
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "lang":
            break
    assert page.evaluate("document.activeElement.id") == "lang"
    page.keyboard.press("Enter")
    expect(page.locator("#create h2")).to_have_text("開新棋局")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator("#quick-title")).to_have_text("與電腦對弈")
    expect(page.locator('[data-quick="abalone"] .quick-title')).to_have_text("角力棋")
    expect(page.locator('[data-quick="tellstones"] [data-level="perfect"]')).to_have_text("完美記憶")
    expect(page.locator("#open .feed-status")).to_have_text("即時更新")
    expect(page.locator("#nick")).to_have_text("梅")
    # Every game, variant and option of the create form, every list: no English left.
    for game in ["abalone", "chinese-checkers", "kelighine", "shengke", "tellstones"]:
        page.click(f'[data-game="{game}"]')
        page.wait_for_selector(".seat-row")
        details = page.locator("details.more-options")
        if details.count():
            details.evaluate("d => { d.open = true; }")
        variants = page.locator('select[name="variant"] option').evaluate_all("os => os.map(o => o.value)")
        for variant in variants:
            page.select_option('select[name="variant"]', variant)
            page.wait_for_selector(".seat-row")
            page.click('[data-clock="custom"]')
            assert visible_latin_words(page) == [], (game, variant)
    page.click('[data-game="abalone"]')
    page.click('.seat-row[data-seat="1"] [data-kind="human"]')
    page.click("#create-game")
    expect(page.locator("#invite h3")).to_have_text("棋局已建立")
    assert visible_latin_words(page) == []
    page.click("#nick")
    expect(page.locator("#name-title")).to_have_text("你的暱稱")
    assert visible_latin_words(page) == []
    page.keyboard.press("Escape")

    page.reload()  # remembered
    expect(page.locator("#create h2")).to_have_text("開新棋局")
    expect(page.locator("#lang")).to_have_text("English")
    shots(page, "lobby-desktop-zh")
    page.emulate_media(color_scheme="dark")
    shots(page, "lobby-desktop-zh-dark")
    page.focus("#lang")
    page.keyboard.press("Enter")
    expect(page.locator("#create h2")).to_have_text("Create a game")


TOUCH_TARGETS = """() => {
    const bad = [];
    const targets = document.querySelectorAll(
        "header a, header button, main button, main a.btn, main select, main input[type=text], " +
        "main input[type=number], main summary, main .chip, main label.check, main label.mine, " +
        "dialog button, dialog input");
    for (const el of targets) {
        const r = el.getBoundingClientRect();
        if (!r.width || getComputedStyle(el).visibility === "hidden") continue;
        if (el.matches(".brand")) continue;
        if (r.height < 44 || r.width < 44) bad.push(`${el.outerHTML.slice(0, 80)} ${r.width}x${r.height}`);
    }
    return bad;
}"""

SMALL_TEXT = """() => {
    const bad = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const el = walker.currentNode.parentElement;
        if (!walker.currentNode.textContent.trim() || !el || !el.getClientRects().length) continue;
        if (el.closest("option, script, style")) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12) bad.push(`${size}px: ${walker.currentNode.textContent.trim().slice(0, 40)}`);
    }
    return bad;
}"""


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_phone_lobby(open_page: OpenPage, server: Any, shots: Any, language: str) -> None:
    server.api("POST", "/api/games", {"game": "chinese-checkers", "public": True, "name": "Mei",
                                      "clock": {"base": 180, "increment": 2}, "seats": [{"kind": "human"}] * 2})
    page = open_page(server.base + "/", width=390, height=844)
    page.evaluate(f"localStorage.setItem('qipan.lang', '{language}'); localStorage.setItem('qipan.name', 'Lin')")
    page.reload()
    page.wait_for_selector(".seat-row")
    expect(page.locator("#open tbody tr").first).to_be_visible()
    suffix = "" if language == "en" else "-zh"
    for game in ["chinese-checkers", "tellstones", "abalone"]:
        page.click(f'[data-game="{game}"]')
        page.wait_for_selector(".seat-row")
        page.locator("details.more-options").evaluate_all("ds => ds.forEach(d => { d.open = true; })")
        page.click('[data-clock="custom"]')
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
        assert page.evaluate(TOUCH_TARGETS) == [], game
        assert page.evaluate(SMALL_TEXT) == [], game
    shots(page, f"lobby-phone{suffix}")
    page.emulate_media(color_scheme="dark")
    shots(page, f"lobby-phone{suffix}-dark")
    page.click("#nick")
    assert page.evaluate(TOUCH_TARGETS) == []
    shots(page, f"lobby-phone-name{suffix}")
