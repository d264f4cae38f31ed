"""Accessibility audit of every kind of page, in Debian's Chromium.

- axe-core (``axe-playwright-python``, pinned in the test extra) on the lobby, a game of each of
  the five games as a seat and as a spectator, the replay of a finished game (with its review
  offer), the analysis board and the five rules
  pages, at 1280×800 and 390×844, in English and 繁體中文, on the dark and the light theme:
  no serious or critical violation.
- The phone audit at 390×844 on the same pages: every visible control at least 44 px in its
  smaller dimension (exceptions below, each justified), no visible text under 12 px, no
  horizontal scroll, the board within the width.
- The keyboard: on the lobby and a game page, Tab reaches every control and each shows a focus
  indicator.

A failure lists every finding as ``page [size lang theme]: rule (impact): selector — what``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.e2e

GAMES = ("abalone", "chinese-checkers", "kelighine", "shengke", "tellstones")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LANGUAGES = {"en": "en", "zh": "zh-Hant"}
THEMES = ("dark", "light")
BLOCKING = ("serious", "critical")

MIN_TARGET = 44
"""Smallest side of a control on a phone, in CSS pixels (the issue's rule; WCAG 2.5.5)."""
MIN_BOARD_TARGET = 24
"""Board points and stones: the board fits 390 px, so a 13-hole row of Chinese Checkers cannot
give each hole 44 px; they are held to WCAG 2.5.8's 24 px minimum instead, and the move box
offers every move as text."""
MIN_TEXT = 12
"""Smallest computed font size of visible text, in CSS pixels (SVG text: as rendered)."""

EXCEPTIONS = {
    "inline link": "a link inside a sentence of text (WCAG 2.5.8's inline exception): its size is the line's",
    "board": f"a point, piece or stone of the board: at least {MIN_BOARD_TARGET} px (see MIN_BOARD_TARGET)",
}

CONTROLS = ("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], "
            "[role=tab], [role=checkbox], [role=radio], [tabindex]:not([tabindex='-1'])")


# -- pages -----------------------------------------------------------------------------------------


def wait_finished(server: Any, game_id: str, deadline: float = 120) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if server.api("GET", f"/api/games/{game_id}")["status"] == "finished":
            return
        time.sleep(0.5)
    raise AssertionError(f"the all-AI game {game_id} did not finish within {deadline} s")


@pytest.fixture(scope="module")
def pages(server: Any) -> dict[str, str]:
    """Name → path of every page audited (one game of each kind, a seat against the random AI)."""
    found = {"lobby": "/"}
    for game in GAMES:
        created = server.api("POST", "/api/games", {"game": game, "seats": [
            {"kind": "human"}, {"kind": "ai", "level": "random"}]})
        found[f"{game} seat"] = created["url"]
        found[f"{game} spectator"] = created["spectator_url"]
    done = server.api("POST", "/api/games", {"game": "tellstones", "seats": [
        {"kind": "ai", "level": "random"}, {"kind": "ai", "level": "random"}]})
    wait_finished(server, done["id"])
    found["replay"] = done["spectator_url"] + "#ply=3"
    found["analysis board"] = "/analysis?game=abalone"
    for game in GAMES:
        found[f"{game} rules"] = f"/static/rules/{game}.html"
    return found


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Any]:
    made: list[BrowserContext] = []
    errors: list[str] = []

    def make(size: str, language: str, theme: str) -> BrowserContext:
        width, height = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
        context.add_init_script(  # about:blank has no storage: only the server's pages are told
            f"try {{ localStorage.setItem('qipan.lang', {json.dumps(LANGUAGES[language])}); }} catch {{}}")
        context.set_default_timeout(20000)
        context.on("weberror", lambda error: errors.append(str(error.error)))
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def settle(page: Page, path: str) -> None:
    """Wait until the page has drawn what the audit looks at."""
    if path.startswith("/analysis"):
        page.wait_for_selector("#board svg")
        page.wait_for_selector("#an-line-list li", timeout=60000)
    elif path.startswith("/play/"):
        page.wait_for_selector("#board svg")
        page.wait_for_function("() => document.querySelector('#status')?.textContent.trim()")
    elif path == "/":
        page.wait_for_selector("main#app :is(section, form)")
    else:
        page.wait_for_selector("main h1 >> visible=true")
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")


def open_page(context: BrowserContext, server: Any, path: str) -> Page:
    page = context.new_page()
    page.goto(server.base + path)
    settle(page, path)
    return page


# -- axe -------------------------------------------------------------------------------------------

AXE = Axe()


def axe_findings(page: Page, where: str) -> list[str]:
    results = AXE.run(page, options={"resultTypes": ["violations"]}).response
    findings = []
    for violation in results["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            target = " ".join(map(str, node["target"]))
            summary = (node.get("failureSummary") or violation["help"]).replace("\n", " ")
            findings.append(f"{where}: {violation['id']} ({violation['impact']}): {target} — {summary[:300]}")
    return findings


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_no_serious_or_critical_violation(new_context: Any, server: Any, pages: dict[str, str],
                                                    size: str, language: str, theme: str) -> None:
    context = new_context(size, language, theme)
    findings: list[str] = []
    for name, path in pages.items():
        page = open_page(context, server, path)
        if language == "zh":
            assert page.evaluate("document.documentElement.lang") == "zh-Hant", f"{name} is not in 繁體中文"
        if name.endswith(" rules"):  # the page shows its text in the client's language, and only that
            shown = page.locator("main.rules > article:visible")
            assert shown.count() == 1 and shown.get_attribute("lang") == LANGUAGES[language], name
            heading = shown.locator("h2").first.inner_text()
            assert re.search(r"[\u4e00-\u9fff]", heading) if language == "zh" else heading.isascii(), heading
        findings += axe_findings(page, f"{name} [{size} {language} {theme}]")
        page.close()
    assert not findings, f"{len(findings)} serious or critical axe findings:\n" + "\n".join(findings)


# -- phone -----------------------------------------------------------------------------------------

PHONE_SCRIPT = """({controls, minTarget, minBoard, minText}) => {
  const out = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    // The content of a closed <details> is laid out but not shown: its summary is the control.
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0
      && !el.closest("[hidden], details:not([open]) > :not(summary)");
  };
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    const cls = typeof el.className === "string" ? el.className : el.getAttribute("class");
    if (cls) text += "." + cls.trim().split(/\\s+/).join(".");
    for (const a of ["data-cell", "data-hole", "data-slot", "data-seat", "name"]) {
      if (el.hasAttribute(a)) text += `[${a}="${el.getAttribute(a)}"]`;
    }
    const label = (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 30);
    return label ? `${text} "${label}"` : text;
  };
  const inline = (el) => {
    if (el.tagName !== "A") return false;
    const block = el.parentElement.closest("p, li, td, dd, small, .hint");
    return block !== null && getComputedStyle(el).display === "inline"
      && block.textContent.trim().length > el.textContent.trim().length;
  };
  const board = (el) => el.closest("#board") !== null;
  const seen = new Set();
  for (const el of document.querySelectorAll(controls)) {
    if (!visible(el) || seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    let side = Math.min(r.width, r.height);
    // A check box or radio inside its label is the label's target.
    const label = el.closest("label");
    if (label && el.matches("input")) {
      const l = label.getBoundingClientRect();
      side = Math.max(side, Math.min(l.width, l.height));
    }
    if (inline(el)) continue;
    const limit = board(el) ? minBoard : minTarget;
    const size = `${r.width.toFixed(0)}×${r.height.toFixed(0)} px`;
    if (side + 0.5 < limit) out.push(["target", `${name(el)}: ${size}, under ${limit} px`]);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const small = new Map();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !visible(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const ctm = el.getScreenCTM();
      if (ctm) size *= Math.hypot(ctm.a, ctm.b);
    }
    if (size + 0.05 < minText && !small.has(el)) small.set(el, size);
  }
  for (const [el, size] of small) out.push(["text", `${name(el)}: ${size.toFixed(1)} px text, under ${minText} px`]);
  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) out.push(["scroll", `the page is ${width} px wide in a ${innerWidth} px viewport`]);
  const svg = document.querySelector("#board svg");
  if (svg) {
    const r = svg.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5) {
      out.push(["board", `the board spans ${r.left.toFixed(0)}..${r.right.toFixed(0)} px of ${innerWidth}`]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_phone_targets_text_and_width(new_context: Any, server: Any, pages: dict[str, str], language: str) -> None:
    context = new_context("phone", language, "dark")
    findings = []
    for name, path in pages.items():
        page = open_page(context, server, path)
        for kind, text in page.evaluate(PHONE_SCRIPT, {"controls": CONTROLS, "minTarget": MIN_TARGET,
                                                       "minBoard": MIN_BOARD_TARGET, "minText": MIN_TEXT}):
            findings.append(f"{name} [phone {language}]: {kind}: {text}")
        page.close()
    assert not findings, f"{len(findings)} phone findings:\n" + "\n".join(findings)


# -- keyboard --------------------------------------------------------------------------------------

FOCUS_STYLE = """(el) => {
  // What may show focus: the element's outline, shadow, colours; an SVG group's first shape; the
  // label next to a visually hidden check box or radio button.
  const s = getComputedStyle(el);
  const first = el.firstElementChild ? getComputedStyle(el.firstElementChild) : null;
  const next = el.matches("input") && el.nextElementSibling ? getComputedStyle(el.nextElementSibling) : null;
  return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor, s.color,
          s.textDecorationLine, first ? first.stroke + " " + first.strokeWidth + " " + first.outlineStyle : "",
          next ? next.outlineStyle + " " + next.outlineWidth + " " + next.boxShadow : ""].join("|");
}"""

MARK_CONTROLS = """(controls) => {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden"
      && !el.closest("[hidden], [inert], details:not([open]) > :not(summary)")
      && !el.disabled && el.tabIndex >= 0;
  };
  let n = 0;
  const names = {};
  const groups = {};
  for (const el of document.querySelectorAll(controls)) {
    if (!visible(el)) continue;
    // Tab stops once in a group of radio buttons (the arrow keys move within it): one key for all.
    if (el.type === "radio" && el.name) {
      const key = `radio:${el.form?.id ?? ""}:${el.name}`;
      if (key in groups) { el.dataset.audit = groups[key]; continue; }
      groups[key] = String(n);
    }
    el.dataset.audit = String(n);
    names[n] = (el.id ? "#" + el.id + " " : "") + el.tagName.toLowerCase() + " "
      + (el.getAttribute("aria-label") || el.textContent || el.name || "").trim().slice(0, 30);
    n += 1;
  }
  return names;
}"""


def keyboard_findings(page: Page, where: str) -> list[str]:
    # Open every <details> first, so the controls inside (the seat link's Copy) are checked too.
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    names: dict[str, str] = page.evaluate(MARK_CONTROLS, CONTROLS)
    resting = {key: page.locator(f'[data-audit="{key}"]').first.evaluate(FOCUS_STYLE) for key in names}
    reached: set[str] = set()
    invisible: list[str] = []
    page.evaluate("() => document.activeElement?.blur()")
    for _ in range(3 * len(names) + 10):
        page.keyboard.press("Tab")
        key = page.evaluate("() => document.activeElement?.dataset?.audit ?? null")
        if key is None:
            continue
        if key in reached:
            if len(reached) == len(names):
                break
            continue
        reached.add(key)
        focused = page.evaluate(f"() => ({FOCUS_STYLE})(document.activeElement)")
        if focused == resting[key]:
            invisible.append(names[key])
    findings = [f"{where}: Tab never reaches {names[k]}" for k in names if k not in reached]
    findings += [f"{where}: no visible focus on {name}" for name in invisible]
    return findings


@pytest.mark.parametrize("size", SIZES)
def test_tab_reaches_every_control_with_visible_focus(new_context: Any, server: Any, pages: dict[str, str],
                                                      size: str) -> None:
    context = new_context(size, "en", "dark")
    findings = []
    for name in ("lobby", "abalone seat", "tellstones seat", "shengke spectator"):
        page = open_page(context, server, pages[name])
        findings += keyboard_findings(page, f"{name} [{size}]")
        page.close()
    assert not findings, f"{len(findings)} keyboard findings:\n" + "\n".join(findings)
