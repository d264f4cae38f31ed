"""End-to-end: Abalone, Chinese Checkers and 食棋 played to their end by clicks against the AI, at
desktop and phone sizes, checking what the boards promise: animations that end where the pieces
stand, the last move marked (a jump chain drawn through every landing hole, as the engine finds
it), coordinates, destination marks that contrast with the holes on both themes, and a line
under the board that says what each click did.

The moves are chosen by qipan's own `easy` AI from the position the server sent the page (its
WebSocket frames); every move is made by clicking the board."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import qipan
from qipan.ai.agent import make_agent
from qipan.games.abalone.board import DIRECTIONS, ROWS

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SOUND = "([a, b]) => import('/static/boards/BOARD.js').then(m => m.moveSound(a, b))"


# -- helpers -----------------------------------------------------------------------------------------


def start(open_page: OpenPage, server: Any, game: str, size: str, *, variant: str | None = None,
          options: dict[str, Any] | None = None, human_seat: int = 0) -> tuple[Page, list[dict[str, Any]]]:
    """A game between this page's seat and the random AI, and the WebSocket frames it receives."""
    seats: list[dict[str, Any]] = [{"kind": "ai", "level": "random"}, {"kind": "ai", "level": "random"}]
    seats[human_seat] = {"kind": "human"}
    body: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
    if variant:
        body["variant"] = variant
    created = server.api("POST", "/api/games", body)
    assert created["seat"] == human_seat
    frames: list[dict[str, Any]] = []
    width, height = SIZES[size]
    page = open_page(server.base + created["url"], width=width, height=height, frames=frames)
    page.emulate_media(color_scheme="dark")
    page.wait_for_selector("#board svg g[data-cell], #board svg g[data-hole]")
    return page, frames


def latest(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return next(f for f in reversed(frames) if f.get("type") == "update")


def wait_turn(page: Page, frames: list[dict[str, Any]], seat: int, after: int = -1) -> dict[str, Any]:
    """Wait until it is ``seat``'s move (the board drawn with clickable pieces) or the game is over,
    after ply ``after``; returns the latest update. (The frames reach the test a little after the
    page, so the ply tells an old turn from a new one.)"""
    for _ in range(600):
        updates = [f for f in frames if f.get("type") == "update"]
        if updates and updates[-1]["ply"] > after:
            m = updates[-1]
            if m["result"]:
                return m
            if m["to_move"] == seat and m["legal"] and page.locator("#board .clickable").count():
                return m
        page.wait_for_timeout(50)
    raise AssertionError("the page never got its turn")


def settle(page: Page, update: dict[str, Any]) -> None:
    """Wait for the animation of the update's last move to finish."""
    svg = page.locator("#board svg")
    expect(svg).to_have_attribute("data-animated", f"{update['ply']} {update['last']['text']}")
    expect(svg).not_to_have_attribute("data-animating", re.compile(".*"))


def luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"[\d.]+", css)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def check_dot_contrast(page: Page, hole: str) -> None:
    """Destination dots against the board's holes, from the computed style, on both themes."""
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        dot = page.locator("#board .dest-dot").first.evaluate("e => getComputedStyle(e).fill")
        ring = page.locator("#board .dest-dot").first.evaluate("e => getComputedStyle(e).stroke")
        back = page.locator(f"#board {hole}").first.evaluate("e => getComputedStyle(e).fill")
        assert contrast(dot, back) >= 3, (scheme, dot, back)
        assert contrast(ring, dot) >= 3, (scheme, ring, dot)
    page.emulate_media(color_scheme="dark")


def centre(box: dict[str, float] | None) -> tuple[float, float]:
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def assert_fits(page: Page, size: str) -> None:
    width, height = SIZES[size]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("#board svg").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] <= height


def agent_move(game: Any, update: dict[str, Any], seat: int, rng: random.Random) -> str:
    state = game.state_from_json(update["view"]["state"])
    action = make_agent(game, "easy").choose(game, game.view(state, seat), rng)
    text: str = game.action_text(state, action)
    assert text in update["legal"]
    return text


# -- Abalone -----------------------------------------------------------------------------------------


def ab_step(cell: str, d: int) -> str | None:
    r, n = ROWS.index(cell[0]) + DIRECTIONS[d][0], int(cell[1]) + DIRECTIONS[d][1]
    on = 0 <= r <= 8 and max(1, r - 3) <= n <= min(9, r + 5)
    return f"{ROWS[r]}{n}" if on else None


def ab_clicks(move: str, own: set[str]) -> tuple[list[str], str | None]:
    """The marbles a player clicks for an Abalone move, and for an in-line move the cell ahead
    of its line (where its target is drawn)."""
    cells = re.findall(r"[a-i][1-9]", move)
    if len(cells) == 2:  # in-line: the trailing marble, then the cell ahead of the line
        d = next(i for i in range(6) if ab_step(cells[0], i) == cells[1])
        front, size = cells[0], 1
        while size < 3 and (nxt := ab_step(front, d)) in own:
            front, size = nxt, size + 1
        return [cells[0]], ab_step(front, d)
    a, b = cells[0], cells[1]  # broadside: every marble of the line
    axis = next(i for i in range(6) if b in (ab_step(a, i), ab_step(ab_step(a, i) or "a1", i)))
    line = [a]
    while line[-1] != b:
        nxt = ab_step(line[-1], axis)
        assert nxt
        line.append(nxt)
    return line, None


def check_marbles_in_place(page: Page, view: dict[str, Any]) -> None:
    """Every marble stands centred on its cell's hole, and no pushed-out marble is left over."""
    for colour in ("black", "white"):
        marbles = view["marbles"][colour]
        expect(page.locator(f"#board [data-marble={colour}]")).to_have_count(len(marbles))
        for cell in marbles[:4]:
            marble = centre(page.locator(f'[data-cell="{cell}"] .marble').bounding_box())
            hole = centre(page.locator(f'[data-cell="{cell}"] .ab-hole').bounding_box())
            assert abs(marble[0] - hole[0]) < 1 and abs(marble[1] - hole[1]) < 1, (cell, marble, hole)
    expect(page.locator("#board .ejected")).to_have_count(0)


def zh(page: Page) -> None:
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    page.wait_for_selector("#board svg g")


def en(page: Page) -> None:
    page.evaluate("localStorage.setItem('qipan.lang', 'en')")
    page.reload()
    page.wait_for_selector("#board svg g")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_abalone_to_the_end_by_clicks(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    # On the phone the player takes White (the AI opens), with the quiet-move rule on.
    seat = 0 if size == "desktop" else 1
    options = {} if size == "desktop" else {"quiet_move_limit": 200}
    page, frames = start(open_page, server, "abalone", size, options=options, human_seat=seat)
    game = qipan.load("abalone", options=options)
    me, them = ("black", "white") if seat == 0 else ("white", "black")
    rng = random.Random(11)
    update = wait_turn(page, frames, seat)
    assert_fits(page, size)
    board = page.locator("#abalone-board")
    # Coordinates on the rim: rows A-I and diagonals 1-9, as in the notation.
    labels = board.locator("text.coord").all_text_contents()
    assert sorted(labels) == sorted([*"ABCDEFGHI", *"123456789"])
    # Your own side is at the bottom (White's board is turned round).
    mine_y = centre(page.locator(f"[data-marble={me}]").first.bounding_box())[1]
    theirs_y = centre(page.locator(f"[data-marble={them}]").first.bounding_box())[1]
    assert mine_y > theirs_y
    # The quiet-move count shows only under that rule.
    expect(page.locator("#abalone-quiet")).to_have_count(0 if seat == 0 else 1)
    shots(page, f"abalone-start-{size}")

    # Every click says what it did; nothing resets silently.
    status = page.locator("#board-status")
    theirs = update["view"]["marbles"][them][0]
    page.click(f'[data-cell="{theirs}"]')
    expect(status).to_contain_text(f"{theirs} is a {them.capitalize()} marble, not yours")
    own = update["view"]["marbles"][me]
    page.click(f'[data-cell="{own[0]}"]')
    expect(status).to_contain_text(f"{own[0]} selected")
    page.click(f'[data-cell="{theirs}"]')
    expect(status).to_contain_text("your selection is kept")
    expect(page.locator(f'[data-cell="{own[0]}"] .selected')).to_have_count(1)
    page.click('[data-cell="e5"]')
    expect(status).to_contain_text("selection cleared")
    expect(page.locator("#board .selected")).to_have_count(0)

    moves = 0
    ejections = 0
    while not update["result"]:
        move = agent_move(game, update, seat, rng)
        own_set = set(update["view"]["marbles"][me])
        clicks, target = ab_clicks(move, own_set)
        for cell in clicks:
            page.click(f'[data-cell="{cell}"]')
        expect(status).to_contain_text("selected")
        if moves == 0:
            check_dot_contrast(page, ".ab-hole")
        destination = page.locator(f'g.target[data-move="{move}"]').first
        if target:
            expect(destination).to_have_attribute("data-cell", target)
        before = update["view"]
        destination.click()
        update = wait_turn(page, frames, seat, after=update["ply"])
        moves += 1
        settle(page, update)
        check_marbles_in_place(page, update["view"])
        # The last move is marked: a ring over each marble it moved, and an arrow.
        expect(page.locator("#board .last-moved").first).to_be_visible()
        expect(page.locator("#board .last-path")).to_have_count(1)
        out = sum(update["view"]["pushed_out"].values()) - sum(before["pushed_out"].values())
        if out and not ejections:
            sound = page.evaluate(SOUND.replace("BOARD", "abalone"), [before, update["view"]])
            assert sound == "capture"
        ejections += out
        if moves == 8:
            shots(page, f"abalone-mid-{size}")
            page.emulate_media(color_scheme="light")
            shots(page, f"abalone-mid-{size}-light")
            page.emulate_media(color_scheme="dark")
            zh(page)
            update = wait_turn(page, frames, seat)
            expect(status).to_contain_text("點選你的一顆棋子")
            expect(page.locator("#abalone-score")).to_contain_text("逐出")
            shots(page, f"abalone-mid-{size}-zh")
            en(page)
            update = wait_turn(page, frames, seat)
        assert moves < 200
    assert ejections >= 6
    assert update["result"]
    expect(page.locator(f'#abalone-score [data-score="{me}"]')).to_contain_text("6/6")
    shots(page, f"abalone-end-{size}")


# -- Chinese Checkers and 食棋 ---------------------------------------------------------------------


def check_pieces_in_place(page: Page, view: dict[str, Any], holes: list[str]) -> None:
    expect(page.locator("#board .piece")).to_have_count(len(view["pieces"]))
    for hole in holes:
        piece = centre(page.locator(f'[data-hole="{hole}"] .piece').bounding_box())
        spot = centre(page.locator(f'[data-hole="{hole}"] circle').first.bounding_box())
        assert abs(piece[0] - spot[0]) < 1 and abs(piece[1] - spot[1]) < 1, (hole, piece, spot)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("variant", ["standard", "capture"])
def test_chinese_checkers_to_the_end_by_clicks(open_page: OpenPage, server: Any, shots: Any, size: str,
                                               variant: str) -> None:
    capture = variant == "capture"
    name = "chinese-checkers-capture" if capture else "chinese-checkers"
    page, frames = start(open_page, server, "chinese-checkers", size, variant=variant)
    game = qipan.load("chinese-checkers", variant=variant)
    rng = random.Random(7)
    update = wait_turn(page, frames, 0)
    assert_fits(page, size)
    # Row letters at both ends of every row (食棋: the hexagon's rows e-m only).
    rows = "efghijklm" if capture else "abcdefghijklmnopq"
    labels = page.locator("#cc-board text.coord").all_text_contents()
    assert sorted(labels) == sorted(rows * 2)
    if capture:
        # The hexagon fills the board: its holes span most of the drawing's width.
        board = page.locator("#cc-board").bounding_box()
        left = centre(page.locator('[data-hole="i1"]').bounding_box())[0]
        right = centre(page.locator('[data-hole="i9"]').bounding_box())[0]
        assert board and right - left > 0.7 * board["width"]
        expect(page.locator('[data-hole="a1"]')).to_have_count(0)
    # Holes are at least 26 px apart on the phone (every tap picks its nearest hole).
    a = centre(page.locator('[data-hole="i5"] circle').first.bounding_box())
    b = centre(page.locator('[data-hole="i6"] circle').first.bounding_box())
    assert abs(b[0] - a[0]) >= (26 if size == "phone" else 40)
    shots(page, f"{name}-start-{size}")

    status = page.locator("#board-status")
    if not capture:
        theirs = next(h for h, p in update["view"]["pieces"].items() if p == 1)
        page.click(f'[data-hole="{theirs}"]', force=True)
        expect(status).to_contain_text(f"{theirs} is Blue's, not yours")
        page.click('[data-hole="a1"]', force=True)
        expect(status).to_contain_text("a1 cannot move now")

    moves = 0
    chains = 0
    while not update["result"]:
        move = agent_move(game, update, 0, rng)
        start_hole, end_hole = move.split("-")
        page.click(f'[data-hole="{start_hole}"]')
        expect(status).to_contain_text(f"{start_hole} selected")
        if moves == 0:
            check_dot_contrast(page, ".cc-hole:not(.named)")  # a dot's hole is never one with its name in
        page.click(f'g.target[data-hole="{end_hole}"]')
        before = update
        update = wait_turn(page, frames, 0, after=update["ply"])
        moves += 1
        last = update["last"]["text"]
        settle(page, update)
        check_pieces_in_place(page, update["view"], [h for h in {last.split("-")[-1], end_hole}
                                                     if h in update["view"]["pieces"]])
        # The last move is drawn through every hole the engine says it visits.
        state = game.state_from_json(update["view"]["state"])
        path = game.move_path(state, game.parse_action(state, last))
        expect(page.locator("#board .last-path")).to_have_attribute("data-path", "-".join(path))
        if len(path) > 2:
            chains += 1
            expect(status).to_contain_text(f"{len(path) - 1} jumps in a row")
            if chains == 1:
                shots(page, f"{name}-chain-{size}")
        if capture and moves == 1:
            sound = page.evaluate(SOUND.replace("BOARD", "chinese-checkers"), [before["view"], update["view"]])
            assert sound == "capture"
        if moves == 6:
            shots(page, f"{name}-mid-{size}")
            page.emulate_media(color_scheme="light")
            shots(page, f"{name}-mid-{size}-light")
            page.emulate_media(color_scheme="dark")
            zh(page)
            update = wait_turn(page, frames, 0)
            expect(status).to_contain_text("點選")
            shots(page, f"{name}-mid-{size}-zh")
            en(page)
            update = wait_turn(page, frames, 0)
        assert moves < 200
    if not capture:
        assert chains, "no multi-jump was played"
        assert update["view"]["finished"] == [0]
    shots(page, f"{name}-end-{size}")


def test_reduced_motion_draws_moves_at_once(open_page: OpenPage, server: Any) -> None:
    page, frames = start(open_page, server, "chinese-checkers", "phone")
    page.emulate_media(reduced_motion="reduce")
    start_hole, end_hole = wait_turn(page, frames, 0)["legal"][0].split("-")
    page.click(f'[data-hole="{start_hole}"]')
    page.click(f'g.target[data-hole="{end_hole}"]')
    expect(page.locator("#board svg")).to_have_attribute("data-animated", re.compile(r"^\d+ [a-q]\d+-[a-q]\d+$"))
    assert page.locator("#board svg").get_attribute("data-animating") is None
