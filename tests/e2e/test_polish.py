"""What a player-eye review still found after the table was built, each pinned by a test that failed
before its fix: Chinese Checkers holes a player can name without counting, results that say how
the game was won, a finished game's page without a move box, one-click games against the AI, a
legible Abalone last-move mark, and Kelighine tooltips that say each thing once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]
PHONE = (390, 844)


def in_chinese(page: Page) -> None:
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()


def against_ai(server: Any, game: str, **body: Any) -> str:
    created = server.api("POST", "/api/games", {"game": game, **body,
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
    return str(server.base + created["url"])


RENDER = """async ([game, msg, ctx, info]) => {
  const board = await import(`/static/boards/${game}.js`);
  const host = document.createElement("div"), extra = document.createElement("div");
  host.id = "probe";
  document.body.append(host, extra);
  const made = board.create(host, extra, { info, seat: ctx.seat });
  made.render(msg, { interactive: false, fresh: false, submit: () => {}, ...ctx });
}"""


def render(page: Page, game: str, view: dict[str, Any], *, info: dict[str, Any] | None = None,
           seats: list[dict[str, Any]] | None = None, **ctx: Any) -> None:
    """Draw ``view`` with the page's own board module into a new element #probe."""
    msg = {"view": view, "legal": [], "to_move": view.get("to_move"), "ply": 1, "result": None, "seats": seats or []}
    page.evaluate(RENDER, [game, msg, {"seat": None, **ctx}, info or {}])


# -- Kelighine ---------------------------------------------------------------------------------------

KG_VIEW = {
    "game": "kelighine", "version": 1, "players": 2, "turn": 0, "turn_number": 9, "phase": "roll", "to_move": 0,
    "rolled": [], "dice": [], "one_die": False, "starts": ["I", "H"], "reserve": [0, 0], "finished": [0, 0],
    "pieces": [
        {"player": 0, "cell": "B3", "face": 1, "laps": {"A": True, "B": False, "C": False}, "coin": "B1",
         "lap_progress": {"tier": 2, "steps": 2, "of": 6}},
        {"player": 1, "cell": "H", "face": 6, "laps": {"A": False, "B": False, "C": False}, "coin": None,
         "lap_progress": None},
    ],
    "coins": [{"player": 0, "cell": "B1"}], "last_piece": "H", "indirect": [], "pending_push": None, "log": [],
}


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Mei · on B3 · ring A completed · ring B lap 2/6 · coin on B1",
            "Player 2 · on H · no ring completed yet"]),
    ("zh-Hant", ["Mei · 在 B3 · 已繞行完 A 階 · B 階繞行 2/6 · 銅板在 B1",
                 "棋手 2 · 在 H · 尚未繞行完任何一階"]),
])
def test_kelighine_piece_tooltip_says_each_thing_once(open_page: OpenPage, server: Any, language: str,
                                                     expected: list[str]) -> None:
    """It read '已繞行完：A · 已繞行完 A 階' (the rings completed, then the face saying the same)."""
    page = open_page(against_ai(server, "kelighine"))
    if language != "en":
        in_chinese(page)
    render(page, "kelighine", KG_VIEW, seats=[{"seat": 0, "kind": "human", "side": "player 1", "name": "Mei"},
                                              {"seat": 1, "kind": "ai", "side": "player 2", "name": "player 2"}])
    titles = page.locator("#probe g.piece > title").all_text_contents()
    assert titles == expected


# -- after the game ----------------------------------------------------------------------------------


def test_a_finished_game_hides_the_move_box_and_tells_spectators_the_players_now_read_their_chat(
        open_page: OpenPage, server: Any) -> None:
    """After the game the disabled move box, Resign and 'Your seat on another device' stayed, and
    spectators were still told the players would read their chat 'once the game is over'."""
    created = server.api("POST", "/api/games", {"game": "abalone", "seats": [
        {"kind": "human"}, {"kind": "ai", "level": "random"}]})
    player = open_page(server.base + created["url"])
    expect(player.locator("#move-input")).to_be_visible()
    expect(player.locator("#seat-link")).to_be_visible()
    watcher = open_page(server.base + created["spectator_url"])
    hint = watcher.locator("#chat-spectators .hint")
    expect(hint).to_have_text("The players read this chat once the game is over.")
    player.on("dialog", lambda dialog: dialog.accept())
    player.click("#resign")
    expect(player.locator("#result-box")).to_be_visible()
    expect(player.locator("#move-input")).to_be_hidden()
    expect(player.locator("#notation")).to_be_hidden()
    expect(player.locator("#seat-link")).to_be_hidden()
    expect(hint).to_have_text("The game is over: the players read this chat too.")
    later = open_page(server.base + created["spectator_url"])
    in_chinese(later)
    expect(later.locator("#chat-spectators .hint")).to_have_text("棋局已結束：棋手也看得到這裡的聊天。")
    player.reload()
    expect(player.locator("#status")).not_to_have_text("")
    expect(player.locator("#move-input")).to_be_hidden()


# -- play the AI -------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_play_the_ai_starts_at_once_and_offers_a_nickname_without_blocking(open_page: OpenPage, server: Any,
                                                                           language: str) -> None:
    """'Play the AI' opened a nickname dialog first, and Cancel started nothing."""
    page = open_page(server.base + "/")
    if language != "en":
        in_chinese(page)
    page.click('[data-quick="abalone"] [data-level="random"]')
    page.wait_for_url(re.compile(r"/play/[^#]+#seat=0$"))
    expect(page.locator("dialog")).to_have_count(0)
    black = "Black" if language == "en" else "黑方"
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text(black)
    expect(page.locator("#status")).to_have_text("Your move" if language == "en" else "輪到你了")
    offer = page.locator("#name-offer")
    expect(offer).to_contain_text(black)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    page.set_viewport_size({"width": 1280, "height": 800})
    offer.get_by_role("button", name="Choose a nickname" if language == "en" else "取個暱稱").click()
    page.fill("#name-input", "Mei")
    page.click("#name-save")
    expect(offer).to_have_count(0)
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")
    # Dismissed or answered, the offer does not come back on a reload.
    page.reload()
    expect(page.locator('.player[data-seat="0"] .pname')).to_have_text("Mei")
    expect(page.locator("#name-offer")).to_have_count(0)


def test_the_nickname_offer_can_be_dismissed(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + "/")
    page.click('[data-quick="tellstones"] [data-level="random"]')
    page.wait_for_url(re.compile(r"/play/"))
    page.click("#name-offer-dismiss")
    expect(page.locator("#name-offer")).to_have_count(0)
    page.reload()
    expect(page.locator(".player").first).to_be_visible()
    expect(page.locator("#name-offer")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('qipan.name')") is None


def test_nickname_offer_screenshots(open_page: OpenPage, server: Any, shots: Callable[[Page, str], None]) -> None:
    for size, (width, height) in {"desktop": (1280, 800), "phone": PHONE}.items():
        for language in ("en", "zh-Hant"):
            page = open_page(server.base + "/", width=width, height=height)
            if language != "en":
                in_chinese(page)
            page.click('[data-quick="shengke"] [data-level="random"]')
            expect(page.locator("#name-offer")).to_be_visible()
            expect(page.locator("#status")).not_to_have_text("")
            shots(page, f"polish-name-offer-{size}{'' if language == 'en' else '-zh'}")


# -- how a game was won ------------------------------------------------------------------------------

NAMES = ["Mei", "Bo", "Lin", "Ada"]
HOW = """async ([game, view, result, options, ply, names]) => {
  const { resultHow } = await import("/static/js/result.js");
  const board = await import(`/static/boards/${game}.js`);
  return resultHow(board, view, result, { nameOf: (i) => names[i], options, ply });
}"""


def finished(game_name: str, variant: str | None, options: dict[str, Any],
             wanted: Callable[[Any, Any], bool]) -> tuple[Any, Any, int]:
    """A game played at random (first seed whose end is ``wanted(game, state)``): game, state, plies."""
    import random

    from qipan.core.game import CHANCE
    from qipan.core.registry import load

    game = load(game_name, variant, options)
    for seed in range(200):
        rng, state, ply = random.Random(seed), game.initial_state(), 0
        while game.to_move(state) is not None:
            actor = game.to_move(state)
            action = game.sample_chance(state, rng) if actor == CHANCE else rng.choice(list(game.legal_actions(state)))
            state, ply = game.apply(state, action), ply + 1
        if wanted(game, state):
            return game, state, ply
    raise AssertionError(f"no random {game_name} game ended as wanted")


def explain(page: Page, game_name: str, game: Any, state: Any, options: dict[str, Any], ply: int) -> str:
    view = game.view(state, None)
    view.pop("state", None)
    result = {"returns": list(game.returns(state)), "text": game.result_text(state), "reason": "rules"}
    text: str = page.evaluate(HOW, [game_name, view, result, options, ply, NAMES])
    return text


def score_line(a: int, b: int) -> str:
    return f"{a}–{b}"


CASES: dict[str, tuple[str, str | None, dict[str, Any], Callable[[Any, Any], bool], Callable[[Any, Any, int], str]]] = {
    "tellstones turn limit": (
        "tellstones", None, {"turn_limit": 6}, lambda g, s: s.end == 3 and s.winner in (0, 1),
        lambda g, s, n: f"The turn limit (6 turns) was reached: {NAMES[s.winner]} has more points "
                        f"({score_line(*s.scores)})."),
    "tellstones drawn at the turn limit": (
        "tellstones", None, {"turn_limit": 2}, lambda g, s: s.winner == 2,
        lambda g, s, n: f"The turn limit (2 turns) was reached with equal points ({score_line(*s.scores)})."),
    "tellstones three points": (
        "tellstones", None, {}, lambda g, s: s.end == 1,
        lambda g, s, n: f"{NAMES[s.winner]} reached 3 points first ({score_line(*s.scores)})."),
    "tellstones round-table proof": (
        "tellstones", "round-table", {}, lambda g, s: s.end == 2,
        lambda g, s, n: (f"{' and '.join(NAMES[p] for p in (s.winner, s.winner + 2))} proved the boast"
                         if g.team(s.last[0]) == s.winner else
                         f"{' and '.join(NAMES[p] for p in (1 - s.winner, 3 - s.winner))} failed to prove the boast")),
    "shengke": (
        "shengke", None, {}, lambda g, s: True,
        lambda g, s, n: (f"Cards on the field after 20 turns: Mei {g.on_field(s)[0]}, Bo {g.on_field(s)[1]}; "
                         f"{NAMES[s.first]} adds the first player's 2: {score_line(*g.scores(s))}.")),
    "kelighine": (
        "kelighine", None, {}, lambda g, s: True, lambda g, s, n: f"{NAMES[s.winner]}'s piece reached J first."),
    "kelighine version 2": (
        "kelighine", None, {"version": 2}, lambda g, s: True,
        lambda g, s, n: f"{NAMES[s.winner]} brought all three pieces to J first."),
    "abalone quiet moves": (
        "abalone", None, {"quiet_move_limit": 12}, lambda g, s: True,
        lambda g, s, n: "12 moves in a row without a marble pushed out: the game is drawn."),
    "chinese checkers move limit": (
        "chinese-checkers", None, {"max_moves": 60}, lambda g, s: True,
        lambda g, s, n: "The move limit (60 moves) was reached before anyone finished."),
    "食棋": (
        "chinese-checkers", "capture", {}, lambda g, s: True,
        lambda g, s, n: f"Pieces captured: Mei {s.scores[0]}, Bo {s.scores[1]}."),
}


@pytest.mark.parametrize("case", CASES)
def test_a_result_by_the_rules_says_how_it_was_reached(open_page: OpenPage, server: Any, case: str) -> None:
    """'Player 1 wins' at Tellstones' turn limit, with no word of the limit or the points; Sheng-Ke
    said no more either. Each board now explains a result by the rules, checked against the
    engine's own final position, in both languages."""
    game_name, variant, options, wanted, expected = CASES[case]
    game, state, ply = finished(game_name, variant, options, wanted)
    page = open_page(server.base + "/")
    assert explain(page, game_name, game, state, options, ply).startswith(expected(game, state, ply))
    in_chinese(page)
    chinese = explain(page, game_name, game, state, options, ply)
    assert chinese and not re.search(r"[a-z]{3,}", chinese.replace("Mei", "").replace("Ada", "").replace("Lin", ""))


@pytest.mark.parametrize(("size", "language"), [("desktop", "en"), ("phone", "zh-Hant")])
def test_the_result_box_says_how_tellstones_ended_at_its_turn_limit(open_page: OpenPage, server: Any,
                                                                    shots: Callable[[Page, str], None],
                                                                    size: str, language: str) -> None:
    created = server.api("POST", "/api/games", {"game": "tellstones", "options": {"turn_limit": 2},
                                                 "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]})
    frames: list[dict[str, Any]] = []
    width, height = (1280, 800) if size == "desktop" else PHONE
    page = open_page(server.base + created["url"], width=width, height=height, frames=frames)
    if language != "en":
        in_chinese(page)
    expect(page.locator("#status")).to_have_text("Your move" if language == "en" else "輪到你了")
    legal = next(f for f in reversed(frames) if f.get("type") == "update" and f.get("legal"))["legal"]
    page.fill("#notation", next(m for m in legal if m.startswith("place")))
    page.press("#notation", "Enter")
    box = page.locator("#result-box")
    expect(box.locator(".result-text")).to_have_text("Draw" if language == "en" else "和局")
    expect(box.locator("#result-how")).to_have_text(
        "The turn limit (2 turns) was reached with equal points (0–0)." if language == "en"
        else "已達回合上限（2 回合），雙方同分（0–0）。")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    shots(page, f"polish-result-how-{size}{'' if language == 'en' else '-zh'}")


# -- Abalone's last move ----------------------------------------------------------------------------

MARBLE_FILLS = {"white": "rgb(228, 225, 218)", "black": "rgb(32, 32, 32)"}  # the gradients' body colours


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_abalone_last_move_ring_reads_on_both_marble_colours_and_themes(open_page: OpenPage, server: Any,
                                                                        shots: Callable[[Page, str], None],
                                                                        size: str) -> None:
    """The marbles that moved were marked by a pale tint under them, a hairline round a white
    marble on the light theme."""
    from tests.e2e.test_boards_ab_cc import contrast

    frames: list[dict[str, Any]] = []
    width, height = (1280, 800) if size == "desktop" else PHONE
    page = open_page(against_ai(server, "abalone"), width=width, height=height, frames=frames)
    page.emulate_media(color_scheme="light")
    expect(page.locator("#status")).to_have_text("Your move")
    legal = next(f for f in reversed(frames) if f.get("type") == "update" and f.get("legal"))["legal"]
    page.fill("#notation", legal[0])
    page.press("#notation", "Enter")
    expect(page.locator("#moves .m[data-ply]")).to_have_count(2)  # the AI (white) answered
    expect(page.locator("#status")).to_have_text("Your move")
    rings = page.locator("#board .last-moved")
    expect(rings.first).to_be_visible()
    # Each ring is over a white marble: drawn after it, so on top.
    over = rings.evaluate_all("""els => els.map(e => {
      const marble = e.parentElement.querySelector('.mg .marble');
      return marble ? marble.dataset.marble + (marble.compareDocumentPosition(e) & 4 ? ' beneath' : ' above') : 'none';
    })""")
    assert over and set(over) == {"white beneath"}, over
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        outer = rings.first.locator(".last-ring-outer").evaluate("e => getComputedStyle(e).stroke")
        inner = rings.first.locator(".last-ring-inner").evaluate("e => getComputedStyle(e).stroke")
        # Whichever marble moved, one of the two rings stands out against it.
        for colour, fill in MARBLE_FILLS.items():
            assert max(contrast(outer, fill), contrast(inner, fill)) >= 4.5, (scheme, colour, outer, inner)
        assert contrast(outer, inner) >= 4.5, (scheme, outer, inner)
    page.emulate_media(color_scheme="light")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    shots(page, f"polish-abalone-last-{size}-light")


# -- Chinese Checkers hole names ---------------------------------------------------------------------

LABELS = """() => [...document.querySelectorAll('#board text.cc-name')].map(e => {
  const hole = e.closest('[data-hole]').dataset.hole;
  const px = parseFloat(getComputedStyle(e).fontSize) * Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b);
  return [e.textContent, hole, +e.getAttribute('x'), +e.getAttribute('y') - e.getAttribute('font-size') * 0.36, px];
})"""


def check_names_match_the_engine(page: Page, pieces: dict[str, int]) -> None:
    """Every empty hole is labelled with the engine's name for the hole drawn there (the engine's
    cube coordinates, placed as the board places them with seat 0 at the bottom), at least 12 px."""
    from qipan.games.chinese_checkers.board import HOLES, NAMES

    unit, row = 40, 40 * 3 ** 0.5 / 2
    at = {name: ((q + r / 2) * unit, r * row) for (q, r, _), name in zip(HOLES, NAMES, strict=True)}
    labels = page.evaluate(LABELS)
    assert {text for text, *_ in labels} == set(NAMES) - set(pieces)
    for text, hole, x, y, px in labels:
        assert text == hole
        assert abs(x - at[text][0]) < 0.5 and abs(y - at[text][1]) < 0.5, (text, x, y, at[text])
        assert px >= 12 - 0.05, (text, px)


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_chinese_checkers_holes_carry_their_names(open_page: OpenPage, server: Any,
                                                  shots: Callable[[Page, str], None], language: str) -> None:
    """Rows were lettered a–q but holes had no numbers: reading 'g9' or typing 'c2-e6' meant
    counting holes."""
    frames: list[dict[str, Any]] = []
    page = open_page(against_ai(server, "chinese-checkers"), frames=frames)
    if language != "en":
        in_chinese(page)
    expect(page.locator("#status")).to_have_text("Your move" if language == "en" else "輪到你了")
    update = next(f for f in reversed(frames) if f.get("type") == "update" and f.get("legal"))
    expect(page.locator("#cc-names")).to_be_checked()  # on by default on a desktop
    check_names_match_the_engine(page, update["view"]["pieces"])
    # Hovering a hole names it under the board.
    page.hover('#board [data-hole="i5"]')
    expect(page.locator("#cc-here")).to_have_text("Hole i5" if language == "en" else "孔位 i5")
    # The marked destinations are titled with their holes and the move.
    move = update["legal"][0]
    start, end = move.split("-")
    page.click(f'#board [data-hole="{start}"] .piece')
    title = page.locator(f'#board g.target[data-hole="{end}"] > title')
    expect(title).to_have_text(f"{end}: play {move}" if language == "en" else f"{end}：走 {move}")
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
        shots(page, f"polish-cc-names-desktop{'' if language == 'en' else '-zh'}-{scheme}")
    # Switched off, the holes are plain dots again, and that is remembered.
    page.click("label[for=cc-names]")
    expect(page.locator("#board text.cc-name")).to_have_count(0)
    page.reload()
    expect(page.locator("#cc-names")).not_to_be_checked()
    expect(page.locator("#board text.cc-name")).to_have_count(0)


def test_chinese_checkers_hole_names_are_off_on_a_phone_until_asked_for(open_page: OpenPage, server: Any,
                                                                       shots: Callable[[Page, str], None]) -> None:
    frames: list[dict[str, Any]] = []
    page = open_page(against_ai(server, "chinese-checkers"), width=PHONE[0], height=PHONE[1], frames=frames)
    expect(page.locator("#status")).to_have_text("Your move")
    expect(page.locator("#cc-names")).not_to_be_checked()
    expect(page.locator("#board text.cc-name")).to_have_count(0)
    box = page.locator("label[for=cc-names]").bounding_box()
    assert box and box["height"] >= 44
    page.click("label[for=cc-names]")
    update = next(f for f in reversed(frames) if f.get("type") == "update" and f.get("legal"))
    check_names_match_the_engine(page, update["view"]["pieces"])  # big enough to read: 12 px at least
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    page.reload()
    expect(page.locator("#cc-names")).to_be_checked()
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
        shots(page, f"polish-cc-names-phone-{scheme}")
    in_chinese(page)
    expect(page.locator("label[for=cc-names]")).to_have_text("孔位名稱")
    shots(page, "polish-cc-names-phone-zh-dark")
