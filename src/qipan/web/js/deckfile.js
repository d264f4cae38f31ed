// Sheng-Ke deck files in the browser: reading the JSON and TOML files `qipan deck` reads, writing
// them back, and checking a deck by the rules of qipan.games.shengke.cards.deck_problems (the
// server checks again, with the messages of `qipan deck check`; these drive the live marks).

export const ELEMENTS = ["wood", "fire", "earth", "metal", "water"];
export const GLYPHS = ["木", "火", "土", "金", "水"];
const PINYIN = ["mu", "huo", "tu", "jin", "shui"];
const COLOURS = ["青", "赤", "黃", "白", "玄"];
export const DECK_SIZE = 25;
export const PER_ELEMENT = 5;
export const RANGE_SUM = 100;
export const MAX_CARD_NAME = 24;
export const MAX_DECK_NAME = 40;
export const MAX_FILE = 64 * 1024;
const ID = /^[A-Za-z0-9_-]{1,24}$/;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/u;

/** The element index of a name, glyph, pinyin or colour (as the server reads it), or -1. */
export function elementIndex(text) {
  if (typeof text !== "string") return -1;
  const key = text.trim().toLowerCase();
  for (const table of [ELEMENTS, GLYPHS, PINYIN, COLOURS]) {
    const i = table.indexOf(key);
    if (i >= 0) return i;
  }
  return -1;
}

function fineText(value, longest) {
  return typeof value === "string" && value.length > 0 && [...value].length <= longest && value.trim() !== ""
    && !INVISIBLE.test(value);
}

/** Every problem of ``deck`` ({name, cards}), each {key, vars, card?, field?}: a string key of
 * i18n/deckshop.js with its placeholders, and the card (index from 0) and field it marks. */
export function deckProblems(deck) {
  const problems = [];
  const add = (key, vars = {}, card = null, field = null) => problems.push({ key, vars, card, field });
  if (deck.name !== undefined && !fineText(deck.name, MAX_DECK_NAME)) add("deck.p.deckName", { n: MAX_DECK_NAME }, null, "name");
  const cards = deck.cards;
  if (cards.length !== DECK_SIZE) add("deck.p.count", { n: cards.length });
  const counts = [0, 0, 0, 0, 0];
  const sums = { in: 0, out: 0 };
  const seen = new Map();
  cards.forEach((card, i) => {
    const n = i + 1;
    if (!ID.test(String(card.id ?? "")) || typeof card.id !== "string") add("deck.p.id", { n }, i, "id");
    else {
      const key = card.id.toLowerCase();
      if (seen.has(key)) add("deck.p.duplicate", { n, m: seen.get(key) }, i, "id");
      else seen.set(key, n);
    }
    if (!fineText(card.name, MAX_CARD_NAME)) add("deck.p.name", { n, most: MAX_CARD_NAME }, i, "name");
    const element = elementIndex(card.element);
    if (element < 0) add("deck.p.element", { n }, i, "element");
    else counts[element] += 1;
    for (const field of ["in", "out"]) {
      const value = card[field];
      if (Number.isInteger(value) && value >= 1 && value <= 8) sums[field] += value;
      else add(field === "in" ? "deck.p.in" : "deck.p.out", { n }, i, field);
    }
  });
  counts.forEach((count, e) => {
    if (count !== PER_ELEMENT) add("deck.p.perElement", { element: e, n: count });
  });
  for (const field of ["in", "out"]) {
    if (sums[field] !== RANGE_SUM) add(field === "in" ? "deck.p.inSum" : "deck.p.outSum", { n: sums[field] }, null, field);
  }
  return { problems, counts, sums };
}

/** A deck as the deck files hold it (numbers kept as typed when they are not whole numbers). */
export function deckData(deck) {
  return {
    name: deck.name,
    cards: deck.cards.map((c) => ({ id: c.id, name: c.name, element: c.element, in: c.in, out: c.out })),
  };
}

/** The deck as one line of JSON: the value of the game options deck_0 and deck_1. */
export function deckJson(deck) {
  return JSON.stringify(deckData(deck));
}

/** The deck as a TOML file, as qipan's built-in deck file is written. */
export function deckToml(deck) {
  const value = (v) => (typeof v === "number" ? String(v) : JSON.stringify(String(v ?? "")));
  const lines = ["# A Sheng-Ke deck (qipan deck check FILE checks it).", `name = ${value(deck.name)}`];
  for (const card of deck.cards) {
    lines.push("", "[[cards]]");
    for (const key of ["id", "name", "element", "in", "out"]) lines.push(`${key} = ${value(card[key])}`);
  }
  return `${lines.join("\n")}\n`;
}

export const SAVED_DECKS = "qipan.shengke.decks";

/** The decks the workshop keeps in this browser (localStorage), by name: {name: deck data}. */
export function savedDecks() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED_DECKS) || "null");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

class ReadError extends Error {}

/** A TOML value: a basic or literal string, an integer, a float or a boolean. */
function tomlValue(text, line) {
  let match = text.match(/^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/);
  if (match) {
    const escaped = match[1].replace(/\\U([0-9A-Fa-f]{8})/g, (_, hex) => {
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw new ReadError(`line ${line}`);
      return String.fromCodePoint(code);
    });
    try {
      return JSON.parse(`"${escaped}"`);
    } catch {
      throw new ReadError(`line ${line}`);
    }
  }
  match = text.match(/^'([^']*)'\s*(#.*)?$/);
  if (match) return match[1];
  match = text.match(/^([+-]?\d[\d_]*(?:\.\d+)?)\s*(#.*)?$/);
  if (match) return Number(match[1].replace(/_/g, ""));
  match = text.match(/^(true|false)\s*(#.*)?$/);
  if (match) return match[1] === "true";
  throw new ReadError(`line ${line}`);
}

/** The simple TOML of deck files: ``key = value`` lines, ``[[cards]]`` tables, comments. */
function readToml(text) {
  const data = {};
  let table = data;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (/^\[\[\s*cards\s*\]\]\s*(#.*)?$/.test(line)) {
      if (!Array.isArray(data.cards)) data.cards = [];
      table = {};
      data.cards.push(table);
      return;
    }
    const match = line.match(/^([A-Za-z0-9_-]+)\s*=\s*(.+)$/);
    if (!match) throw new ReadError(`line ${i + 1}`);
    table[match[1]] = tomlValue(match[2].trim(), i + 1);
  });
  return data;
}

/** The deck in a file's ``text`` (TOML when ``toml``, else JSON): {deck} or {error, vars}, an
 * i18n key of i18n/deckshop.js. An illegal deck is read (its problems are shown); only text that
 * is not a deck at all is refused. */
export function readDeck(text, toml) {
  if (text.length > MAX_FILE) return { error: "deck.e.tooLarge", vars: { kib: MAX_FILE / 1024 } };
  let data;
  try {
    data = toml ? readToml(text) : JSON.parse(text);
  } catch (error) {
    return error instanceof ReadError
      ? { error: "deck.e.toml", vars: { where: error.message } }
      : { error: "deck.e.json", vars: {} };
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.cards)) {
    return { error: "deck.e.noCards", vars: {} };
  }
  if (data.cards.length > 100 || data.cards.some((c) => !c || typeof c !== "object" || Array.isArray(c))) {
    return { error: "deck.e.noCards", vars: {} };
  }
  const field = (v) => (typeof v === "string" || typeof v === "number" ? v : "");
  return {
    deck: {
      name: typeof data.name === "string" ? data.name : "deck",
      cards: data.cards.map((c) => ({
        id: field(c.id), name: field(c.name), element: field(c.element), in: field(c.in), out: field(c.out),
      })),
    },
  };
}
