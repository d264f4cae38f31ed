"""The puzzles in the browser (issue 22): one puzzle of each kind solved in Chromium at desktop
and phone size (an Abalone 'eject in 3' against the resisting defender, the 27-move crossing, the
食棋 finish), a wrong and an illegal try, take-back and restart, hints, Chinese, the lobby's link,
axe, and screenshots."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Page, expect

from qipan.puzzles.attempt import solution, start
from qipan.puzzles.catalogue import catalogue, find
from qipan.puzzles.eject import shipped
from tests.e2e.conftest import SERVER_SCRIPT
from tests.e2e.test_audit import axe_findings

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def server(make_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of this module's own: solving a crossing and a 食棋 finish takes about a hundred
    position requests from one address, which must not drain the session server's buckets."""
    script = SERVER_SCRIPT.replace("client_connections=0)",
                                   "client_connections=0, position_rate=None, analyse_rate=None)")
    assert script != SERVER_SCRIPT
    srv = make_server(tmp_path_factory.mktemp("puzzles") / "qipan.sqlite", script=script)
    srv.start()
    yield srv
    srv.stop()


def play(page: Page, move: str) -> None:
    page.fill("#puzzle-move", move)
    page.press("#puzzle-move", "Enter")


def refused_move(puzzle_id: str) -> str:
    """A move the engine reads but refuses at the start (a marble of the other side)."""
    attempt = start(find(puzzle_id))
    cells = [f"{row}{col}" for row in "abcdefghi" for col in range(1, 10)]
    for text in (a + b for a in cells for b in cells):
        judged = attempt.judge(text)
        if judged.kind == "illegal" and (judged.reason or "").startswith(f"illegal move {text}: there is no"):
            return text
    raise AssertionError(f"no refused move found in {puzzle_id}")


def wrong_first_move(puzzle_id: str) -> str:
    attempt = start(find(puzzle_id))
    game = attempt.game
    answer = next(p for p in shipped() if p.id == puzzle_id).solution
    return next(game.action_text(attempt.state, m) for m in game.legal_actions(attempt.state)
                if game.action_text(attempt.state, m) != answer)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_eject_in_3_solved_against_the_defender(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    hard = next(p for p in shipped() if p.n == 3)
    line = solution(find(hard.id))
    page = open_page(f"{server.base}/puzzles/{hard.id}", *SIZES[size])
    page.wait_for_selector("#board svg")
    expect(page.locator("#puzzle-status")).to_have_text("Your move 1 of 3")
    feedback = page.locator("#puzzle-feedback")
    play(page, wrong_first_move(hard.id))
    expect(feedback).to_have_attribute("data-kind", "wrong")
    expect(feedback).to_contain_text(
        "Not the winning move: it does not force a push-off in the moves left. Nothing changed.")
    expect(page.locator("#puzzle-status")).to_have_text("Your move 1 of 3")
    refused = refused_move(hard.id)
    play(page, refused)
    expect(feedback).to_have_attribute("data-kind", "illegal")
    reason = start(find(hard.id)).judge(refused).reason  # the engine's words end without a full stop
    expect(feedback).to_have_text(f"Illegal: {reason}. Nothing changed.")
    page.click("#puzzle-hint")
    expect(feedback).to_have_text(f"Hint: try {hard.solution}.")
    play(page, line[0])
    expect(feedback).to_have_text(f"Played {line[0]}. The defender answered {line[1]}.")
    expect(page.locator("#puzzle-status")).to_have_text("Your move 2 of 3")
    shots(page, f"puzzle-eject-move2-{size}")
    play(page, line[2])
    expect(page.locator("#puzzle-line li")).to_have_count(2)
    play(page, line[4])
    expect(page.locator("#puzzle-status")).to_have_text("Solved: a marble pushed off in 3 of 3!")
    expect(page.locator("#puzzle-form")).to_be_hidden()
    expect(page.locator("#puzzle-line li").nth(1)).to_have_text(f"{line[2]} — {line[3]}")
    shots(page, f"puzzle-eject-solved-{size}")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    page.goto(f"{server.base}/puzzles")
    expect(page.locator(f'[data-puzzle="{hard.id}"] .learn-tick')).to_have_text("● solved")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_27_move_crossing_with_a_take_back(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    moves = solution(find("crossing"))
    page = open_page(f"{server.base}/puzzles/crossing", *SIZES[size])
    page.wait_for_selector("#board svg")
    status = page.locator("#puzzle-status")
    expect(page.locator("#puzzle-task")).to_contain_text("The optimum is 27 moves (proved)")
    expect(page.locator("#puzzle-back").locator("..")).to_have_text("All puzzles · Hard · Optimum: 27 moves")
    expect(page.locator("#puzzle-hint")).to_be_hidden()
    play(page, "d1-d4")
    expect(page.locator("#puzzle-feedback")).to_contain_text("illegal move d1-d4: d4 is occupied")
    play(page, moves[0])
    expect(status).to_have_text("Moves: 1 · in the target: 0 of 10")
    page.click("#puzzle-undo")
    expect(status).to_have_text("Moves: 0 · in the target: 0 of 10")
    for number, move in enumerate(moves[:-1], 1):
        play(page, move)
        expect(status).to_contain_text(f"Moves: {number} ·")
    page.click("#puzzle-undo")
    expect(status).to_contain_text(f"Moves: {len(moves) - 2} ·")
    play(page, moves[-2])
    play(page, moves[-1])
    expect(status).to_have_text("Crossed in 27 moves: the optimum!")
    shots(page, f"puzzle-crossing-done-{size}")
    page.click("#puzzle-restart")
    expect(status).to_have_text("Moves: 0 · in the target: 0 of 10")


def test_the_long_jump_crossing_is_never_called_optimal(open_page: OpenPage, server: Any) -> None:
    page = open_page(f"{server.base}/puzzles/crossing-long")
    page.wait_for_selector("#board svg")
    expect(page.locator("#puzzle-task")).to_contain_text("Best known: 20 moves")
    expect(page.locator("#puzzle-back").locator("..")).to_have_text("All puzzles · Hard · Best known: 20 moves")
    for move in solution(find("crossing-long")):
        play(page, move)
        expect(page.locator("#puzzle-feedback")).to_contain_text(f"Played {move}.")
    expect(page.locator("#puzzle-status")).to_have_text(
        "Crossed in 20 moves: as few as the best known (20; not proved optimal).")


def test_a_hint_refused_by_a_limit_says_so_in_the_page_language(open_page: OpenPage, server: Any) -> None:
    """The server's 503 (a 食棋 search already under way for this client) and 429 are in English."""
    page = open_page(f"{server.base}/puzzles/shiqi")
    page.wait_for_selector("#board svg")
    page.route("**/api/puzzles/shiqi/hint", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "2"}, content_type="application/json",
        body='{"error": "at most 1 hint search at once; wait for the one under way"}'))
    page.click("#puzzle-hint")
    feedback = page.locator("#puzzle-feedback")
    expect(feedback).to_have_text("No hint right now: the server is busy or you asked for many. "
                                  "Try again in a few seconds.")
    page.click("#lang")
    expect(page.locator("#puzzle-back")).to_have_text("全部謎題")
    page.wait_for_selector("#board svg")
    page.click("#puzzle-hint")
    expect(page.locator("#puzzle-feedback")).to_have_text("現在無法提示：伺服器正忙，或你要求得太頻繁。請過幾秒再試。")


def test_a_move_typed_while_a_hint_is_on_its_way_is_kept(open_page: OpenPage, server: Any) -> None:
    page = open_page(f"{server.base}/puzzles/shiqi")
    page.wait_for_selector("#board svg")
    held: list[Any] = []
    page.route("**/api/puzzles/shiqi/hint", lambda route: held.append(route))
    page.click("#puzzle-hint")
    page.wait_for_timeout(200)
    assert held, "the hint request was not made"
    move = solution(find("shiqi"))[0]
    play(page, move)
    expect(page.locator("#puzzle-move")).to_have_value(move)
    held[0].continue_()
    expect(page.locator("#puzzle-feedback")).to_contain_text("Hint: try ")
    page.press("#puzzle-move", "Enter")
    expect(page.locator("#puzzle-feedback")).to_have_text(f"Played {move}.")


def test_an_address_in_capitals_opens_its_puzzle_and_a_malformed_one_the_list(open_page: OpenPage, server: Any) -> None:
    page = open_page(f"{server.base}/puzzles/SHIQI")
    page.wait_for_selector("#board svg")
    expect(page.locator("#puzzle-status")).to_have_text("Pieces left: 60 · moves: 0")
    page.goto(f"{server.base}/puzzles/%E0")
    expect(page.locator("h1")).to_have_text("Puzzles")
    expect(page.locator("[data-puzzle]")).to_have_count(len(catalogue()))


def test_the_shiqi_finish_with_a_hint(open_page: OpenPage, server: Any, shots: Any) -> None:
    moves = solution(find("shiqi"))
    page = open_page(f"{server.base}/puzzles/shiqi")
    page.wait_for_selector("#board svg")
    status = page.locator("#puzzle-status")
    expect(status).to_have_text("Pieces left: 60 · moves: 0")
    page.click("#puzzle-hint")
    expect(page.locator("#puzzle-feedback")).to_contain_text("Hint: try ")
    for number, move in enumerate(moves, 1):
        play(page, move)
        expect(page.locator("#puzzle-feedback")).to_have_text(f"Played {move}.")
        if number == 30:
            shots(page, "puzzle-shiqi-midway")
    expect(status).to_have_text("Solved: one piece left!")
    shots(page, "puzzle-shiqi-solved")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_chinese_and_the_lobby_link(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    page = open_page(server.base + "/", *SIZES[size])
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    page.click("#puzzle-open")
    page.wait_for_selector("#board svg")
    expect(page.locator("#puzzle-back")).to_have_text("全部謎題")
    page.goto(f"{server.base}/puzzles")
    expect(page.locator("h1")).to_have_text("謎題")
    shots(page, f"puzzle-list-zh-{size}")
    hard = next(p for p in shipped() if p.n == 3)
    page.goto(f"{server.base}/puzzles/{hard.id}")
    page.wait_for_selector("#board svg")
    expect(page.locator("#puzzle-status")).to_have_text("你的第 1／3 步")
    play(page, wrong_first_move(hard.id))
    expect(page.locator("#puzzle-feedback")).to_contain_text("不是致勝的一步： 剩下的步數內無法逼出對方的棋子。")
    refused = refused_move(hard.id)
    play(page, refused)
    side = "黑方" if start(find(hard.id)).player == 0 else "白方"
    expect(page.locator("#puzzle-feedback")).to_contain_text(f"不合規則： 不合規則的一步 {refused}：{side}在 ")
    expect(page.locator("#puzzle-feedback")).to_contain_text("上沒有棋子。 局面沒有改變。")
    shots(page, f"puzzle-eject-refused-zh-{size}")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_axe_finds_nothing_serious(open_page: OpenPage, server: Any, theme: Literal["dark", "light"]) -> None:
    findings: list[str] = []
    for width, height in SIZES.values():
        page = open_page(f"{server.base}/puzzles", width, height)
        page.emulate_media(color_scheme=theme)
        page.wait_for_selector(".learn-course")
        findings += axe_findings(page, f"/puzzles {width}px {theme}")
        page.goto(f"{server.base}/puzzles/shiqi")
        page.wait_for_selector("#board svg")
        play(page, "a1-a2")
        expect(page.locator("#puzzle-feedback")).to_have_attribute("data-kind", "illegal")
        findings += axe_findings(page, f"/puzzles/shiqi {width}px {theme}")
    assert not findings, "\n".join(findings)
