// Kelighine: three rings (A16, B8, C8) around the goal J, four corners and four start cells.
// Click one of your pieces to see where each die takes it, then a highlighted cell or a button.
import { clear, h, s, svgRoot } from "../js/dom.js";
import { t } from "../js/i18n.js";
import {
  activate, destMark, dieFace, runAnimations, seatLabel, slideFrom, suggestCircle, suggestDefs, suggestNote, suggestPath,
} from "./kit.js";

const COLORS = ["#d9382b", "#2d6fdc", "#2f9e44", "#e7b416"];
const R = 200;
const RINGS = { A: [0.78, 1.0, 16], B: [0.5, 0.78, 8], C: [0.25, 0.5, 8] };
// Angles in SVG degrees (y grows downwards): counter-clockwise on screen is decreasing angle.
const OUTER = { D: 135, E: 45, F: -45, G: -135, I: 90, L: 0, H: -90, K: 180 };
const STARTS = ["I", "L", "H", "K"];
// The A cell just clockwise of each corner / start cell: X touches A(k) and A(k+1).
const BEFORE = { D: 16, E: 4, F: 8, G: 12, I: 2, L: 6, H: 10, K: 14 };
// The server's cell numbers (games/kelighine/board.py): A1..A16, B1..B8, C1..C8, D E F G, I L H K, J.
const NAMES = [...Array.from({ length: 16 }, (_, i) => `A${i + 1}`), ...Array.from({ length: 8 }, (_, i) => `B${i + 1}`),
  ...Array.from({ length: 8 }, (_, i) => `C${i + 1}`), "D", "E", "F", "G", "I", "L", "H", "K", "J"];
const FACES = [6, 1, 2, 3];

export const aspect = 1;
export const reserve = 12;

export function seatColor(_view, i) {
  return COLORS[i % COLORS.length];
}

export function score(view, i) {
  if (!view?.finished) return null;
  return t("kg.home", { n: view.finished[i], total: view.version === 2 ? 3 : 1 });
}

/** Version 1 is won by the first piece to reach J, version 2 by the first player with all three
 * there (js/result.js). */
export function explainResult(view, _result, { nameOf }) {
  if (typeof view.winner !== "number" || view.winner < 0) return "";
  return t(view.version === 2 ? "kg.how.three" : "kg.how.one", { winner: nameOf(view.winner) });
}

const who = seatLabel;
const cellName = (n) => NAMES[n] ?? String(n);

/** One log line from the server's event code (games/kelighine/log.py), in the page's language. */
function describeEvent(e, m) {
  const [kind, p] = e;
  const name = who(m, p);
  switch (kind) {
    case "roll": return t("kg.log.roll", { who: name, dice: e[3] ? `${e[2]},${e[3]}` : String(e[2]) });
    case "ones": return t({ 4: "kg.log.onesFour", 2: "kg.log.onesTwo" }[e[2]] || "kg.log.onesReroll", { who: name });
    case "enter": return t("kg.log.enter", { who: name, cell: cellName(e[2]) });
    case "move": return t("kg.log.move", { who: name, from: cellName(e[2]), to: cellName(e[3]), sign: e[4] > 0 ? "+" : "-", n: Math.abs(e[4]) });
    case "promote":
      if (cellName(e[3]) === "J") return t("kg.log.goal", { who: name, from: cellName(e[2]) });
      return t(e[4] ? "kg.log.promoteCoin" : "kg.log.promote", { who: name, from: cellName(e[2]), to: cellName(e[3]) });
    case "lap": return t("kg.log.lap", { who: name, cell: cellName(e[2]), tier: "ABC"[e[3] - 1] || "?", face: e[3] });
    case "push": {
      const [, owner, from, to, cause, rule, lastCell, , pusher] = e;
      const why = cause === 0 ? t("kg.log.direct", { pusher: who(m, pusher), cell: cellName(from) })
        : t(cause === 2 ? "kg.log.persist" : "kg.log.indirect", { cell: cellName(lastCell) });
      return t(rule === 3 ? "kg.log.pushBack" : "kg.log.push", { who: who(m, owner), from: cellName(from), to: cellName(to), why });
    }
    case "pass": return t("kg.log.pass", { who: name });
    case "win": return t("kg.log.win", { who: name });
    default: return e.join(" ");
  }
}

export function log(view, m) {
  const st = view?.state;
  if (!st) return [...(view?.previous_log || []), ...(view?.log || [])];
  return [...(st.prev_log || []), ...(st.log || [])].map((e) => describeEvent(e, m));
}

const pushes = (events) => (events || []).filter((e) => e[0] === "push").length;

/** "capture" when a piece was pushed since the previous view, else "move". */
export function moveSound(prev, view) {
  const now = view?.state, before = prev?.state;
  if (!now) return "move";
  const pushed = !before || view.turn_number !== prev.turn_number
    ? pushes(now.log) + Math.max(0, pushes(now.prev_log) - pushes(before?.log))
    : pushes(now.log) - pushes(before.log);
  return pushed > 0 ? "capture" : "move";
}

function centreAngle(cell) {
  const tier = cell[0];
  const n = Number(cell.slice(1));
  if (tier === "A" && n) return 78.75 - (n - 3) * 22.5;
  if (tier === "B" && n) return 112.5 - (n - 1) * 45;
  if (tier === "C" && n) return 90 - (n - 1) * 45;
  return OUTER[cell] ?? 0; // J (the centre) has no angle
}

function ringRadius(cell) {
  if (cell === "J") return 0;
  if (RINGS[cell[0]] && cell.length > 1) return (RINGS[cell[0]][0] + RINGS[cell[0]][1]) / 2;
  return STARTS.includes(cell) ? 1.13 : 1.12;
}

/** The cell a die move reaches: `A3+4` → A7, `E+2` → A6, `B5-1` → B4. */
export function destination(from, sign, n) {
  const tier = from[0];
  const num = Number(from.slice(1));
  if (RINGS[tier] && num) {
    const size = RINGS[tier][2];
    return `${tier}${(((num - 1 + sign * n) % size) + size) % size + 1}`;
  }
  const k = BEFORE[from];
  if (k === undefined) return null;
  const target = sign > 0 ? k + n : k + 1 - n;
  return `A${(((target - 1) % 16) + 16) % 16 + 1}`;
}

/** What a legal action does, for the picture: {text, kind, from, to}. */
export function parseAction(text) {
  let m = text.match(/^([A-L]\d*)([+-])(\d)$/);
  if (m) return { text, kind: "move", from: m[1], to: destination(m[1], m[2] === "+" ? 1 : -1, Number(m[3])), n: Number(m[3]), sign: m[2] };
  m = text.match(/^([A-L]\d*)\^([A-J]\d*)(?:\/(\d))?$/);
  if (m) return { text, kind: "promote", from: m[1], to: m[2], forgo: m[3] };
  m = text.match(/^push:([A-L]\d*)$/);
  if (m) return { text, kind: "push", to: m[1] };
  return { text, kind: "other" };
}

/** An arrow head in a player's colour for the last-move arrows. */
function arrowMarker(id, color) {
  return s("marker", { id, viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse" },
    s("path", { d: "M0,0 L10,5 L0,10 z", fill: color, stroke: "#fff", "stroke-width": 1 }));
}

function polar(angle, radius) {
  const a = (angle * Math.PI) / 180;
  return [radius * R * Math.cos(a), radius * R * Math.sin(a)];
}

function sector(angle, half, r0, r1) {
  const [x0, y0] = polar(angle - half, r1), [x1, y1] = polar(angle + half, r1);
  const [x2, y2] = polar(angle + half, r0), [x3, y3] = polar(angle - half, r0);
  return `M${x0},${y0} A${r1 * R},${r1 * R} 0 0 1 ${x1},${y1} L${x2},${y2} A${r0 * R},${r0 * R} 0 0 0 ${x3},${y3} Z`;
}

/** A small die (HTML) for the panel and the legend. */
function dieIcon(n, { size = 30, fill = "#f4efe2", pip = "#222", title } = {}) {
  const svg = svgRoot(0, 0, 20, 20, { width: size, height: size, class: "die-icon", role: "img", "aria-label": title || t("kg.die", { n }) });
  svg.append(dieFace(10, 10, 18, n, { fill, pip }));
  return svg;
}

/** The moves, promotions, entries and pushes of the newest turn that has some. */
function lastMoves(view) {
  const st = view.state || {};
  const moving = (events) => (events || []).filter((e) => ["move", "promote", "push", "enter"].includes(e[0]));
  const now = moving(st.log);
  return now.length ? now : moving(st.prev_log);
}

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null;
  let turn = 0;
  let shownView = null; // the view drawn last, to animate from
  const svg = svgRoot(-1.32 * R, -1.32 * R, 2.64 * R, 2.64 * R, { role: "group", "aria-label": t("kg.board") });
  host.append(svg);
  const panel = h("section", { class: "panel", id: "kg-actions" });
  const legend = h("section", { class: "panel", id: "kg-legend" });
  extra.append(panel, legend);

  const where = (cell, radius) => polar(centreAngle(cell) + turn, radius ?? ringRadius(cell));

  function choose(cell) {
    if (!last || !last.ctx.interactive) return;
    const actions = last.msg.legal.map(parseAction);
    const hits = actions.filter((a) => a.to === cell && (a.kind === "push" || a.from === selected));
    if (cell && hits.length === 1) return submit(hits[0].text);
    selected = cell && actions.some((a) => a.from === cell) && selected !== cell ? cell : null;
    draw();
    if (selected) svg.querySelector(`.piece.clickable[data-cell="${selected}"]`)?.focus();
  }
  svg.addEventListener("click", (ev) => {
    const node = ev.target.closest("[data-cell]");
    choose(node ? node.dataset.cell : null);
  });

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const side = ctx.orientation ?? ctx.seat ?? seat ?? 0;
    turn = 90 - OUTER[(v.starts || ["I"])[side] || "I"];
    clear(svg);
    const actions = ctx.interactive ? msg.legal.map(parseAction) : [];
    const counts = new Map();
    for (const a of actions) if (a.to && (a.kind === "push" || a.from === selected)) counts.set(a.to, (counts.get(a.to) || 0) + 1);
    const sources = new Set(actions.map((a) => a.from).filter(Boolean));
    const indirect = new Set(v.indirect || []);
    const moves = lastMoves(v);


    svg.append(s("defs", {}, COLORS.map((c, i) => arrowMarker(`kg-arrow-${i}`, c)), suggestDefs("kg-suggest")));
    svg.append(s("rect", { x: -1.3 * R, y: -1.3 * R, width: 2.6 * R, height: 2.6 * R, rx: 16, fill: "#e9dcc0", stroke: "#5b4a32", "stroke-width": 3 }));
    const cellNode = (cell, shape) => s("g", { "data-cell": cell, class: "cell" }, shape);
    const tint = (cell, base) => (indirect.has(cell) ? (base === "#fdf8ec" ? "#f3c9b8" : "#9b4b3a") : base);
    for (const [tier, [r0, r1, size]] of Object.entries(RINGS)) {
      const half = 180 / size;
      for (let n = 1; n <= size; n++) {
        const cell = `${tier}${n}`;
        const base = n % 2 ? "#fdf8ec" : "#3c342b";
        const g = cellNode(cell, s("path", { d: sector(centreAngle(cell) + turn, half, r0, r1), fill: tint(cell, base), stroke: "#5b4a32", "stroke-width": 1.5 }));
        if (indirect.has(cell)) g.append(s("path", { d: sector(centreAngle(cell) + turn, half - 1.5, r0 + 0.015, r1 - 0.015), fill: "url(#kg-hatch)", "pointer-events": "none" }));
        const [x, y] = where(cell);
        g.append(s("text", { x, y: y + (r1 - r0) * R * 0.44, "text-anchor": "middle", "font-size": 18, fill: n % 2 ? "#6a5a40" : "#e0d3b3", text: cell }));
        svg.append(g);
      }
    }
    svg.querySelector("defs").append(s("pattern", { id: "kg-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#b5462f", "stroke-width": 2, opacity: 0.55 })));
    svg.append(cellNode("J", s("circle", { cx: 0, cy: 0, r: 0.2 * R, fill: "#f6e7b5", stroke: "#5b4a32", "stroke-width": 2 })));
    svg.append(s("text", { x: 0, y: 0.17 * R, "text-anchor": "middle", "font-size": 18, fill: "#6a5a40", text: "J" }));
    for (const cell of Object.keys(OUTER)) {
      const start = STARTS.includes(cell);
      const [x, y] = where(cell);
      const shape = start
        ? s("rect", { x: x - 0.13 * R, y: y - 0.09 * R, width: 0.26 * R, height: 0.18 * R, rx: 6, fill: "#d8c8a4", stroke: "#5b4a32", "stroke-width": 1.5 })
        : s("rect", { x: x - 0.11 * R, y: y - 0.11 * R, width: 0.22 * R, height: 0.22 * R, rx: 6, transform: `rotate(45 ${x} ${y})`, fill: "#cbb78f", stroke: "#5b4a32", "stroke-width": 1.5 });
      const g = cellNode(cell, shape);
      const owner = (v.starts || []).indexOf(cell);
      if (owner >= 0) g.append(s("rect", { x: x - 0.13 * R, y: y - 0.09 * R, width: 0.26 * R, height: 0.035 * R, rx: 3, fill: COLORS[owner], "pointer-events": "none" }));
      g.append(s("text", { x, y: y + 0.08 * R, "text-anchor": "middle", "font-size": 18, fill: "#5b4a32", text: cell }));
      svg.append(g);
    }
    // The last turn's moves: arrows along the ring (solid) and pushes (dashed), under the pieces.
    for (const e of moves) {
      if (e[0] === "enter") continue;
      const owner = e[1];
      const path = arrowPath(cellName(e[2]), cellName(e[3]), e[0] === "move" ? e[4] : 0);
      svg.append(s("path", { d: path, fill: "none", stroke: "#fff", "stroke-width": 7, opacity: 0.7, "stroke-linecap": "round", class: "last-move", "pointer-events": "none" }),
        s("path", { d: path, fill: "none", stroke: COLORS[owner % 4], "stroke-width": 4, "stroke-linecap": "round", "stroke-dasharray": e[0] === "push" ? "7 6" : null, "marker-end": `url(#kg-arrow-${owner % 4})`, class: "last-move", "pointer-events": "none" }));
    }
    for (const coin of v.coins || []) {
      const [x, y] = where(coin.cell);
      svg.append(s("circle", { cx: x - 0.07 * R, cy: y - 0.065 * R, r: 0.04 * R, fill: "#e0b022", stroke: COLORS[coin.player], "stroke-width": 3, class: "coin", "pointer-events": "none" }));
    }
    const stacks = new Map();
    const pending = v.pending_push;
    const pieces = [...(v.pieces || [])];
    if (pending?.piece) pieces.push({ ...pending.piece, cell: pending.from, pending: true });
    for (const p of pieces) {
      if (!p.cell || p.cell === "reserve") continue;
      stacks.set(p.cell, [...(stacks.get(p.cell) || []), p]);
    }
    const placed = [];
    for (const [cell, group] of stacks) {
      const [x, y] = where(cell);
      group.forEach((p, i) => {
        const perRow = cell === "J" ? 3 : 4;
        const dx = (i % perRow - (Math.min(group.length, perRow) - 1) / 2) * 0.11 * R;
        const dy = Math.floor(i / perRow) * 0.11 * R;
        const clickable = sources.has(cell) && !p.pending && p.player === msg.to_move;
        const g = s("g", { "data-cell": cell, "data-piece": p.player, "data-face": p.face, class: `piece${clickable ? " clickable" : ""}${p.pending ? " pending" : ""}` });
        // A piece is about 16 px on a phone: a clear circle round it makes a 27 px target, and
        // as the group's first child it is what shows keyboard focus (style.css).
        if (clickable) g.append(s("circle", { cx: x + dx, cy: y + dy, r: 0.09 * R, fill: "transparent", class: "hit" }));
        // The face says which rings are completed (kg.face1..6): said once, then the lap under way.
        const label = p.pending ? t("kg.pendingTitle", { name: who(msg, p.player), cell })
          : [t("kg.pieceTitle", { name: who(msg, p.player), cell }), t(`kg.face${p.face}`),
            p.lap_progress ? t("kg.lapProgress", { tier: "ABC"[p.lap_progress.tier - 1], steps: p.lap_progress.steps, of: p.lap_progress.of }) : null,
            p.coin ? t("kg.coinOn", { cell: p.coin }) : null].filter(Boolean).join(" · ");
        g.append(s("title", { text: label }));
        const w = 0.105 * R;
        g.append(s("rect", { x: x + dx - w / 2 + 2, y: y + dy - w / 2 + 3, width: w, height: w, rx: 5, fill: "rgba(0,0,0,.35)" }),
          dieFace(x + dx, y + dy, w, p.face, { fill: COLORS[p.player % 4], pip: "#fff", stroke: p.pending ? "#222" : "#fff", dash: p.pending }));
        if (cell === v.last_piece && !p.pending && i === group.length - 1) {
          g.append(s("rect", { x: x + dx - w / 2 - 5, y: y + dy - w / 2 - 5, width: w + 10, height: w + 10, rx: 8, fill: "none", stroke: "#e67e22", "stroke-width": 3, "stroke-dasharray": "5 3", class: "last-piece" }));
        }
        if (clickable) activate(g, label, () => choose(cell));
        svg.append(g);
        placed.push({ node: g, player: p.player, cell, pending: !!p.pending });
      });
      if (cell === selected) {
        svg.append(s("circle", { cx: x, cy: y, r: 0.09 * R + (group.length - 1) * 0.05 * R, fill: "none", stroke: "#14551e", "stroke-width": 4, class: "selected", "pointer-events": "none" }));
      }
    }
    for (const [cell] of counts) {
      // A dot on a free cell, a ring round an occupied one (the piece there is pushed).
      const [x, y] = where(cell);
      const g = s("g", { "data-cell": cell, class: "target" }, s("circle", { cx: x, cy: y, r: 0.08 * R, fill: "transparent" }),
        destMark(x, y, 0.16 * R, { occupied: stacks.has(cell) }));
      activate(g, cell, () => choose(cell));
      svg.append(g);
    }
    const suggestion = drawSuggestion(v, ctx.suggest, stacks);
    if (ctx.fresh && shownView) runAnimations(svg, `ply ${msg.ply ?? ""}`, () => slide(placed, shownView, v));
    shownView = v;
    drawPanel(v, actions, msg, suggestion);
    drawLegend();
  }

  /** A suggested move (``ctx.suggest``: a hint, the review's better move, an engine line): a
   * dashed blue ring round the piece that moves and round the cell it reaches, and a blue arrow
   * under the pieces the way it goes (round the ring for a move). A pass or a double-1 choice
   * has nothing to point at on the board: the panel frames its button and says it. The action,
   * or null. */
  function drawSuggestion(v, text, stacks) {
    svg.dataset.suggest = "";
    if (typeof text !== "string" || !text) return null;
    const a = parseAction(text);
    const pending = v.pending_push;
    let { from, to } = a;
    if (a.kind === "push" || text === "push:start") {
      from = pending?.from;
      if (text === "push:start") to = (v.starts || [])[pending?.piece?.player];
    }
    const known = (cell) => typeof cell === "string" && NAMES.includes(cell);
    if (known(from) && known(to)) {
      const ring = (cell, kind) => {
        const [x, y] = where(cell);
        const n = (stacks.get(cell) || []).length;
        const mark = suggestCircle(x, y, 0.1 * R + Math.max(0, Math.min(n, 4) - 1) * 0.055 * R, cell);
        mark.classList.add(`suggest-${kind}`);
        return mark;
      };
      const steps = a.kind === "move" ? (a.sign === "-" ? -a.n : a.n) : 0;
      // The arrow under the pieces (their faces stay readable), the rings over them.
      svg.insertBefore(suggestPath(arrowPath(from, to, steps), "kg-suggest", 5), svg.querySelector(".coin, g.piece"));
      svg.append(ring(from, "from"), ring(to, "to"));
    }
    svg.dataset.suggest = text;
    return a;
  }

  /** A path from one cell to another: along the ring for a move within a tier, else straight. */
  function arrowPath(from, to, steps) {
    const [x0, y0] = where(from), [x1, y1] = where(to);
    const tier = from[0];
    if (steps && RINGS[tier] && from.length > 1 && to[0] === tier) {
      const size = RINGS[tier][2];
      const span = Math.abs(steps) * 360 / size;
      const r = ringRadius(from) * R;
      return `M${x0},${y0} A${r},${r} 0 ${span > 180 ? 1 : 0} ${steps > 0 ? 0 : 1} ${x1},${y1}`;
    }
    if (steps && OUTER[from] !== undefined && to[0] === "A") {
      // Into the A ring from a corner or start cell: along the ring, not across the board.
      const r = ringRadius("A1") * R;
      const [xs, ys] = polar(centreAngle(from) + turn, ringRadius("A1"));
      const span = (Math.abs(steps) - 0.5) * 22.5;
      return `M${x0},${y0} L${xs},${ys} A${r},${r} 0 ${span > 180 ? 1 : 0} ${steps > 0 ? 0 : 1} ${x1},${y1}`;
    }
    return `M${x0},${y0} L${x1},${y1}`;
  }

  /** Each piece that changed cell slides from where it was (entering pieces from their start). */
  function slide(placed, before, now) {
    const animations = [];
    for (let owner = 0; owner < (now.players || 2); owner++) {
      const was = (before.pieces || []).filter((p) => p.player === owner).map((p) => p.cell);
      if (before.pending_push?.piece?.player === owner) was.push(before.pending_push.from);
      const mine = placed.filter((p) => p.player === owner);
      const stay = [...was];
      const moved = [];
      for (const p of mine) {
        const k = stay.indexOf(p.cell);
        if (k >= 0) stay.splice(k, 1);
        else moved.push(p);
      }
      moved.forEach((p, i) => {
        const from = stay[i] ?? (now.starts || [])[owner];
        if (!from) return;
        const [x0, y0] = where(from), [x1, y1] = where(p.cell);
        animations.push(slideFrom(p.node, [x0 - x1, y0 - y1], { duration: 320 }));
      });
    }
    return animations;
  }

  function describe(a) {
    if (a.kind === "move") return t(a.sign === "-" ? "kg.back" : "kg.move", { n: a.n, to: a.to });
    if (a.kind === "promote") return a.forgo ? t("kg.promoteForgo", { to: a.to, n: a.forgo }) : t("kg.promote", { to: a.to });
    if (a.kind === "push") return t("kg.pushTo", { to: a.to });
    const key = { pass: "kg.pass", "push:start": "kg.pushStart", "ones:four": "kg.onesFour", "ones:reroll": "kg.onesReroll", "ones:two": "kg.onesTwo" }[a.text];
    return key ? t(key) : a.text;
  }

  function drawPanel(v, actions, msg, suggestion) {
    const pending = v.pending_push;
    const shown = (v.dice || []).length ? v.dice : v.rolled || [];
    const dice = shown.map((d) => dieIcon(d));
    const buttons = actions.filter((a) => a.kind === "other" || a.kind === "push" || a.from === selected)
      .map((a) => h("button", { type: "button", class: `btn${a.text === suggestion?.text ? " suggest-target" : ""}`, "data-move": a.text, onclick: () => submit(a.text) },
        a.kind === "move" ? dieIcon(a.n, { size: 22 }) : null, describe(a)));
    const choosing = actions.some((a) => a.kind === "other" && a.text.startsWith("ones:"));
    const hint = !actions.length ? "" : pending ? t("kg.hintPush", { from: pending.from }) : choosing ? t("kg.hintOnes")
      : selected ? t("kg.hintTarget") : sources(actions) ? t("kg.hintPiece") : t("kg.hintButtons");
    const rows = [];
    (v.reserve || []).forEach((n, i) => {
      if (n || v.version === 2) rows.push(h("span", { class: "hint kg-reserve" }, h("span", { class: "swatch", style: `background:${COLORS[i]}` }), t("kg.reserve", { name: who(msg, i), n, home: v.finished?.[i] ?? 0 })));
    });
    const head = pending ? t("kg.push") : t("kg.turn", { n: v.turn_number ?? "", name: who(msg, v.turn ?? 0) });
    clear(panel).append(h("header", {}, h("span", { text: head }),
      shown.length ? h("span", { class: "kg-dice", "aria-label": `${t("kg.rolled")} ${shown.join(", ")}` }, dice) : null),
    h("div", { class: "body" }, h("div", { class: "actions" }, hint ? h("span", { class: "label", text: hint }) : null, buttons),
      suggestion ? suggestNote(said(suggestion), "kg-suggest-note") : null,
      rows.length ? h("div", { class: "kg-reserves" }, rows) : null));
  }

  const sources = (actions) => actions.some((a) => a.from);
  /** "A3+4 (move 4 → A7)": the notation and, where they say more, the words of its button. */
  const said = (a) => {
    const words = describe(a);
    return words && words !== a.text ? `${a.text} (${words})` : a.text;
  };

  function drawLegend() {
    if (legend.firstChild) return;
    const swatch = (attrs) => {
      const svgNode = svgRoot(0, 0, 24, 24, { width: 24, height: 24, "aria-hidden": "true" });
      svgNode.append(attrs);
      return svgNode;
    };
    legend.append(h("header", {}, h("span", { text: t("kg.legendTitle") })),
      h("div", { class: "body kg-legend" },
        h("p", { class: "hint", text: t("kg.legendFace") }),
        h("ul", { class: "kg-faces" }, FACES.map((n) => h("li", { "data-face": n }, dieIcon(n, { size: 24, fill: "#d9382b", pip: "#fff", title: t(`kg.face${n}`) }), h("span", { text: t(`kg.face${n}`) })))),
        h("ul", { class: "kg-faces" },
          h("li", {}, swatch(s("rect", { x: 3, y: 3, width: 18, height: 18, rx: 4, fill: "none", stroke: "#e67e22", "stroke-width": 3, "stroke-dasharray": "4 2" })), h("span", { text: t("kg.legendLast") })),
          h("li", {}, swatch(s("rect", { x: 2, y: 2, width: 20, height: 20, fill: "#f3c9b8", stroke: "#b5462f" })), h("span", { text: t("kg.legendIndirect") })),
          h("li", {}, swatch(s("path", { d: "M3,18 Q12,2 21,12", fill: "none", stroke: "#d9382b", "stroke-width": 3 })), h("span", { text: t("kg.legendMove") })),
          h("li", {}, swatch(s("circle", { cx: 12, cy: 12, r: 8, fill: "#e0b022", stroke: "#d9382b", "stroke-width": 3 })), h("span", { text: t("kg.legendCoin") })))));
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      last = { msg, ctx };
      svg.dataset.interactive = String(!!ctx.interactive); // false while a move is on its way
      draw();
    },
  };
}
