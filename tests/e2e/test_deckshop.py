"""The Sheng-Ke deck workshop in Chromium (issue 22): a deck built in the browser with every rule
checked live, kept in localStorage, exported and imported as the files `qipan deck` reads, and
played against the AI; the rules page's range table; Chinese and phone size."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from qipan.games.shengke.cards import deck_json, deck_problems, default_deck, default_deck_text

pytestmark = pytest.mark.e2e

OpenPage = Callable[..., Page]
PHONE = (390, 844)
WORKSHOP = "/static/workshop/shengke.html"


def test_the_workshop_starts_from_the_built_in_deck() -> None:
    shipped = Path(__file__).resolve().parents[2] / "src/qipan/web/workshop/default-deck.json"
    assert shipped.read_text(encoding="utf-8").strip() == deck_json(default_deck())


def problems(page: Page) -> str:
    return page.inner_text("#deck-problems")


def test_a_deck_built_in_the_browser_is_played_against_the_ai(open_page: OpenPage, server: Any, shots: Any,
                                                               tmp_path: Path) -> None:
    page = open_page(server.base + WORKSHOP)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    assert page.locator(".deck-card:not(.deck-head)").count() == 25
    # Range 4 (front, back, left, right) is drawn for 青翼龍's in number; 5 (the diagonals) once changed.
    grid = page.locator("#card-0-in-range .sk-range > span.sk-on")
    expect(grid).to_have_count(4)
    page.fill("#card-0-in", "5")
    assert page.locator("#card-0-in-range .sk-range").get_attribute("aria-label") == "in range 5"
    expect(page.locator("#deck-problems")).to_contain_text("the in numbers add up to 101; they must add up to "
                                                           "exactly 100")
    expect(page.locator("#deck-play")).to_be_disabled()
    page.fill("#card-1-in", "2")  # 101 - 1: legal again
    page.fill("#card-0-name", "青雲龍")
    page.fill("#card-0-id", "sky1")
    page.select_option("#card-0-element", "fire")
    expect(page.locator("#deck-problems")).to_contain_text("the deck has 4 wood cards; it needs exactly 5")
    expect(page.locator("#deck-problems")).to_contain_text("the deck has 6 fire cards; it needs exactly 5")
    page.select_option("#card-0-element", "wood")
    page.fill("#card-3-out", "9")
    expect(page.locator("#card-3-out")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#deck-problems")).to_contain_text("card 4 (wood4): out number 9 is outside 1..8")
    page.fill("#card-3-out", "2")
    page.fill("#deck-name", "my sky deck")
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    expect(page.locator("#deck-play")).to_be_enabled()
    shots(page, "deckshop-desktop")

    # Saved in the browser, and the open deck survives a reload.
    page.click("#deck-save")
    expect(page.locator("#deck-saved-list option")).to_have_text(["my sky deck"])
    page.reload()
    expect(page.locator("#card-0-name")).to_have_value("青雲龍")

    # Exported files are legal deck files for qipan.
    with page.expect_download() as download:
        page.click("#deck-export-json")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert deck_problems(exported) == [] and exported["cards"][0] == {
        "id": "sky1", "name": "青雲龍", "element": "wood", "in": 5, "out": 3}
    with page.expect_download() as download:
        page.click("#deck-export-toml")
    toml = tomllib.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert deck_problems(toml) == [] and toml == exported

    # Playing it: the deck travels inline as 甲's deck, the deck chosen for the AI (the built-in
    # one unless another is chosen; here the saved one, while 甲's is edited further) as 乙's.
    expect(page.locator("#deck-ai-deck")).to_have_value("built-in")
    expect(page.locator("#deck-ai-deck option")).to_have_text(["the built-in deck", "the same as yours", "my sky deck"])
    page.fill("#card-0-name", "玩家龍")
    page.fill("#deck-name", "player deck")
    page.select_option("#deck-ai-deck", "saved:my sky deck")
    page.select_option("#deck-level", "random")
    page.click("#deck-play")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    summary = server.api("GET", f"/api/games/{game_id}")
    mine = json.loads(summary["options"]["deck_0"])
    assert mine["name"] == "player deck" and mine["cards"][0]["name"] == "玩家龍"
    assert json.loads(summary["options"]["deck_1"]) == exported
    assert summary["seats"][1]["kind"] == "ai" and summary["seats"][1]["level"] == "random"
    expect(page.locator("#board svg")).to_be_visible()
    for _ in range(3):  # a die showing 6 asks for its element first
        expect(page.locator("#status.mine")).to_have_count(1, timeout=30_000)
        picks = page.locator('#sk-hand [data-move^="pick "]')
        if not picks.count():
            break
        picks.first.click()
    hand = page.locator("#sk-hand [data-hand]")
    expect(hand.first).to_be_visible()
    deck = {card["id"] for card in exported["cards"]}
    assert {hand.nth(i).get_attribute("data-hand") for i in range(hand.count())} <= deck
    shots(page, "deckshop-game")
    # The record holds both decks inline: it replays anywhere.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#resign")).to_be_disabled()
    record = server.api("GET", f"/api/games/{game_id}/record")
    assert json.loads(record["options"]["deck_0"]) == mine and json.loads(record["options"]["deck_1"]) == exported


def test_the_ai_plays_the_deck_chosen_for_it(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + WORKSHOP)
    saved_deck(page, "ai deck", "電腦龍")
    broken = json.loads(deck_json(default_deck()))
    broken["cards"][0]["in"] = 9
    page.evaluate("""(broken) => {
      const decks = JSON.parse(localStorage.getItem('qipan.shengke.decks'));
      decks.broken = broken;
      localStorage.setItem('qipan.shengke.decks', JSON.stringify(decks));
    }""", broken)
    page.reload()
    expect(page.locator("#deck-ai-deck option")).to_have_text([
        "the built-in deck", "the same as yours", "ai deck", "broken (not a legal deck)"])
    expect(page.locator('#deck-ai-deck option[value="saved:broken"]')).to_be_disabled()
    page.fill("#card-0-name", "同一龍")

    def played(choice: str | None) -> dict[str, Any]:
        page.goto(server.base + WORKSHOP)
        if choice is not None:
            page.select_option("#deck-ai-deck", choice)
        page.click("#deck-play")
        page.wait_for_url("**/play/**")
        game_id = page.url.split("/play/")[1].split("#")[0]
        options: dict[str, Any] = server.api("GET", f"/api/games/{game_id}")["options"]
        return options

    built_in = played(None)  # nothing chosen: the built-in deck, inline all the same
    assert built_in["deck_1"] == deck_json(default_deck())
    assert json.loads(built_in["deck_0"])["cards"][0]["name"] == "同一龍"
    same = played("same")
    assert same["deck_1"] == same["deck_0"] and json.loads(same["deck_1"])["cards"][0]["name"] == "同一龍"
    chosen = played("saved:ai deck")
    assert json.loads(chosen["deck_1"])["cards"][0]["name"] == "電腦龍"


def test_files_are_imported_with_their_problems_or_refused(open_page: OpenPage, server: Any, tmp_path: Path) -> None:
    page = open_page(server.base + WORKSHOP)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    bad = tmp_path / "bad.toml"
    bad.write_text(default_deck_text().replace('name = "青翼龍"\nelement = "wood"\nin = 4', 'name = "青翼龍"\n'
                                                                                            'element = "wood"\nin = 9'),
                   encoding="utf-8")
    data = tomllib.loads(bad.read_text(encoding="utf-8"))
    assert deck_problems(data) == ["card 1 (wood1): in number 9 is outside 1..8",
                                   "the in numbers add up to 96; they must add up to exactly 100"]
    page.set_input_files("#deck-import", str(bad))
    expect(page.locator("#deck-file-note")).to_have_text("Read “五行 default”: not a legal deck yet, its problems are "
                                                         "listed above.")
    expect(page.locator("#deck-problems li")).to_have_text(deck_problems(data))
    expect(page.locator("#card-0-in")).to_have_attribute("aria-invalid", "true")
    garbage = tmp_path / "garbage.json"
    garbage.write_text('{"cards": 7}', encoding="utf-8")
    page.set_input_files("#deck-import", str(garbage))
    expect(page.locator("#deck-file-note")).to_have_text("That file holds no deck: it needs a list 'cards' of tables "
                                                         "with id, name, element, in and out.")
    assert page.input_value("#card-0-in") == "9"  # the deck shown is unchanged
    many = tmp_path / "many.json"  # not "no deck": too many to open
    many.write_text(json.dumps({"cards": [{"in": 1}] * 101}), encoding="utf-8")
    page.set_input_files("#deck-import", str(many))
    expect(page.locator("#deck-file-note")).to_have_text("That file has 101 cards; a deck has 25, and the workshop "
                                                         "opens at most 100.")
    legal = tmp_path / "legal.toml"
    legal.write_text(default_deck_text(), encoding="utf-8")
    page.set_input_files("#deck-import", str(legal))
    expect(page.locator("#deck-file-note")).to_have_text("Read “五行 default”.")
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")


@pytest.mark.parametrize("kind", ["json", "toml"])
def test_unknown_fields_and_float_numbers_are_not_dropped_on_import(open_page: OpenPage, server: Any, shots: Any,
                                                                    tmp_path: Path, kind: str) -> None:
    """A file `qipan deck check` refuses for a card's unknown fields or an ``in = 4.0`` is never
    read as a legal deck: its problems are deck check's, until the fields are removed and 4 typed."""
    data = json.loads(deck_json(default_deck()))
    data["cards"][0]["in"] = 4.0
    data["cards"][1]["power"] = 3
    data["cards"][2].update({"note": "x", "rare": True})
    file = tmp_path / f"extra.{kind}"
    file.write_text(json.dumps(data, ensure_ascii=False) if kind == "json" else toml_text(data), encoding="utf-8")
    read = tomllib.loads(file.read_text(encoding="utf-8")) if kind == "toml" else json.loads(file.read_text("utf-8"))
    assert read == data and isinstance(read["cards"][0]["in"], float)
    checked = deck_problems(read)
    assert checked == ["card 1 (wood1): in number 4.0 must be a whole number from 1 to 8",
                       "card 2 (wood2) has unknown field(s) 'power'",
                       "card 3 (wood3) has unknown field(s) 'note', 'rare'",
                       "the in numbers add up to 96; they must add up to exactly 100"]
    width, height = PHONE if kind == "toml" else (1280, 800)  # the phone size with one of them
    page = open_page(server.base + WORKSHOP, width=width, height=height)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    page.set_input_files("#deck-import", str(file))
    expect(page.locator("#deck-problems li")).to_have_text(checked)
    expect(page.locator("#deck-file-note")).to_contain_text("its problems are listed above")
    expect(page.locator("#card-0-in")).to_have_value("4.0")
    assert page.evaluate("(e => e.scrollWidth <= e.clientWidth)(document.getElementById('card-0-in'))")  # all seen
    expect(page.locator("#deck-play")).to_be_disabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots(page, f"deckshop-import-{kind}")
    for button, parse in (("#deck-export-json", json.loads), ("#deck-export-toml", tomllib.loads)):
        with page.expect_download() as download:  # exported as it was read: 4.0 and the unknown fields
            page.click(button)
        exported = parse(Path(download.value.path()).read_text(encoding="utf-8"))
        assert exported == data and deck_problems(exported) == checked  # 4.0 == 4 in Python: deck_problems tells
    page.click("#deck-drop-unknown")
    expect(page.locator("#deck-problems li")).to_have_text([checked[0], checked[3]])
    expect(page.locator("#deck-drop-unknown")).to_have_count(0)
    page.fill("#card-0-in", "4")
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")


TOML_CARDS = {  # a card's lines as tomllib reads them (None: refused), each once read otherwise here
    r'name = "a\/b"': None, r'name = "\ud800"': None, r'name = "\U0000DFFF"': None, 'name = "a\x7f"': None,
    "name = 'a\x01'": None, 'name = "tab\there"': [{"name": "tab\there"}], '"in" = 3': [{"in": 3}],
    "'out' = 2.0": [{"out": 2.0}], 'in = 1\n"in" = 2': None, '"__proto__" = 1': [{"__proto__": 1}],
    r'name = "\b\t\n\f\r\"\\\u00e9\U0001F600"': [{"name": '\b\t\n\f\r"\\é😀'}],
    "\u00a0in = 3": None,
}


def test_toml_files_are_read_as_tomllib_reads_them(open_page: OpenPage, server: Any) -> None:
    """What tomllib refuses (\\/, a surrogate's escape, DEL, a control character, a key given
    twice, quoted or not) is refused; what it reads (a tab, quoted keys) is read the same."""
    page = open_page(server.base + WORKSHOP)
    for lines, cards in TOML_CARDS.items():
        text = f'name = "d"\n[[cards]]\n{lines}\n'
        try:
            assert tomllib.loads(text)["cards"] == cards, lines
        except tomllib.TOMLDecodeError:
            assert cards is None, lines
        read = page.evaluate("""async (text) => { const m = await import('/static/js/deckfile.js');
          const read = m.readDeck(text, true); return read.deck ? m.pyRepr(read.deck.cards) : null; }""", text)
        assert read == (None if cards is None else repr(cards)), lines
    # written back as TOML tomllib reads: DEL escaped, an odd key quoted
    data = {"name": "a\x7f", "cards": [{"in x": "\x7f"}]}
    written = page.evaluate("""async (data) => (await import('/static/js/deckfile.js')).deckToml(data)""", data)
    assert tomllib.loads(written) == data


def test_a_deep_deck_or_one_named_proto_is_saved_with_the_others(open_page: OpenPage, server: Any,
                                                                 tmp_path: Path) -> None:
    """A file nested as deep as Python reads (32 levels) is saved, and the decks saved before it
    stay (they were all read as none, and the next Save wrote over them); so is a deck named
    __proto__ (it was set as the saved decks' prototype: never kept)."""
    page = open_page(server.base + WORKSHOP)
    saved_deck(page, "kept", "留龍")
    page.reload()
    data = json.loads(deck_json(default_deck()))
    data["name"] = "deep"
    nested: Any = 1
    for _ in range(29):  # the deck, its cards, a card: 32 levels
        nested = [nested]
    data["cards"][0]["extra"] = nested
    file = tmp_path / "deep.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert deck_problems(json.loads(file.read_text("utf-8"))) == ["card 1 (wood1) has unknown field(s) 'extra'"]
    page.set_input_files("#deck-import", str(file))
    expect(page.locator("#deck-problems li")).to_have_text(["card 1 (wood1) has unknown field(s) 'extra'"])
    page.click("#deck-save")
    page.fill("#deck-name", "__proto__")
    page.click("#deck-save")
    page.reload()
    expect(page.locator("#deck-saved-list option")).to_have_text(["__proto__", "deep", "kept"])
    expect(page.locator("#deck-name")).to_have_value("__proto__")  # the draft, as deep, read back too
    expect(page.locator("#card-0-in")).to_have_value("4")
    assert page.evaluate("({}).extra === undefined && Object.prototype.cards === undefined")


def test_a_file_with_a_huge_deck_name_is_not_echoed(open_page: OpenPage, server: Any, shots: Any,
                                                    tmp_path: Path) -> None:
    """A deck name of 3,000 characters (a problem, but a file may hold it) is cut where the page
    names the deck (the notes, the saved decks, the AI's deck), and the phone page keeps its width."""
    data = json.loads(deck_json(default_deck()))
    data["name"] = "名" * 3000
    file = tmp_path / "long.json"
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    page = open_page(server.base + WORKSHOP, width=PHONE[0], height=PHONE[1])
    page.set_input_files("#deck-import", str(file))
    cut = "名" * 40 + "…"
    expect(page.locator("#deck-file-note")).to_have_text(f"Read “{cut}”: not a legal deck yet, its problems are "
                                                         "listed above.")
    page.click("#deck-save")
    expect(page.locator("#deck-file-note")).to_have_text(f"Saved “{cut}” in this browser.")
    expect(page.locator("#deck-saved-list option")).to_have_text([cut])
    expect(page.locator('#deck-ai-deck option[value^="saved:"]')).to_have_text([f"{cut} (not a legal deck)"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    shots(page, "deckshop-long-name-phone")


def test_a_full_browser_storage_is_said_when_saving(open_page: OpenPage, server: Any) -> None:
    page = open_page(server.base + WORKSHOP)
    saved_deck(page, "kept", "留龍")
    page.reload()
    page.evaluate("""() => {  // fill this origin's storage (Chromium: about 5 MiB) to the last characters
      for (let size = 1 << 20, i = 0; size >= 16; size >>= 1) {
        try { for (;;) localStorage.setItem(`fill${i++}`, "x".repeat(size)); } catch {}
      }
    }""")
    page.fill("#deck-name", "no room")
    page.click("#deck-save")
    expect(page.locator("#deck-file-note")).to_have_text(
        "This browser has no room left to keep “no room”: delete a saved deck, or download it as a file.")
    expect(page.locator("#deck-file-note")).to_have_class(re.compile("error"))
    expect(page.locator("#deck-saved-list option")).to_have_text(["kept"])


def toml_text(data: dict[str, Any]) -> str:
    """A deck as a TOML file (names, cards of text, numbers and true/false)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return repr(v) if isinstance(v, int | float) else json.dumps(v)
    lines = [f"name = {value(data['name'])}"] if "name" in data else []
    for card in data["cards"]:
        lines += ["[[cards]]", *(f"{key} = {value(v)}" for key, v in card.items())]
    return "\n".join(lines) + "\n"


def illegal_decks(files: bool = False) -> list[Any]:
    """Decks with every kind of problem deck_problems names, one or several per deck; ``files``:
    three more only a file can hold."""
    def deck(**changes: Any) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(deck_json(default_deck()))
        for number, fields in changes.items():
            card = data["cards"][int(number[1:]) - 1]
            for key, value in fields.items():
                if value is None:
                    del card[key]
                else:
                    card[key] = value
        return data

    wrong_count = deck()
    del wrong_count["cards"][24]
    wrong_count["cards"][3] = 7
    named = deck()
    named["name"] = "x" * 41
    unnamed = deck(c1={"in": 4.5})
    del unnamed["name"]
    if files:  # what JSON.parse (and so a deck handed to the page as is) loses: floats of every
        # size, unknown fields, values of any kind
        floats = deck(c1={"in": 4.0, "out": 3e0}, c2={"power": 1.5, "Note": "x", "__proto__": 1},
                      c3={"in": 1e-7, "out": 1e16}, c4={"in": 12345678901234567890})
        floats["cards"][1]["ünï"] = None
        values = deck(c5={"in": [1, 2.0], "out": {"a": None, "b": [True]}}, c6={"element": 4.0, "id": 7, "name": False})
        return [floats, values, {**deck(c9={"extra": {"deep": [1.0]}}), "name": 5}]
    return [
        deck(c1={"in": 9}, c3={"out": ""}, c4={"out": 0}),
        deck(c2={"id": "bad id!"}, c5={"id": "WOOD1"}, c7={"id": "x" * 300, "in": True}),
        deck(c4={"in": None, "name": None}, c6={"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, c7={"zz": "1"}),
        deck(c8={"name": "青\u200b龍"}, c9={"name": "名" * 25}, c10={"element": "stone"}, c11={"element": " Fire "}),
        deck(c12={"name": "  ", "element": "it's \"odd\"\n", "out": "3"}),
        wrong_count, named, unnamed, {"name": "", "cards": "none"},
    ]


def test_the_live_problems_are_the_messages_of_deck_check(open_page: OpenPage, server: Any) -> None:
    decks = illegal_decks()
    page = open_page(server.base + WORKSHOP)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    shown = page.evaluate("""async (decks) => {
      const { deckProblems, problemText } = await import("/static/js/deckfile.js");
      const words = (await import("/static/i18n/deckshop.js")).default;
      return decks.map((deck) => ["en", "zh-Hant"].map((language) =>
        deckProblems(deck).problems.map((problem) => problemText(problem, words[language]))));
    }""", decks)
    for deck, (english, chinese) in zip(decks, shown, strict=True):
        assert english == deck_problems(deck)
        assert len(chinese) == len(english)
        assert all(not re.search(r"\{\w+\}", text) and "undefined" not in text for text in chinese)
        assert not set(chinese) & set(english)
    # The same decks and more as files (JSON.parse reads 4.0 as 4), read as the import reads them.
    decks += illegal_decks(files=True)
    files = [(json.dumps(deck, ensure_ascii=False), False) for deck in decks]
    files += [(toml_text(deck), True) for deck in decks if expressible_in_toml(deck)]
    legal = deck_json(default_deck())
    for spelling in ("4", "4.0", "4e0", "40E-1", "4.00"):  # 4 is legal, every other spelling a float
        files.append((legal.replace('"in":4,', f'"in":{spelling},', 1), False))
        files.append((toml_text(json.loads(legal)).replace("in = 4\n", f"in = {spelling}\n", 1), True))
    imported = page.evaluate("""async (files) => {
      const { deckProblems, problemText, readDeck } = await import("/static/js/deckfile.js");
      const words = (await import("/static/i18n/deckshop.js")).default;
      return files.map(([text, toml]) => {
        const read = readDeck(text, toml);
        if (!read.deck) return read.error;
        return ["en", "zh-Hant"].map((language) =>
          deckProblems(read.deck).problems.map((problem) => problemText(problem, words[language])));
      });
    }""", files)
    assert len(files) == 2 * len(decks) + 10 - 5  # five decks have a value TOML cannot hold
    for (text, toml), problems in zip(files, imported, strict=True):
        python = deck_problems(tomllib.loads(text) if toml else json.loads(text))
        if isinstance(problems, str):  # refused as no deck: Python finds a card that is no table, or no cards
            assert problems == "deck.e.noCards" and any("must be a table" in p or "'cards'" in p for p in python)
        else:
            english, chinese = problems
            assert english == python, text[:200]
            assert len(chinese) == len(english) and not set(chinese) & set(english)
    assert [problems[0] for problems in imported[-10::2]] == [  # the JSON spellings of card 1's in number
        [], *[["card 1 (wood1): in number 4.0 must be a whole number from 1 to 8",
               "the in numbers add up to 96; they must add up to exactly 100"]] * 4]
    # The marks: the fields of a problem's card are marked in the editor.
    page.fill("#card-4-id", "WOOD1")
    page.fill("#card-5-in", "")
    expect(page.locator("#deck-problems li")).to_have_text([
        "card 5 (WOOD1): duplicate id (card 1 has it too)",
        "card 6 (fire1): in number '' must be a whole number from 1 to 8",
        "the in numbers add up to 97; they must add up to exactly 100"])
    expect(page.locator("#card-4-id")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#card-5-in")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#card-5-out")).not_to_have_attribute("aria-invalid", "true")


def expressible_in_toml(deck: Any) -> bool:
    def plain(v: Any) -> bool:
        return isinstance(v, str | int | float | bool) and (not isinstance(v, int) or abs(v) < 2**63)
    return (isinstance(deck, dict) and isinstance(deck.get("cards"), list) and plain(deck.get("name", ""))
            and all(isinstance(c, dict) and all(plain(v) and re.fullmatch("[A-Za-z0-9_-]+", k) for k, v in c.items())
                    for c in deck["cards"]))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_chinese_and_phone(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    width, height = PHONE if size == "phone" else (1280, 800)
    page = open_page(server.base + WORKSHOP, width=width, height=height)
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    expect(page.locator("h1")).to_have_text("生剋棋牌組工坊")
    expect(page.locator("#deck-problems")).to_have_text("合法的牌組。")
    page.fill("#card-2-in", "")
    expect(page.locator("#deck-problems")).to_contain_text("第 3 張（wood3）：入數字 '' 須為 1 到 8 的整數")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots(page, f"deckshop-zh-{size}")


def test_the_rules_page_draws_the_range_table(open_page: OpenPage, server: Any, shots: Any) -> None:
    page = open_page(server.base + "/static/rules/shengke.html")
    tables = page.locator("ol.sk-table")
    expect(tables).to_have_count(1)
    expect(tables.locator("li")).to_have_count(8)
    counts = [tables.locator("li").nth(i).locator(".sk-range > span.sk-on").count() for i in range(8)]
    assert counts == [1, 2, 3, 4, 4, 6, 5, 8]
    expect(tables.locator(".sk-range").nth(2)).to_have_attribute("aria-label", "range 3: front, left and right")
    expect(tables.locator(".sk-range").nth(4)).to_have_attribute(
        "aria-label", "range 5: front left, front right, back left and back right")
    expect(page.locator(".sk-custom")).to_be_hidden()
    page.goto(server.base + "/static/rules/shengke.html?ranges=8/8/8/8/8/8/8/12346789")
    expect(page.locator(".sk-custom")).to_contain_text("8/8/8/8/8/8/8/12346789")
    counts = [tables.locator("li").nth(i).locator(".sk-range > span.sk-on").count() for i in range(8)]
    assert counts == [1] * 7 + [8]
    shots(page, "shengke-rules-ranges")
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-Hant')")
    page.reload()
    expect(tables.locator(".sk-range").nth(7)).to_have_attribute("aria-label",
                                                                 "範圍 8：左前、前、右前、左、右、左後、後、右後")
    # A game's page links to its own table.
    created = server.api("POST", "/api/games", {"game": "shengke", "options": {"ranges": "8/8/8/8/8/8/8/12346789"}})
    game = open_page(server.base + created["url"])
    rules = game.locator('a[href^="/static/rules/shengke.html"]').first
    expect(rules).to_have_attribute("href", "/static/rules/shengke.html?ranges=8%2F8%2F8%2F8%2F8%2F8%2F8%2F12346789")
    page.goto(server.base + "/static/rules/shengke.html?ranges=8/46/846/8246/7913/789123/47896/78946123")
    expect(tables.locator("li")).to_have_count(8)
    expect(page.locator(".sk-custom")).to_be_hidden()  # the documented table is no table of its own


def test_an_invited_player_takes_their_seat_with_their_deck(open_page: OpenPage, server: Any, shots: Any) -> None:
    created = server.api("POST", "/api/games", {"game": "shengke"})
    link = server.base + next(s["url"] for s in created["seats"] if s["seat"] == 1)
    page = open_page(server.base + WORKSHOP)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    page.fill("#deck-invite", server.base + "/play/nothing")
    page.click("#deck-join")
    expect(page.locator("#deck-join-error")).to_have_text(
        "That is not an invitation link (it looks like …/play/GAME#invite=CODE).")
    page.fill("#card-0-name", "客龍")
    page.fill("#card-0-in", "9")
    expect(page.locator("#deck-join")).to_be_disabled()
    page.fill("#card-0-in", "4")
    page.fill("#deck-invite", link)
    shots(page, "deckshop-join")
    page.click("#deck-join")
    page.wait_for_url(f"**/play/{created['id']}")
    options = server.api("GET", f"/api/games/{created['id']}")["options"]
    assert options["deck_0"] == "default"
    assert json.loads(options["deck_1"])["cards"][0]["name"] == "客龍"
    expect(page.locator("#board svg")).to_be_visible()


def test_a_saved_deck_is_chosen_in_the_lobby_against_the_ai(open_page: OpenPage, server: Any, shots: Any) -> None:
    page = open_page(server.base + WORKSHOP)
    expect(page.locator("#deck-problems")).to_have_text("A legal deck.")
    page.fill("#card-0-name", "大廳龍")
    page.fill("#deck-name", "lobby deck")
    page.click("#deck-save")
    page.goto(server.base + "/?game=shengke")
    page.wait_for_selector(".seat-row")
    expect(page.locator("#create-deck option")).to_have_text(["the built-in deck", "lobby deck"])
    page.select_option("#create-deck", "lobby deck")
    page.click('.seat-row[data-seat="1"] [data-kind="ai"]')
    shots(page, "deckshop-lobby")
    page.click("#create-game")
    page.wait_for_selector("#invite")
    href = page.locator("#play-first").get_attribute("href") or ""
    summary = server.api("GET", "/api/games/" + href.split("/play/")[1].split("#")[0])
    assert json.loads(summary["options"]["deck_0"])["cards"][0]["name"] == "大廳龍"
    assert summary["options"]["deck_1"] == "default" and summary["seats"][1]["kind"] == "ai"


def saved_deck(page: Page, name: str, first_card: str) -> str:
    """Keep a deck in this browser's workshop storage, as the workshop's Save does; its JSON."""
    data = json.loads(deck_json(default_deck()))
    data["name"] = name
    data["cards"][0]["name"] = first_card
    page.evaluate("(decks) => localStorage.setItem('qipan.shengke.decks', JSON.stringify(decks))", {name: data})
    return json.dumps(data)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_invited_player_chooses_their_deck_on_the_invitation_page(open_page: OpenPage, server: Any, shots: Any,
                                                                     size: str) -> None:
    set_for_them = json.loads(deck_json(default_deck()))
    set_for_them["name"] = "the creator's pick"
    created = server.api("POST", "/api/games", {"game": "shengke", "seat": 0,
                                                "options": {"deck_1": json.dumps(set_for_them)}})
    link = server.base + next(s["url"] for s in created["seats"] if s["seat"] == 1)
    width, height = PHONE if size == "phone" else (1280, 800)
    page = open_page(server.base + WORKSHOP, width=width, height=height)
    saved_deck(page, "my own deck", "我的龍")
    page.goto(link)
    dialog = page.locator("#bring-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#bring-set")).to_contain_text("set this deck for your seat: the creator's pick.")
    expect(page.locator("#bring-deck option")).to_have_text([
        "the deck set for your seat: the creator's pick", "the built-in deck", "my own deck"])
    expect(page.locator("#bring-cancel")).to_have_count(0)  # the invitation is used by taking the seat
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots(page, f"deckshop-invite-{size}")
    page.select_option("#bring-deck", "my own deck")
    page.click("#bring-take")
    expect(page.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    options = server.api("GET", f"/api/games/{created['id']}")["options"]
    assert json.loads(options["deck_1"])["cards"][0]["name"] == "我的龍"


def test_a_saved_deck_with_problems_is_not_brought_and_one_named_default_is_itself(open_page: OpenPage,
                                                                                    server: Any, shots: Any) -> None:
    created = server.api("POST", "/api/games", {"game": "shengke", "seat": 0})
    link = server.base + next(s["url"] for s in created["seats"] if s["seat"] == 1)
    page = open_page(server.base + WORKSHOP, width=PHONE[0], height=PHONE[1])
    mine = json.loads(saved_deck(page, "default", "非內建龍"))
    broken = json.loads(deck_json(default_deck()))
    broken["cards"][0]["in"] = 9
    page.evaluate("(decks) => localStorage.setItem('qipan.shengke.decks', JSON.stringify(decks))",
                  {"default": mine, "broken": broken})
    page.goto(link)
    expect(page.locator("#bring-deck option")).to_have_text([
        "the deck set for your seat: the built-in deck", "broken (not a legal deck)", "default"])
    expect(page.locator("#bring-deck option").nth(1)).to_be_disabled()
    page.select_option("#bring-deck", index=2)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    shots(page, "deckshop-invite-illegal-phone")
    page.click("#bring-take")
    expect(page.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    options = server.api("GET", f"/api/games/{created['id']}")["options"]
    assert json.loads(options["deck_1"])["cards"][0]["name"] == "非內建龍"  # not "default": the built-in deck


def test_an_invited_player_keeps_the_deck_set_for_their_seat(open_page: OpenPage, server: Any) -> None:
    set_for_them = json.loads(deck_json(default_deck()))
    set_for_them["name"] = "the creator's pick"
    set_for_them["cards"][0]["name"] = "主人龍"
    created = server.api("POST", "/api/games", {"game": "shengke", "seat": 0,
                                                "options": {"deck_1": json.dumps(set_for_them)}})
    link = server.base + next(s["url"] for s in created["seats"] if s["seat"] == 1)
    page = open_page(link)  # no saved deck: still told which deck is theirs, and may take the built-in one
    expect(page.locator("#bring-deck option")).to_have_text([
        "the deck set for your seat: the creator's pick", "the built-in deck"])
    page.keyboard.press("Escape")  # the invitation is not given up
    expect(page.locator("#bring-dialog")).to_be_visible()
    page.click("#bring-take")
    expect(page.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    options = server.api("GET", f"/api/games/{created['id']}")["options"]
    assert json.loads(options["deck_1"])["cards"][0]["name"] == "主人龍"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_joining_from_the_lobby_brings_a_saved_deck(open_page: OpenPage, server: Any, shots: Any, size: str) -> None:
    created = server.api("POST", "/api/games", {"game": "shengke", "seat": 0, "public": True, "name": "Mei"})
    width, height = PHONE if size == "phone" else (1280, 800)
    page = open_page(server.base + "/", width=width, height=height)
    saved_deck(page, "lobby join deck", "加入龍")
    page.evaluate("localStorage.setItem('qipan.name', 'Lin')")
    page.reload()
    row = page.locator(f'tr[data-id="{created["id"]}"]')
    row.locator("button.join").click()
    expect(page.locator("#bring-deck option")).to_have_text([
        "the deck set for your seat: the built-in deck", "lobby join deck"])
    expect(page.locator("#bring-set")).to_have_text("Your seat plays the built-in deck, or one you saved in the deck "
                                                    "workshop.")
    page.click("#bring-cancel")  # cancelled: no seat taken
    expect(page.locator("#bring-dialog")).to_have_count(0)
    assert server.api("GET", f"/api/games/{created['id']}")["seats"][1]["claimed"] is False
    row.locator("button.join").click()
    page.select_option("#bring-deck", "lobby join deck")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots(page, f"deckshop-lobby-join-{size}")
    page.click("#bring-take")
    page.wait_for_url(f"**/play/{created['id']}*")
    expect(page.locator('.player[data-seat="1"] .tag.you')).to_have_count(1)
    options = server.api("GET", f"/api/games/{created['id']}")["options"]
    assert json.loads(options["deck_1"])["cards"][0]["name"] == "加入龍"
