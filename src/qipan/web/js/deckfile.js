// Sheng-Ke deck files in the browser: reading the JSON and TOML files `qipan deck` reads, writing
// them back, and checking a deck by the rules of qipan.games.shengke.cards.deck_problems, with its
// messages (those of `qipan deck check`; tests/e2e/test_deckshop.py compares the two). The server
// checks again.

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

const FIELDS = ["id", "name", "element", "in", "out"];
const MAX_NAMED = 3;
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's repr() of a string. */
function pythonRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escapes = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", [quote]: `\\${quote}` };
  const hex = (code, digits) => code.toString(16).padStart(digits, "0");
  const body = [...text].map((ch) => {
    if (ch in escapes) return escapes[ch];
    if (ch === " " || !UNPRINTABLE.test(ch)) return ch;
    const code = ch.codePointAt(0);
    return code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
  });
  return `${quote}${body.join("")}${quote}`;
}

/** A value of a deck as qipan.core.errors.brief shows it in a problem: repr() cut to ``limit``. */
export function brief(value, limit = 40) {
  let text;
  if (typeof value === "string") {
    const chars = [...value];
    if (chars.length > 4 * limit) {
      return `${[...pythonRepr(chars.slice(0, 2 * limit).join(""))].slice(0, limit - 8).join("")}… (more than ${2 * limit} characters)`;
    }
    text = pythonRepr(value);
  } else if (typeof value === "boolean") text = value ? "True" : "False";
  else if (value === null) text = "None";
  else text = String(typeof value === "number" ? value : JSON.stringify(value));
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 8).join("")}… (${chars.length} characters)`;
}

/** Every problem of ``deck`` ({name, cards}) by the rules and in the order of
 * qipan.games.shengke.cards.deck_problems, each {key, vars, card, fields}: a key of
 * i18n/deckshop.js with its values (see problemText), the card (index from 0) and the fields it
 * marks. A field that is undefined is missing (JSON leaves it out). */
export function deckProblems(deck) {
  const problems = [];
  const add = (key, vars = {}, card = null, fields = []) => problems.push({ key, vars, card, fields });
  const counts = [0, 0, 0, 0, 0];
  const sums = { in: 0, out: 0 };
  if (!fineText(deck.name === undefined ? "deck" : deck.name, MAX_DECK_NAME)) add("deck.p.deckName", { n: MAX_DECK_NAME }, null, ["name"]);
  const cards = deck.cards;
  if (!Array.isArray(cards)) {
    add("deck.p.noCards");
    return { problems, counts, sums };
  }
  if (cards.length !== DECK_SIZE) add("deck.p.count", { n: cards.length });
  const seen = new Map();
  cards.forEach((card, i) => {
    let where = { n: i + 1 };
    if (!card || typeof card !== "object" || Array.isArray(card)) {
      add("deck.p.notTable", { where }, i);
      return;
    }
    const has = (key) => Object.hasOwn(card, key) && card[key] !== undefined;
    if (has("id")) {
      if (typeof card.id !== "string" || !ID.test(card.id)) add("deck.p.id", { where, value: card.id }, i, ["id"]);
      else {
        where = { n: i + 1, id: card.id };
        const key = card.id.toLowerCase();
        if (seen.has(key)) add("deck.p.duplicate", { where, m: seen.get(key) }, i, ["id"]);
        else seen.set(key, i + 1);
      }
    }
    const missing = FIELDS.filter((key) => !has(key));
    if (missing.length) add("deck.p.lacks", { where, missing }, i, missing);
    const unknown = Object.keys(card).filter((key) => has(key) && !FIELDS.includes(key)).sort();
    if (unknown.length) add(unknown.length > MAX_NAMED ? "deck.p.unknownMore" : "deck.p.unknown", { where, unknown }, i);
    if (has("name") && !fineText(card.name, MAX_CARD_NAME)) add("deck.p.name", { where, most: MAX_CARD_NAME }, i, ["name"]);
    if (has("element")) {
      const element = elementIndex(card.element);
      if (element < 0) add("deck.p.element", { where, value: card.element }, i, ["element"]);
      else counts[element] += 1;
    }
    for (const field of ["in", "out"]) {
      if (!has(field)) continue;
      const value = card[field];
      if (typeof value !== "number" || !Number.isInteger(value)) add("deck.p.notWhole", { where, field, value }, i, [field]);
      else if (value < 1 || value > 8) add("deck.p.outside", { where, field, value }, i, [field]);
      else sums[field] += value;
    }
  });
  counts.forEach((count, e) => {
    if (count !== PER_ELEMENT) add("deck.p.perElement", { element: e, n: count });
  });
  for (const field of ["in", "out"]) {
    if (sums[field] !== RANGE_SUM) add("deck.p.sum", { field, n: sums[field] }, null, [field]);
  }
  return { problems, counts, sums };
}

/** A problem of deckProblems in ``words`` (a language of i18n/deckshop.js): in English, exactly
 * the message of `qipan deck check`. */
export function problemText({ key, vars }, words) {
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
  const values = { ...vars };
  if (vars.where) values.where = fill(words[vars.where.id === undefined ? "deck.where" : "deck.whereId"], vars.where);
  if ("value" in vars) values.value = brief(vars.value);
  if (vars.field) values.field = words[`deck.f.${vars.field}`];
  if ("element" in vars) values.element = words["deck.elements"].split(",")[vars.element];
  if (vars.missing) values.missing = vars.missing.join(words["deck.comma"]);
  if (vars.unknown) {
    values.named = vars.unknown.slice(0, MAX_NAMED).map((name) => brief(name)).join(words["deck.comma"]);
    values.more = vars.unknown.length - MAX_NAMED;
  }
  return fill(words[key], values);
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
  // A missing field stays missing (its problem says so); a value that is neither text nor a number is blank.
  const field = (v) => (v === undefined || typeof v === "string" || typeof v === "number" ? v : "");
  return {
    deck: {
      name: typeof data.name === "string" ? data.name : "deck",
      cards: data.cards.map((c) => Object.fromEntries(FIELDS.map((key) => [key, field(c[key])]))),
    },
  };
}
