// The puzzles (/puzzles, /puzzles/<id>): the catalogue, and a puzzle played on the real board
// (docs/puzzles.md).
//
// Stateless like the tutorials: the server replays the moves played so far from the puzzle's
// position and judges each try (POST /api/puzzles/{id}/play); taking a move back or starting again is
// just sending fewer moves. Which puzzles are solved is kept in this browser ("qipan.puzzles").
import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { sideName } from "./gamewords.js";

const SOLVED = "qipan.puzzles";

const say = (words) => (words ? words[lang] ?? words.en : "");
/** ``text`` ending a sentence: the engine's reasons have no full stop, and "Nothing changed." follows. */
const sentence = (text) => (/[.!?。！？]$/.test(text) ? text : `${text}${lang === "zh-Hant" ? "。" : "."}`);

function solvedIds() {
  try {
    const kept = JSON.parse(localStorage.getItem(SOLVED) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

function markSolved(id) {
  const kept = solvedIds();
  if (!kept.includes(id)) localStorage.setItem(SOLVED, JSON.stringify([...kept, id]));
}

/** What counts as solved, in a few words (also the lobby card's line). */
export function goal(puzzle) {
  if (puzzle.kind === "crossing" && puzzle.optimal) return t("puzzle.goal.crossingOptimal", { n: puzzle.par });
  return t(`puzzle.goal.${puzzle.kind}`, { n: puzzle.par });
}

export async function showPuzzles(app) {
  let id = location.pathname.replace(/^\/puzzles\/?/, "").replace(/\/$/, "");
  try {
    id = decodeURIComponent(id).trim().toLowerCase(); // (ids are lower case, as the server reads them)
  } catch {
    id = ""; // a malformed address (/puzzles/%E0): the list
  }
  const { puzzles } = await api.puzzles();
  const puzzle = puzzles.find((p) => p.id === id);
  if (puzzle) await new PuzzlePage(app, puzzle, puzzles).open();
  else showList(app, puzzles);
}

function showList(app, puzzles) {
  document.title = `${t("puzzle.listTitle")} · qipan`;
  const solved = solvedIds();
  const kinds = ["eject", "shiqi", "crossing"];
  const ratings = ["easy", "medium", "hard"];
  const inOrder = [...puzzles].sort((a, b) => ratings.indexOf(a.rating) - ratings.indexOf(b.rating));
  clear(app).append(h("div", { class: "learn", id: "puzzles" },
    h("section", { class: "card learn-head" }, h("h1", { text: t("puzzle.listTitle") }),
      h("p", { class: "hint", text: t("puzzle.listIntro") })),
    h("div", { class: "learn-courses" }, kinds.map((kind) =>
      h("section", { class: "panel learn-course", "data-kind": kind, "aria-labelledby": `kind-${kind}` },
        h("header", {}, h("h2", { id: `kind-${kind}`, text: t(`puzzle.kind.${kind}`) })),
        h("div", { class: "body" }, h("ol", { class: "learn-lessons" },
          inOrder.filter((p) => p.kind === kind).map((p) => h("li", { "data-puzzle": p.id },
            h("a", { href: p.url }, say(p.title)),
            solved.includes(p.id) ? h("span", { class: "learn-tick", text: t("puzzle.solvedMark") }) : null,
            h("span", { class: "hint learn-rules", text: `${t(`puzzle.rating.${p.rating}`)} · ${goal(p)} · ${p.id}` }))))))))));
}

class PuzzlePage {
  constructor(app, puzzle, puzzles) {
    Object.assign(this, { app, puzzle, puzzles });
    this.busy = false;
  }

  async open() {
    const first = await api.puzzle(this.puzzle.id, { moves: [] });
    const meta = (await api.meta()).games.find((g) => g.name === first.game);
    this.info = await api.describe(first.game, first.variant, first.options);
    this.boardModule = await import(`/static/boards/${first.game}.js`);
    document.title = `${say(this.puzzle.title)} · qipan`;
    this.build(meta, first);
    this.show(first, null);
  }

  task(first) {
    const p = this.puzzle;
    if (p.kind === "crossing") return t(p.optimal ? "puzzle.task.crossingOptimal" : "puzzle.task.crossing", { n: p.par });
    if (p.kind === "eject") return t("puzzle.task.eject", { n: p.par, side: sideName(this.info.player_names[first.seat]) });
    return t("puzzle.task.shiqi");
  }

  build(meta, first) {
    const e = (this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      status: h("p", { class: "learn-prompt", id: "puzzle-status" }),
      feedback: h("div", { class: "learn-feedback", id: "puzzle-feedback", role: "status", "aria-live": "polite" }),
      input: h("input", { type: "text", id: "puzzle-move", autocomplete: "off", spellcheck: "false", "aria-label": t("game.moveLabel") }),
      line: h("ol", { class: "hint learn-lessons", id: "puzzle-line" }),
      undo: h("button", { type: "button", class: "btn small", id: "puzzle-undo", onclick: () => this.go(this.moves.slice(0, -1)) }, t("puzzle.undo")),
      hint: h("button", { type: "button", class: "btn small", id: "puzzle-hint", onclick: () => this.askHint() }, t("puzzle.hint")),
    });
    e.form = h("form", { class: "notation", id: "puzzle-form", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } }, e.input,
      h("button", { class: "btn", type: "submit", id: "puzzle-play" }, t("game.play")));
    e.boardHost.style.setProperty("--board-aspect", String(this.boardModule.aspect || 1));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    e.hint.hidden = this.puzzle.kind === "crossing";
    const index = this.puzzles.indexOf(this.puzzle);
    const next = this.puzzles[(index + 1) % this.puzzles.length];
    const p = this.puzzle;
    const side = h("aside", { class: "side" },
      h("section", { class: "panel players-panel learn-panel", "aria-labelledby": "puzzle-heading" }, h("div", { class: "body" },
        h("p", { class: "hint" }, h("a", { href: "/puzzles", id: "puzzle-back" }, t("puzzle.back")), " · ",
          `${t(`puzzle.rating.${p.rating}`)} · ${goal(p)}`),
        h("h1", { id: "puzzle-heading", text: say(p.title) }),
        h("p", { class: "learn-intro", id: "puzzle-task", text: this.task(first) }),
        e.status, e.feedback, e.form,
        h("div", { class: "an-buttons" }, e.undo,
          h("button", { type: "button", class: "btn small", id: "puzzle-restart", onclick: () => this.go([]) }, t("puzzle.restart")),
          e.hint, h("a", { class: "btn small", id: "puzzle-next", href: next.url }, t("puzzle.next"))),
        e.lineBox = p.kind === "eject" ? h("section", { "aria-labelledby": "puzzle-line-title" },
          h("h2", { class: "hint", id: "puzzle-line-title", text: t("puzzle.lineTitle") }), e.line) : null)));
    clear(this.app).append(h("div", { class: "play learn-lesson", id: "puzzle", "data-puzzle": p.id },
      h("div", { class: "board-col" }, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra,
      { info: { game: first.game, variant: first.variant, options: first.options }, meta, seat: first.seat });
  }

  /** Where the attempt stands, in words. */
  statusText(pos) {
    const p = this.puzzle;
    const n = pos.moves.length;
    if (p.kind === "crossing") {
      if (!pos.solved) return t("puzzle.status.crossing", { moves: n, inside: pos.in_target });
      const gap = n - p.par;
      let verdict;
      if (gap > 0) verdict = t(p.optimal ? "puzzle.verdict.more" : "puzzle.verdict.moreKnown", { gap, par: p.par });
      else if (p.optimal) verdict = t("puzzle.verdict.optimum");
      else if (gap === 0) verdict = t("puzzle.verdict.equalKnown", { par: p.par });
      else verdict = t("puzzle.verdict.record", { gap: -gap, par: p.par });
      return `${t("puzzle.crossed", { moves: n })} ${verdict}`;
    }
    if (p.kind === "shiqi") {
      if (pos.done) return pos.solved ? t("puzzle.shiqiSolved") : t("puzzle.shiqiOver", { left: pos.pieces_left });
      return t("puzzle.status.shiqi", { left: pos.pieces_left, moves: n });
    }
    return pos.solved ? t("puzzle.ejected", { k: n, n: p.par }) : t("puzzle.status.eject", { k: n + 1, n: p.par });
  }

  /** Show the puzzle as the server answered it, with the verdict on the last try. */
  show(pos, verdict) {
    this.pos = pos;
    this.moves = pos.moves;
    const e = this.els;
    e.status.textContent = this.statusText(pos);
    const box = clear(e.feedback);
    box.dataset.kind = verdict?.kind ?? "";
    if (verdict?.kind === "played") {
      const reply = pos.line.at(-1)?.reply;
      box.append(t("puzzle.played", { move: verdict.move }), reply ? ` ${t("puzzle.reply", { reply })}` : "");
    } else if (verdict?.kind === "wrong" || verdict?.kind === "illegal") {
      box.append(h("strong", { text: t(`puzzle.${verdict.kind}`) }), " ", sentence(say(verdict.reason)), " ", t("puzzle.unchanged"));
    }
    if (pos.solved) markSolved(this.puzzle.id);
    e.form.hidden = pos.done;
    e.hint.disabled = pos.done;
    e.undo.disabled = pos.moves.length === 0;
    e.input.placeholder = pos.legal.length ? t("game.placeholder", { move: pos.legal[0] }) : "";
    if (e.lineBox) e.lineBox.hidden = pos.line.length === 0;
    clear(e.line).append(...pos.line.map((step) => h("li", { text: step.reply ? `${step.move} — ${step.reply}` : step.move })));
    this.renderBoard(true);
  }

  renderBoard(fresh) {
    const pos = this.pos;
    const seats = this.info.player_names.map((name) => ({ name: sideName(name), side: name }));
    const msg = { view: pos.view, legal: pos.legal, to_move: pos.done ? null : pos.seat, last: pos.last,
      ply: pos.moves.length, seats, result: null, moves: [] };
    this.board.render(msg, { seat: pos.seat, interactive: !pos.done && !this.busy && pos.legal.length > 0, fresh,
      submit: (text) => this.play(text), suggest: null, editing: false });
  }

  async request(body) {
    if (this.busy) return null;
    this.busy = true;
    try {
      return await api.puzzle(this.puzzle.id, body);
    } catch (err) {
      toast(err.message);
      return null;
    } finally {
      this.busy = false;
    }
  }

  async play(move) {
    if (this.pos.done) return;
    const answer = await this.request({ moves: this.moves, move });
    if (answer) this.show(answer, answer.verdict);
    else this.renderBoard(true);
  }

  /** Take back or start again: the position after fewer moves. */
  async go(moves) {
    const answer = await this.request({ moves });
    if (answer) this.show(answer, null);
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text || this.busy) return; // (kept in the box while a hint or a move is on its way)
    this.els.input.value = "";
    this.play(text);
  }

  async askHint() {
    if (this.busy) return;
    this.busy = true;
    const box = clear(this.els.feedback);
    try {
      const hint = await api.puzzleHint(this.puzzle.id, { moves: this.moves });
      box.dataset.kind = "hint";
      box.append(t(`puzzle.hint.${hint.status}`, { move: hint.move }));
    } catch (err) {
      // (429 and 503 are limits that free themselves; the server says so in English only)
      if (err.status === 429 || err.status === 503) box.append(t("puzzle.hint.busy"));
      else toast(err.message);
    } finally {
      this.busy = false;
    }
  }
}
