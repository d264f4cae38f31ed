"""End-to-end: the real server and the web client in Chromium, one test per game plus the lobby,
replay, rematch, reconnection and the phone layout. Each person is a separate browser context."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import qipan

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]


def create_from_lobby(open_page: OpenPage, server: Any, game: str, seats: Sequence[str],
                      variant: str | None = None, shot: Any = None,
                      public: bool | None = None) -> tuple[Page, list[str], str]:
    """Create a game through the lobby form and take the first human seat in that page; returns
    the creator's page (now playing), the invitation links of the other human seats and the
    spectator link."""
    lobby = open_page(server.base + "/")
    lobby.click(f'[data-game="{game}"]')
    if variant:
        lobby.select_option('select[name="variant"]', variant)
    lobby.wait_for_selector(f'.seat-row[data-seat="{len(seats) - 1}"]')
    expect(lobby.locator(".seat-row")).to_have_count(len(seats))
    for i, kind in enumerate(seats):
        kind, _, level = kind.partition(":")
        lobby.click(f'.seat-row[data-seat="{i}"] [data-kind="{kind}"]')
        if level:
            lobby.select_option(f'select[name="level-{i}"]', level)
    if public is not None:  # else the form's default: public when a seat is open
        lobby.check(f'input[name="visibility"][value="{"public" if public else "private"}"]')
    lobby.click("#create-game")
    lobby.wait_for_selector("#invite")
    invites = lobby.locator("#invite .link-row.seat").evaluate_all("els => els.map(e => e.dataset.url)")
    spectator = lobby.locator("#invite .link-row.spectator a").get_attribute("href")
    assert spectator and re.fullmatch(r"/play/[^?#]+", spectator)
    assert len(invites) == sum(kind == "human" for kind in seats) - 1
    assert all(re.fullmatch(r"http://[^/]+/play/[^?#]+#invite=[\w-]{20,}", link) for link in invites)
    if shot:
        shot(lobby)
    lobby.click("#play-first")
    lobby.wait_for_selector("[data-seat] .tag.you")
    assert "#" not in lobby.url or re.search(r"#seat=\d+$", lobby.url)
    return lobby, invites, server.base + spectator


def assert_no_secret_in(urls: list[str], *pages: Page) -> None:
    """No token or invitation code any page holds was ever in a URL the server saw, or is left
    in an address bar."""
    secrets = set()
    for page in pages:
        held = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith("qipan.game."))
            .map(k => JSON.parse(localStorage.getItem(k)))""")
        for game in held:
            secrets.update(game["seats"].values())
            secrets.update(game["invites"].values())
        assert "token=" not in page.url and "invite=" not in page.url, page.url
    assert secrets
    assert not [url for url in urls if any(secret in url for secret in secrets)]
    assert not [url for url in urls if "token=" in url or "invite=" in url]


def my_turn(page: Page) -> None:
    expect(page.locator("#status")).to_have_text("Your move")


def move_texts(page: Page) -> list[str]:
    return page.locator("#moves .m[data-ply]").evaluate_all(
        "els => els.map(e => e.textContent.replace(/^⚄ /, '').trim())")


def wait_moves(page: Page, count: int) -> list[str]:
    expect(page.locator("#moves .m[data-ply]")).to_have_count(count)
    return move_texts(page)


def board_html(page: Page) -> str:
    return page.evaluate("document.body.innerHTML")


def game_id(url: str) -> str:
    match = re.search(r"/play/([^?#]+)", url)
    assert match
    return match.group(1)


# -- Abalone -------------------------------------------------------------------------------------


def test_abalone_from_lobby_two_humans_and_spectator(open_page: OpenPage, server: Any, shots: Any,
                                                      requested: list[str]) -> None:
    black, links, spectator_url = create_from_lobby(open_page, server, "abalone", ["human", "human"],
                                                    shot=lambda page: shots(page, "lobby-invite"))
    assert len(links) == 1
    white = open_page(links[0])
    spectator = open_page(spectator_url)

    my_turn(black)
    expect(white.locator("#status")).to_have_text("Black to move")
    # Click the trailing marble, then the cell ahead of its line: a1, b2, c3 move towards d4.
    black.click('[data-cell="a1"]')
    expect(black.locator('[data-cell="a1"] .selected')).to_have_count(1)
    target = black.locator('g.target[data-cell="d4"]')
    expect(target).to_have_attribute("data-move", "a1b2")
    shots(black, "abalone-selected")
    target.click()
    for page in (black, white, spectator):
        assert wait_moves(page, 1) == ["a1b2"]
    expect(white.locator('[data-cell="d4"] [data-marble="black"]')).to_have_count(1)
    expect(white.locator('[data-cell="a1"] [data-marble]')).to_have_count(0)

    my_turn(white)
    white.click('[data-cell="g5"]')
    white.click('g.target[data-cell="f4"]')
    for page in (black, white, spectator):
        assert wait_moves(page, 2) == ["a1b2", "g5f4"]

    # The notation box: an illegal move is refused with a reason and changes nothing.
    my_turn(black)
    black.fill("#notation", "a1a2")
    black.press("#notation", "Enter")
    expect(black.locator(".toast")).to_contain_text("a1")
    # The log keeps the reason, marked by a drawn icon, not a glyph fonts may lack (⚠ was one).
    expect(black.locator("#log li.error")).to_contain_text("a1")
    expect(black.locator("#log li.error svg.icon path")).to_have_count(1)
    assert "⚠" not in (black.locator("#log").text_content() or "")
    assert move_texts(black) == ["a1b2", "g5f4"]
    game = qipan.load("abalone")
    state = game.play(game.play(game.initial_state(), "a1b2"), "g5f4")
    legal = game.legal_texts(state)[0]
    black.fill("#notation", legal.upper())
    black.press("#notation", "Enter")
    assert wait_moves(spectator, 3)[-1] == legal
    expect(spectator.locator("#move-input")).to_have_count(0)
    for name, page in (("abalone-black", black), ("abalone-white", white), ("abalone-spectator", spectator)):
        shots(page, name)
    # A reload keeps each seat (this browser holds its token), and a used invitation stays used.
    white.reload()
    expect(white.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    my_turn(white)
    again = open_page(links[0])
    expect(again.locator(".toast")).to_contain_text("used")
    expect(again.locator(".tag.you")).to_have_count(0)
    assert_no_secret_in(requested, black, white, spectator, again)


def test_invitations_claimed_and_replaced_and_a_seat_moved_to_another_device(
        open_page: OpenPage, server: Any, shots: Any, requested: list[str]) -> None:
    creator, links, _ = create_from_lobby(open_page, server, "chinese-checkers", ["human", "human"])
    # The creator sees the seat nobody has taken, and makes a new link (the old one stops working).
    panel = creator.locator("#invite-panel")
    expect(panel.locator(".link-row.seat")).to_have_count(1)
    assert panel.locator(".link-row.seat").get_attribute("data-url") == links[0]
    creator.click("#renew-invites")
    expect(panel.locator(".link-row.seat")).not_to_have_attribute("data-url", links[0])
    fresh = panel.locator(".link-row.seat").get_attribute("data-url")
    shots(creator, "invitations")
    stale = open_page(links[0])
    expect(stale.locator(".toast")).to_contain_text("not valid")
    blue = open_page(fresh)
    expect(blue.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    expect(creator.locator("#invite-panel")).to_have_count(0)  # every seat is taken now
    # The creator's seat link opens the seat in another browser, which then plays it.
    own = creator.locator("#seat-link .link-row").get_attribute("data-url")
    assert own and re.search(r"#seat=0&token=", own)
    laptop = open_page(own)
    my_turn(laptop)
    laptop.locator("g[data-hole]:has(.piece.clickable)").first.click()
    laptop.locator("g.target").first.click()
    wait_moves(creator, 1)
    assert_no_secret_in(requested, creator, blue, laptop)


def test_abalone_clocks_broadside_and_rules_link(open_page: OpenPage, server: Any, shots: Any) -> None:
    black = open_page(server.base + "/?game=abalone")
    black.wait_for_selector('.seat-row[data-seat="1"]')
    # The lobby's clock choice replaced Abalone's time_limit field: a custom 5+0.
    black.click('[data-clock="custom"]')
    black.fill('input[name="clock-minutes"]', "5")
    black.fill('input[name="clock-increment"]', "0")
    black.press('input[name="clock-increment"]', "Tab")
    black.click('.seat-row[data-seat="1"] [data-kind="human"]')
    black.click("#create-game")
    invite = black.locator("#invite .link-row.seat").get_attribute("data-url")
    black.click("#play-first")
    white = open_page(invite)  # a game starts once every seat is taken
    my_turn(black)
    # Each clock starts with its player's first move: none runs yet.
    for seat in (0, 1):
        expect(black.locator(f'.player[data-seat="{seat}"] .clock')).to_have_text("5:00")
    expect(black.locator(".clock.running")).to_have_count(0)
    # Broadside: pick two marbles in a line, then one of the cells they move to.
    black.click('[data-cell="b1"]')
    black.click('[data-cell="b2"]')
    expect(black.locator("g.target")).to_have_count(2)
    black.click('g.target[data-cell="c1"]')
    assert wait_moves(black, 1) == ["b1b2c1"]
    my_turn(white)
    white.fill("#notation", "g5f4")
    white.press("#notation", "Enter")
    wait_moves(black, 2)
    running = black.locator('.player[data-seat="0"] .clock.running')
    expect(running).to_have_text(re.compile(r"^\d:\d\d$"))
    expect(running).not_to_have_text(running.inner_text())  # it counts down
    shots(black, "abalone-clocks")
    href = black.locator("#rules-link").get_attribute("href")
    assert href == "/static/rules/abalone.html"
    rules = open_page(server.base + href)
    expect(rules.locator("h1")).to_have_text("Abalone")
    expect(rules.locator('link[rel="icon"]')).to_have_attribute("href", re.compile(r"^data:image/svg\+xml,"))
    expect(rules.locator("main")).to_contain_text("Sumito")


def test_replay_result_and_rematch(open_page: OpenPage, server: Any, shots: Any) -> None:
    # Public: only public games are listed in the lobby, finished ones too.
    black, _, _ = create_from_lobby(open_page, server, "abalone", ["human", "ai:random"], public=True)
    my_turn(black)
    black.click('[data-cell="a1"]')
    black.click('g.target[data-cell="d4"]')
    wait_moves(black, 2)  # the AI answered
    my_turn(black)
    black.once("dialog", lambda dialog: dialog.accept())
    black.click("#resign")
    expect(black.locator("#result-box")).to_contain_text("Black resigned")
    shots(black, "result")

    black.click("#replay")
    expect(black.locator("#replay-bar .ply")).to_have_text("2 / 2")
    black.click("#replay-first")
    expect(black.locator("#replay-bar .ply")).to_have_text("0 / 2")
    expect(black.locator('[data-cell="a1"] [data-marble="black"]')).to_have_count(1)
    black.click("#replay-next")
    expect(black.locator("#replay-bar .ply")).to_have_text("1 / 2")
    expect(black.locator('[data-cell="a1"] [data-marble]')).to_have_count(0)
    expect(black.locator('#moves .m.cur[data-ply="1"]')).to_have_text(re.compile("a1b2"))
    shots(black, "replay")
    black.click("#replay-exit")

    # The lobby lists the finished game; its replay opens straight in replay mode.
    old = game_id(black.url)
    lobby = open_page(server.base + "/#finished")
    lobby.click(f'#finished tr[data-id="{old}"] a')
    expect(lobby.locator("#status")).to_have_text("Replay · ply 2 of 2")

    black.click("#rematch")
    black.wait_for_url(re.compile(r"/play/(?!" + re.escape(old) + r")[^?#]+#seat=1$"))
    black.wait_for_selector("[data-cell]")
    expect(black.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)


# -- Chinese Checkers --------------------------------------------------------------------------


def test_chinese_checkers_clicks_and_rotation(open_page: OpenPage, server: Any, shots: Any) -> None:
    red, links, _ = create_from_lobby(open_page, server, "chinese-checkers", ["human", "human"])
    blue = open_page(links[0])
    for turn, (mover, other) in enumerate([(red, blue), (blue, red), (red, blue)]):
        my_turn(mover)
        mover.locator("g[data-hole]:has(.piece.clickable)").first.click()
        target = mover.locator("g.target").first
        hole = target.get_attribute("data-hole")
        target.click()
        moves = wait_moves(other, turn + 1)
        assert moves[-1].endswith(f"-{hole}")
        expect(other.locator(f'g[data-hole="{hole}"] .piece')).to_have_count(1)
    # Each seat sees its own home at the bottom of the star.
    for page, me in ((red, 0), (blue, 1)):
        mine = page.locator(f'.piece[data-owner="{me}"]').first.bounding_box()
        theirs = page.locator(f'.piece[data-owner="{1 - me}"]').first.bounding_box()
        assert mine and theirs and mine["y"] > theirs["y"]
    shots(red, "chinese-checkers-red")
    shots(blue, "chinese-checkers-blue")


# -- Tellstones --------------------------------------------------------------------------------


def test_tellstones_hidden_stone_never_reaches_the_other_seat(open_page: OpenPage, server: Any,
                                                              shots: Any) -> None:
    first, links, spectator_url = create_from_lobby(open_page, server, "tellstones", ["human", "human"])
    seen: list[dict[str, Any]] = []  # every WebSocket message the opponent and the spectator receive
    second = open_page(links[0], frames=seen)
    spectator = open_page(spectator_url, frames=seen)
    my_turn(first)
    first.click('[data-pool="crown"]')
    first.click('g.target[data-slot="3"]')
    my_turn(second)
    expect(second.locator('[data-slot="3"][data-stone="crown"]')).to_have_count(1)
    second.click('[data-slot="3"]')
    second.click('[data-move="hide 3"]')
    my_turn(first)
    for page in (first, second, spectator):
        expect(page.locator('[data-slot="3"][data-stone="?"]')).to_have_count(1)
    first.click('[data-slot="3"]')
    first.click('[data-move="peek 3"]')
    expect(first.locator("#ts-revealed")).to_contain_text("crown")
    my_turn(second)
    # Only the peeker's page knows what the face-down stone is.
    for page in (second, spectator):
        assert "crown" not in board_html(page).lower()
    updates = [m for m in seen if m["type"] == "update"]
    hidden = [m for m in updates if m["view"]["lines"][0][2] == "?"]
    assert hidden and all(m["view"]["revealed"] is None for m in updates)
    # No history on the wire while the game runs: at most the newest move, and no list on the page.
    assert all(m["history"] is False and m["moves"] in ([], [m["last"]]) for m in updates)
    expect(spectator.locator("#moves .m[data-ply]")).to_have_count(0)
    assert not [m for m in hidden if "crown" in json.dumps(m["view"])]
    shots(first, "tellstones-peeker")
    shots(second, "tellstones-opponent")


# -- Sheng-Ke ----------------------------------------------------------------------------------


def test_shengke_hand_is_private(open_page: OpenPage, server: Any, shots: Any) -> None:
    frames: list[list[dict[str, Any]]] = [[], [], []]
    creator = open_page(server.base + "/?game=shengke", frames=frames[0])
    creator.wait_for_selector('.seat-row[data-seat="1"]')
    creator.click('.seat-row[data-seat="1"] [data-kind="human"]')
    creator.click("#create-game")
    invite = creator.locator("#invite .link-row.seat").get_attribute("data-url")
    spectator_url = server.base + str(creator.locator("#invite .link-row.spectator a").get_attribute("href"))
    creator.click("#play-first")
    pages = [creator, open_page(invite, frames=frames[1])]
    spectator = open_page(spectator_url, frames=frames[2])
    seat = next(i for _ in range(100) for i, p in enumerate(pages)
                if p.wait_for_timeout(50) or p.locator("#status").inner_text() == "Your move")
    mover, other = pages[seat], pages[1 - seat]
    for _ in range(3):  # element picks for sixes come before the cards are drawn
        if mover.locator("#sk-hand [data-hand]").count():
            break
        mover.locator("#sk-hand [data-move]").first.click()
        mover.wait_for_timeout(300)
    hand = mover.locator("#sk-hand [data-hand]")
    expect(hand.first).to_be_visible()
    names = [t.split(" · ")[0] for t in hand.evaluate_all("els => els.map(e => e.title)")]
    assert names
    for page in (other, spectator):
        expect(page.locator("#sk-hand [data-hand]")).to_have_count(0)
        html = board_html(page)
        assert not [n for n in names if n in html]
    shots(mover, "shengke-mover")
    shots(other, "shengke-other")

    placed = 0
    while mover.locator("#status").inner_text() == "Your move" and placed < 3:
        if mover.locator("#sk-hand [data-move]").count():
            mover.locator("#sk-hand [data-move]").first.click()
        else:
            mover.locator("#sk-hand [data-hand]:enabled").first.click()
            cell = mover.locator("g.target").first.get_attribute("data-cell")
            mover.locator("g.target").first.click()
            expect(other.locator(f'[data-cell="{cell}"] [data-card]')).to_have_count(1)
            placed += 1
        mover.wait_for_timeout(300)
    assert placed >= 1
    # Over the wire too: the other seat and the spectator never receive the mover's hand.
    for received in (frames[1 - seat], frames[2]):
        updates = [m for m in received if m["type"] == "update"]
        assert updates and all(m["view"]["players"][seat]["hand"] is None for m in updates)
    assert any(m["view"]["players"][seat]["hand"] for m in frames[seat] if m["type"] == "update")
    shots(spectator, "shengke-spectator")


# -- Kelighine ---------------------------------------------------------------------------------


def play_kelighine_turn(page: Page) -> None:
    my_turn(page)
    for _ in range(6):
        if page.locator("#status").inner_text() != "Your move":
            return
        buttons = page.locator("#kg-actions [data-move]")
        if buttons.count():
            buttons.first.click()
        else:
            page.locator("g.piece.clickable").first.click()
            targets = page.locator("g.target")
            if targets.count():
                targets.first.click()
            else:
                page.locator("#kg-actions [data-move]").first.click()
        page.wait_for_timeout(250)


@pytest.mark.parametrize("version", [1, 2])
def test_kelighine_turns_and_push_log(open_page: OpenPage, server: Any, shots: Any, version: int) -> None:
    one = open_page(server.base + "/?game=kelighine")
    one.wait_for_selector('.seat-row[data-seat="1"]')
    one.select_option('select[name="opt-version"]', str(version))
    expect(one.locator(".seat-row")).to_have_count(2)
    one.click('.seat-row[data-seat="1"] [data-kind="human"]')
    one.click("#create-game")
    invite = one.locator("#invite .link-row.seat").get_attribute("data-url")
    one.click("#play-first")
    two = open_page(invite)
    play_kelighine_turn(one)
    play_kelighine_turn(two)
    play_kelighine_turn(one)
    for page in (one, two):
        expect(page.locator("#log")).to_contain_text(re.compile("player 1 rolls", re.I))  # the side in the page's words
        assert any(not t.startswith("roll") for t in move_texts(page))
    shots(one, f"kelighine-v{version}")


# -- layout and reconnection ------------------------------------------------------------------


def test_phone_layout(open_page: OpenPage, server: Any, shots: Any) -> None:
    created = server.api("POST", "/api/games", {"game": "chinese-checkers", "seats": [{"kind": "human"}] * 2})
    page = open_page(server.base + created["url"], width=390, height=844)
    open_page(server.base + created["seats"][1]["url"])  # a game starts once every seat is taken
    my_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#board svg").bounding_box()
    assert box and box["width"] <= 390 and box["x"] >= 0
    page.locator("g[data-hole]:has(.piece.clickable)").first.click()
    page.locator("g.target").first.click()
    wait_moves(page, 1)
    shots(page, "phone")
    lobby = open_page(server.base + "/", width=390, height=844)
    lobby.wait_for_selector(".seat-row")
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390
    shots(lobby, "phone-lobby")
    lobby.click('.seat-row[data-seat="1"] [data-kind="human"]')
    lobby.click("#create-game")
    lobby.wait_for_selector("#invite")
    shots(lobby, "phone-lobby-invite")
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390


def test_clients_reconnect_after_server_restart(open_page: OpenPage, make_server: Any, tmp_path: Any) -> None:
    srv = make_server(tmp_path / "restart.sqlite")
    srv.start()
    try:
        created = srv.api("POST", "/api/games", {"game": "abalone", "seats": [{"kind": "human"}] * 2})
        black = open_page(srv.base + created["url"])
        white = open_page(srv.base + created["seats"][1]["url"])
        my_turn(black)
        black.click('[data-cell="a1"]')
        black.click('g.target[data-cell="d4"]')
        wait_moves(white, 1)
        srv.kill()
        expect(white.locator(".conn-banner")).to_be_visible()
        srv.start()
        expect(white.locator(".conn-banner")).to_be_hidden(timeout=20000)
        my_turn(white)
        white.click('[data-cell="g5"]')
        white.click('g.target[data-cell="f4"]')
        assert wait_moves(black, 2) == ["a1b2", "g5f4"]
    finally:
        srv.stop()


def test_the_pages_speak_traditional_chinese(open_page: OpenPage, server: Any, shots: Any) -> None:
    lobby = open_page(server.base + "/")
    lobby.wait_for_selector(".seat-row")
    expect(lobby.locator("#create h2")).to_have_text("Create a game")
    lobby.click("#lang")
    expect(lobby.locator("#create h2")).to_have_text("開新棋局")
    expect(lobby.locator("#create-game")).to_have_text("建立棋局")
    expect(lobby.locator(".topbar nav a").first).to_have_text("對弈")
    lobby.click('.seat-row[data-seat="1"] [data-kind="human"]')
    lobby.click("#create-game")
    expect(lobby.locator("#invite h3")).to_have_text("棋局已建立")
    shots(lobby, "lobby-zh")
    lobby.click("#play-first")
    expect(lobby.locator("#status")).to_have_text("等待所有棋手入座")  # the invited player has not come yet
    expect(lobby.locator("#invite-panel header")).to_have_text("邀請")
    shots(lobby, "game-zh")
    lobby.click("#lang")
    expect(lobby.locator("#status")).to_have_text("Waiting for every player to take their seat")
