"""Kelighine, Sheng-Ke and Tellstones in the browser: each game played to its end by clicks
against the AI at desktop and phone sizes (screenshots at the start, middle and end, in
English and 繁體中文), and the board modules drawn from positions the rules engine reaches, to
check what a player sees: J and a pushed piece in Kelighine, the last placements and destroyed
cards in Sheng-Ke, SVG symbols and phone-sized stones in Tellstones. Any console error fails."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import qipan
from qipan.core.game import CHANCE

pytestmark = pytest.mark.e2e

DESKTOP = (1280, 800)
PHONE = (390, 844)
RARE_GLYPHS = "⛨⚔⚑♞⚒⚖♛⚀⚁⚂⚃⚄⚅✓⏮⏭"


@pytest.fixture
def page_at(open_page: Callable[..., Page]) -> Iterator[Callable[..., Page]]:
    """``open_page`` that also fails the test on any console error (a NaN attribute, a failed
    module, a missing resource)."""
    errors: list[str] = []

    def open_(url: str, size: tuple[int, int] = DESKTOP, lang: str = "en",
              frames: list[dict[str, Any]] | None = None) -> Page:
        page = open_page(url, width=size[0], height=size[1], frames=frames)
        page.on("console", lambda msg: errors.append(f"{url}: {msg.text}") if msg.type == "error"
                # The rules pages (used here as a bare page) have no icon, so Chromium asks for one.
                and not msg.location.get("url", "").endswith("/favicon.ico") else None)
        if lang != "en":
            set_language(page, lang)
        return page

    yield open_
    assert not errors, f"console errors: {errors}"


def set_language(page: Page, lang: str) -> None:
    page.evaluate("lang => localStorage.setItem('qipan.lang', lang)", lang)
    page.reload()


# -- positions from the rules engine, drawn by the board module alone ----------------------------


def walk(game: Any, seed: int, stop: Callable[[Any], bool], limit: int = 5000) -> tuple[Any, list[dict[str, Any]]]:
    """Play random moves from the start until ``stop(state)``; the state and its move list."""
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    for _ in range(limit):
        if stop(state):
            return state, moves
        if game.is_terminal(state):
            break
        mover = game.to_move(state)
        action = game.sample_chance(state, rng) if mover == CHANCE else rng.choice(list(game.legal_actions(state)))
        moves.append({"ply": len(moves) + 1, "player": -1 if mover == CHANCE else mover,
                      "text": game.public_action_text(state, action, None)})
        state = game.apply(state, action)
    raise AssertionError("no such position within the limit")


def find(game: Any, stop: Callable[[Any], bool]) -> tuple[Any, list[dict[str, Any]]]:
    for seed in range(300):
        try:
            return walk(game, seed, stop)
        except AssertionError:
            continue
    raise AssertionError("no seed reaches the position")


def draw_board(page: Page, game: str, msg: dict[str, Any], seat: int | None, interactive: bool = False,
               fresh: bool = False, suggest: str | None = None) -> None:
    """Draw ``msg`` with boards/<game>.js on a bare page (``window.submitted`` collects moves);
    ``suggest``: a move to draw as the engine's (ctx.suggest)."""
    page.evaluate("""async ([game, msg, seat, interactive, fresh, suggest]) => {
        if (!document.querySelector('link[href="/static/css/style.css"]')) {
            const css = Object.assign(document.createElement("link"),
                                      {rel: "stylesheet", href: "/static/css/style.css"});
            document.head.append(css);
            await new Promise((ok) => css.addEventListener("load", ok));
        }
        const module = await import(`/static/boards/${game}.js`);
        document.body.innerHTML = '<main><div class="play"><div class="board-col">'
          + '<div class="board-wrap" id="board"></div><div class="board-extra" id="board-extra"></div>'
          + '</div></div></main>';
        window.submitted = [];
        const board = module.create(document.getElementById("board"), document.getElementById("board-extra"), {seat});
        const submit = (text) => window.submitted.push(text);
        board.render(msg, {seat, orientation: seat ?? 0, interactive, fresh, submit, suggest});
    }""", [game, msg, seat, interactive, fresh, suggest])


def update(game: Any, state: Any, seat: int | None, moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    mover = game.to_move(state)
    return {"type": "update", "first": 0, "moves": moves or [], "ply": len(moves or []),
            "view": game.view(state, seat), "legal": game.legal_texts(state) if mover == seat else [],
            "to_move": "chance" if mover == CHANCE else mover, "last": (moves or [None])[-1],
            "seats": [{"seat": i, "name": f"P{i + 1}", "kind": "human"} for i in range(game.num_players)]}


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_kelighine_piece_on_j_is_drawn_at_the_centre(page_at: Any, server: Any) -> None:
    """Defect 3: a piece on J was drawn at NaN (console errors) and the winner misplaced."""
    game = qipan.load("kelighine", None, {"version": 1})
    state, moves = find(game, game.is_terminal)
    page = page_at(server.base + "/static/rules/kelighine.html")
    draw_board(page, "kelighine", update(game, state, None, moves), None)
    winner = page.locator('g.piece[data-cell="J"]')
    expect(winner).to_have_count(1)
    x, y = centre(page, 'g.piece[data-cell="J"]')
    cx, cy = centre(page, "#board svg")
    assert abs(x - cx) < 25 and abs(y - cy) < 25
    assert "NaN" not in page.inner_html("#board")


def test_kelighine_pushed_piece_stays_visible_while_its_owner_chooses(page_at: Any, server: Any) -> None:
    """Defect 4: while the owner chose where a pushed piece goes, the piece vanished."""
    game = qipan.load("kelighine", None, {"version": 1})
    state, moves = find(game, lambda st: game.view(st, None)["phase"] == "push"
                        and len(game.view(st, None)["pending_push"]["options"]) > 1)
    owner = game.to_move(state)
    msg = update(game, state, owner, moves)
    origin = msg["view"]["pending_push"]["from"]
    page = page_at(server.base + "/static/rules/kelighine.html", PHONE)
    draw_board(page, "kelighine", msg, owner, interactive=True)
    expect(page.locator(f'g.piece.pending[data-cell="{origin}"]')).to_be_visible()
    expect(page.locator("#kg-actions .label")).to_contain_text(f"pushed piece from {origin}")
    target = msg["view"]["pending_push"]["options"][0]
    page.locator(f'g.target[data-cell="{target}"]').click()
    assert page.evaluate("window.submitted") == [f"push:{target}"]


def test_kelighine_double_ones_shows_the_dice_and_faces_explain_themselves(page_at: Any, server: Any) -> None:
    game = qipan.load("kelighine", None, {"version": 2})
    state, moves = find(game, lambda st: game.view(st, None)["phase"] == "ones")
    seat = game.to_move(state)
    page = page_at(server.base + "/static/rules/kelighine.html")
    draw_board(page, "kelighine", update(game, state, seat, moves), seat, interactive=True)
    expect(page.locator("#kg-actions .kg-dice svg")).to_have_count(2)
    expect(page.locator("#kg-actions .label")).to_have_text("double 1: choose how to use it")
    expect(page.locator('#kg-actions [data-move="ones:four"]')).to_have_text("use four 1s")
    expect(page.locator('#kg-legend [data-face="6"]')).to_contain_text("no ring completed yet")
    expect(page.locator('#kg-legend [data-face="1"]')).to_contain_text("ring A completed")
    face = page.locator("g.piece title").first.text_content() or ""
    assert re.search(r"rings? [A-C][^·]* completed|no ring completed", face), face  # the face in words
    set_language(page, "zh-Hant")
    draw_board(page, "kelighine", update(game, state, seat, moves), seat, interactive=True)
    expect(page.locator('#kg-legend [data-face="6"]')).to_contain_text("尚未繞行完任何一階")
    expect(page.locator('#kg-actions [data-move="ones:reroll"]')).to_have_text("重新擲骰")


def test_shengke_last_placements_drawn_over_the_cards_text_upright_and_destroyed_cards_explained(
        page_at: Any, server: Any) -> None:
    """Defects 5 and 9."""
    game = qipan.load("shengke")

    def after_destruction(st: Any) -> bool:
        view = game.view(st, 0)
        gone = [e for e in view["events"] if e["kind"] in ("行剋", "剋行")
                and not view["field"].get(e["other_cell"] if e["kind"] == "行剋" else e["cell"])]
        return bool(gone) and view["phase"] == "roll" and view["current"] == 0 and view["turn"] > 1

    state, moves = find(game, after_destruction)
    page = page_at(server.base + "/static/rules/shengke.html")
    draw_board(page, "shengke", update(game, state, 0, moves), 0)
    opponent = [m["text"].split("@")[1] for m in moves if m["player"] == 1 and "@" in m["text"]]
    last_turn = []
    for mv in reversed(moves):
        if mv["player"] == 1 and "@" in mv["text"]:
            last_turn.append(mv["text"].split("@")[1])
        elif last_turn and mv["player"] != 1:
            break
    field = game.view(state, 0)["field"]
    marked = page.locator("[data-last]").evaluate_all("els => els.map(e => e.dataset.last)")
    assert opponent and sorted(marked) == sorted(c for c in last_turn if c in field)
    # Every mark comes after (is painted over) its cell's card.
    assert page.evaluate("""() => [...document.querySelectorAll('[data-last]')].every((mark) => {
        const card = document.querySelector(`[data-cell="${mark.dataset.last}"] [data-card]`);
        return card && (card.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING);
    })""")
    assert "rotate" not in page.inner_html("#board")
    ghost = page.locator("g.destroyed").first
    expect(ghost).to_have_count(1)
    assert "destroyed" in (ghost.locator("title").text_content() or "")
    expect(page.locator("#sk-legend")).to_contain_text("destroyed in the last resolution")
    # An opponent's card reads the right way up: its name lies below its element character.
    card = page.locator('[data-owner="1"] .sk-card').first
    texts = card.locator("text").evaluate_all("els => els.map(e => e.getBoundingClientRect().y)")
    assert texts[0] < texts[1]
    set_language(page, "zh-Hant")
    draw_board(page, "shengke", update(game, state, 0, moves), 0)
    expect(page.locator("#sk-legend")).to_contain_text("打叉的淡色卡")


def test_shengke_move_sound_says_capture_for_a_destroyed_card(page_at: Any, server: Any) -> None:
    game = qipan.load("shengke")

    def field(st: Any) -> dict[str, Any]:
        cards: dict[str, Any] = game.view(st, 0)["field"]
        return cards

    def steps(seed: int) -> Iterator[tuple[Any, Any]]:
        """Every (before, after) pair of one random game."""
        rng, state = random.Random(seed), game.initial_state()
        while not game.is_terminal(state):
            mover = game.to_move(state)
            action = game.sample_chance(state, rng) if mover == CHANCE else rng.choice(list(game.legal_actions(state)))
            after = game.apply(state, action)
            yield state, after
            state = after

    pairs = [pair for seed in range(5) for pair in steps(seed)]
    destroyed = next((a, b) for a, b in pairs if set(field(a)) - set(field(b)))
    placed = next((a, b) for a, b in pairs if len(field(b)) > len(field(a)) and field(b).items() >= field(a).items())
    page = page_at(server.base + "/static/rules/shengke.html")
    sounds = page.evaluate("""async (pairs) => {
        const board = await import('/static/boards/shengke.js');
        return pairs.map(([a, b]) => board.moveSound(a, b));
    }""", [[game.view(a, 0), game.view(b, 0)] for a, b in (destroyed, placed)])
    assert sounds == ["capture", "move"]


def test_tellstones_peeked_shield_is_an_svg_symbol_and_stones_fit_a_thumb(page_at: Any, server: Any) -> None:
    """Defects 7 and 10, and the raw phase "OVER"."""
    game = qipan.load("tellstones")
    state = game.initial_state()
    for text in ("place shield 3", "hide 3", "peek 3"):
        state = game.play(state, text)
    page = page_at(server.base + "/static/rules/tellstones.html", PHONE)
    draw_board(page, "tellstones", update(game, state, 0), 0)
    html = page.inner_html("body")
    assert not [g for g in RARE_GLYPHS if g in html]
    expect(page.locator('[data-slot="3"][data-stone="?"] path.ts-symbol')).to_have_count(1)
    expect(page.locator("#ts-revealed")).to_contain_text("shield")
    targets = page.locator("g.ts-pool > circle[fill=transparent]").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(targets) == 5 and min(targets) >= 44  # the scale and the shield are in the line
    stones = page.locator("[data-slot] .ts-stone > circle:nth-child(2)").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)")
    assert stones and min(stones) >= 44
    heights = page.locator(".ts-stone-name, .ts-slot-label, .ts-pool-caption").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a)")
    assert heights and min(heights) >= 12
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    over = game.play(game.play(game.play(state, "boast"), "doubt"), "name shield")
    draw_board(page, "tellstones", update(game, over, 0), 0)
    expect(page.locator("#ts-phase")).to_have_text("the game is over")
    set_language(page, "zh-Hant")
    draw_board(page, "tellstones", update(game, over, 0), 0)
    expect(page.locator("#ts-phase")).to_have_text("棋局結束")
    expect(page.locator("#ts-last")).to_contain_text("盾牌")


# -- whole games by clicks against the AI --------------------------------------------------------


def create(server: Any, game: str, options: dict[str, Any] | None = None, level: str = "random") -> str:
    created = server.api("POST", "/api/games", {"game": game, "options": options or {},
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": level}]})
    return server.base + created["url"]


def wait_turn(page: Page) -> bool:
    """Wait until this page may move (True) or the game is over (False)."""
    page.wait_for_function("""() => document.querySelector('#result-box')
        || (document.querySelector('#status.mine') && document.querySelector('#board svg[data-interactive=true]'))""",
                           timeout=60000)
    return page.locator("#result-box").count() == 0


def milestones(page: Page, shots: Any, name: str, stage: str) -> None:
    """Screenshots ``name`` (with ``{stage}``) in English and in 繁體中文 (the page reloads to
    switch languages)."""
    still = page.locator("#board svg[data-animating]")  # the last move's animation has ended
    expect(still).to_have_count(0)
    shots(page, name.format(stage=stage))
    set_language(page, "zh-Hant")
    page.wait_for_selector("#board svg")
    expect(still).to_have_count(0)
    shots(page, name.format(stage=stage) + "-zh")
    set_language(page, "en")
    page.wait_for_selector("#board svg")


def play(page: Page, shots: Any, name: str, decide: Callable[[Page], None], mid: int, limit: int = 800) -> int:
    """Make this page's decisions with ``decide`` until the game ends, with screenshots at the
    start, at decision ``mid`` and at the end; the number of decisions made."""
    assert wait_turn(page)
    milestones(page, shots, name, "start")
    for turn in range(limit):
        if not wait_turn(page):
            expect(page.locator("#result-box")).to_be_visible()
            milestones(page, shots, name, "end")  # reloaded, the finished game opens in its replay
            return turn
        if turn == mid:
            milestones(page, shots, name, "mid")
            wait_turn(page)
        decide(page)
    raise AssertionError(f"{name}: no end after {limit} decisions")


def small_board_text(page: Page) -> list[str]:
    """Visible text on the board drawn under 12 CSS pixels (or at no size), with its size."""
    small: list[str] = page.locator("#board svg text").evaluate_all("""els => els
        .filter((e) => e.getClientRects().length && e.textContent.trim())
        .map((e) => [parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM()?.a, e.textContent.trim()])
        .filter(([size]) => !(size >= 12)).map(([size, text]) => `${size} px: ${text.slice(0, 30)}`)""")
    return small


def moves_of(page: Page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("els => els.map(e => e.dataset.move)")


def kelighine_rank(text: str) -> tuple[int, int]:
    """Pushes and the double-1 choice as offered (four 1s), then reaching J, then promoting,
    then the longest forward move."""
    if text in ("ones:four", "pass") or text.startswith("push:"):
        return (4, 0)
    if "^J" in text:
        return (3, 0)
    if "^" in text:
        return (2, 0)
    return (1, int(text[-1])) if "+" in text else (0, 0)


def kelighine_source(move: str) -> str:
    """The cell of the piece a move starts from ("A5+2" -> "A5")."""
    return re.split(r"[-+^]", move, maxsplit=1)[0]


class KelighineDecider:
    """Chooses from the legal moves of the update the page shows (its WebSocket frames), then
    makes the move by clicks: the piece, which must offer exactly its legal moves as buttons,
    then the button."""

    def __init__(self, frames: list[dict[str, Any]]):
        self.frames = frames
        self.ply = -1

    def current(self, page: Page) -> dict[str, Any]:
        for _ in range(400):  # the frame reaches the test a moment after the page drew it
            update = next((f for f in reversed(self.frames) if f.get("type") == "update"), None)
            if update and update["ply"] > self.ply and update["legal"]:
                self.ply = update["ply"]
                return update
            page.wait_for_timeout(25)
        raise AssertionError("the page's turn never reached the test")

    def __call__(self, page: Page) -> None:
        legal: list[str] = self.current(page)["legal"]
        best = max(legal, key=kelighine_rank)
        if kelighine_rank(best)[0] < 4:
            source = kelighine_source(best)
            page.locator(f'g.piece.clickable[data-cell="{source}"]').first.click()
            offered = moves_of(page, "#kg-actions [data-move]")
            assert sorted(offered) == sorted(m for m in legal if kelighine_source(m) == source), (offered, legal)
        page.click(f'#kg-actions [data-move="{best}"]')


@pytest.mark.parametrize(("version", "size"), [(1, DESKTOP), (1, PHONE), (2, DESKTOP), (2, PHONE)],
                         ids=["v1-desktop", "v1-phone", "v2-desktop", "v2-phone"])
def test_kelighine_played_to_the_end(page_at: Any, server: Any, shots: Any, version: int,
                                     size: tuple[int, int]) -> None:
    frames: list[dict[str, Any]] = []
    # Against the easy AI, which races: a version-2 game lasts about 150 of this page's decisions
    # (nearly 300 against the random AI, which keeps pushing pieces back).
    page = page_at(create(server, "kelighine", {"version": version}, level="easy"), size, frames=frames)
    name = f"kelighine{'' if version == 1 else '-v2'}-{{stage}}-{'desktop' if size == DESKTOP else 'phone'}"
    turns = play(page, shots, name, KelighineDecider(frames), mid=8 if version == 1 else 20, limit=2000)
    assert turns > 2
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    expect(page.locator("g.piece[data-cell='J']").first).to_be_visible()  # the replay's last frame
    assert small_board_text(page) == []
    assert "NaN" not in page.inner_html("#board")


def shengke_decide(page: Page) -> None:
    picks = page.locator("#sk-hand [data-move]")
    if picks.count():
        picks.first.click()
        return
    page.locator("#sk-hand [data-hand]:enabled").first.click()
    page.locator("g.target").first.click()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_shengke_played_to_the_end(page_at: Any, server: Any, shots: Any, size: tuple[int, int]) -> None:
    page = page_at(create(server, "shengke", {"turns": 6, "first": "0"}), size)
    play(page, shots, f"shengke-{{stage}}-{'desktop' if size == DESKTOP else 'phone'}", shengke_decide, mid=3)
    assert "rotate" not in page.inner_html("#board")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert small_board_text(page) == []


def tellstones_decide(page: Page) -> None:
    buttons = moves_of(page, "#ts-actions [data-move]")
    for word in ("first", "believe", "stop", "name"):
        chosen = [b for b in buttons if b.startswith(word)]
        if chosen:
            page.click(f'#ts-actions [data-move="{chosen[0]}"]')
            return
    stones = page.locator("[data-slot]").evaluate_all("els => els.map(e => [e.dataset.slot, e.dataset.stone])")
    up = [slot for slot, stone in stones if stone not in ("", "?")]
    down = [slot for slot, stone in stones if stone == "?"]
    pool = page.locator("g.ts-pool.clickable")
    if pool.count() and len(up) + len(down) < 5:
        pool.first.click()
        page.locator("g.target").first.click()
    elif up:
        page.click(f'[data-slot="{up[0]}"]')
        page.click(f'#ts-actions [data-move="hide {up[0]}"]')
    else:
        page.click(f'[data-slot="{down[0]}"]')
        page.click(f'#ts-actions [data-move="challenge {down[0]}"]')


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_tellstones_played_to_the_end(page_at: Any, server: Any, shots: Any, size: tuple[int, int]) -> None:
    page = page_at(create(server, "tellstones", {"turn_limit": 12}), size)
    play(page, shots, f"tellstones-{{stage}}-{'desktop' if size == DESKTOP else 'phone'}", tellstones_decide, mid=4)
    expect(page.locator("#ts-phase")).to_have_text("the game is over")
    assert not [g for g in RARE_GLYPHS if g in page.inner_html("body")]
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert small_board_text(page) == []
