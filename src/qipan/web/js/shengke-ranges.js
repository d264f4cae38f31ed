// Sheng-Ke's range table in the browser: the text form of the game option ``ranges`` (read by the
// same rules as qipan.games.shengke.elements.parse_ranges) and a range drawn as a 3×3 grid.
import { h } from "./dom.js";
import WORDS from "../i18n/deckshop.js";

/** The documented table (docs/games/shengke.md): ranges 1..8, each its cells as keypad digits. */
export const DEFAULT_RANGES = "8/46/846/8246/7913/789123/47896/78946123";

/** The keypad around a card, front (towards the opponent) row first; 5 is the card. */
const KEYPAD = "789456123";

/** The table written as ``text``: 8 strings of keypad digits (range 1 first), or null. */
export function parseRanges(text) {
  if (typeof text !== "string" || text.length > 100) return null;
  const groups = text.replace(/\s+/g, "").split("/");
  if (groups.length !== 8) return null;
  const fine = groups.every((g) => /^[12346789]{1,8}$/.test(g) && new Set(g).size === g.length);
  return fine ? groups : null;
}

/** Range ``number`` with ``cells`` in words of ``language`` ("en", "zh-Hant"): "range 3: front, left and right". */
export function rangeLabel(number, cells, language = "en") {
  const words = WORDS[language] || WORDS.en;
  const names = [...KEYPAD].filter((key) => key !== "5" && cells.includes(key)).map((key) => words[`deck.cell${key}`]);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(words["deck.comma"])}${words["deck.and"]}${names.at(-1)}` : names.join("");
  return words["deck.rangeLabel"].replace("{n}", String(number)).replace("{cells}", listed);
}

/** Range ``cells`` (keypad digits) as a 3×3 grid, front row on top. */
export function rangeGrid(cells, { kind = "out", label = "" } = {}) {
  return h("span", { class: `sk-range sk-${kind}`, role: "img", "aria-label": label, title: label || null },
    [...KEYPAD].map((key) => h("span", { class: key === "5" ? "sk-me" : cells.includes(key) ? "sk-on" : null })));
}
