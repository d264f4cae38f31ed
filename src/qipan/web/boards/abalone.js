// Abalone board: 61 cells, rows a..i bottom to top; click marbles to pick a line, then a target.
import { clear, h, s, svgRoot } from "../js/dom.js";

const ROWS = "abcdefghi";
const DIRS = [[0, 1], [1, 1], [1, 0], [0, -1], [-1, -1], [-1, 0]];
const U = 52; // one cell step in SVG units
const RY = U * Math.sqrt(3) / 2;
const COLORS = ["black", "white"];

export const aspect = 1.08;

export function seatColor(_view, i) {
  return i === 0 ? "#1d1d1d" : "#f2f2f2";
}

export function score(view, i) {
  return view ? `${view.pushed_out[COLORS[i]]}/6` : null;
}

const onBoard = (r, n) => r >= 0 && r <= 8 && n >= Math.max(1, r - 3) && n <= Math.min(9, r + 5);
const name = (r, n) => `${ROWS[r]}${n}`;
const parse = (c) => [ROWS.indexOf(c[0]), Number(c[1])];
const step = (c, d) => {
  const [r, n] = parse(c);
  const r2 = r + DIRS[d][0], n2 = n + DIRS[d][1];
  return onBoard(r2, n2) ? name(r2, n2) : null;
};
const dirBetween = (a, b) => {
  const [r1, n1] = parse(a), [r2, n2] = parse(b);
  return DIRS.findIndex(([dr, dn]) => dr === r2 - r1 && dn === n2 - n1);
};

export const CELLS = [];
for (let r = 0; r < 9; r++) for (let n = 1; n <= 9; n++) if (onBoard(r, n)) CELLS.push(name(r, n));

/** What a legal move does: the marbles it moves, its direction, and where a click picks it. */
export function describeMove(text, own) {
  const cells = text.match(/[a-i][1-9]/g);
  if (cells.length === 2) {
    const d = dirBetween(cells[0], cells[1]);
    const moved = [cells[0]];
    let front = cells[0];
    while (moved.length < 3 && own.has(step(front, d))) {
      front = step(front, d);
      moved.push(front);
    }
    const ahead = step(front, d);
    return { text, moved, d, targets: ahead ? [ahead] : [], inline: true };
  }
  const [a, b, dest] = cells;
  const d = dirBetween(a, dest);
  const ax = [0, 1, 2, 3, 4, 5].find((x) => step(a, x) === b || (step(a, x) && step(step(a, x), x) === b));
  const moved = [a];
  for (let c = a; ax !== undefined && c !== b && moved.length < 3;) {
    c = step(c, ax);
    moved.push(c);
  }
  if (ax === undefined) moved.push(b);
  return { text, moved, d, targets: moved.map((m) => step(m, d)).filter(Boolean), inline: false };
}

function isLine(cells) {
  if (cells.length <= 1) return true;
  if (cells.length > 3) return false;
  for (let d = 0; d < 3; d++) {
    const start = cells.find((c) => !cells.includes(step(c, d + 3)));
    if (!start) continue;
    const line = [start];
    while (line.length < cells.length && cells.includes(step(line.at(-1), d))) line.push(step(line.at(-1), d));
    if (line.length === cells.length) return true;
  }
  return false;
}

export function create(host, extra, { seat }) {
  const flip = seat === 1;
  const pos = (c) => vpos(...parse(c));
  const vpos = (r, n) => {
    const x = (n - 1 - r / 2) * U, y = (8 - r) * RY;
    return flip ? [4 * U - x, 8 * RY - y] : [x, y];
  };
  let selection = [];
  let last = null; // {msg, ctx}

  const svg = svgRoot(-3.2 * U, -1.05 * U, 10.4 * U, 8 * RY + 2.1 * U, { role: "img", "aria-label": "Abalone board" });
  host.append(svg);
  const scoreBox = h("div", { class: "panel", id: "abalone-score" });
  extra.append(scoreBox);

  // Hovering a target shows which marbles that move takes along.
  svg.addEventListener("mouseover", (ev) => {
    const target = ev.target.closest("g.target");
    for (const node of svg.querySelectorAll(".moving")) node.classList.remove("moving");
    if (!target) return;
    for (const cell of target.dataset.moved.split(" ")) svg.querySelector(`[data-cell="${cell}"] .marble`)?.classList.add("moving");
  });

  svg.addEventListener("click", (ev) => {
    const node = ev.target.closest("[data-cell]");
    if (!last || !last.ctx.interactive) return;
    click(node ? node.dataset.cell : null);
  });

  function own() {
    const v = last.msg.view;
    return new Set(v.marbles[COLORS[v.to_move]] || []);
  }

  function candidates() {
    if (!selection.length) return [];
    const mine = own();
    const moves = last.msg.legal.map((t) => describeMove(t, mine));
    if (selection.length === 1) return moves.filter((m) => m.inline && m.moved[0] === selection[0]);
    const key = [...selection].sort().join();
    return moves.filter((m) => [...m.moved].sort().join() === key);
  }

  function targetMap() {
    const map = new Map();
    for (const m of candidates()) for (const t of m.targets) map.set(t, map.has(t) ? null : m);
    for (const [k, v] of map) if (!v) map.delete(k);
    return map;
  }

  function click(cell) {
    const targets = targetMap();
    if (cell && targets.has(cell)) {
      const move = targets.get(cell);
      selection = [];
      last.ctx.submit(move.text);
      return;
    }
    const mine = own();
    if (cell && mine.has(cell)) {
      if (selection.includes(cell)) {
        selection = selection.filter((c) => c !== cell);
        if (!isLine(selection)) selection = [];
      } else if (isLine([...selection, cell])) {
        selection = [...selection, cell];
      } else {
        selection = [cell];
      }
    } else {
      selection = [];
    }
    draw();
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    clear(svg);
    const defs = s("defs", {},
      s("radialGradient", { id: "ab-black", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#6a6a6a" }), s("stop", { offset: "55%", "stop-color": "#202020" }), s("stop", { offset: "100%", "stop-color": "#050505" })),
      s("radialGradient", { id: "ab-white", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#ffffff" }), s("stop", { offset: "60%", "stop-color": "#e4e1da" }), s("stop", { offset: "100%", "stop-color": "#a9a59c" })),
      s("marker", { id: "ab-arrow", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", fill: "rgba(255,170,0,.9)" })));
    svg.append(defs);
    // The board: a hexagon around the corner cells.
    const corners = ["a1", "a5", "e9", "i9", "i5", "e1"].map(pos);
    const [cx, cy] = [2 * U, 4 * RY];
    const grow = (p, k) => [cx + (p[0] - cx) * k, cy + (p[1] - cy) * k];
    svg.append(s("polygon", { points: corners.map((p) => grow(p, 1.2).join(",")).join(" "), fill: "#7a5230", stroke: "#4b301a", "stroke-width": 6, "stroke-linejoin": "round" }));
    svg.append(s("polygon", { points: corners.map((p) => grow(p, 1.12).join(",")).join(" "), fill: "#a8733f", "stroke-linejoin": "round" }));

    const black = new Set(v.marbles.black), white = new Set(v.marbles.white);
    const targets = ctx.interactive ? targetMap() : new Map();
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    const lastCells = new Set(lastText && /^([a-i][1-9]){2,3}$/.test(lastText) ? lastText.match(/[a-i][1-9]/g) : []);
    const mine = ctx.interactive ? own() : new Set();

    for (const c of CELLS) {
      const [x, y] = pos(c);
      const g = s("g", { "data-cell": c, class: "cell" });
      g.append(s("circle", { cx: x, cy: y, r: U * 0.44, fill: "transparent" }));
      g.append(s("circle", { cx: x, cy: y, r: U * 0.36, fill: "#6b4423", opacity: 0.75 }));
      if (lastCells.has(c)) g.append(s("circle", { cx: x, cy: y, r: U * 0.46, fill: "rgba(155,199,0,.45)" }));
      const colour = black.has(c) ? "black" : white.has(c) ? "white" : null;
      if (colour) {
        g.append(s("circle", { cx: x + 1.5, cy: y + 2.5, r: U * 0.43, fill: "rgba(0,0,0,.35)" }));
        g.append(s("circle", {
          cx: x, cy: y, r: U * 0.43, fill: `url(#ab-${colour})`, class: `marble ${colour}${mine.has(c) ? " clickable" : ""}`,
          "data-marble": colour,
        }));
      }
      if (selection.includes(c)) g.append(s("circle", { cx: x, cy: y, r: U * 0.45, fill: "none", stroke: "#3fa14a", "stroke-width": 4, class: "selected" }));
      if (targets.has(c)) {
        g.classList.add("target");
        g.dataset.move = targets.get(c).text;
        g.dataset.moved = targets.get(c).moved.join(" ");
        g.append(colour
          ? s("circle", { cx: x, cy: y, r: U * 0.45, fill: "none", stroke: "#d9534f", "stroke-width": 4, class: "pulse" })
          : s("circle", { cx: x, cy: y, r: U * 0.15, fill: "rgba(40,140,50,.85)" }));
      }
      svg.append(g);
    }
    if (lastText && lastCells.size) {
      const cells = lastText.match(/[a-i][1-9]/g);
      const from = cells.length === 2 ? pos(cells[0]) : mid(pos(cells[0]), pos(cells[1]));
      const d = dirBetween(cells[0], cells.at(-1));
      const to = d >= 0 ? [from[0] + (pos(cells.at(-1))[0] - pos(cells[0])[0]), from[1] + (pos(cells.at(-1))[1] - pos(cells[0])[1])] : null;
      if (to) svg.append(s("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], stroke: "rgba(255,170,0,.85)", "stroke-width": 6, "stroke-linecap": "round", "marker-end": "url(#ab-arrow)", "pointer-events": "none" }));
    }
    // Coordinates: row letters left of each row, diagonal numbers below each diagonal's low end.
    const label = (r, n, text) => {
      const [x, y] = vpos(r, n);
      svg.append(s("text", { x, y: y + 5, class: "coord", "text-anchor": "middle", fill: "#f3dfc1", "font-size": 14, text }));
    };
    for (let r = 0; r < 9; r++) label(r, Math.max(1, r - 3) - 1, ROWS[r].toUpperCase());
    for (let n = 1; n <= 9; n++) label(Math.max(0, n - 5) - 1, n, String(n));
    drawScore(v);
  }

  function drawScore(v) {
    clear(scoreBox).append(h("div", { class: "body kv" },
      ...COLORS.flatMap((c) => [
        h("dt", { text: `${c} pushed out` }),
        h("dd", { "data-score": c }, "●".repeat(v.pushed_out[c]) + "○".repeat(Math.max(0, 6 - v.pushed_out[c])), ` ${v.pushed_out[c]}/6`),
      ]),
      v.quiet ? h("dt", { text: "quiet moves" }) : null, v.quiet ? h("dd", { text: String(v.quiet) }) : null));
  }

  return {
    render(msg, ctx) {
      last = { msg, ctx };
      if (ctx.fresh || !ctx.interactive) selection = [];
      draw();
    },
  };
}

function mid(a, b) {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}
