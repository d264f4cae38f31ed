"""The tutorials in the browser (issue 22): every lesson of every course played through in
Chromium (typed moves, the engine's refusals shown, a lesson by clicks per game), the progress
kept in localStorage, the lobby's entry, Chinese, and screenshots at desktop and phone size."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Page, expect

from qipan.tutorials import Course, Lesson, courses, replay
from tests.e2e.conftest import SERVER_SCRIPT
from tests.e2e.test_audit import axe_findings

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]
PHONE = (390, 844)


@pytest.fixture(scope="module")
def server(make_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of this module's own: its lessons take a few hundred position requests a minute
    from one address, which must not drain the session server's bucket for the other tests."""
    script = SERVER_SCRIPT.replace("client_connections=0)", "client_connections=0, position_rate=None)")
    assert script != SERVER_SCRIPT
    srv = make_server(tmp_path_factory.mktemp("learn") / "qipan.sqlite", script=script)
    srv.start()
    yield srv
    srv.stop()


def lesson_url(server: Any, game: str, lesson: str) -> str:
    return f"{server.base}/learn?game={game}&lesson={lesson}"


def play(page: Page, move: str) -> None:
    page.fill("#learn-move", move)
    page.press("#learn-move", "Enter")


def play_lesson(page: Page, course: Course, lesson: Lesson) -> None:
    """Answer every step by typing; first try each move the lesson invites that the engine
    refuses, and one legal move that misses the goal, and check they change nothing."""
    feedback = page.locator("#learn-feedback")
    moves: list[str] = []
    for number, step in enumerate(lesson.steps, 1):
        expect(page.locator("#learn-step")).to_have_text(f"Step {number} of {len(lesson.steps)}")
        expect(page.locator("#learn-prompt")).to_have_text(step.prompt.en)
        for refused in step.refused:
            play(page, refused)
            expect(feedback).to_have_attribute("data-kind", "illegal")
            expect(feedback).to_contain_text(f"illegal move {refused}")
        at = replay(lesson, moves)
        judged = {m: step.goal(at.game, at.state, at.game.play(at.state, m)) if step.goal else m in step.accept
                  for m in at.game.legal_texts(at.state)}
        miss = next((m for m, ok in judged.items() if not ok), None)
        if miss is not None:
            play(page, miss)
            expect(feedback).to_have_attribute("data-kind", "wrong")
            expect(feedback).to_contain_text(step.why.get(miss, step.wrong).en)
            expect(page.locator("#learn-step")).to_have_text(f"Step {number} of {len(lesson.steps)}")
        play(page, step.solution)
        expect(feedback).to_have_attribute("data-kind", "correct")
        expect(feedback).to_contain_text(step.done.en)
        moves.append(at.game.action_text(at.state, at.game.parse_action(at.state, step.solution)))
    expect(page.locator("#learn-step")).to_have_text("Lesson complete!")
    expect(page.locator("#learn-next")).to_be_visible()
    expect(page.locator("#learn-move")).to_be_hidden()


@pytest.mark.parametrize("course", courses(), ids=lambda c: c.game)
def test_every_lesson_plays_through(open_page: OpenPage, server: Any, shots: Any, course: Course) -> None:
    page = open_page(f"{server.base}/learn")
    expect(page.locator(f'[data-course="{course.game}"] .learn-count')).to_have_text(
        f"0 of {len(course.lessons)} done")
    # Each course folds; with nothing done the first course is the one open.
    expect(page.locator("details.learn-course[open]")).to_have_count(1)
    expect(page.locator('details.learn-course[open]')).to_have_attribute("data-course", courses()[0].game)
    for i, lesson in enumerate(course.lessons):
        page.goto(lesson_url(server, course.game, lesson.id))
        expect(page.locator("#learn-title")).to_have_text(lesson.title.en)
        page.wait_for_selector("#board svg")
        play_lesson(page, course, lesson)
        if i == 0:
            shots(page, f"tutorial-{course.game}-{lesson.id}-done")
        # The next lesson's button leads on; the last one's back to the courses.
        following = course.lessons[i + 1].id if i + 1 < len(course.lessons) else None
        expected = f"/learn?game={course.game}&lesson={following}" if following else "/learn"
        expect(page.locator("#learn-next")).to_have_attribute("href", expected)
        if i == 0:  # (the course begun and not finished is now the one open)
            page.goto(f"{server.base}/learn")
            expect(page.locator("details.learn-course[open]")).to_have_attribute("data-course", course.game)
            expect(page.locator(f'[data-course="{course.game}"] li.done a')).to_be_visible()
    page.goto(f"{server.base}/learn")
    box = page.locator(f'[data-course="{course.game}"]')
    expect(box.locator(".learn-count")).to_have_text(f"{len(course.lessons)} of {len(course.lessons)} done")
    expect(box.locator("li.done")).to_have_count(len(course.lessons))
    shots(page, f"tutorial-courses-{course.game}-done")


def test_lessons_by_clicks(open_page: OpenPage, server: Any) -> None:
    """The boards take the lesson's moves as in a game: Abalone's push, Tellstones' place,
    Chinese Checkers' chain, Kelighine's promotion, Sheng-Ke's pick and placement."""
    page = open_page(lesson_url(server, "abalone", "sumito"))
    page.click('[data-cell="e3"]')
    page.click('g.target[data-move="e3e4"]')
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator('[data-cell="e8"] .marble')).to_have_count(1)

    page.goto(lesson_url(server, "tellstones", "place"))
    page.click('[data-pool="crown"]')
    page.click('[data-slot="2"]')  # not next to the line: nothing is sent, the choice is dropped
    expect(page.locator("#learn-feedback")).to_be_empty()
    page.click('[data-pool="crown"]')
    page.click('[data-slot="5"]')
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator('[data-slot="5"]')).to_have_attribute("data-stone", "crown")

    page.goto(lesson_url(server, "chinese-checkers", "chain"))
    page.click('[data-hole="i5"]')
    page.click('g.target[data-hole="m9"]')
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator("#board .last-path")).to_have_attribute("data-path", "i5-k7-m9")

    page.goto(lesson_url(server, "kelighine", "promote"))
    page.click('.piece.clickable[data-cell="A6"]')
    page.click('#kg-actions button[data-move="A6^B3"]')
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator('.piece[data-cell="B3"]')).to_have_count(1)

    page.goto(lesson_url(server, "shengke", "overcome-out"))
    expect(page.locator("#sk-hand button[data-move]")).to_have_count(5)
    expect(page.locator("#sk-hand")).not_to_contain_text("null")  # (Element.append(null) writes "null")
    page.click('button[data-move="pick metal"]')
    expect(page.locator("#learn-step")).to_have_text("Step 2 of 2")
    page.click('button[data-hand="metal1"]')
    page.click('#board [data-cell="c3"]')
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator('#board [data-cell="c4"] [data-card]')).to_have_count(0)


def test_restart_and_progress_survive_a_reload(open_page: OpenPage, server: Any) -> None:
    page = open_page(lesson_url(server, "tellstones", "prove"))
    play(page, "boast")
    expect(page.locator("#learn-step")).to_have_text("Step 2 of 4")
    page.click("#learn-restart")
    expect(page.locator("#learn-step")).to_have_text("Step 1 of 4")
    expect(page.locator("#learn-feedback")).to_be_empty()
    page.goto(f"{server.base}/learn")
    expect(page.locator('[data-course="tellstones"] li.done')).to_have_count(0)
    page.evaluate("localStorage.setItem('qipan.learn', '{broken')")  # a damaged record is no progress
    page.reload()
    expect(page.locator('[data-course="tellstones"] .learn-count')).to_contain_text("0 of")


def test_a_lesson_ends_where_the_browser_refuses_to_store(open_page: OpenPage, server: Any) -> None:
    """Private mode or a full quota makes localStorage.setItem throw: the lesson still ends and
    offers the next one; only the progress is not remembered."""
    page = open_page(f"{server.base}/learn")
    page.context.add_init_script(
        "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };")
    lesson = courses()[0].lesson("sumito")
    page.goto(lesson_url(server, "abalone", "sumito"))
    page.wait_for_selector("#board svg")
    play(page, lesson.steps[0].solution)
    expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "correct")
    expect(page.locator("#learn-step")).to_have_text("Lesson complete!")
    expect(page.locator("#learn-next")).to_be_visible()
    page.goto(f"{server.base}/learn")
    expect(page.locator('[data-course="abalone"] li.done')).to_have_count(0)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_lobby_entry_chinese_and_phone(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    width, height = PHONE if size == "phone" else (1280, 800)
    page = open_page(server.base + "/", width, height)
    page.click("#learn-link")
    page.wait_for_selector(".learn-course")
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    expect(page.locator("h1")).to_have_text("學習下棋")
    shots(page, f"tutorial-courses-zh-{size}")
    lesson = courses()[0].lesson("blocked")
    page.goto(lesson_url(server, "abalone", "blocked"))
    expect(page.locator("#learn-prompt")).to_have_text(lesson.steps[0].prompt.zh)
    play(page, "e2e3")
    expect(page.locator("#learn-feedback")).to_contain_text("引擎不接受這一步： 不合規則的一步 e2e3：2 顆推不動 2 顆")
    shots(page, f"tutorial-abalone-refused-zh-{size}")
    page.goto(lesson_url(server, "tellstones", "peek"))
    play(page, "peek 4")
    expect(page.locator("#learn-feedback")).to_contain_text(courses()[1].lesson("peek").steps[0].done.zh)
    expect(page.locator("#ts-revealed")).to_have_attribute("data-stone", "scale")
    shots(page, f"tutorial-tellstones-peek-zh-{size}")
    # Nothing runs off the side of a phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The course list folds: one course open, a closed one opens on a tap of its title.
    page.goto(f"{server.base}/learn")
    closed = page.locator('[data-course="shengke"]')
    expect(closed.locator("li").first).to_be_hidden()
    closed.locator("summary").click()
    expect(closed.locator("li").first).to_be_visible()
    closed.locator("summary").press("Enter")  # (the keyboard folds it again)
    expect(closed.locator("li").first).to_be_hidden()
    tall = page.evaluate("document.documentElement.scrollHeight")
    print(f"/learn at {width} px wide: {tall} px tall")
    assert tall < 2 * PHONE[1], "the folded course list is a couple of phone screens at most"


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_axe_finds_nothing_serious(open_page: OpenPage, server: Any, theme: Literal["dark", "light"]) -> None:
    """axe-core on the course list and a lesson (with a refusal shown), at both sizes."""
    findings: list[str] = []
    for width, height in ((1280, 800), PHONE):
        page = open_page(f"{server.base}/learn", width, height)
        page.emulate_media(color_scheme=theme)
        page.wait_for_selector(".learn-course")
        findings += axe_findings(page, f"/learn {width}px {theme}")
        page.goto(lesson_url(server, "tellstones", "place"))
        page.wait_for_selector("#board svg")
        play(page, "place crown 2")
        expect(page.locator("#learn-feedback")).to_have_attribute("data-kind", "illegal")
        findings += axe_findings(page, f"lesson {width}px {theme}")
    assert not findings, "\n".join(findings)
