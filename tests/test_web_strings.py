"""Every string of the web client exists in English and 繁體中文, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import qipan

I18N = Path(qipan.__file__).parent / "web" / "js" / "i18n.js"
WEB_JS = Path(qipan.__file__).parent / "web" / "js"


def dictionaries() -> dict[str, dict[str, str]]:
    text = I18N.read_text(encoding="utf-8")
    body = text[text.index("const STRINGS = {"):text.index("};", text.index("const STRINGS = {"))]
    parts = re.split(r'^  "?([\w-]+)"?: \{$', body, flags=re.MULTILINE)
    return {name: dict(re.findall(r'"([\w.]+)": "((?:[^"\\]|\\.)*)"', block))
            for name, block in zip(parts[1::2], parts[2::2], strict=True)}


def test_both_languages_have_every_key_and_the_same_placeholders() -> None:
    found = dictionaries()
    assert set(found) == {"en", "zh-Hant"}
    en, zh = found["en"], found["zh-Hant"]
    assert len(en) > 50 and set(en) == set(zh)
    for key, text in en.items():
        assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", zh[key])), key


def test_every_key_the_client_asks_for_exists() -> None:
    keys = set(dictionaries()["en"])
    asked = {key for path in WEB_JS.glob("*.js") if path != I18N
             for key in re.findall(r'\bt\("([\w.]+)"', path.read_text("utf-8"))}
    assert asked and asked <= keys, sorted(asked - keys)
