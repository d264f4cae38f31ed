// Kelighine: three rings (A16, B8, C8) around the goal J, four corners and four start cells.
// Click one of your pieces to see where each die takes it, then a highlighted cell or a button.
import { clear, h, s, svgRoot } from "../js/dom.js";

const COLORS = ["#d9382b", "#2d6fdc", "#2f9e44", "#e7b416"];
const R = 200;
const RINGS = { A: [0.78, 1.0, 16], B: [0.5, 0.78, 8], C: [0.25, 0.5, 8] };
// Angles in SVG degrees (y grows downwards): counter-clockwise on screen is decreasing angle.
const OUTER = { D: 135, E: 45, F: -45, G: -135, I: 90, L: 0, H: -90, K: 180 };
// The A cell just clockwise of each corner / start cell: X touches A(k) and A(k+1).
const BEFORE = { D: 16, E: 4, F: 8, G: 12, I: 2, L: 6, H: 10, K: 14 };
const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

export const aspect = 1;
export const reserve = 12;

export function seatColor(_view, i) {
  return COLORS[i % COLORS.length];
}

export function score(view, i) {
  if (!view?.finished) return null;
  const total = view.version === 2 ? 3 : 1;
  return `${view.finished[i]}/${total} home`;
}

export function log(view) {
  return [...(view.previous_log || []), ...(view.log || [])];
}

function centreAngle(cell) {
  const tier = cell[0];
  const n = Number(cell.slice(1));
  if (tier === "A" && n) return 78.75 - (n - 3) * 22.5;
  if (tier === "B" && n) return 112.5 - (n - 1) * 45;
  if (tier === "C" && n) return 90 - (n - 1) * 45;
  return OUTER[cell];
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

function polar(angle, radius) {
  const a = (angle * Math.PI) / 180;
  return [radius * R * Math.cos(a), radius * R * Math.sin(a)];
}

function sector(angle, half, r0, r1) {
  const [x0, y0] = polar(angle - half, r1), [x1, y1] = polar(angle + half, r1);
  const [x2, y2] = polar(angle + half, r0), [x3, y3] = polar(angle - half, r0);
  return `M${x0},${y0} A${r1 * R},${r1 * R} 0 0 1 ${x1},${y1} L${x2},${y2} A${r0 * R},${r0 * R} 0 0 0 ${x3},${y3} Z`;
}

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null;
  let turn = 0;
  const svg = svgRoot(-1.32 * R, -1.32 * R, 2.64 * R, 2.64 * R, { role: "img", "aria-label": "Kelighine board" });
  host.append(svg);
  const panel = h("section", { class: "panel", id: "kg-actions" });
  extra.append(panel);

  const where = (cell, radius) => {
    const r = radius ?? (cell === "J" ? 0 : RINGS[cell[0]] && cell.length > 1 ? (RINGS[cell[0]][0] + RINGS[cell[0]][1]) / 2
      : ["I", "L", "H", "K"].includes(cell) ? 1.13 : 1.12);
    return polar(centreAngle(cell) + turn, r);
  };

  svg.addEventListener("click", (ev) => {
    if (!last || !last.ctx.interactive) return;
    const node = ev.target.closest("[data-cell]");
    const cell = node ? node.dataset.cell : null;
    const actions = last.msg.legal.map(parseAction);
    const hits = actions.filter((a) => a.to === cell && (a.kind === "push" || a.from === selected));
    if (cell && hits.length === 1) return submit(hits[0].text);
    selected = cell && actions.some((a) => a.from === cell) && selected !== cell ? cell : null;
    draw();
  });

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const me = seat ?? 0;
    turn = 90 - OUTER[(v.starts || ["I"])[me] || "I"];
    clear(svg);
    const actions = ctx.interactive ? msg.legal.map(parseAction) : [];
    const counts = new Map();
    for (const a of actions) if (a.to && (a.kind === "push" || a.from === selected)) counts.set(a.to, (counts.get(a.to) || 0) + 1);
    const sources = new Set(actions.map((a) => a.from).filter(Boolean));
    const indirect = new Set(v.indirect || []);
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    const lastAct = lastText ? parseAction(lastText) : null;
    const lastCells = new Set([lastAct?.from, lastAct?.to].filter(Boolean));

    svg.append(s("rect", { x: -1.3 * R, y: -1.3 * R, width: 2.6 * R, height: 2.6 * R, rx: 16, fill: "#e9dcc0", stroke: "#5b4a32", "stroke-width": 3 }));
    const cellNode = (cell, shape) => s("g", { "data-cell": cell, class: "cell" }, shape);
    const tint = (cell, base) => (lastCells.has(cell) ? "#c5d86d" : indirect.has(cell) ? (base === "#fdf8ec" ? "#f3c9b8" : "#9b4b3a") : base);
    for (const [tier, [r0, r1, size]] of Object.entries(RINGS)) {
      const half = 180 / size;
      for (let n = 1; n <= size; n++) {
        const cell = `${tier}${n}`;
        const base = n % 2 ? "#fdf8ec" : "#3c342b";
        const path = s("path", { d: sector(centreAngle(cell) + turn, half, r0, r1), fill: tint(cell, base), stroke: "#5b4a32", "stroke-width": 1.5 });
        const g = cellNode(cell, path);
        const [x, y] = where(cell);
        g.append(s("text", { x, y: y + (r1 - r0) * R * 0.42, "text-anchor": "middle", "font-size": 11, fill: n % 2 ? "#7a6a50" : "#cdbf9f", text: cell }));
        svg.append(g);
      }
    }
    svg.append(cellNode("J", s("circle", { cx: 0, cy: 0, r: 0.2 * R, fill: lastCells.has("J") ? "#c5d86d" : "#f6e7b5", stroke: "#5b4a32", "stroke-width": 2 })));
    svg.append(s("text", { x: 0, y: 0.16 * R, "text-anchor": "middle", "font-size": 12, fill: "#7a6a50", text: "J" }));
    for (const cell of Object.keys(OUTER)) {
      const start = ["I", "L", "H", "K"].includes(cell);
      const [x, y] = where(cell);
      const shape = start
        ? s("rect", { x: x - 0.13 * R, y: y - 0.09 * R, width: 0.26 * R, height: 0.18 * R, rx: 6, fill: tint(cell, "#d8c8a4"), stroke: "#5b4a32", "stroke-width": 1.5 })
        : s("rect", { x: x - 0.11 * R, y: y - 0.11 * R, width: 0.22 * R, height: 0.22 * R, rx: 6, transform: `rotate(45 ${x} ${y})`, fill: tint(cell, "#cbb78f"), stroke: "#5b4a32", "stroke-width": 1.5 });
      const g = cellNode(cell, shape);
      g.append(s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, fill: "#5b4a32", opacity: 0.7, text: cell }));
      svg.append(g);
    }
    for (const coin of v.coins || []) {
      const [x, y] = where(coin.cell);
      svg.append(s("circle", { cx: x - 0.06 * R, cy: y - 0.06 * R, r: 0.035 * R, fill: "#e0b022", stroke: COLORS[coin.player], "stroke-width": 3, class: "coin", "pointer-events": "none" }));
    }
    const stacks = new Map();
    for (const p of v.pieces || []) {
      if (!p.cell || p.cell === "reserve") continue;
      stacks.set(p.cell, [...(stacks.get(p.cell) || []), p]);
    }
    for (const [cell, pieces] of stacks) {
      const [x, y] = where(cell);
      pieces.forEach((p, i) => {
        const dx = (i - (pieces.length - 1) / 2) * 0.09 * R;
        const g = s("g", { "data-cell": cell, "data-piece": p.player, class: `piece${sources.has(cell) ? " clickable" : ""}` });
        const laps = Object.entries(p.laps || {}).map(([tier, done]) => `${tier}${done ? "✓" : "·"}`).join(" ");
        const lap = p.lap_progress ? ` · lap ${p.lap_progress.steps}/${p.lap_progress.of}` : "";
        g.append(s("title", { text: `player ${p.player + 1} on ${cell} · laps ${laps}${lap}${p.coin ? ` · coin on ${p.coin}` : ""}` }));
        const w = 0.1 * R;
        g.append(s("rect", { x: x + dx - w / 2 + 2, y: y - w / 2 + 3, width: w, height: w, rx: 5, fill: "rgba(0,0,0,.35)" }),
          s("rect", { x: x + dx - w / 2, y: y - w / 2, width: w, height: w, rx: 5, fill: COLORS[p.player], stroke: "#fff", "stroke-width": 2 }),
          s("text", { x: x + dx, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#fff", text: String(p.face) }));
        if (cell === v.last_piece) g.append(s("rect", { x: x + dx - w / 2 - 4, y: y - w / 2 - 4, width: w + 8, height: w + 8, rx: 7, fill: "none", stroke: "#e67e22", "stroke-width": 2, "stroke-dasharray": "4 3" }));
        svg.append(g);
      });
      if (cell === selected) {
        svg.append(s("circle", { cx: x, cy: y, r: 0.085 * R + (pieces.length - 1) * 0.045 * R, fill: "none", stroke: "#14551e", "stroke-width": 4, class: "selected", "pointer-events": "none" }));
      }
    }
    for (const [cell, count] of counts) {
      const [x, y] = where(cell);
      svg.append(s("g", { "data-cell": cell, class: "target" },
        s("circle", { cx: x, cy: y, r: 0.05 * R, fill: count === 1 ? "rgba(20,120,40,.85)" : "rgba(200,120,20,.85)", class: "pulse" })));
    }
    drawPanel(v, actions);
  }

  function describe(a) {
    if (a.kind === "move") return `${DIE[a.n] || a.n} ${a.sign === "-" ? "back" : "move"} ${a.n} → ${a.to}`;
    if (a.kind === "promote") return `promote to ${a.to}${a.forgo ? ` (forgo ${a.forgo})` : ""}`;
    if (a.kind === "push") return `pushed piece → ${a.to}`;
    return { pass: "pass", "push:start": "pushed piece → its start", "ones:four": "use four 1s", "ones:reroll": "reroll", "ones:two": "keep two 1s" }[a.text] || a.text;
  }

  function drawPanel(v, actions) {
    const pending = v.pending_push;
    const dice = (v.dice || []).map((d) => h("span", { class: "tag", style: "font-size:1.5rem;line-height:1;padding:0 .2rem", title: `die ${d}` }, DIE[d] || String(d)));
    const buttons = actions.filter((a) => a.kind === "other" || a.kind === "push" || a.from === selected)
      .map((a) => h("button", { type: "button", class: "btn", "data-move": a.text, onclick: () => submit(a.text) }, describe(a)));
    const hint = !actions.length ? "" : pending ? `choose where the pushed piece from ${pending.from} goes` : selected ? "click a green cell or a button" : "click one of your pieces";
    const rows = [];
    (v.reserve || []).forEach((n, i) => {
      if (n || v.version === 2) rows.push(h("span", { class: "hint", style: `color:${COLORS[i]}` }, `player ${i + 1}: ${n} in reserve, ${v.finished?.[i] ?? 0} home `));
    });
    clear(panel).append(h("header", {}, h("span", { text: pending ? "push" : `turn ${v.turn_number ?? ""} · player ${(v.turn ?? 0) + 1}` }),
      h("span", { class: "actions" }, dice)),
    h("div", { class: "body" }, h("div", { class: "actions" }, hint ? h("span", { class: "label", text: hint }) : null, buttons),
      rows.length ? h("div", {}, rows) : null));
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      last = { msg, ctx };
      draw();
    },
  };
}
