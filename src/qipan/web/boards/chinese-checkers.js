// Chinese Checkers: the 121-hole star (rows a..q). Click a piece, then one of its highlighted holes.
import { clear, s, svgRoot } from "../js/dom.js";

const ROWS = "abcdefghijklmnopq";
const LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const U = 40;
const RY = U * Math.sqrt(3) / 2;
const NAMED = { red: "#d9382b", blue: "#2d6fdc", green: "#2f9e44", yellow: "#e7b416", purple: "#8e44ad", black: "#2b2b2b", white: "#f0f0f0", orange: "#ef7d17", cyan: "#17a2b8" };
const FALLBACK = ["#d9382b", "#2d6fdc", "#2f9e44", "#e7b416", "#8e44ad", "#ef7d17"];

export const aspect = 1;

export function seatColor(view, i) {
  const name = view?.players?.[i];
  return NAMED[name] || FALLBACK[i % FALLBACK.length];
}

export function score(view, i) {
  if (!view) return null;
  if (view.scores) return String(view.scores[i]);
  if (view.in_target) return `${view.in_target[i]}/${view.target_holes?.[i]?.length ?? 10}`;
  return null;
}

export const HOLES = [];
LENGTHS.forEach((len, k) => { for (let j = 1; j <= len; j++) HOLES.push(`${ROWS[k]}${j}`); });

function basePos(hole) {
  const k = ROWS.indexOf(hole[0]);
  const j = Number(hole.slice(1));
  return [(j - (LENGTHS[k] + 1) / 2) * U, (8 - k) * RY];
}

/** The central hexagon of 61 holes (the capture variant's board). */
function inHexagon(hole) {
  const len = LENGTHS[ROWS.indexOf(hole[0])];
  const j = Number(hole.slice(1));
  return len >= 9 && j > len - 9 && j <= 9;
}

function parseMove(text) {
  const cells = text.toLowerCase().split("-").map((c) => c.trim());
  return { text, from: cells[0], to: cells.at(-1), path: cells };
}

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null;
  let angle = 0;
  const svg = svgRoot(-7.7 * U, -7.7 * U, 15.4 * U, 15.4 * U, { role: "img", "aria-label": "Chinese Checkers board" });
  host.append(svg);

  const pos = (hole) => {
    const [x, y] = basePos(hole);
    const c = Math.cos(angle), sn = Math.sin(angle);
    return [x * c - y * sn, x * sn + y * c];
  };

  svg.addEventListener("click", (ev) => {
    if (!last || !last.ctx.interactive) return;
    const node = ev.target.closest("[data-hole]");
    const hole = node ? node.dataset.hole : null;
    const moves = last.msg.legal.map(parseMove);
    if (selected && hole) {
      const move = moves.find((m) => m.from === selected && m.to === hole);
      if (move) {
        selected = null;
        last.ctx.submit(move.text);
        return;
      }
    }
    selected = hole && moves.some((m) => m.from === hole) ? (hole === selected ? null : hole) : null;
    draw();
  });

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const homes = v.homes || [];
    const me = seat !== null && seat !== undefined ? seat : null;
    angle = me !== null && homes[me] ? ((homes[me] - 1) * Math.PI) / 3 : 0;
    clear(svg);
    svg.append(s("defs", {},
      s("radialGradient", { id: "cc-shine", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": 0.7 }), s("stop", { offset: "45%", "stop-color": "#fff", "stop-opacity": 0 }))));
    // Star outline: the two big triangles through the six tips.
    const tips = ["a1", "e13", "m13", "q1", "m1", "e1"].map(pos);
    const grow = (p, k) => [p[0] * k, p[1] * k];
    const tri = (a, b, c) => s("polygon", { points: [a, b, c].map((p) => grow(p, 1.07).join(",")).join(" "), fill: "#d8c29b", stroke: "#b49a6c", "stroke-width": 3, "stroke-linejoin": "round" });
    const capture = v.variant === "capture";
    if (capture) {
      const corners = ["e5", "e9", "i9", "m9", "m5", "i1"].map(pos);
      svg.append(s("polygon", { points: corners.map((p) => grow(p, 1.16).join(",")).join(" "), fill: "#d8c29b", stroke: "#b49a6c", "stroke-width": 3, "stroke-linejoin": "round" }));
    } else {
      svg.append(tri(tips[0], tips[2], tips[4]), tri(tips[1], tips[3], tips[5]));
    }

    const targetOf = new Map();
    (v.target_holes || []).forEach((holes, p) => holes.forEach((hole) => targetOf.set(hole, p)));
    const moves = ctx.interactive ? msg.legal.map(parseMove) : [];
    const movable = new Set(moves.map((m) => m.from));
    const dests = new Set(moves.filter((m) => m.from === selected).map((m) => m.to));
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    const lastPath = lastText && /^[a-q]\d+(-[a-q]\d+)+$/i.test(lastText) ? parseMove(lastText).path : [];

    for (const hole of HOLES) {
      if (capture && !inHexagon(hole)) continue;
      const [x, y] = pos(hole);
      const g = s("g", { "data-hole": hole, class: "cell" });
      g.append(s("circle", { cx: x, cy: y, r: U * 0.48, fill: "transparent" }));
      const tp = targetOf.get(hole);
      g.append(s("circle", { cx: x, cy: y, r: U * 0.2, fill: tp !== undefined && !capture ? seatColor(v, tp) : "#8b7553", opacity: tp !== undefined && !capture ? 0.55 : 0.8 }));
      if (lastPath.includes(hole)) g.append(s("circle", { cx: x, cy: y, r: U * 0.46, fill: "rgba(155,199,0,.5)" }));
      const owner = v.pieces[hole];
      if (owner !== undefined) {
        const colour = capture ? "#6b4e2e" : seatColor(v, owner);
        g.append(s("circle", { cx: x + 1.2, cy: y + 2, r: U * 0.4, fill: "rgba(0,0,0,.3)" }),
          s("circle", { cx: x, cy: y, r: U * 0.4, fill: colour, stroke: "rgba(0,0,0,.35)", "stroke-width": 1.5, class: `piece${movable.has(hole) ? " clickable" : ""}`, "data-owner": owner }),
          s("circle", { cx: x, cy: y, r: U * 0.4, fill: "url(#cc-shine)", "pointer-events": "none" }));
      }
      if (hole === selected) g.append(s("circle", { cx: x, cy: y, r: U * 0.47, fill: "none", stroke: "#14551e", "stroke-width": 4, class: "selected" }));
      if (dests.has(hole)) {
        g.classList.add("target");
        g.append(s("circle", { cx: x, cy: y, r: U * 0.16, fill: "rgba(20,85,30,.85)" }));
      }
      svg.append(g);
    }
    if (lastPath.length > 1) {
      svg.append(s("polyline", { points: lastPath.map((c) => pos(c).join(",")).join(" "), fill: "none", stroke: "rgba(255,150,0,.75)", "stroke-width": 4, "stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none" }));
    }
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      last = { msg, ctx };
      draw();
    },
  };
}
