// The review of a finished game: every decision analysed one by one
// (POST /api/games/{id}/review/{ply}, client-driven so the page shows progress and can stop), an
// evaluation graph over the game (SVG), the marks (inaccuracy, mistake, blunder) in the move list
// and on the graph, and for the position shown the better move, which the board draws.
//
// Review ply d is the decision made in the position after d recorded actions: the move list's
// move d + 1. Hidden-information games: only the page's own seat's decisions, with its token.
import { api } from "./api.js";
import { clear, h, iconButton, s, svgRoot } from "./dom.js";
import { evalScore, evalText } from "./evaltext.js";
import { t } from "./i18n.js";

export const VERDICTS = ["inaccuracy", "mistake", "blunder"];
/** The usual annotation symbols, shown beside a marked move (plain ASCII: every font has them). */
export const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const PLURAL = { inaccuracy: "an.inaccuracies", mistake: "an.mistakes", blunder: "an.blunders" };
const GRAPH = { w: 320, h: 96, pad: 4 };
const RETRIES = 5;

const chance = (mv) => mv.player === "chance" || mv.player === -1 || typeof mv.player !== "number";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Review {
  /** ``show(d)`` shows the position of decision ``d`` (the page's replay); ``changed()`` redraws
   * the move list's marks; ``analyseHere(d)`` opens the analysis board there (null: not offered). */
  constructor(host, { id, moves, seat, token, perfect, players, nameOf, show, changed, analyseHere, time = 0.5 }) {
    Object.assign(this, { host, id, moves, seat, token, perfect, players, nameOf, show, changed, analyseHere, time });
    this.items = new Map(); // decision ply -> the server's review of it
    this.running = false;
    this.selected = null;
    this.decisions = moves.map((mv, d) => [mv, d]).filter(([mv]) => !chance(mv) && (perfect || mv.player === seat)).map(([, d]) => d);
    this.build();
  }

  /** Whether this page may review the game at all (hidden information: a seat, its own moves). */
  get allowed() {
    return this.perfect || (this.seat !== null && this.token);
  }

  build() {
    this.els = {
      progress: h("progress", { id: "review-progress", max: String(Math.max(1, this.decisions.length)), value: "0", "aria-label": t("an.reviewTitle") }),
      status: h("p", { class: "review-status", id: "review-status", role: "status", "aria-live": "polite" }),
      toggle: h("button", { type: "button", class: "btn small", id: "review-stop", onclick: () => (this.running ? this.stop() : this.start()) }, t("an.cancel")),
      graph: h("div", { class: "review-graph", id: "review-graph" }),
      summary: h("div", { class: "review-summary", id: "review-summary" }),
      detail: h("div", { class: "review-detail", id: "review-detail" }),
    };
    const e = this.els;
    const nav = h("div", { class: "review-nav" },
      iconButton("prev", t("an.prevMark"), { id: "review-prev-mark", onclick: () => this.jumpMark(-1) }),
      iconButton("next", t("an.nextMark"), { id: "review-next-mark", onclick: () => this.jumpMark(1) }));
    clear(this.host).append(h("section", { class: "panel review", id: "review" },
      h("header", {}, h("span", { text: t("an.reviewTitle") })),
      h("div", { class: "body" },
        this.allowed
          ? [h("p", { class: "hint", text: this.perfect ? t("an.reviewHint") : t("an.reviewOwn") }),
            h("div", { class: "review-run" }, e.progress, e.toggle), e.status, e.graph, nav, e.detail, e.summary]
          : h("p", { class: "hint", id: "review-seat-only", text: t("an.reviewSeatOnly") }))));
    this.drawGraph();
    this.drawSummary();
  }

  close() {
    this.running = false;
    this.closed = true;
    clear(this.host);
  }

  /** Analyse the decisions not analysed yet, two at a time (the server's limit per client), in
   * order; ``stop()`` ends it after the ones in flight. */
  async start() {
    if (!this.allowed || this.running) return;
    this.running = true;
    this.failed = null;
    this.els.toggle.textContent = t("an.cancel");
    this.els.toggle.hidden = false;
    const queue = this.decisions.filter((d) => !this.items.has(d));
    this.progress();
    const worker = async () => {
      while (this.running && queue.length) {
        const d = queue.shift();
        const item = await this.fetch(d);
        if (this.closed) return;
        if (!item) {
          queue.unshift(d);
          return;
        }
        this.items.set(d, item);
        this.progress();
        this.drawGraph();
        this.drawSummary();
        this.changed();
        if (this.selected === d) this.select(d); // the position shown: draw its better move now
      }
    };
    await Promise.all([worker(), worker()]);
    if (this.closed) return;
    const left = this.items.size < this.decisions.length;
    this.running = false;
    this.finish(this.failed ? t("an.failed", { error: this.failed })
      : left ? t("an.stopped", { done: this.items.size, n: this.decisions.length }) : t("an.done", { n: this.items.size }));
  }

  /** One decision's review; busy (429, 503) is waited out as the server says; null when stopped
   * or failed (``this.failed`` says why). */
  async fetch(d) {
    const body = { time: this.time };
    if (this.token) body.token = this.token;
    for (let attempt = 0; this.running; attempt++) {
      try {
        return await api.review(this.id, d, body);
      } catch (err) {
        if ((err.status === 429 || err.status === 503) && attempt < RETRIES) {
          await sleep(1000 * Math.min(30, Math.max(Number(err.retryAfter) || 0, 2 ** attempt)));
          continue;
        }
        this.running = false;
        this.failed = err.message;
      }
    }
    return null;
  }

  stop() {
    this.running = false;
    this.els.status.textContent = t("an.stopping");
    this.els.toggle.disabled = true; // until the request in flight is answered
  }

  progress() {
    const done = this.items.size;
    this.els.progress.value = String(done);
    this.els.progress.hidden = false;
    if (done < this.decisions.length) this.els.status.textContent = t("an.progress", { done: done + 1, n: this.decisions.length });
  }

  finish(text) {
    this.els.progress.value = String(this.items.size);
    this.els.status.textContent = text;
    const left = this.items.size < this.decisions.length;
    this.els.toggle.disabled = false;
    this.els.toggle.hidden = !left;
    this.els.toggle.textContent = t("an.resume");
    this.els.progress.hidden = !left;
  }

  // -- what the page asks ----------------------------------------------------------------------

  /** The review of the move with move-list ply ``p`` (1-based), if analysed. */
  forMove(p) {
    return this.items.get(p - 1) || null;
  }

  /** The better move to draw on the board in position ``d`` (the best line's first move). */
  suggestion(d) {
    return this.items.get(d)?.best?.move ?? null;
  }

  /** Show decision ``d``: the page shows its position (the board draws the better move), and the
   * panel says what was played and what was better. */
  select(d, { quiet = false } = {}) {
    this.selected = d;
    if (!quiet) this.show(d);
    this.describe(d);
  }

  /** The panel's text for position ``d`` (also called by the page when the replay steps). */
  describe(d) {
    this.selected = d;
    const node = clear(this.els.detail);
    const item = this.items.get(d);
    const mv = this.moves[d];
    if (!item || !mv) {
      node.append(h("p", { class: "hint", text: this.items.size ? t("an.noDecision") : t("an.pickPly") }));
    } else {
      const same = item.best.move === item.played.move;
      const line = (label, l, cls) => h("div", { class: `review-line ${cls}` },
        h("span", { class: "label", text: label }), h("strong", { class: "mv", text: l.move }),
        h("span", { class: "ev", text: evalText(l.evaluation) }),
        l.pv && l.pv.length > 1 ? h("span", { class: "pv", text: l.pv.slice(1).join(" ") }) : null);
      node.append(
        h("p", { class: "review-head" },
          h("span", { text: t("an.decision", { ply: d + 1, name: this.nameOf(item.player), move: item.played.move }) }),
          item.verdict ? h("span", { class: `verdict v-${item.verdict}`, text: ` ${SYMBOL[item.verdict]} ${t(`an.${item.verdict}`)}` }) : null),
        line(t("an.played"), item.played, "played"),
        same ? h("p", { class: "hint", text: t("an.bestPlayed") }) : line(t("an.better"), item.best, "better"));
    }
    if (this.analyseHere) {
      node.append(h("button", { type: "button", class: "btn small", id: "analyse-here", onclick: () => this.analyseHere(d) }, t("an.analyseHere")));
    }
  }

  jumpMark(direction) {
    const marked = [...this.items.values()].filter((i) => i.verdict).map((i) => i.ply).sort((a, b) => a - b);
    if (!marked.length) return;
    const here = this.selected ?? (direction > 0 ? -1 : Infinity);
    const next = direction > 0 ? marked.find((p) => p > here) ?? marked[0] : [...marked].reverse().find((p) => p < here) ?? marked.at(-1);
    this.select(next);
  }

  // -- graph and summary ---------------------------------------------------------------------------

  /** A point per analysed decision at the position after it (the played line's evaluation): from
   * seat 0's side when two play, else from the mover's. */
  points() {
    const two = this.players === 2;
    return [...this.items.values()].sort((a, b) => a.ply - b.ply).map((item) => {
      const score = evalScore(item.played?.evaluation ?? item.evaluation);
      return { item, x: item.ply + 1, y: two && item.player !== 0 ? -score : score };
    });
  }

  drawGraph() {
    const node = clear(this.els.graph);
    if (!this.allowed) return;
    const { w, h: hgt, pad } = GRAPH;
    const n = Math.max(1, this.moves.length);
    const X = (x) => pad + (x / n) * (w - 2 * pad);
    const Y = (y) => hgt / 2 - y * (hgt / 2 - pad);
    const pts = this.points();
    const counts = this.counts();
    const total = Object.fromEntries(VERDICTS.map((v) => [v, counts.reduce((sum, c) => sum + c[v], 0)]));
    const summary = pts.length ? t("an.graphMarks", total) : t("an.graphEmpty");
    const label = this.players === 2 ? t("an.graph", { name: this.nameOf(0), summary }) : t("an.graphMover", { summary });
    const svg = svgRoot(0, 0, w, hgt, { role: "img", "aria-label": label, class: "eval-graph", preserveAspectRatio: "none" });
    svg.append(s("rect", { x: 0, y: 0, width: w, height: hgt, class: "eg-bg" }),
      s("line", { x1: 0, x2: w, y1: Y(0), y2: Y(0), class: "eg-axis" }));
    if (pts.length) {
      const line = pts.map((p) => [X(p.x), Y(p.y)]);
      const area = [[X(pts[0].x), Y(0)], ...line, [X(pts.at(-1).x), Y(0)]];
      svg.append(s("polygon", { points: area.map((p) => p.map((c) => c.toFixed(1)).join(",")).join(" "), class: "eg-area" }),
        s("polyline", { points: line.map((p) => p.map((c) => c.toFixed(1)).join(",")).join(" "), class: "eg-line", fill: "none" }));
    }
    if (this.selected !== null) {
      svg.append(s("line", { x1: X(this.selected + 1), x2: X(this.selected + 1), y1: 0, y2: hgt, class: "eg-cursor" }));
    }
    for (const p of pts) {
      if (!p.item.verdict) continue;
      svg.append(s("circle", { cx: X(p.x), cy: Y(p.y), r: p.item.verdict === "blunder" ? 4.5 : 3.5, class: `eg-mark v-${p.item.verdict}`, "data-ply": p.item.ply },
        s("title", { text: `${p.item.ply + 1}. ${p.item.played.move} ${SYMBOL[p.item.verdict]} ${t(`an.${p.item.verdict}`)}` })));
    }
    svg.addEventListener("click", (ev) => {
      const box = svg.getBoundingClientRect();
      const x = ((ev.clientX - box.left) / box.width) * w;
      let best = null;
      for (const p of pts) if (!best || Math.abs(X(p.x) - x) < Math.abs(X(best.x) - x)) best = p;
      if (best) this.select(best.item.ply);
    });
    node.append(svg);
    node.dataset.points = String(pts.length);
  }

  /** Counts of each verdict per player. */
  counts() {
    const rows = Array.from({ length: this.players }, () => ({ inaccuracy: 0, mistake: 0, blunder: 0 }));
    for (const item of this.items.values()) if (item.verdict && rows[item.player]) rows[item.player][item.verdict]++;
    return rows;
  }

  drawSummary() {
    const node = clear(this.els.summary);
    if (!this.allowed || !this.items.size) return;
    const seats = this.perfect ? [...Array(this.players).keys()] : [this.seat];
    const counts = this.counts();
    const head = VERDICTS.map((v) => h("th", { scope: "col", class: `v-${v}`, title: t(`an.${v}`) }, `${SYMBOL[v]} `, h("span", { text: t(PLURAL[v]) })));
    const rows = seats.map((i) => h("tr", { "data-seat": i }, h("th", { scope: "row", text: this.nameOf(i) }),
      VERDICTS.map((v) => h("td", { "data-verdict": v, text: String(counts[i][v]) }))));
    node.append(h("table", { class: "list review-table", id: "review-table" },
      h("caption", { class: "sr", text: t("an.summary") }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("an.player") }), head)),
      h("tbody", {}, rows)));
  }

  /** Redraw the cursor after the page moved to another position. */
  follow(d) {
    this.describe(d);
    this.drawGraph();
  }
}
