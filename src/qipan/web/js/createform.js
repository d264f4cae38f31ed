// The lobby's "Create a game" form: game, variant, the players up front and the other options
// folded, the clock, who sits where (human or AI, which seat is mine), public or invite-only,
// the nickname for my seat; then the invitation and spectator links.
import { api } from "./api.js";
import { deckJson, savedDecks } from "./deckfile.js";
import { clear, h, linkRow } from "./dom.js";
import {
  choiceLabel, gameTitle, levelName, optionHelp, optionLabel, sideName, variantHelp, variantName,
} from "./gamewords.js";
import { t } from "./i18n.js";
import { askName, currentName, onNameChange } from "./names.js";
import { keepInvites, keepSeat } from "./seats.js";

/** Options shown before the folded ones: they change who sits at the table. */
const UP_FRONT = ["players", "version"];
/** Options the form replaces: Abalone's time_limit is the clock choice (base + 0). */
const REPLACED = ["time_limit"];
/** Clock presets, minutes + seconds added per move. */
export const PRESETS = [[3, 2], [5, 3], [10, 5], [15, 10]];
const MAX_MINUTES = 10080;
const MAX_INCREMENT = 3600;

const state = {
  meta: null, game: null, variant: null, options: {}, seats: [], mine: 0, info: null,
  clock: "none", custom: { minutes: 10, increment: 5 }, visibility: null, onCreated: null, hints: false,
  deck: null,
};

/** Fill ``root`` with the form; ``onCreated(created)`` after each game made. */
export function createForm(root, meta, { game = null, onCreated = null } = {}) {
  state.meta = meta;
  state.onCreated = onCreated;
  selectGame(root, meta.games.find((g) => g.name === game) || meta.games[0]);
  onNameChange(() => renderYou(root));
}

function selectGame(root, game) {
  state.game = game;
  state.variant = game.variants.length ? game.variants[0].name : null;
  state.options = {};
  state.seats = [];
  state.mine = 0;
  state.info = null;
  state.deck = null;
  renderCreate(root);
  refreshSeats(root);
}

function offered() {
  return state.game.options.filter((opt) => !opt.local_file && !REPLACED.includes(opt.name));
}

function renderCreate(root) {
  const game = state.game;
  clear(root).append(
    h("h2", { id: "create-title", text: t("lobby.create") }),
    h("div", { class: "game-picker", role: "radiogroup", "aria-label": t("lobby.game") },
      state.meta.games.map((g) =>
        h("button", {
          type: "button", class: `game-tile${g === game ? " on" : ""}`, role: "radio",
          "aria-checked": String(g === game), "data-game": g.name,
          onclick: () => selectGame(root, g),
        }, h("strong", { text: gameTitle(g.name, g.title) }),
        h("small", { text: g.variants.length > 1 ? t("lobby.variants", { n: g.variants.length }) : t("lobby.variant1") })),
      ),
    ),
    h("p", { class: "hint" }, t("lobby.rules"),
      h("a", { href: `/static/rules/${game.name}.html`, target: "_blank", text: t("lobby.rulesLink", { title: gameTitle(game.name, game.title) }) })),
  );
  if (game.name === "shengke") root.append(deckField());
  if (game.variants.length) {
    const help = h("small", { id: "variant-help" });
    const showHelp = () => {
      help.textContent = variantHelp(game.name, state.variant, game.variants.find((v) => v.name === state.variant)?.help || "");
    };
    const select = h("select", {
      name: "variant", "aria-describedby": "variant-help",
      onchange: (e) => {
        // A variant brings its own defaults and seats (Tellstones' round table seats four).
        state.variant = e.target.value;
        state.options = {};
        showHelp();
        renderOptions(root);
        refreshSeats(root);
      },
    }, game.variants.map((v) => h("option", { value: v.name, selected: v.name === state.variant, text: variantName(game.name, v.name) })));
    showHelp();
    root.append(h("label", { class: "field" }, h("span", { text: t("lobby.variant") }), select, help));
  }
  const rest = offered().filter((opt) => !UP_FRONT.includes(opt.name));
  root.append(h("div", { class: "options-grid", id: "options-main" }));
  if (rest.length) {
    root.append(h("details", { class: "field more-options", open: rest.length <= 4 },
      h("summary", { text: t("lobby.moreOptions", { n: rest.length }) }), h("div", { class: "options-grid", id: "options" })));
  }
  renderOptions(root);
  root.append(clockField(), h("h3", { text: t("lobby.seats") }), h("div", { class: "seats", id: "seats" }),
    h("div", { id: "hints-box" }), h("p", { class: "you-as", id: "you-as" }), h("div", { id: "visibility-box" }));
  renderYou(root);
  root.append(
    h("p", { class: "error", id: "create-error", role: "alert" }),
    h("button", { class: "btn primary", id: "create-game", type: "button", onclick: () => createGame(root) }, t("lobby.createButton")),
    h("div", { id: "created" }),
  );
}

/** Sheng-Ke: the deck of my seat, built-in or one the deck workshop keeps in this browser. */
function deckField() {
  const names = Object.keys(savedDecks()).sort();
  return h("label", { class: "field" }, h("span", { text: t("deck.yours") }),
    h("select", { id: "create-deck", onchange: (e) => { state.deck = e.target.value || null; } },
      h("option", { value: "", text: t("deck.builtIn") }), names.map((n) => h("option", { value: n, text: n }))),
    h("small", {}, h("a", { href: "/static/workshop/shengke.html", text: t("deck.link") })));
}

function renderOptions(root) {
  const main = root.querySelector("#options-main");
  const more = root.querySelector("#options");
  const defaults = state.game.variants.find((v) => v.name === state.variant)?.defaults || {};
  clear(main);
  if (more) clear(more);
  for (const opt of offered()) {
    const base = opt.name in defaults ? defaults[opt.name] : opt.default;
    const field = optionField(root, { ...opt, default: opt.name in state.options ? state.options[opt.name] : base }, base);
    (UP_FRONT.includes(opt.name) || !more ? main : more).append(field);
  }
  if (state.info) applyChoices(root, state.info);
}

function optionField(root, opt, base) {
  const game = state.game.name;
  const name = `opt-${opt.name}`;
  const label = optionLabel(game, opt.name);
  const help = optionHelp(game, opt.name, opt.help || "");
  const onchange = (value) => {
    if (value === base) delete state.options[opt.name];
    else state.options[opt.name] = value;
    refreshSeats(root);
  };
  const type = opt.type || (typeof opt.default === "boolean" ? "bool" : typeof opt.default === "number" ? (Number.isInteger(opt.default) ? "int" : "float") : "str");
  if (type === "bool") {
    return h("label", { class: "field check", title: help },
      h("input", { type: "checkbox", name, checked: opt.default, onchange: (e) => onchange(e.target.checked) }),
      h("span", { text: label }));
  }
  let input;
  if (opt.choices && opt.choices.length) {
    input = h("select", { name, "data-option": opt.name, onchange: (e) => onchange(opt.choices.find((c) => String(c) === e.target.value)) });
    fillChoices(input, opt, opt.choices, opt.default, null);
  } else if (type === "int" || type === "float") {
    input = h("input", {
      type: "number", name, value: opt.default, min: opt.minimum ?? undefined, max: opt.maximum ?? undefined,
      step: type === "int" ? 1 : "any", inputmode: type === "int" ? "numeric" : "decimal",
      onchange: (e) => e.target.value !== "" && onchange(Number(e.target.value)),
    });
  } else {
    input = h("input", { type: "text", name, value: opt.default ?? "", maxlength: 200, onchange: (e) => onchange(e.target.value) });
  }
  return h("label", { class: "field" }, h("span", { text: label }), input, h("small", { text: help }));
}

/** Whether an option's digit choices are seats, counted from 0 (/api/meta's ``seat`` flag). */
function isSeatOption(opt) {
  return opt.seat === true;
}

/** The <option>s of a choice: a seat number reads as that seat's side ("Player 1", "甲"). */
function fillChoices(select, opt, choices, current, info) {
  const seats = isSeatOption(opt);
  clear(select).append(...choices.map((c) => {
    const seat = seats && /^\d+$/.test(String(c)) ? Number(c) : null;
    const text = seat === null ? choiceLabel(state.game.name, opt.name, c)
      : info ? sideName(info.player_names[seat] ?? `player ${seat + 1}`) : t("meta.side.player", { n: seat + 1 });
    return h("option", { value: String(c), selected: String(c) === String(current), text });
  }));
}

/** Offer only the choices this configuration accepts (describe's ``choices``). */
function applyChoices(root, info) {
  for (const select of root.querySelectorAll("select[data-option]")) {
    const opt = state.game.options.find((o) => o.name === select.dataset.option);
    if (!opt) continue;
    const allowed = info.choices?.[opt.name] ?? opt.choices;
    const key = JSON.stringify([allowed, info.player_names]);
    if (select.dataset.shown === key) continue;
    select.dataset.shown = key;
    const current = info.options?.[opt.name] ?? select.value;
    const focused = document.activeElement === select;
    fillChoices(select, opt, allowed, current, info);
    if (focused) select.focus();
  }
}

function clockField() {
  const custom = h("div", { class: "clock-custom", hidden: state.clock !== "custom" },
    h("label", { class: "field" }, h("span", { text: t("lobby.clockMinutes") }),
      h("input", {
        type: "number", name: "clock-minutes", min: 1, max: MAX_MINUTES, step: 1, value: state.custom.minutes, inputmode: "numeric",
        onchange: (e) => { state.custom.minutes = Number(e.target.value); },
      })),
    h("label", { class: "field" }, h("span", { text: t("lobby.clockIncrement") }),
      h("input", {
        type: "number", name: "clock-increment", min: 0, max: MAX_INCREMENT, step: 1, value: state.custom.increment, inputmode: "numeric",
        onchange: (e) => { state.custom.increment = Number(e.target.value); },
      })));
  const chip = (value, text, label) => h("label", { class: "chip", "data-clock": value },
    h("input", {
      type: "radio", name: "clock", value, checked: state.clock === value, "aria-label": label,
      onchange: () => { state.clock = value; custom.hidden = value !== "custom"; },
    }), h("span", { text }));
  return h("fieldset", { class: "field clock-choice", id: "clock" },
    h("legend", { text: t("lobby.clock") }),
    h("div", { class: "chips" },
      chip("none", t("lobby.untimed"), t("lobby.untimed")),
      PRESETS.map(([m, s]) => chip(`${m * 60}+${s}`, `${m}+${s}`, t("lobby.clockPreset", { m, s }))),
      chip("custom", t("lobby.custom"), t("lobby.custom"))),
    custom,
    h("small", { text: t("lobby.clockHint") }));
}

/** The clock to send: null (untimed) or {base, increment} in seconds; throws on a bad custom one. */
function chosenClock() {
  if (state.clock === "none") return null;
  if (state.clock !== "custom") {
    const [base, increment] = state.clock.split("+").map(Number);
    return { base, increment };
  }
  const { minutes, increment } = state.custom;
  if (!(Number.isFinite(minutes) && minutes >= 1 && minutes <= MAX_MINUTES)) throw new Error(t("lobby.badMinutes", { max: MAX_MINUTES }));
  if (!(Number.isInteger(increment) && increment >= 0 && increment <= MAX_INCREMENT)) throw new Error(t("lobby.badIncrement", { max: MAX_INCREMENT }));
  return { base: Math.round(minutes * 60), increment };
}

function renderYou(root) {
  const node = root.querySelector("#you-as");
  if (!node) return;
  const name = currentName();
  clear(node).append(
    h("span", { text: name ? t("lobby.youPlayAs", { name }) : t("lobby.noNickname") }), " ",
    h("button", { type: "button", class: "btn small", id: "you-as-change", onclick: () => askName() },
      name ? t("lobby.changeName") : t("name.choose")));
}

let describeSeq = 0;
async function refreshSeats(root) {
  const seq = ++describeSeq;
  const seatsNode = root.querySelector("#seats");
  const error = root.querySelector("#create-error");
  const button = root.querySelector("#create-game");
  try {
    const info = await api.describe(state.game.name, state.variant, state.options);
    if (seq !== describeSeq) return;
    state.info = info;
    error.textContent = "";
    button.disabled = false;
    const old = state.seats;
    state.seats = info.player_names.map((_, i) => old[i] || (i === 0 ? { kind: "human" } : { kind: "ai", level: defaultLevel(info.levels) }));
    for (const seat of state.seats) if (seat.kind === "ai" && !info.levels.includes(seat.level)) seat.level = defaultLevel(info.levels);
    fixMine();
    renderSeats(root, info);
    applyChoices(root, info);
  } catch (err) {
    if (seq !== describeSeq) return;
    error.textContent = err.message;
    button.disabled = true;
    clear(seatsNode);
    clear(root.querySelector("#visibility-box"));
  }
}

/** Keep "my seat" on a human seat (the first one when it was switched to AI); null: none. */
function fixMine() {
  if (state.mine !== null && state.seats[state.mine]?.kind === "human") return;
  const first = state.seats.findIndex((s) => s.kind === "human");
  state.mine = first < 0 ? null : first;
}

/** Seats that someone other than the creator will take. */
function openSeats() {
  return state.seats.filter((s, i) => s.kind === "human" && i !== state.mine).length;
}

function renderSeats(root, info) {
  const node = root.querySelector("#seats");
  clear(node);
  info.player_names.forEach((side, i) => {
    const seat = state.seats[i];
    const sideText = sideName(side);
    const seg = h("div", { class: "seg", role: "group", "aria-label": sideText },
      ["human", "ai"].map((kind) => h("button", {
        type: "button", class: seat.kind === kind ? "on" : "", "data-kind": kind, "aria-pressed": String(seat.kind === kind),
        onclick: () => {
          state.seats[i] = kind === "ai" ? { kind, level: seat.level || defaultLevel(info.levels) } : { kind };
          fixMine();
          renderSeats(root, info);
          node.querySelector(`.seat-row[data-seat="${i}"] [data-kind="${kind}"]`)?.focus();
        },
      }, kind === "ai" ? t("lobby.ai") : t("lobby.human"))));
    const level = seat.kind === "ai" && info.levels.length
      ? h("select", { name: `level-${i}`, "aria-label": t("lobby.levelFor", { side: sideText }), onchange: (e) => { seat.level = e.target.value; } },
        info.levels.map((l) => h("option", { value: l, selected: l === seat.level, text: levelName(l) })))
      : null;
    const mine = seat.kind === "human"
      ? h("label", { class: "mine" }, h("input", {
        type: "radio", name: "mine", value: String(i), checked: state.mine === i,
        onchange: () => { state.mine = i; renderVisibility(root); },
      }), h("span", { text: t("lobby.mine") }))
      : null;
    node.append(h("div", { class: "seat-row", "data-seat": i }, h("span", { class: "seat-name", text: sideText }), seg, level, mine));
  });
  renderHints(root);
  renderVisibility(root);
}

/** Hints are offered only in a game against the AI with one human player (the server refuses
 * them otherwise). */
function hintsAllowed() {
  return state.seats.some((s) => s.kind === "ai") && state.seats.filter((s) => s.kind === "human").length === 1;
}

function renderHints(root) {
  const box = clear(root.querySelector("#hints-box"));
  if (!hintsAllowed()) return;
  box.append(h("label", { class: "field check", id: "hints-field" },
    h("input", { type: "checkbox", name: "hints", id: "hints", checked: state.hints, "aria-describedby": "hints-help",
      onchange: (e) => { state.hints = e.target.checked; } }),
    h("span", { text: t("an.hintsLabel") })),
  h("small", { class: "hint", id: "hints-help", text: t("an.hintsHelp") }));
}

/** Public (listed, anyone may join) or invite-only; public by default when a seat is open. */
function renderVisibility(root) {
  const box = root.querySelector("#visibility-box");
  const current = state.visibility ?? (openSeats() ? "public" : "private");
  const choice = (value, text) => h("label", { class: "check radio-line" },
    h("input", { type: "radio", name: "visibility", value, checked: current === value, onchange: () => { state.visibility = value; } }),
    h("span", { text }));
  clear(box).append(h("fieldset", { class: "field visibility" },
    h("legend", { text: t("lobby.visibility") }),
    choice("public", t("lobby.public")),
    choice("private", t("lobby.private"))));
}

async function createGame(root) {
  const error = root.querySelector("#create-error");
  const button = root.querySelector("#create-game");
  let clock;
  try {
    clock = chosenClock();
  } catch (err) {
    error.textContent = err.message;
    return;
  }
  const isPublic = (state.visibility ?? (openSeats() ? "public" : "private")) === "public";
  const options = { ...state.options };
  const deck = state.deck && savedDecks()[state.deck];
  if (deck && state.mine !== null) options[`deck_${state.mine}`] = deckJson(deck);
  const spec = { game: state.game.name, variant: state.variant, options, seats: state.seats, public: isPublic };
  if (state.mine !== null) spec.seat = state.mine;
  if (clock) spec.clock = clock;
  if (state.hints && hintsAllowed()) spec.hints = true;
  const name = currentName();
  if (name && state.mine !== null) spec.name = name;
  button.disabled = true;
  try {
    const created = await api.create(spec);
    error.textContent = "";
    if (created.seat !== null) keepSeat(created.id, created.seat, created.token, { creator: true });
    keepInvites(created.id, Object.fromEntries(created.seats.filter((s) => s.invite).map((s) => [s.seat, s.invite])));
    showLinks(root.querySelector("#created"), created, isPublic);
    state.onCreated?.(created);
  } catch (err) {
    error.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

function showLinks(node, created, isPublic) {
  const mine = created.seat === null ? null : created.seats[created.seat];
  const play = mine ? `/play/${encodeURIComponent(created.id)}#seat=${mine.seat}` : `/play/${encodeURIComponent(created.id)}`;
  const sideOf = (s) => sideName(s.side ?? s.name);
  const invites = created.seats.some((s) => s.invite);
  clear(node).append(
    h("div", { class: "card created", id: "invite" },
      h("h3", { text: t("lobby.created") }),
      mine ? h("p", { class: "hint", text: t("lobby.yourSeat", { name: sideOf(mine) }) }) : null,
      invites && isPublic ? h("p", { class: "hint", text: t("lobby.listed") }) : null,
      invites ? h("p", { class: "hint", text: t("lobby.inviteHint") }) : null,
      h("div", { class: "links" },
        created.seats.map((s) => {
          if (s.invite) return linkRow(sideOf(s), s.url, "seat", { open: false });
          if (s.kind === "ai") return h("div", { class: "link-row" }, h("span", { class: "who", text: sideOf(s) }), h("span", { class: "hint", text: t("lobby.aiSeat", { level: levelName(s.level) }) }));
          return null;
        }),
        linkRow(t("lobby.spectators"), created.spectator_url, "spectator")),
      h("p", { class: "hint", text: t("lobby.spectatorHint") }),
      h("p", {}, h("a", { class: "btn primary", href: play, id: "play-first" },
        mine ? t("lobby.playAs", { name: sideOf(mine) }) : t("lobby.watch"))),
    ),
  );
  node.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

export function defaultLevel(levels) {
  return levels.includes("easy") ? "easy" : levels[0];
}
