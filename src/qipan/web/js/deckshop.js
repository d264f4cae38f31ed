// The Sheng-Ke deck workshop (workshop/shengke.html): build a 25-card deck with every rule checked
// live and the ranges drawn as you edit, keep decks in this browser (localStorage
// "qipan.shengke.decks", the open one in "qipan.shengke.draft"), import and export the JSON and
// TOML files `qipan deck` reads, play a deck against the AI (it travels inline as deck_0, the AI's
// deck, chosen here, as deck_1), or take the seat of an invitation link with it (the claim brings
// it: {"deck": ...}).
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { levelName } from "./gamewords.js";
import { lang, t, toggleLanguage, translateStatic } from "./i18n.js";
import WORDS from "../i18n/deckshop.js";
import { keepSeat, parseFragment } from "./seats.js";
import { DEFAULT_RANGES, parseRanges, rangeGrid } from "./shengke-ranges.js";
import {
  deckData, deckJson, deckProblems, deckToml, ELEMENTS, elementIndex, GLYPHS, hasUnknown, legalSaved, MAX_FILE,
  parseJson, problemText as deckProblemText, readDeck, SAVED_DECKS, savedDecks, shortName, shown, STORED_DEPTH,
  withoutUnknown, writeJson,
} from "./deckfile.js";

const DRAFT = "qipan.shengke.draft";

/** The AI's deck: the built-in one, the same as the player's, or "saved:" and a saved deck's name. */
const AI_BUILT_IN = "built-in";
const AI_SAME = "same";
const SAVED = "saved:";

const state = { deck: null, ranges: DEFAULT_RANGES, levels: [], level: "easy", aiDeck: AI_BUILT_IN };
const root = document.getElementById("deckshop");

function elementLabel(i) {
  const name = t(`sk.${ELEMENTS[i]}`);
  return name === GLYPHS[i] ? name : `${GLYPHS[i]} ${name}`;
}

function problemText(problem) {
  return deckProblemText(problem, { ...WORDS.en, ...WORDS[lang] });
}

/** The deck's name for a saved deck and a file name ("deck" when it has none). */
function title() {
  return shortName((typeof state.deck.name === "string" ? state.deck.name.trim() : "") || "deck");
}

function table() {
  return parseRanges(state.ranges) || parseRanges(DEFAULT_RANGES);
}

/** The deck with each element normalised to its English name when it names one. */
function normalised(deck) {
  return {
    name: deck.name,
    cards: deck.cards.map((c) => {
      const e = elementIndex(c.element);
      return { ...c, element: e >= 0 ? ELEMENTS[e] : c.element };
    }),
  };
}

function readJson(key, fallback) {
  try {
    const value = parseJson(localStorage.getItem(key) || "null", STORED_DEPTH);
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function keepDraft() {
  try {
    localStorage.setItem(DRAFT, writeJson({ deck: deckData(state.deck), ranges: state.ranges }));
  } catch {
    // the storage is full: the draft is a convenience, Save says so
  }
}

/** Open ``data`` (a deck as the files hold it) in the editor; false if it holds no deck. */
function open(data) {
  const read = readDeck(writeJson(data), false);
  if (!read.deck) return false;
  state.deck = normalised(read.deck);
  renderCards();
  changed();
  return true;
}

async function builtIn() {
  const response = await fetch("/static/workshop/default-deck.json");
  return response.json();
}

function number(text) {
  return /^\s*\d{1,3}\s*$/.test(text) ? Number(text) : text;
}

// -- the page ---------------------------------------------------------------------------------

function render() {
  const rangesInput = h("input", {
    id: "deck-ranges", value: state.ranges, spellcheck: "false", autocomplete: "off", "aria-describedby": "deck-ranges-help",
    oninput: (e) => {
      state.ranges = e.target.value;
      document.getElementById("deck-ranges-bad").hidden = parseRanges(state.ranges) !== null;
      drawRanges();
      keepDraft();
    },
  });
  clear(root).append(
    h("h1", { text: t("deck.title") }),
    h("p", { class: "hint", text: t("deck.intro") }),
    h("div", { class: "deck-top" },
      h("label", { class: "field" }, h("span", { text: t("deck.name") }),
        h("input", { id: "deck-name", maxlength: "200", value: shown(state.deck.name), oninput: (e) => { state.deck.name = e.target.value; changed(); } })),
      h("label", { class: "field" }, h("span", { text: t("deck.ranges") }), rangesInput,
        h("small", { id: "deck-ranges-help", text: t("deck.rangesHelp") }),
        h("small", { id: "deck-ranges-bad", class: "error", hidden: parseRanges(state.ranges) !== null, text: t("deck.rangesBad") }))),
    h("div", { class: "deck-summary", id: "deck-summary", "aria-live": "polite" }),
    h("div", { class: "deck-problems", id: "deck-problems", role: "status" }),
    h("div", { class: "deck-cards", id: "deck-cards" }),
    h("div", { class: "deck-actions" },
      h("button", { type: "button", class: "btn", id: "deck-add", onclick: addCard, text: t("deck.add") }),
      h("button", { type: "button", class: "btn", id: "deck-reset", onclick: reset, text: t("deck.reset") })),
    h("section", { class: "deck-box" }, h("h2", { text: t("deck.play") }),
      h("p", { class: "hint", text: t("deck.playHint") }),
      h("div", { class: "deck-row" },
        h("label", { class: "field" }, h("span", { text: t("deck.level") }),
          h("select", { id: "deck-level", onchange: (e) => { state.level = e.target.value; } },
            state.levels.map((l) => h("option", { value: l, selected: l === state.level, text: levelName(l) })))),
        h("label", { class: "field" }, h("span", { text: t("deck.aiDeck") }),
          h("select", { id: "deck-ai-deck", onchange: (e) => { state.aiDeck = e.target.value; } })),
        h("button", { type: "button", class: "btn primary", id: "deck-play", onclick: play, text: t("deck.playAi") })),
      h("p", { class: "error", id: "deck-play-error", role: "alert" }),
      h("p", { class: "hint", text: t("deck.joinHint") }),
      h("div", { class: "deck-row" },
        h("label", { class: "field deck-link" }, h("span", { text: t("deck.invite") }),
          h("input", { id: "deck-invite", type: "url", autocomplete: "off", spellcheck: "false", placeholder: t("deck.invitePlaceholder"),
            oninput: () => { document.getElementById("deck-join-error").textContent = ""; } })),
        h("button", { type: "button", class: "btn", id: "deck-join", onclick: join, text: t("deck.join") })),
      h("p", { class: "error", id: "deck-join-error", role: "alert" })),
    h("section", { class: "deck-box" }, h("h2", { text: t("deck.saved") }),
      h("div", { class: "deck-row", id: "deck-saved" })),
    h("section", { class: "deck-box" }, h("h2", { text: t("deck.files") }),
      h("p", { class: "hint", text: t("deck.filesHint") }),
      h("div", { class: "deck-row" },
        h("label", { class: "btn deck-file" }, t("deck.import"),
          h("input", { type: "file", id: "deck-import", accept: ".json,.toml,application/json,application/toml", onchange: importFile })),
        h("button", { type: "button", class: "btn", id: "deck-export-json", onclick: () => download("json"), text: t("deck.exportJson") }),
        h("button", { type: "button", class: "btn", id: "deck-export-toml", onclick: () => download("toml"), text: t("deck.exportToml") })),
      h("p", { class: "hint", id: "deck-file-note", role: "status" })),
  );
  renderCards();
  renderSaved();
  changed();
}

function renderCards() {
  const list = document.getElementById("deck-cards");
  if (!list) return;
  clear(list).append(h("div", { class: "deck-card deck-head", "aria-hidden": "true" },
    h("span", { text: "#" }), h("span", { text: t("deck.colElement") }), h("span", { text: t("deck.colId") }),
    h("span", { text: t("deck.colName") }), h("span", { text: t("deck.colIn") }), h("span", { text: t("deck.colOut") }), h("span")));
  state.deck.cards.forEach((card, i) => list.append(cardRow(card, i)));
  drawRanges();
}

function cardRow(card, i) {
  const n = i + 1;
  const label = (what) => `${t("deck.card", { n })}: ${what}`;
  const edit = (field, convert = (v) => v) => (e) => {
    card[field] = convert(e.target.value);
    if (field === "element") row.dataset.element = String(elementIndex(card.element));
    if (field === "in" || field === "out") drawRanges();
    changed();
  };
  const numberField = (field) => h("span", { class: `deck-num deck-${field}` },
    h("input", { type: "number", min: "1", max: "8", step: "1", inputmode: "numeric", id: `card-${i}-${field}`,
      value: shown(card[field]), "aria-label": label(t(field === "in" ? "deck.colIn" : "deck.colOut")), oninput: edit(field, number) }),
    h("span", { class: "deck-grid", id: `card-${i}-${field}-range` }));
  const row = h("div", { class: "deck-card", dataset: { element: String(elementIndex(card.element)) } },
    h("span", { class: "deck-n", text: String(n) }),
    h("select", { id: `card-${i}-element`, "aria-label": label(t("deck.colElement")), onchange: edit("element") },
      h("option", { value: "", text: "—", selected: elementIndex(card.element) < 0 }),
      ELEMENTS.map((name, e) => h("option", { value: name, selected: elementIndex(card.element) === e, text: elementLabel(e) }))),
    h("input", { id: `card-${i}-id`, value: shown(card.id), maxlength: "40", spellcheck: "false", autocomplete: "off",
      "aria-label": label(t("deck.colId")), oninput: edit("id") }),
    h("input", { id: `card-${i}-name`, value: shown(card.name), maxlength: "60", "aria-label": label(t("deck.colName")), oninput: edit("name") }),
    numberField("in"), numberField("out"),
    h("button", { type: "button", class: "btn deck-remove", "aria-label": label(t("deck.remove")), text: t("deck.remove"),
      onclick: () => { state.deck.cards.splice(i, 1); renderCards(); changed(); } }));
  return row;
}

function drawRanges() {
  const ranges = table();
  state.deck.cards.forEach((card, i) => {
    for (const field of ["in", "out"]) {
      const box = document.getElementById(`card-${i}-${field}-range`);
      if (!box) continue;
      const value = card[field];
      const fine = Number.isInteger(value) && value >= 1 && value <= 8;
      const label = t(field === "in" ? "deck.inRange" : "deck.outRange", { n: fine ? value : "?" });
      box.replaceChildren(fine ? rangeGrid(ranges[value - 1], { kind: field, label }) : "");
    }
  });
}

/** After every edit: the counts, the sums, the problems and the marks on the fields. */
function changed() {
  const { problems, counts, sums } = deckProblems(state.deck);
  const mark = (ok, text) => h("span", { class: ok ? "ok" : "bad", text });
  clear(document.getElementById("deck-summary")).append(
    mark(state.deck.cards.length === 25, t("deck.cards", { n: state.deck.cards.length })),
    ...counts.map((n, e) => mark(n === 5, t("deck.count", { element: elementLabel(e), n }))),
    mark(sums.in === 100, t("deck.sum", { field: t("deck.colIn"), n: sums.in })),
    mark(sums.out === 100, t("deck.sum", { field: t("deck.colOut"), n: sums.out })),
  );
  const box = clear(document.getElementById("deck-problems"));
  box.classList.toggle("legal", problems.length === 0);
  if (problems.length === 0) box.append(h("p", { text: t("deck.legal") }));
  else box.append(h("p", { text: t("deck.problems", { n: problems.length }) }), h("ul", {}, problems.map((p) => h("li", { text: problemText(p) }))));
  if (state.deck.cards.some(hasUnknown)) {
    box.append(h("button", { type: "button", class: "btn", id: "deck-drop-unknown", text: t("deck.dropUnknown"),
      onclick: () => { state.deck.cards = state.deck.cards.map(withoutUnknown); renderCards(); changed(); } }));
  }
  for (const node of root.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  for (const p of problems) {
    for (const field of p.fields) {
      const node = p.card === null ? (field === "name" ? document.getElementById("deck-name") : null)
        : document.getElementById(`card-${p.card}-${field}`);
      if (node) node.setAttribute("aria-invalid", "true");
    }
  }
  const play = document.getElementById("deck-play");
  play.disabled = problems.length > 0;
  document.getElementById("deck-join").disabled = problems.length > 0;
  document.getElementById("deck-play-error").textContent = problems.length ? t("deck.fixFirst") : "";
  keepDraft();
}

function addCard() {
  state.deck.cards.push({ id: `card${state.deck.cards.length + 1}`, name: "", element: "", in: 1, out: 1 });
  renderCards();
  changed();
  document.getElementById(`card-${state.deck.cards.length - 1}-name`).focus();
}

async function reset() {
  open(await builtIn());
}

// -- saved decks and files ------------------------------------------------------------------------

function renderSaved() {
  const box = clear(document.getElementById("deck-saved"));
  const saved = savedDecks();
  const names = Object.keys(saved).sort();
  renderAiDecks(saved, names);
  const select = h("select", { id: "deck-saved-list", "aria-label": t("deck.saved") },
    names.length ? names.map((name) => h("option", { value: name, text: shortName(name) })) : h("option", { value: "", text: t("deck.none") }));
  box.append(
    h("button", { type: "button", class: "btn primary", id: "deck-save", onclick: save, text: t("deck.save") }),
    select,
    h("button", { type: "button", class: "btn", id: "deck-open", disabled: !names.length, text: t("deck.load"),
      onclick: () => { if (saved[select.value]) open(saved[select.value]); } }),
    h("button", { type: "button", class: "btn", id: "deck-delete", disabled: !names.length, text: t("deck.delete"),
      onclick: () => {
        const rest = savedDecks();
        delete rest[select.value];
        localStorage.setItem(SAVED_DECKS, writeJson(rest));
        renderSaved();
      } }),
  );
}

/** The AI's deck choices: the built-in deck, the same as the player's, and every saved deck (one
 * with problems shown but not chosen: the server would refuse it). */
function renderAiDecks(saved, names) {
  const select = document.getElementById("deck-ai-deck");
  if (!select) return;
  const legal = new Set(names.filter((name) => legalSaved(saved[name])));
  if (state.aiDeck.startsWith(SAVED) && !legal.has(state.aiDeck.slice(SAVED.length))) state.aiDeck = AI_BUILT_IN;
  clear(select).append(
    h("option", { value: AI_BUILT_IN, text: t("deck.builtIn") }),
    h("option", { value: AI_SAME, text: t("deck.aiSame") }),
    ...names.map((name) => h("option", { value: SAVED + name, disabled: !legal.has(name),
      text: legal.has(name) ? shortName(name) : t("deck.aiIllegal", { name: shortName(name) }) })),
  );
  select.value = state.aiDeck;
}

/** The AI's deck as the option deck_1 takes it: inline, so the game's record holds it whole. */
async function aiDeckJson() {
  if (state.aiDeck === AI_SAME) return deckJson(state.deck);
  const saved = state.aiDeck.startsWith(SAVED) ? savedDecks()[state.aiDeck.slice(SAVED.length)] : undefined;
  return deckJson(saved || await builtIn());
}

function save() {
  const saved = savedDecks();
  const name = title();
  saved[name] = deckData(state.deck);
  const note = document.getElementById("deck-file-note");
  try {
    localStorage.setItem(SAVED_DECKS, writeJson(saved));
  } catch {  // QuotaExceededError: nothing was written
    note.classList.add("error");
    note.textContent = t("deck.e.full", { name });
    return;
  }
  renderSaved();
  document.getElementById("deck-saved-list").value = name;
  note.classList.remove("error");
  note.textContent = t("deck.didSave", { name });
}

async function importFile(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  const note = document.getElementById("deck-file-note");
  note.classList.add("error");
  if (file.size > MAX_FILE) {
    note.textContent = t("deck.e.tooLarge", { kib: MAX_FILE / 1024 });
    return;
  }
  const text = await file.text();
  const toml = /\.toml$/i.test(file.name) || (!/\.json$/i.test(file.name) && !text.trimStart().startsWith("{"));
  const read = readDeck(text, toml);
  if (!read.deck) {
    note.textContent = t(read.error, read.vars);
    return;
  }
  note.classList.remove("error");
  state.deck = normalised(read.deck);
  document.getElementById("deck-name").value = shown(state.deck.name);
  renderCards();
  changed();
  // on a phone the problems are a screen's height above: say there are some
  const legal = deckProblems(state.deck).problems.length === 0;
  note.textContent = t(legal ? "deck.imported" : "deck.importedProblems", { name: title() });
}

function download(kind) {
  const text = kind === "json" ? `${writeJson(deckData(state.deck), true)}\n` : deckToml(state.deck);
  const type = kind === "json" ? "application/json" : "application/toml";
  const link = h("a", {
    href: URL.createObjectURL(new Blob([text], { type })),
    download: `${title().replace(/[^\p{L}\p{N}_-]+/gu, "-")}.${kind}`,
  });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// -- playing ---------------------------------------------------------------------------------

async function play() {
  const error = document.getElementById("deck-play-error");
  const button = document.getElementById("deck-play");
  button.disabled = true;
  error.textContent = "";
  const ranges = parseRanges(state.ranges);
  try {
    const options = { deck_0: deckJson(state.deck), deck_1: await aiDeckJson() };
    if (ranges && ranges.join("/") !== DEFAULT_RANGES) options.ranges = ranges.join("/");
    const created = await api.create({
      game: "shengke", options, seats: [{ kind: "human" }, { kind: "ai", level: state.level }], seat: 0,
    });
    keepSeat(created.id, created.seat, created.token, { creator: true });
    location.href = `/play/${encodeURIComponent(created.id)}`;
  } catch (e) {
    error.textContent = e.message;  // the server's own words, as `qipan deck check` says them
    button.disabled = false;
  }
}

/** Take the seat an invitation link is for, bringing this deck (the seat's deck_0 or deck_1). */
async function join() {
  const error = document.getElementById("deck-join-error");
  error.textContent = "";
  let id = null;
  let invite = null;
  try {
    const link = new URL(document.getElementById("deck-invite").value.trim(), location.origin);
    id = decodeURIComponent(link.pathname.match(/^\/play\/([^/]+)$/)?.[1] || "");
    invite = parseFragment(link.hash).invite;
  } catch {
    id = null;
  }
  if (!id || !invite) {
    error.textContent = t("deck.badLink");
    return;
  }
  const button = document.getElementById("deck-join");
  button.disabled = true;
  try {
    const claimed = await api.claim(id, invite, null, { deck: deckJson(state.deck) });
    keepSeat(claimed.id, claimed.seat, claimed.token);
    location.href = `/play/${encodeURIComponent(claimed.id)}`;
  } catch (e) {
    error.textContent = e.message;
    button.disabled = false;
  }
}

async function start() {
  translateStatic();
  document.title = `${t("deck.title")} · qipan`;
  const button = document.getElementById("lang");
  button.textContent = t("nav.language");
  button.addEventListener("click", toggleLanguage);
  const draft = readJson(DRAFT, null);
  const fromDraft = draft && typeof draft === "object" && draft.deck ? readDeck(writeJson(draft.deck), false).deck : null;
  state.deck = normalised(fromDraft || readDeck(writeJson(await builtIn()), false).deck);
  if (draft && typeof draft.ranges === "string") state.ranges = draft.ranges.slice(0, 100);
  try {
    const meta = await api.meta();
    state.levels = meta.games.find((g) => g.name === "shengke")?.levels || [];
  } catch {
    state.levels = [];
  }
  if (!state.levels.includes(state.level)) state.level = state.levels[0] || "easy";
  render();
}

start();
