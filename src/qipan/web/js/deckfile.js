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
const MAX_CARDS = 100;  // the most cards a file opens with (the editor shows each)
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

/** A deck's name as the pages show it: at most MAX_DECK_NAME characters, "…" after a longer one
 * (a file may hold any name; it is a problem, not a reason to echo all of it). */
export function shortName(text) {
  const chars = [...text];
  return chars.length > MAX_DECK_NAME ? `${chars.slice(0, MAX_DECK_NAME).join("")}…` : text;
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

/** A number a deck file writes with a fraction or an exponent (``3.0``, ``1e2``): Python reads it as
 * a float, never a card's whole number, where JSON.parse gives 3 for both ``3`` and ``3.0``. The
 * readers here keep it apart (and writeJson and deckToml write it back as it was). */
export class FileFloat {
  constructor(value) {
    this.value = value;
  }

  toString() {
    return floatRepr(this.value);
  }
}

/** Python's repr() of a float: the shortest digits, ``3.0``, ``1e+16``, ``1e-05``. */
export function floatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, power] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(power);
  const sign = x < 0 ? "-" : "";
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  return `${sign}${digits.slice(0, exp + 1).padEnd(exp + 1, "0")}.${digits.slice(exp + 1) || "0"}`;
}

/** Python's repr() of a value a deck file holds (JSON or TOML as read here). */
export function pyRepr(value) {
  if (typeof value === "string") return pythonRepr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  if (value instanceof FileFloat) return floatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}

/** A value of a deck as qipan.core.errors.brief shows it in a problem: repr() cut to ``limit``. */
export function brief(value, limit = 40) {
  if (typeof value === "string") {
    const chars = [...value];
    if (chars.length > 4 * limit) {
      return `${[...pythonRepr(chars.slice(0, 2 * limit).join(""))].slice(0, limit - 8).join("")}… (more than ${2 * limit} characters)`;
    }
  }
  const chars = [...pyRepr(value)];
  return chars.length <= limit ? chars.join("") : `${chars.slice(0, limit - 8).join("")}… (${chars.length} characters)`;
}

/** A field's value as the editor shows it in its input: text as it is, anything else as Python
 * shows it (a file's ``in = true`` reads True, as its problem says). */
export function shown(value) {
  if (value === undefined) return "";
  return typeof value === "string" ? value : pyRepr(value);
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
      const whole = typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
      if (!whole) add("deck.p.notWhole", { where, field, value }, i, [field]);
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

/** A deck as the deck files hold it: each card's five fields, then any others it has (a file's
 * unknown fields stay, as their problem says, until removed), values as they are. */
export function deckData(deck) {
  return {
    name: deck.name,
    cards: deck.cards.map((c) => ({ id: c.id, name: c.name, element: c.element, in: c.in, out: c.out, ...c })),
  };
}

/** A card without the fields deck files do not have. */
export function withoutUnknown(card) {
  return Object.fromEntries(FIELDS.filter((key) => Object.hasOwn(card, key)).map((key) => [key, card[key]]));
}

/** Whether a card has fields deck files do not have. */
export function hasUnknown(card) {
  return Object.keys(card).some((key) => card[key] !== undefined && !FIELDS.includes(key));
}

/** ``value`` as JSON, a FileFloat as the number it was (``3.0`` stays ``3.0``); ``indent`` puts
 * each element of the top-level object's arrays on a line of its own. */
export function writeJson(value, indent = false) {
  if (value instanceof FileFloat) return Number.isFinite(value.value) ? floatRepr(value.value) : "null";
  if (typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : writeJson(v))).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!indent) return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`).join(",")}}`;
    const line = ([k, v]) => `${JSON.stringify(k)}: ${Array.isArray(v)
      ? `[\n  ${v.map((item) => (item === undefined ? "null" : writeJson(item))).join(",\n  ")}\n ]` : writeJson(v)}`;
    return `{\n ${entries.map(line).join(",\n ")}\n}`;
  }
  return JSON.stringify(value);
}

/** The deck as one line of JSON: the value of the game options deck_0 and deck_1. */
export function deckJson(deck) {
  return writeJson(deckData(deck));
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML basic string: JSON's, with DEL escaped (TOML refuses it raw). */
function tomlQuoted(text) {
  return JSON.stringify(text).replace(/\u007f/g, "\\u007f");
}

/** The deck as a TOML file, as qipan's built-in deck file is written. */
export function deckToml(deck) {
  const value = (v) => {
    if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
    if (v instanceof FileFloat) return floatRepr(v.value);
    return tomlQuoted(typeof v === "string" ? v : shown(v));
  };
  const key = (k) => (BARE_KEY.test(k) ? k : tomlQuoted(k));
  const lines = ["# A Sheng-Ke deck (qipan deck check FILE checks it).", `name = ${value(deck.name)}`];
  for (const card of deckData(deck).cards) {
    lines.push("", "[[cards]]");
    for (const [k, v] of Object.entries(card)) if (v !== undefined) lines.push(`${key(k)} = ${value(v)}`);
  }
  return `${lines.join("\n")}\n`;
}

export const SAVED_DECKS = "qipan.shengke.decks";

/** The decks the workshop keeps in this browser (localStorage), by name: {name: deck data}, an
 * object without a prototype, so that a deck named ``__proto__`` is kept like any other. */
export function savedDecks() {
  const decks = Object.create(null);
  try {
    const saved = parseJson(localStorage.getItem(SAVED_DECKS) || "null", STORED_DEPTH);
    if (saved && typeof saved === "object" && !Array.isArray(saved)) Object.assign(decks, saved);
  } catch {
    // not the workshop's: none kept
  }
  return decks;
}

/** Whether a saved deck (as savedDecks holds it) is a legal deck: one the server takes. */
export function legalSaved(data) {
  const read = readDeck(writeJson(data), false);
  return read.deck !== undefined && deckProblems(read.deck).problems.length === 0;
}

class ReadError extends Error {}

const MAX_DEPTH = 32;  // as qipan.core.jsonsafe
/** The depth of what keeps a deck in localStorage (the saved decks by name, the draft): two levels
 * over a deck's own, so that a deck read from a file is always read back (else none is). */
export const STORED_DEPTH = MAX_DEPTH + 2;
const MAX_NUMBER = 40;
const JSON_TOKEN = new RegExp([
  String.raw`[ \t\n\r]*(?:([{}[\]:,])`,
  String.raw`("(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9A-Fa-f]{4})*")`,
  String.raw`(-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)`,
  String.raw`(true|false|null))`,
].join("|"), "y");

/** JSON as Python's json (through qipan.core.jsonsafe) reads it: a number with a fraction or an
 * exponent is a FileFloat, an integer past 2**53 a BigInt; at most ``maxDepth`` (32) levels deep,
 * numbers of at most 40 characters, finite. SyntaxError if it is not such JSON. */
export function parseJson(text, maxDepth = MAX_DEPTH) {
  let at = 0;
  const read = () => {
    JSON_TOKEN.lastIndex = at;
    const match = JSON_TOKEN.exec(text);
    if (!match) throw new SyntaxError(`not JSON at character ${at}`);
    at = JSON_TOKEN.lastIndex;
    return match;
  };
  const peek = () => {
    const before = at;
    try {
      return read()[1];
    } catch {
      return undefined;
    } finally {
      at = before;
    }
  };
  const value = (depth) => {
    const [, punct, string, number, fraction, exponent, word] = read();
    if (string) return JSON.parse(string);
    if (number) {
      if (number.length > MAX_NUMBER) throw new SyntaxError("number too long");
      const n = Number(number);
      if (fraction !== undefined || exponent !== undefined) {
        if (!Number.isFinite(n)) throw new SyntaxError("numbers must be finite");
        return new FileFloat(n);
      }
      return Number.isSafeInteger(n) ? n : BigInt(number);
    }
    if (word) return { true: true, false: false, null: null }[word];
    if (punct !== "[" && punct !== "{") throw new SyntaxError(`unexpected ${punct}`);
    if (depth >= maxDepth) throw new SyntaxError("too deep");
    const close = punct === "[" ? "]" : "}";
    const out = punct === "[" ? [] : {};
    if (peek() === close) {
      read();
      return out;
    }
    for (;;) {
      if (close === "]") out.push(value(depth + 1));
      else {
        const key = read()[2];
        if (key === undefined || read()[1] !== ":") throw new SyntaxError("an object's key");
        // defineProperty: a key "__proto__" is a field like any other, as in JSON.parse
        Object.defineProperty(out, JSON.parse(key), { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      }
      const next = read()[1];
      if (next === close) return out;
      if (next !== ",") throw new SyntaxError("expected , or a closing bracket");
    }
  };
  const result = value(0);
  if (!/^[ \t\n\r]*$/.test(text.slice(at))) throw new SyntaxError("text after the JSON");
  return result;
}

const TOML_NUMBER = /^([+-]?(?:0|[1-9](?:_?\d)*))(\.\d(?:_?\d)*)?([eE][+-]?\d(?:_?\d)*)?\s*(#.*)?$/;

const TOML_ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };
const TOML_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;  // refused in a string; a tab is fine
const BASIC = String.raw`"(?:[^"\\]|\\.)*"`;
const LITERAL = "'[^']*'";

/** The text of a TOML basic (``"..."``, its escapes read) or literal (``'...'``) string, as
 * tomllib reads it: \/, \e, a surrogate's \uD800 or a control character refused. */
function tomlString(quoted, line) {
  const body = quoted.slice(1, -1);
  if (TOML_CONTROL.test(body)) throw new ReadError(`line ${line}`);
  if (quoted[0] === "'") return body;
  return body.replace(/\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/gs, (_, u4, u8, char) => {
    if (char !== undefined) {
      if (!Object.hasOwn(TOML_ESCAPES, char)) throw new ReadError(`line ${line}`);
      return TOML_ESCAPES[char];
    }
    const code = parseInt(u4 ?? u8, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new ReadError(`line ${line}`);
    return String.fromCodePoint(code);
  });
}

/** A TOML value: a basic or literal string, an integer, a float (a FileFloat) or a boolean. */
function tomlValue(text, line) {
  let match = text.match(new RegExp(`^(${BASIC}|${LITERAL})\\s*(#.*)?$`));
  if (match) return tomlString(match[1], line);
  match = text.match(TOML_NUMBER);
  if (match) {
    const literal = match.slice(1, 4).join("").replace(/_/g, "");
    if (match[2] !== undefined || match[3] !== undefined) return new FileFloat(Number(literal));
    const n = Number(literal);
    return Number.isSafeInteger(n) ? n : BigInt(literal);
  }
  match = text.match(/^(true|false)\s*(#.*)?$/);
  if (match) return match[1] === "true";
  throw new ReadError(`line ${line}`);
}

const KEY_VALUE = new RegExp(`^([A-Za-z0-9_-]+|${BASIC}|${LITERAL})[ \t]*=[ \t]*(.+)$`);

/** The simple TOML of deck files: ``key = value`` lines (a key bare or quoted), ``[[cards]]``
 * tables, comments; a key given twice in a table is refused, as Python's tomllib refuses it. */
function readToml(text) {
  const data = {};
  let table = data;
  let cards = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/^[ \t]+|[ \t]+$/g, "");  // TOML's whitespace: trim() takes more (U+FEFF)
    if (line === "" || line.startsWith("#")) return;
    if (/^\[\[\s*cards\s*\]\]\s*(#.*)?$/.test(line)) {
      if (cards === null) {
        if (Object.hasOwn(data, "cards")) throw new ReadError(`line ${i + 1}`);
        cards = [];
        data.cards = cards;
      }
      table = {};
      cards.push(table);
      return;
    }
    const match = line.match(KEY_VALUE);
    if (!match) throw new ReadError(`line ${i + 1}`);
    const key = /^["']/.test(match[1]) ? tomlString(match[1], i + 1) : match[1];
    if (Object.hasOwn(table, key)) throw new ReadError(`line ${i + 1}`);
    Object.defineProperty(table, key, { value: tomlValue(match[2], i + 1), enumerable: true, writable: true, configurable: true });
  });
  return data;
}

/** The deck in a file's ``text`` (TOML when ``toml``, else JSON): {deck} or {error, vars}, an
 * i18n key of i18n/deckshop.js. An illegal deck is read with every field and value it has, so
 * deckProblems finds what `qipan deck check` finds (unknown fields, ``3.0``, ``true``); only
 * text that is not a deck at all is refused. */
export function readDeck(text, toml) {
  if (text.length > MAX_FILE) return { error: "deck.e.tooLarge", vars: { kib: MAX_FILE / 1024 } };
  let data;
  try {
    data = toml ? readToml(text) : parseJson(text);
  } catch (error) {
    return error instanceof ReadError
      ? { error: "deck.e.toml", vars: { where: error.message } }
      : { error: "deck.e.json", vars: {} };
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.cards)) {
    return { error: "deck.e.noCards", vars: {} };
  }
  if (data.cards.length > MAX_CARDS) return { error: "deck.e.tooMany", vars: { n: data.cards.length, most: MAX_CARDS } };
  if (data.cards.some((c) => !c || typeof c !== "object" || Array.isArray(c))) return { error: "deck.e.noCards", vars: {} };
  return { deck: { name: Object.hasOwn(data, "name") ? data.name : "deck", cards: data.cards.map((c) => ({ ...c })) } };
}
