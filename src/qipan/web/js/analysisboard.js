// The analysis board (/analysis): any position of any game, explored with engine lines.
//
// A position starts as the game's start (POST /api/position without a state), a finished
// game's position ("Analyse from here" in a review), or a pasted state JSON; Abalone and Chinese
// Checkers also have an editor (click a cell to cycle it; choose who moves). Any legal move of
// either side is played through POST /api/position (chance outcomes are picked by hand), and
// POST /api/analyse gives the engine's lines. Nothing is stored on the server.
import { api } from "./api.js";
import { clear, h, iconButton, toast } from "./dom.js";
import { evalText } from "./evaltext.js";
import { gameTitle, sideName, variantName } from "./gamewords.js";
import { t } from "./i18n.js";
import { resultText } from "./result.js";

const FROM = "qipan.analysis.from";
export const MAX_PASTE = 65536;
const TIMES = [0.5, 1, 2];
const MANY_OUTCOMES = 24;

/** Open the analysis board at ``setup`` ({game, variant, options, state}) in a new tab (this one
 * when the browser blocks it). */
export function openAnalysis(setup) {
  localStorage.setItem(FROM, JSON.stringify(setup));
  if (!window.open("/analysis", "_blank")) location.href = "/analysis";
}

/** The setup another page left for this one (read once). */
function takeSetup() {
  const text = localStorage.getItem(FROM);
  localStorage.removeItem(FROM);
  try {
    const setup = JSON.parse(text);
    return setup && typeof setup.game === "string" ? setup : null;
  } catch {
    return null;
  }
}

// -- editors: a click cycles a cell; the state is rebuilt for the server to check ------------------

const ABALONE = {
  cellOf: (target) => target.closest("[data-cell]")?.dataset.cell,
  start: (state, view) => ({ black: [...state.black], white: [...state.white], to_move: view.to_move ?? 0 }),
  cycle(ed, cell) {
    if (ed.black.includes(cell)) {
      ed.black = ed.black.filter((c) => c !== cell);
      ed.white.push(cell);
    } else if (ed.white.includes(cell)) {
      ed.white = ed.white.filter((c) => c !== cell);
    } else {
      ed.black.push(cell);
    }
  },
  state: (ed) => ({ black: ed.black, white: ed.white, turn: ["black", "white"][ed.to_move], quiet: 0, history: [] }),
  view: (ed, view) => ({
    ...view, to_move: ed.to_move, quiet: 0, result: null, marbles: { black: ed.black, white: ed.white },
    pushed_out: { black: Math.max(0, 14 - ed.white.length), white: Math.max(0, 14 - ed.black.length) },
  }),
};

const ROW_LETTERS = "abcdefghijklmnopq";
const CHINESE_CHECKERS = {
  cellOf: (target) => target.closest("[data-hole]")?.dataset.hole,
  start: (state, view) => ({ rows: state.rows.map((r) => r.split("")), to_move: view.to_move ?? 0, players: (view.players || []).length || 2,
    capture: view.variant === "capture" }),
  cycle(ed, hole) {
    const row = ed.rows[ROW_LETTERS.indexOf(hole[0])];
    const i = Number(hole.slice(1)) - 1;
    if (!row || !(i in row)) return;
    const marks = ed.capture ? [".", "o"] : [".", ...Array.from({ length: ed.players }, (_, p) => String(p + 1))];
    row[i] = marks[(marks.indexOf(row[i]) + 1) % marks.length];
  },
  state: (ed, state) => (ed.capture ? { ...state, rows: ed.rows.map((r) => r.join("")), to_move: ed.to_move }
    : { ...state, rows: ed.rows.map((r) => r.join("")), to_move: ed.to_move, finished: [], passes: 0 }),
  view(ed, view) {
    const pieces = {};
    ed.rows.forEach((row, r) => row.forEach((ch, i) => {
      if (ch !== ".") pieces[`${ROW_LETTERS[r]}${i + 1}`] = ch === "o" ? 0 : Number(ch) - 1;
    }));
    return { ...view, pieces, to_move: ed.to_move, result: null };
  },
};

const EDITORS = { abalone: ABALONE, "chinese-checkers": CHINESE_CHECKERS };

// -- the page ------------------------------------------------------------------------------------

export async function showAnalysis(app) {
  const meta = await api.meta();
  document.title = `${t("an.title")} · qipan`;
  const setup = takeSetup();
  const asked = new URLSearchParams(location.search).get("game");
  const game = meta.games.find((g) => g.name === (setup?.game ?? asked)) || meta.games[0];
  const page = new AnalysisPage(app, meta);
  await page.open({ game: game.name, variant: setup?.variant ?? null, options: setup?.options ?? {}, state: setup?.state ?? null });
}

class AnalysisPage {
  constructor(app, meta) {
    Object.assign(this, { app, meta });
    this.lines = 3;
    this.time = 1;
    this.auto = true;
    this.seq = 0; // the latest analysis asked for (older answers are dropped)
  }

  /** Show ``game`` at ``state`` (null: its start position). */
  async open({ game, variant = null, options = {}, state = null }) {
    this.game = this.meta.games.find((g) => g.name === game);
    this.variant = variant ?? (this.game.variants[0]?.name || null);
    this.options = options || {};
    this.info = await api.describe(game, this.variant, this.options);
    this.boardModule = await import(`/static/boards/${game}.js`);
    this.history = [];
    this.analysis = null;
    this.editing = null;
    this.hover = null;
    this.build();
    await this.load(state);
  }

  get spec() {
    const spec = { game: this.game.name, options: this.options };
    if (this.variant) spec.variant = this.variant;
    return spec;
  }

  get seats() {
    return this.info.player_names.map((name) => ({ name, side: name }));
  }

  sideOf(i) {
    return sideName(this.info.player_names[i] ?? `player ${i + 1}`);
  }

  build() {
    const game = this.game;
    const e = (this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      status: h("div", { class: "status", id: "an-status", role: "status" }),
      chance: h("div", { class: "an-chance", id: "an-chance" }),
      editPanel: h("div", { class: "an-edit", id: "an-edit-panel", hidden: true }),
      lines: h("div", { class: "an-lines", id: "an-lines" }),
      moves: h("ol", { class: "an-moves", id: "an-moves" }),
      paste: h("textarea", { id: "an-paste-text", rows: 5, spellcheck: "false", "aria-label": t("an.pasteLabel"), maxlength: String(MAX_PASTE) }),
      input: h("input", { type: "text", id: "an-notation", autocomplete: "off", spellcheck: "false", "aria-label": t("game.moveLabel") }),
    });
    e.boardHost.style.setProperty("--board-aspect", String(this.boardModule.aspect || 1));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    // The editor takes clicks on the board before the board does.
    e.boardHost.addEventListener("click", (ev) => this.editClick(ev), true);
    const gameSelect = h("select", { id: "an-game", onchange: (ev) => this.open({ game: ev.target.value }) },
      this.meta.games.map((g) => h("option", { value: g.name, selected: g === game, text: gameTitle(g.name, g.title) })));
    const variantSelect = game.variants.length > 1
      ? h("select", { id: "an-variant", onchange: (ev) => this.open({ game: game.name, variant: ev.target.value }) },
        game.variants.map((v) => h("option", { value: v.name, selected: v.name === this.variant, text: variantName(game.name, v.name) })))
      : null;
    const number = (id, values, current, label, set, fmt = String) => h("label", { class: "field an-field" }, h("span", { text: label }),
      h("select", { id, onchange: (ev) => { set(Number(ev.target.value)); this.analyse(); } },
        values.map((v) => h("option", { value: String(v), selected: v === current, text: fmt(v) }))));
    const side = h("aside", { class: "side" },
      h("section", { class: "panel game-head" },
        h("div", { class: "head-row" }, h("h2", { text: t("an.title") })),
        h("div", { class: "an-pick" },
          h("label", { class: "field an-field" }, h("span", { text: t("an.game") }), gameSelect),
          variantSelect ? h("label", { class: "field an-field" }, h("span", { text: t("lobby.variant") }), variantSelect) : null),
        h("div", { class: "an-buttons" },
          h("button", { type: "button", class: "btn small", id: "an-start", onclick: () => this.load(null) }, t("an.start")),
          EDITORS[game.name] ? h("button", { type: "button", class: "btn small", id: "an-edit", onclick: () => this.startEdit() }, t("an.edit")) : null),
        h("details", { class: "an-paste", id: "an-paste" }, h("summary", { text: t("an.paste") }),
          h("p", { class: "hint", text: t("an.pasteHint") }), e.paste,
          h("button", { type: "button", class: "btn small", id: "an-load", onclick: () => this.loadPasted() }, t("an.load")))),
      h("section", { class: "panel players-panel" }, e.status, e.chance, e.editPanel,
        h("form", { class: "notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } }, e.input,
          h("button", { class: "btn", type: "submit", id: "an-play" }, t("game.play")))),
      h("section", { class: "panel an-engine" },
        h("header", {}, h("span", { text: t("an.engine") })),
        h("div", { class: "body" },
          h("div", { class: "an-settings" },
            number("an-lines-n", [1, 2, 3, 4, 5], this.lines, t("an.lines"), (v) => { this.lines = v; }),
            number("an-time", TIMES, this.time, t("an.time"), (v) => { this.time = v; }, (v) => `${v} s`)),
          h("div", { class: "an-buttons" },
            h("button", { type: "button", class: "btn small primary", id: "an-analyse", onclick: () => this.analyse(true) }, t("an.analyse")),
            h("label", { class: "check" }, h("input", { type: "checkbox", id: "an-auto", checked: this.auto,
              onchange: (ev) => { this.auto = ev.target.checked; if (this.auto) this.analyse(); } }), h("span", { text: t("an.auto") }))),
          e.lines)),
      h("section", { class: "panel" },
        h("header", {}, h("span", { text: t("an.moves") }),
          iconButton("prev", t("an.back"), { id: "an-back", onclick: () => this.back() })),
        e.moves));
    clear(this.app).append(h("div", { class: "play analysis", id: "analysis" },
      h("div", { class: "board-col" }, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra, { info: { game: game.name, variant: this.variant, options: this.options }, meta: game, seat: null });
  }

  // -- positions ---------------------------------------------------------------------------------

  /** Ask the server for ``state`` (null: the start) and show it with an empty move list. */
  async load(state) {
    try {
      const pos = await api.position(state ? { ...this.spec, state } : this.spec);
      this.history = [];
      this.show(pos);
      return true;
    } catch (err) {
      toast(err.message, 6000);
      return false;
    }
  }

  loadPasted() {
    const text = this.els.paste.value.trim();
    if (text.length > MAX_PASTE) return toast(t("an.tooBig", { n: text.length, max: MAX_PASTE }));
    let state;
    try {
      state = JSON.parse(text);
    } catch (err) {
      return toast(t("an.badJson", { error: err.message }));
    }
    // A whole engine answer or a view may be pasted: take the state inside it.
    if (state && typeof state === "object" && state.state && typeof state.state === "object") state = state.state;
    this.load(state);
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    try {
      const pos = await api.position({ ...this.spec, state: this.pos.state, move });
      this.history.push({ pos: this.pos, move: pos.move ?? move });
      this.show(pos);
    } catch (err) {
      toast(err.message);
      this.renderBoard(false);
    } finally {
      this.busy = false;
    }
  }

  back() {
    const previous = this.history.pop();
    if (previous) this.show(previous.pos);
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text) return;
    this.els.input.value = "";
    this.play(text);
  }

  /** Show a position the server answered ({state, to_move, view, legal, result}). */
  show(pos) {
    this.pos = pos;
    this.analysis = null;
    this.hover = null;
    this.renderBoard(true);
    this.renderStatus();
    this.renderMoves();
    this.renderLines();
    if (this.auto) this.analyse();
  }

  get mover() {
    return typeof this.pos?.to_move === "number" && this.pos.to_move >= 0 ? this.pos.to_move : null;
  }

  renderBoard(fresh) {
    const pos = this.pos;
    const edit = this.editing;
    const view = edit ? EDITORS[this.game.name].view(edit, pos.view) : pos.view;
    const mover = edit ? null : this.mover;
    const msg = {
      view, legal: mover === null || pos.result ? [] : pos.legal || [], to_move: edit ? edit.to_move : pos.to_move,
      last: edit ? null : this.history.at(-1)?.move ?? null, ply: this.history.length, seats: this.seats, result: edit ? null : pos.result || null,
      moves: [],
    };
    const best = this.analysis?.lines?.[0]?.move ?? null;
    this.board.render(msg, {
      seat: edit ? null : mover, orientation: 0, interactive: !edit && mover !== null && !pos.result && msg.legal.length > 0 && !this.busy,
      fresh, submit: (text) => this.play(text), suggest: edit ? null : this.hover ?? best, editing: !!edit,
    });
  }

  renderStatus() {
    const pos = this.pos;
    const st = this.els.status;
    const chance = clear(this.els.chance);
    if (pos.result) {
      const said = typeof pos.result === "string" ? pos.result : pos.result.text ?? resultText(pos.result, (i) => this.sideOf(i));
      st.textContent = t("an.over", { result: said });
    } else if (this.mover !== null) {
      st.textContent = t("an.toMoveName", { name: this.sideOf(this.mover) });
    } else {
      st.textContent = t("an.chancePick");
      const outcomes = pos.legal || [];
      if (outcomes.length > MANY_OUTCOMES) {
        const select = h("select", { id: "an-outcome", "aria-label": t("an.chanceOutcome") }, outcomes.map((o) => h("option", { value: o, text: o })));
        chance.append(select, h("button", { type: "button", class: "btn small", id: "an-outcome-play", onclick: () => this.play(select.value) }, t("game.play")));
      } else {
        chance.append(...outcomes.map((o) => h("button", { type: "button", class: "btn small", "data-outcome": o, onclick: () => this.play(o) }, o)));
      }
      // The server draws one (the only way on where the outcomes cannot be listed: a shuffle).
      chance.append(h("button", { type: "button", class: "btn small", id: "an-random", onclick: () => this.play("random") }, t("an.random")));
    }
    this.els.input.placeholder = this.mover !== null && pos.legal?.length ? t("game.placeholder", { move: pos.legal[0] }) : "";
  }

  renderMoves() {
    const node = clear(this.els.moves);
    if (!this.history.length) node.append(h("li", { class: "empty", text: t("an.noMovesYet") }));
    for (const step of this.history) node.append(h("li", { text: step.move }));
    node.scrollTop = node.scrollHeight;
    document.getElementById("an-back").disabled = !this.history.length;
  }

  // -- engine ------------------------------------------------------------------------------------

  /** Ask for the engine's lines in this position (``asked``: the Analyse button, even with the
   * automatic analysis off). */
  async analyse(asked = false) {
    if (!this.pos || this.editing || (!asked && !this.auto)) return;
    const seq = ++this.seq;
    if (this.mover === null || this.pos.result) {
      this.analysis = null;
      this.renderLines();
      return;
    }
    clear(this.els.lines).append(h("p", { class: "hint", id: "an-thinking", text: t("an.thinking") }));
    try {
      const answer = await api.analyse({ ...this.spec, state: this.pos.state, lines: this.lines, time: this.time });
      if (seq !== this.seq) return;
      this.analysis = answer.analysis;
    } catch (err) {
      if (seq !== this.seq) return;
      this.analysis = null;
      toast(err.message);
    }
    this.renderLines();
    this.renderBoard(false);
  }

  renderLines() {
    const node = clear(this.els.lines);
    const a = this.analysis;
    if (!a) {
      if (this.mover === null || this.pos?.result) node.append(h("p", { class: "hint", text: t("an.noLines") }));
      return;
    }
    const facts = { method: t(`an.method.${a.method}`), depth: a.depth, nodes: a.nodes, seconds: Number(a.seconds).toFixed(1) };
    node.append(h("p", { class: "hint an-lines-title" }, a.depth ? t("an.linesTitle", facts) : t("an.linesTitleNoDepth", facts),
      " · ", t("an.eval.for", { name: this.sideOf(a.player) })));
    node.append(h("ol", { class: "an-line-list", id: "an-line-list" }, a.lines.map((line, i) => {
      const preview = (on) => {
        this.hover = on ? line.move : null;
        this.renderBoard(false);
      };
      return h("li", { class: `an-line${i === 0 ? " best" : ""}`, "data-move": line.move },
        h("span", { class: "ev", text: evalText(line.evaluation) }),
        h("button", {
          type: "button", class: "btn small an-line-move", title: t("an.playLine", { move: line.move }),
          "aria-label": t("an.playLine", { move: line.move }), onclick: () => this.play(line.move),
          onmouseenter: () => preview(true), onmouseleave: () => preview(false), onfocus: () => preview(true), onblur: () => preview(false),
        }, line.move),
        line.pv?.length > 1 ? h("span", { class: "pv", title: t("an.pv"), text: line.pv.slice(1).join(" ") }) : null);
    })));
  }

  // -- editor ------------------------------------------------------------------------------------

  startEdit() {
    const editor = EDITORS[this.game.name];
    if (!editor || this.editing || !this.pos?.state) return;
    this.seq++; // an analysis in flight is for the old position
    this.editing = editor.start(this.pos.state, this.pos.view);
    const panel = clear(this.els.editPanel);
    panel.hidden = false;
    const seg = h("div", { class: "seg", role: "group", "aria-label": t("an.toMove") },
      this.info.player_names.map((name, i) => h("button", {
        type: "button", "data-seat": i, class: this.editing.to_move === i ? "on" : "", "aria-pressed": String(this.editing.to_move === i),
        onclick: (ev) => {
          this.editing.to_move = i;
          for (const b of seg.children) {
            b.classList.toggle("on", b === ev.currentTarget);
            b.setAttribute("aria-pressed", String(b === ev.currentTarget));
          }
          this.renderBoard(false);
        },
      }, sideName(name))));
    panel.append(h("p", { class: "hint", text: t("an.editHint") }),
      h("div", { class: "an-to-move" }, h("span", { text: t("an.toMove") }), seg),
      h("div", { class: "an-buttons" },
        h("button", { type: "button", class: "btn small primary", id: "an-edit-done", onclick: () => this.finishEdit() }, t("an.editDone")),
        h("button", { type: "button", class: "btn small", id: "an-edit-cancel", onclick: () => this.cancelEdit() }, t("an.editCancel"))));
    clear(this.els.lines);
    this.els.status.textContent = t("an.edit");
    this.renderBoard(true);
  }

  editClick(ev) {
    if (!this.editing) return;
    ev.stopPropagation();
    const editor = EDITORS[this.game.name];
    const cell = editor.cellOf(ev.target);
    if (!cell) return;
    editor.cycle(this.editing, cell);
    this.renderBoard(false);
  }

  async finishEdit() {
    const state = EDITORS[this.game.name].state(this.editing, this.pos.state);
    const edit = this.editing;
    this.editing = null;
    if (await this.load(state)) {
      this.els.editPanel.hidden = true;
    } else {
      this.editing = edit; // the server said what is wrong (a toast): keep editing
    }
  }

  cancelEdit() {
    this.editing = null;
    this.els.editPanel.hidden = true;
    this.show(this.pos);
  }
}
