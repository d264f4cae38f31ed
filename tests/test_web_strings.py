"""Every string of the web client exists in English and 繁體中文, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import qipan

WEB = Path(qipan.__file__).parent / "web"
I18N = WEB / "js" / "i18n.js"
AREAS = WEB / "i18n"


def tables() -> dict[Path, dict[str, dict[str, str]]]:
    """Each string table (the common one in i18n.js and one per area) as {language: {key: text}}."""
    found = {}
    for path in [I18N, *sorted(AREAS.glob("*.js"))]:
        if path.name == "index.js":
            continue
        text = path.read_text(encoding="utf-8")
        start = text.index("const STRINGS = {") if path == I18N else text.index("export default {")
        body = text[start:text.index("\n};", start)]
        parts = re.split(r'^  "?([\w-]+)"?: \{$', body, flags=re.MULTILINE)
        found[path] = {name: dict(re.findall(r'"([\w.]+)": "((?:[^"\\]|\\.)*)"', block))
                       for name, block in zip(parts[1::2], parts[2::2], strict=True)}
    return found


def dictionaries() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for table in tables().values():
        for language, words in table.items():
            merged.setdefault(language, {}).update(words)
    return merged


def test_every_area_table_is_listed_and_keys_are_defined_once() -> None:
    index = (AREAS / "index.js").read_text(encoding="utf-8")
    seen: dict[str, Path] = {}
    for path, table in tables().items():
        if path != I18N:
            assert f'"./{path.name}"' in index, f"{path.name} is not imported by i18n/index.js"
        assert set(table) == {"en", "zh-Hant"}, path.name
        assert set(table["en"]) == set(table["zh-Hant"]), (path.name, set(table["en"]) ^ set(table["zh-Hant"]))
        for key in table["en"]:
            assert key not in seen, f"{key} is defined in both {seen[key].name} and {path.name}"
            seen[key] = path


def test_both_languages_have_every_key_and_the_same_placeholders() -> None:
    found = dictionaries()
    assert set(found) == {"en", "zh-Hant"}
    en, zh = found["en"], found["zh-Hant"]
    assert len(en) > 50 and set(en) == set(zh)
    for key, text in en.items():
        assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", zh[key])), key


def test_every_key_the_client_asks_for_exists() -> None:
    keys = set(dictionaries()["en"])
    asked = {key for path in [*WEB.glob("js/*.js"), *WEB.glob("boards/*.js")] if path != I18N
             for key in re.findall(r'\bt\("([\w.]+)"', path.read_text("utf-8"))}
    assert asked and asked <= keys, sorted(asked - keys)


RARE_SYMBOLS = re.compile(r"[\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
"""Technical symbols (⏮ ⏭), miscellaneous symbols (⚠ ⚄ ⛨ ★ ♪), dingbats (✓ ✗) and emoji (🔇): many
fonts lack them and show a box. Geometric shapes (● ○) and CJK are in every font the client meets."""


def test_the_client_draws_symbols_instead_of_rare_characters() -> None:
    found = [f"{path.relative_to(WEB)}:{n}: {match.group()!r}"
             for path in sorted(WEB.rglob("*")) if path.suffix in {".js", ".html", ".css"}
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for match in RARE_SYMBOLS.finditer(line)]
    assert not found, "draw these as SVG (js/dom.js icon, boards/kit.js):\n" + "\n".join(found)


def test_every_page_has_the_favicon() -> None:
    """Without an icon link the browser asks for /favicon.ico, which the server does not have (404)."""
    icon = re.compile(r'<link rel="icon" href="data:image/svg\+xml,[^"]+">')
    pages = [WEB / "index.html", *sorted((WEB / "rules").glob("*.html"))]
    assert len(pages) == 6
    found = {page.name: icon.findall(page.read_text(encoding="utf-8")) for page in pages}
    assert all(len(links) == 1 for links in found.values()), found
    assert len({links[0] for links in found.values()}) == 1, "one icon for every page"
