"""End-to-end: the table around the board. Two browsers play Abalone with chat, a takeback, draw
offers and a reload; a spectator sees neither the players' chat nor the offer buttons; timed games
abort or end on time; a wrong seat key or an unknown game gives a clear page; replay links open a
position. Also measures how long a move takes to reach the other browser
(artifacts/e2e/move-latency.json; no assertion on it)."""

from __future__ import annotations

import io
import json
import math
import re
import statistics
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

import qipan
from tests.e2e.conftest import ARTIFACTS, Server

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]

CONTROLS = "button, a.btn, input, select, summary"

# A server whose first-move window is short, so a test can watch a game abort.
SHORT_WINDOW = 4.0
SHORT_SCRIPT = f"""
import sys, uvicorn
import qipan.core.clock
qipan.core.clock.FIRST_MOVE_WINDOW = {SHORT_WINDOW}
from qipan.server.app import create_app
from qipan.server.limits import Limits
limits = Limits(create_rate=None, join_rate=None, message_rate=None, client_connections=0)
app = create_app(sys.argv[1], ai_delay=0.05, limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


@pytest.fixture(scope="module")
def short_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("short") / "qipan.sqlite", script=SHORT_SCRIPT)
    srv.start()
    yield srv
    srv.stop()


def my_turn(page: Page) -> None:
    expect(page.locator("#status")).to_have_text("Your move")


def move_count(page: Page, count: int) -> None:
    expect(page.locator("#moves .m[data-ply]")).to_have_count(count)


def named(open_page: OpenPage, url: str, name: str, **kwargs: Any) -> Page:
    """Open ``url`` as a person whose browser keeps the nickname ``name``."""
    page = open_page(url, **kwargs)
    expect(page.locator(".tag.you")).to_have_count(1)  # the seat is kept (an invitation claimed)
    page.evaluate("name => localStorage.setItem('qipan.name', name)", name)
    page.reload()
    return page


def abalone_game(server: Server, **extra: Any) -> dict[str, Any]:
    created: dict[str, Any] = server.api("POST", "/api/games",
                                         {"game": "abalone", "seats": [{"kind": "human"}] * 2, **extra})
    return created


def play_typed(page: Page, move: str) -> None:
    """Make ``move`` through the notation box and its Play button."""
    page.fill("#notation", move)
    page.click("#move-input button[type=submit]")


def chat(page: Page, text: str) -> None:
    page.fill("#chat-input-players, #chat-input-spectators", text)
    page.press("#chat-input-players, #chat-input-spectators", "Enter")


def listen_for_sounds(page: Page) -> None:
    page.evaluate("""() => { window.heard = [];
        window.addEventListener('qipan-sound', (e) => window.heard.push(e.detail)); }""")


# -- two players, a spectator, chat, takeback, draws, reload --------------------------------------


def test_two_browsers_chat_takeback_draw_and_reload(open_page: OpenPage, server: Server, shots: Any) -> None:
    created = abalone_game(server)
    black = named(open_page, server.base + created["url"], "Mei")
    white = named(open_page, server.base + created["seats"][1]["url"], "Bo")
    spectator = open_page(server.base + created["url"].split("#")[0])
    for page in (black, white, spectator):
        expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")
        expect(page.locator('.player[data-seat="1"] .pname')).to_have_text("Bo")
        expect(page.locator('.player[data-seat="0"] .tag.side')).to_have_text(re.compile("black", re.I))
    listen_for_sounds(white)

    # The tab says whose turn it is.
    my_turn(black)
    expect(black).to_have_title(re.compile(r"^● Your move · Abalone · qipan$"))
    expect(white).to_have_title("Abalone · qipan")
    assert "3fb950" in (black.locator('link[rel="icon"]').get_attribute("href") or "")
    black.click('[data-cell="a1"]')
    black.click('g.target[data-cell="d4"]')
    move_count(white, 1)
    my_turn(white)
    expect(white).to_have_title(re.compile(r"^● Your move"))
    expect(black).to_have_title("Abalone · qipan")
    assert "3fb950" in (white.locator('link[rel="icon"]').get_attribute("href") or "")
    assert "3fb950" not in (black.locator('link[rel="icon"]').get_attribute("href") or "")
    white.wait_for_function("() => window.heard.includes('move') && window.heard.includes('turn')")

    # Chat both ways, with nicknames; the spectator reads none of it (a normal game).
    chat(black, "good luck, Bo")
    expect(white.locator("#chat-players .chat-lines li")).to_have_text([re.compile(r"Mei:\s*good luck, Bo")])
    chat(white, "thanks — you too")
    expect(black.locator("#chat-players .chat-lines li").last).to_contain_text("Bo: thanks — you too")
    expect(black.locator("#chat-input-players")).to_have_attribute("maxlength", "300")
    expect(spectator.locator("#chat-players")).to_have_count(0)
    expect(spectator.locator("#chats")).not_to_contain_text("good luck")
    for control in ("#offer-takeback", "#offer-draw", "#abort", "#resign", "#notation"):
        expect(spectator.locator(control)).to_have_count(0)
    # The spectator may turn the board: black's corner goes from the bottom to the top.
    corner = spectator.locator('[data-cell="a1"]')
    low = corner.bounding_box()
    spectator.click("#flip")
    spectator.wait_for_function("y => document.querySelector('[data-cell=\"a1\"]').getBoundingClientRect().y < y",
                                arg=(low or {"y": 0})["y"] - 100)
    expect(black.locator("#flip")).to_have_count(0)
    # A click on a board that takes no move says why.
    spectator.click('[data-cell="e5"]')
    expect(spectator.locator("#board-status")).to_have_text("You are watching this game.")
    black.click('[data-cell="e5"]')
    expect(black.locator("#board-status")).to_have_text("It is not your move yet.")

    # White moves, then asks to take it back; black accepts.
    white.click('[data-cell="g5"]')
    white.click('g.target[data-cell="f4"]')
    move_count(black, 2)
    expect(white.locator("#offer-takeback")).to_be_enabled()
    white.click("#offer-takeback")
    expect(white.locator('.offer.mine[data-offer="takeback"]')).to_be_visible()
    expect(black.locator('.offer.theirs[data-offer="takeback"]')).to_contain_text("Bo asks to take back")
    expect(spectator.locator("#accept-takeback")).to_have_count(0)
    shots(black, "table-takeback-offer")
    black.click("#accept-takeback")
    for page in (black, white, spectator):
        move_count(page, 1)
    expect(white.locator("#offer-note")).to_have_text("The move was taken back.")
    my_turn(white)
    white.click('[data-cell="g5"]')
    white.click('g.target[data-cell="f4"]')
    move_count(black, 2)

    # A draw offer declined: the offerer is told, and cannot repeat it before moving again.
    my_turn(black)
    black.click("#offer-draw")
    expect(white.locator('.offer.theirs[data-offer="draw"]')).to_contain_text("Mei offers a draw")
    white.click("#decline-draw")
    expect(black.locator("#offer-note")).to_have_text("Your draw offer was declined.")
    expect(black.locator("#offer-draw")).to_be_disabled()

    # A reload keeps the chat and the position.
    white.reload()
    move_count(white, 2)
    expect(white.locator("#chat-players .chat-lines li")).to_have_count(2)
    expect(white.locator("#chat-players")).to_contain_text("good luck, Bo")
    expect(white.locator('[data-cell="d4"] [data-marble="black"]')).to_have_count(1)
    expect(white.locator('[data-cell="f4"] [data-marble="white"]')).to_have_count(1)

    # Paired move numbers in the list: "1. a1b2 g5f4".
    expect(black.locator("#moves.paired .n")).to_have_text(["1."])

    # The draw offered the other way is accepted.
    white.click("#offer-draw")
    black.click("#accept-draw")
    for page in (black, white, spectator):
        expect(page.locator("#result-box")).to_contain_text("Draw by agreement")
    expect(black.locator("#notation")).to_have_attribute("placeholder", "the game is over")
    # Once it is over, the players may download the record (JSON and text).
    href = black.locator("#record-json").get_attribute("href")
    assert href and href.endswith("/record?download=1")
    text = black.request.get(server.base + str(black.locator("#record-text").get_attribute("href")))
    assert text.ok and "a1b2" in text.text()
    shots(black, "table-draw-agreed")


def test_chat_refusals_are_shown_gently(open_page: OpenPage, server: Server) -> None:
    created = abalone_game(server)
    black = open_page(server.base + created["url"])
    expect(black.locator("#status")).to_have_text("Waiting for every player to take their seat")
    for i in range(7):  # more than the 5 per 10 s a connection may send
        chat(black, f"message {i}")
    expect(black.locator("#chat-players .chat-error")).not_to_be_empty()
    expect(black.locator(".toast")).to_have_count(0)
    # The refused text is given back to be sent later.
    expect(black.locator("#chat-input-players")).not_to_have_value("")


def test_the_nickname_goes_with_a_claim_and_a_rematch(open_page: OpenPage, server: Server) -> None:
    """A browser that keeps a nickname sends it when it takes a seat by an invitation and when it
    asks for a rematch (the server's default there is the name in the finished game)."""
    created = abalone_game(server)
    black = named(open_page, server.base + created["url"], "Mei")
    white = open_page(server.base + "/")
    white.evaluate("() => localStorage.setItem('qipan.name', 'Bo')")
    with white.expect_request(lambda request: request.url.endswith("/claim")) as claim:
        white.goto(server.base + created["seats"][1]["url"])
    assert claim.value.post_data_json["name"] == "Bo"
    expect(white.locator('.player[data-seat="1"] .pname')).to_have_text("Bo")
    my_turn(black)
    black.once("dialog", lambda dialog: dialog.accept())
    black.click("#resign")
    expect(white.locator("#result-box")).to_contain_text("Mei resigned")
    white.evaluate("() => localStorage.setItem('qipan.name', 'Bao')")  # no hello: the old game keeps Bo
    with white.expect_request(lambda request: request.url.endswith("/rematch")) as rematch:
        white.click("#rematch")
    assert rematch.value.post_data_json["name"] == "Bao"
    white.wait_for_url(re.compile(r"/play/(?!" + re.escape(created["id"]) + r")"))
    expect(white.locator(".player:has(.tag.you) .pname")).to_have_text("Bao")


# -- timed games ---------------------------------------------------------------------------------


def test_a_timed_game_without_first_moves_aborts(open_page: OpenPage, short_server: Server, shots: Any) -> None:
    created = abalone_game(short_server, clock={"base": 60, "increment": 0})
    black = open_page(short_server.base + created["url"])
    white = open_page(short_server.base + created["seats"][1]["url"])
    my_turn(black)
    countdown = black.locator("#abort-countdown")
    expect(countdown).to_contain_text("Make your first move within")  # the player who must move
    expect(white.locator("#abort-countdown")).to_contain_text(re.compile(r"Aborted in .* unless Black makes"))
    expect(black.locator("#abort")).to_be_visible()
    shots(black, "table-abort-countdown")
    for page in (black, white):
        expect(page.locator("#result-box")).to_contain_text("Game aborted", timeout=SHORT_WINDOW * 1000 + 10000)
    expect(countdown).to_be_hidden()

    # A player may abort too, while a first move is missing.
    created = abalone_game(short_server, clock={"base": 60, "increment": 0})
    black = open_page(short_server.base + created["url"])
    white = open_page(short_server.base + created["seats"][1]["url"])
    my_turn(black)
    black.click("#abort")
    expect(white.locator("#result-box")).to_contain_text("Game aborted")
    expect(black.locator("#result-box")).to_contain_text("Game aborted")


def test_the_abort_countdown_follows_the_servers_clock(open_page: OpenPage, server: Server) -> None:
    """A computer whose clock is an hour fast still counts down the minute the server gives (the
    update's ``now``), not zero."""
    created = abalone_game(server, clock={"base": 300, "increment": 0})
    black = open_page(server.base + created["url"])
    open_page(server.base + created["seats"][1]["url"])
    my_turn(black)
    black.context.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 3600e3; })()")
    black.reload()
    my_turn(black)
    assert black.evaluate("() => Date.now() - new Date().getTime()") > 3500e3  # the page's clock is off
    expect(black.locator("#abort-countdown")).to_contain_text(re.compile(r"\b(0:[2-5]\d|1:00)\b"))  # not 0:00.0


def test_a_timed_game_ends_on_time(open_page: OpenPage, server: Server, shots: Any) -> None:
    created = abalone_game(server, clock={"base": 3, "increment": 0})
    black = open_page(server.base + created["url"])
    white = open_page(server.base + created["seats"][1]["url"])
    my_turn(black)
    expect(black.locator('.player[data-seat="0"] .clock')).to_have_text("0:03.0")
    play_typed(black, "a1b2")
    my_turn(white)
    listen_for_sounds(black)
    play_typed(white, "i5h5")
    # Black's clock runs now (black has moved before) and falls, with a warning.
    expect(black.locator('.player[data-seat="0"] .clock.low')).to_be_visible()
    black.wait_for_function("() => window.heard.includes('lowtime')")
    for page in (black, white):
        expect(page.locator("#result-box")).to_contain_text("Black lost on time · White wins", timeout=15000)
    expect(black.locator('.player[data-seat="0"] .clock')).to_have_text("0:00.0")
    shots(black, "table-lost-on-time")


def test_round_table_talk_is_heard_by_everyone(open_page: OpenPage, server: Server) -> None:
    created = server.api("POST", "/api/games", {"game": "tellstones", "variant": "round-table",
                                                "seats": [{"kind": "human"}] * 4})
    player = open_page(server.base + created["url"])
    spectator = open_page(server.base + created["url"].split("#")[0])
    expect(player.locator("#chat-players header")).to_have_text("Table talk: heard by everyone, spectators too")
    chat(player, "I think it is the crown")
    expect(spectator.locator("#chat-players header")).to_have_text("Table talk: heard by everyone, spectators too")
    expect(spectator.locator("#chat-players .chat-lines li")).to_contain_text(["I think it is the crown"])
    expect(spectator.locator("#chat-players input")).to_have_count(0)  # spectators write in their own chat
    expect(spectator.locator("#chat-input-spectators")).to_be_visible()


# -- refusals ------------------------------------------------------------------------------------


def test_a_wrong_seat_key_watches_and_an_unknown_game_says_so(open_page: OpenPage, server: Server,
                                                                shots: Any) -> None:
    created = abalone_game(server)
    page = open_page(server.base + created["url"].split("#")[0] + "#seat=0&token=not-the-token")
    expect(page.locator(".toast")).to_contain_text("was not accepted")
    expect(page.locator("#watching")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Waiting for every player to take their seat")
    expect(page.locator("#resign")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('qipan.game.' + location.pathname.split('/').pop())") \
        .find("not-the-token") == -1
    assert "token" not in page.url
    shots(page, "table-wrong-token")

    missing = open_page(server.base + "/play/no-such-game")
    expect(missing.locator("#game-notice h2")).to_have_text("No such game")
    expect(missing.locator("#status")).to_have_count(0)
    shots(missing, "table-no-such-game")


@pytest.mark.parametrize(("code", "error", "shown"), [
    (4404, "no game 'x' here", "No such game"),
    (4409, "this game is set aside: its record cannot be read", "this game is set aside: its record cannot be read"),
    (4408, "no hello within 5 seconds", "The server closed the connection: no hello within 5 seconds"),
])
def test_a_socket_closed_for_good_says_why(open_page: OpenPage, server: Server, code: int, error: str,
                                          shown: str) -> None:
    created = abalone_game(server)
    page = open_page(server.base + created["url"])
    expect(page.locator(".tag.you")).to_have_count(1)

    def refuse(ws: Any) -> None:  # the server's answer to the hello, as socket.py sends it
        def on_message(_: Any) -> None:
            ws.send(json.dumps({"type": "error", "error": error}))
            ws.close(code=code)
        ws.on_message(on_message)

    page.route_web_socket(re.compile(r"/ws/games/"), refuse)
    page.reload()
    expect(page.locator("#app")).to_contain_text(shown)
    expect(page.locator("#resign")).not_to_be_visible()
    if code == 4408:
        expect(page.locator("#status")).to_contain_text(shown)
        expect(page.locator("#reconnect")).to_be_visible()
    else:
        expect(page.locator("#game-notice")).to_be_visible()


# -- replay links ----------------------------------------------------------------------------------


def finished_game(server: Server, open_page: OpenPage) -> tuple[Page, str]:
    created = abalone_game(server)
    black = open_page(server.base + created["url"])
    white = open_page(server.base + created["seats"][1]["url"])
    for page, move in ((black, "a1b2"), (white, "i5h5"), (black, "b1c2")):
        my_turn(page)
        play_typed(page, move)
    move_count(white, 3)
    white.once("dialog", lambda dialog: dialog.accept())
    white.click("#resign")
    expect(black.locator("#result-box")).to_contain_text("White resigned · Black wins")
    return black, created["id"]


def test_replay_ply_links_icons_and_hover(open_page: OpenPage, server: Server, shots: Any) -> None:
    black, game = finished_game(server, open_page)
    # A link to a position opens it.
    viewer = open_page(f"{server.base}/play/{game}#ply=1")
    expect(viewer.locator("#replay-bar .ply")).to_have_text("1 / 3")
    # A finished game's replay has no way back to a live game: no exit button, and no "null" in its place.
    expect(viewer.locator("#replay-exit")).to_have_count(0)
    for text in (viewer.locator("#replay-bar").text_content() or "", viewer.locator("main").text_content() or ""):
        assert not re.search(r"\b(null|undefined|NaN)\b", text), text
    expect(viewer.locator('#moves .m.cur[data-ply="1"]')).to_have_text(re.compile("a1b2"))
    expect(viewer.locator('[data-cell="d4"] [data-marble="black"]')).to_have_count(1)
    viewer.click("#replay-next")
    expect(viewer.locator("#replay-bar .ply")).to_have_text("2 / 3")
    assert viewer.url.endswith("#ply=2")
    viewer.keyboard.press("ArrowLeft")
    expect(viewer.locator("#replay-bar .ply")).to_have_text("1 / 3")
    assert viewer.url.endswith("#ply=1")
    # The buttons are drawn icons with names, not font glyphs.
    for button, name in (("#replay-first", "start"), ("#replay-prev", "previous move"), ("#replay-next", "next move"),
                         ("#replay-last", "end")):
        expect(viewer.locator(f"{button} svg path")).to_have_count(1)
        expect(viewer.locator(button)).to_have_attribute("aria-label", name)
        assert viewer.locator(button).inner_text().strip() == ""
    # Hovering the current move keeps it legible (white on dark blue), on both themes.
    for scheme in ("light", "dark"):
        viewer.emulate_media(color_scheme=scheme)
        current = viewer.locator('#moves .m.cur[data-ply="1"]')
        current.hover()
        colours = current.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert colours == ["rgb(255, 255, 255)", "rgb(29, 99, 176)"], (scheme, colours)
    shots(viewer, "table-replay-ply")

    # A player's own page keeps its seat beside the position: #seat=0&ply=2.
    black.goto(f"{server.base}/play/{game}#ply=2")
    expect(black.locator("#replay-bar .ply")).to_have_text("2 / 3")
    assert black.url.endswith("#seat=0&ply=2")
    expect(black.locator('.player[data-seat="0"] .tag.you')).to_have_count(1)


# -- sound and layout ------------------------------------------------------------------------------


def luminance(rgb: tuple[int, ...]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_black_and_white_swatches_read_as_filled_discs(open_page: OpenPage, server: Server) -> None:
    """A black seat's swatch looked hollow on the dark theme (a ring round a fill the colour of the
    panel), and a white one on the light theme. Each disc now shows itself inside its edge (shading)
    and its edge stands out from the panel, on both themes."""
    created = abalone_game(server)
    page = open_page(server.base + created["url"])
    expect(page.locator(".player .swatch")).to_have_count(2)
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        for seat in (0, 1):
            swatch = page.locator(f'.player[data-seat="{seat}"] .swatch')
            box = swatch.bounding_box()
            assert box is not None
            shot = Image.open(io.BytesIO(page.screenshot(clip={
                "x": box["x"] - 4, "y": box["y"] - 4, "width": box["width"] + 8, "height": box["height"] + 8})))
            pixels = shot.convert("RGB").load()
            scale = shot.width / (box["width"] + 8)
            cx, cy, r = shot.width / 2, shot.height / 2, box["width"] / 2 * scale
            background = pixels[1, 1]
            ring = [pixels[x, y] for x in range(shot.width) for y in range(shot.height)
                    if r - 0.5 * scale <= math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r + 1.5 * scale]
            inside = [pixels[x, y] for x in range(shot.width) for y in range(shot.height)
                      if math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= 0.8 * r]
            where = f"seat {seat} on the {scheme} theme"
            assert max(contrast(p, background) for p in ring) >= 3, f"{where}: the edge does not stand out"
            assert max(contrast(p, background) for p in inside) >= 1.6, f"{where}: the disc looks hollow"


def test_mute_is_remembered(open_page: OpenPage, server: Server) -> None:
    created = abalone_game(server)
    black = open_page(server.base + created["url"])
    mute = black.locator("#mute")
    expect(mute).to_have_attribute("aria-pressed", "true")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "false")
    black.reload()
    expect(black.locator("#mute")).to_have_attribute("aria-pressed", "false")


def small_text_and_controls(page: Page) -> dict[str, list[str]]:
    """Text under 12 px and visible controls under 44 px (outside the board's drawing)."""
    found: dict[str, list[str]] = page.evaluate("""(controls) => {
        const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
        const small = [...document.querySelectorAll('body *')].filter((e) => !e.closest('svg')
            && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && visible(e)
            && parseFloat(getComputedStyle(e).fontSize) < 12).map((e) => e.tagName + ':' + e.textContent.slice(0, 30));
        const tiny = [...document.querySelectorAll(controls)].filter((e) => visible(e)
            && !e.closest('#board') && e.getBoundingClientRect().height < 44)
            .map((e) => e.tagName + '#' + e.id + ':' + e.textContent.slice(0, 30));
        return {small, tiny};
    }""", CONTROLS)
    return found


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_table_screenshots_desktop_and_phone(open_page: OpenPage, server: Server, shots: Any, language: str) -> None:
    created = abalone_game(server)
    suffix = "" if language == "en" else "-zh"
    pages = []
    for width, height, kind in ((1280, 800, "desktop"), (390, 844, "phone")):
        black = open_page(server.base + created["url"], width=width, height=height)
        black.evaluate("lang => localStorage.setItem('qipan.lang', lang)", language)
        black.reload()
        pages.append((black, kind))
    black = pages[0][0]
    white = open_page(server.base + created["seats"][1]["url"])
    expect(white.locator(".tag.you")).to_have_count(1)  # the invitation is claimed before the reload
    white.evaluate("lang => localStorage.setItem('qipan.lang', lang)", language)
    white.reload()
    play_typed(black, "a1b2")
    move_count(white, 1)
    chat(white, "你好 hello")
    white.click("#offer-draw")
    for page, kind in pages:
        expect(page.locator(".offer.theirs")).to_be_visible()
        expect(page.locator("#chat-players .chat-lines li")).to_have_count(1)
        shots(page, f"table-{kind}{suffix}")
        if language == "en":
            page.emulate_media(color_scheme="dark")
            shots(page, f"table-{kind}-dark")
        if kind == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            found = small_text_and_controls(page)
            assert found == {"small": [], "tiny": []}, found


# -- what a move costs ---------------------------------------------------------------------------


def test_move_latency_between_two_browsers(open_page: OpenPage, server: Server) -> None:
    """Time from the click on Play to the opponent's move list showing the move, over 20 moves
    (written to artifacts/e2e/move-latency.json; not asserted)."""
    created = abalone_game(server)
    pages = [open_page(server.base + created["url"]), open_page(server.base + created["seats"][1]["url"])]
    for page in pages:
        page.wait_for_selector("#moves")
        page.evaluate("""() => {
            window.clicks = []; window.arrivals = [];
            document.addEventListener('click', (e) => {
                if (e.target.closest('#move-input button[type=submit]')) {
                    window.clicks.push(performance.timeOrigin + performance.now());
                }
            }, true);
            const list = document.getElementById('moves');
            let seen = list.querySelectorAll('.m[data-ply]').length;
            new MutationObserver(() => {
                const n = list.querySelectorAll('.m[data-ply]').length;
                if (n > seen) window.arrivals.push([n, performance.timeOrigin + performance.now()]);
                seen = n;
            }).observe(list, { childList: true, subtree: true });
        }""")
    game = qipan.load("abalone")
    state = game.initial_state()
    latencies: list[float] = []
    for ply in range(20):
        mover, other = pages[ply % 2], pages[1 - ply % 2]
        my_turn(mover)
        move = game.legal_texts(state)[ply % 3]
        play_typed(mover, move)
        state = game.play(state, move)
        move_count(other, ply + 1)
        clicked = mover.evaluate("window.clicks.at(-1)")
        arrived = other.evaluate(f"window.arrivals.find(([n]) => n === {ply + 1})[1]")
        latencies.append(arrived - clicked)
    ordered: list[float] = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 1)

    report = {"moves": len(latencies), "unit": "ms", "p50": pct(50), "p90": pct(90), "max": round(ordered[-1], 1),
              "mean": round(statistics.mean(latencies), 1), "samples": [round(x, 1) for x in latencies]}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "move-latency.json").write_text(json.dumps(report, indent=1) + "\n")
    assert len(latencies) == 20 and all(x > 0 for x in latencies)
