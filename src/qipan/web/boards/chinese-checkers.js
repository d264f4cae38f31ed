// Chinese Checkers: the 121-hole star (rows a..q), or the central hexagon for 食棋 (the capture
// variant). Click a piece, then one of its marked holes; the notation box is the keyboard path.
//
// A move is written start-end (d2-f3); the holes a jump chain visits are found here the way the
// engine finds them (qipan.games.chinese_checkers.moves.find_path: the shortest chain, first
// found in direction order), so the path drawn is the one `qipan replay` prints.
import { clear, h, s, svgRoot } from "../js/dom.js";
import { t } from "../js/i18n.js";
import {
  arrowDefs, coordLabel, destMark, fadeOut, hopThrough, idleClick, lastMark, nearestCell, pathLine, runAnimations,
  selectMark, statusLine, suggestDefs, suggestLine, suggestRing,
} from "./kit.js";

const ROWS = "abcdefghijklmnopq";
const U = 40;
const RY = U * Math.sqrt(3) / 2;
const NAMED = { red: "#d9382b", blue: "#2d6fdc", green: "#2f9e44", yellow: "#e7b416", purple: "#8e44ad", black: "#2b2b2b", white: "#f0f0f0", orange: "#ef7d17", cyan: "#17a2b8" };
const FALLBACK = ["#d9382b", "#2d6fdc", "#2f9e44", "#e7b416", "#8e44ad", "#ef7d17"];
const CAPTURE_PIECE = "#6b4e2e";
// Hole names drawn in the empty holes: at least NAME_PX on screen, and on by default only where
// that needs no more than NAME_MAX board units (a desktop; a phone's board is too small).
const NAME_PX = 12;
const NAME_MAX = 14;
const NAMES_KEY = "qipan.cc.names"; // localStorage: "on" or "off" once the reader chose
// The star with row letters at both ends of every row, in any of the six rotations.
const STAR_VIEW = [-7.15 * U, -7.75 * U, 14.3 * U, 15.5 * U];
// 食棋 uses only the central hexagon: the board is zoomed to it.
const HEX_VIEW = [-5.45 * U, -4.25 * U, 10.9 * U, 8.5 * U];

export const aspect = STAR_VIEW[2] / STAR_VIEW[3];

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

/** The first to fill the opposite point (or the finishing order), a race that ran out of moves,
 * 食棋's captures, or the solitaire's pieces left (js/result.js). */
export function explainResult(view, _result, { nameOf, options, ply }) {
  const list = (seats) => seats.map(nameOf).join(t("cc.how.sep"));
  if (view.variant === "capture") {
    const left = view.pieces_left ?? Object.keys(view.pieces || {}).length;
    if (!view.scores || view.scores.length < 2) return left === 1 ? t("cc.how.solved") : t("cc.how.unsolved", { n: left });
    return t("cc.how.captures", { list: view.scores.map((n, i) => t("cc.how.score", { name: nameOf(i), n })).join(t("cc.how.sep")) });
  }
  const finished = view.finished || [];
  if (!finished.length) {
    const limit = Number(options.max_moves) || 1000;
    return typeof ply === "number" && ply >= limit ? t("cc.how.limit", { n: limit }) : t("cc.how.stuck");
  }
  const rest = (view.players || []).map((_, i) => i).filter((i) => !finished.includes(i));
  if (finished.length === 1) return t("cc.how.home", { winner: nameOf(finished[0]), n: view.target_holes?.[finished[0]]?.length ?? 10 });
  const order = t("cc.how.order", { names: list(finished) });
  return rest.length ? `${order} ${t("cc.how.unfinished", { names: list(rest) })}` : order;
}

/** "capture" when a 食棋 move took a piece, "move" otherwise. */
export function moveSound(prevView, view) {
  const left = (v) => (v ? Object.keys(v.pieces).length : 0);
  return prevView && view && left(view) < left(prevView) ? "capture" : "move";
}

// -- geometry (the engine's: qipan/games/chinese_checkers/board.py) --------------------------------

const DIRECTIONS = [[1, -1, 0], [1, 0, -1], [0, 1, -1], [-1, 1, 0], [-1, 0, 1], [0, -1, 1]];
const POINT_AXES = { 1: [1, 1], 2: [2, -1], 3: [0, 1], 4: [1, -1], 5: [2, 1], 6: [0, -1] };

export const HOLES = []; // names in notation order
const CUBE = new Map(); // name -> [q, r, s]
const AT = new Map(); // "q,r" -> name
ROWS.split("").forEach((letter, row) => {
  const r = 8 - row;
  let number = 0;
  for (let q = -8; q <= 8; q++) {
    const s3 = -q - r;
    if (Math.min(q, r, s3) >= -4 || Math.max(q, r, s3) <= 4) {
      const hole = `${letter}${++number}`;
      HOLES.push(hole);
      CUBE.set(hole, [q, r, s3]);
      AT.set(`${q},${r}`, hole);
    }
  }
});
const stepFrom = (hole, d, k = 1) => {
  const [q, r] = CUBE.get(hole);
  return AT.get(`${q + DIRECTIONS[d][0] * k},${r + DIRECTIONS[d][1] * k}`) || null;
};
const RAYS = new Map(HOLES.map((hole) => [hole, [0, 1, 2, 3, 4, 5].map((d) => {
  const ray = [];
  for (let k = 1, next; (next = stepFrom(hole, d, k)); k++) ray.push(next);
  return ray;
}).filter((ray) => ray.length >= 2)]));
const inHexagon = (hole) => Math.max(...CUBE.get(hole).map(Math.abs)) <= 4;
const pointOf = (hole) => {
  const c = CUBE.get(hole);
  for (let p = 1; p <= 6; p++) if (POINT_AXES[p][1] * c[POINT_AXES[p][0]] >= 5) return p;
  return 0;
};
const isNeighbour = (a, b) => [0, 1, 2, 3, 4, 5].some((d) => stepFrom(a, d) === b);

function singleJumps(filled, hole, long) {
  const out = [];
  for (const ray of RAYS.get(hole)) {
    if (!long) {
      if (filled.has(ray[0]) && !filled.has(ray[1])) out.push(ray[1]);
      continue;
    }
    let i = 0;
    while (i < ray.length && !filled.has(ray[i])) i++;
    const land = 2 * i + 1;
    if (land >= ray.length) continue;
    let j = i + 1;
    while (j <= land && !filled.has(ray[j])) j++;
    if (j > land) out.push(ray[land]);
  }
  return out;
}

/** The holes the move ``start``-``end`` visits in the position ``view`` (before or after the
 * move): a step, a 食棋 capture, or the shortest jump chain, as the engine finds it. */
export function movePath(view, options, start, end) {
  if (!CUBE.has(start) || !CUBE.has(end)) return [];
  if (view.variant === "capture") return [start, end];
  const filled = new Set(Object.keys(view.pieces));
  filled.delete(start);
  filled.delete(end);
  if (isNeighbour(start, end)) return [start, end];
  const owner = view.pieces[start] ?? view.pieces[end] ?? 0;
  const level = { "pass-only": 1, forbidden: 2 }[options.other_corners] || 0;
  const own = new Set([view.homes?.[owner], view.targets?.[owner]]);
  const banned = (hole) => level >= 2 && pointOf(hole) && !own.has(pointOf(hole));
  const long = options.jump !== "adjacent";
  const chain = options.chain !== false;
  const parent = new Map([[start, start]]);
  let frontier = [start];
  while (frontier.length) {
    const next = [];
    for (const hole of frontier) {
      for (const target of singleJumps(filled, hole, long)) {
        if (parent.has(target) || banned(target)) continue;
        parent.set(target, hole);
        if (target === end) {
          const path = [end];
          while (path.at(-1) !== start) path.push(parent.get(path.at(-1)));
          return path.reverse();
        }
        next.push(target);
      }
    }
    frontier = chain ? next : [];
  }
  return [start, end];
}

/** The hole a 食棋 capture from ``a`` to ``b`` jumps over. */
function between(a, b) {
  const [q1, r1] = CUBE.get(a), [q2, r2] = CUBE.get(b);
  return AT.get(`${(q1 + q2) / 2},${(r1 + r2) / 2}`) || null;
}

function parseMove(text) {
  const cells = text.toLowerCase().split("-").map((c) => c.trim());
  return { text, from: cells[0], to: cells.at(-1) };
}

const lastText = (msg) => (typeof msg.last === "string" ? msg.last : msg.last?.text) || null;
const colourName = (view, i) => (view.players?.[i] ? t(`cc.${view.players[i]}`) : String(i + 1));

export function create(host, extra, { info } = {}) {
  const options = info?.options || {};
  const capture = info?.variant === "capture";
  let last = null; // {msg, ctx, path}
  let selected = null;
  let angle = 0;
  const view = capture ? HEX_VIEW : STAR_VIEW;
  host.style.setProperty("--board-aspect", String(view[2] / view[3]));
  const svg = svgRoot(...view, { role: "img", "aria-label": capture ? t("cc.captureBoard") : t("cc.board"), id: "cc-board" });
  host.append(svg);
  const status = statusLine(extra, "board-status");
  const here = h("span", { class: "board-here", id: "cc-here" });
  const namesBox = h("input", { type: "checkbox", id: "cc-names", onchange: () => {
    try {
      localStorage.setItem(NAMES_KEY, namesBox.checked ? "on" : "off");
    } catch {
      // not kept: the switch still works on this page
    }
    if (last) draw();
  } });
  extra.append(h("div", { class: "board-tools" },
    h("label", { class: "board-switch", for: "cc-names" }, namesBox, h("span", { text: t("cc.names") })), here));
  const info2 = h("div", { class: "panel", id: "cc-info", hidden: true });
  extra.append(info2);

  const rotate = ([x, y]) => {
    const c = Math.cos(angle), sn = Math.sin(angle);
    return [x * c - y * sn, x * sn + y * c];
  };
  const base = (hole) => {
    const [q, r] = CUBE.get(hole);
    return [(q + r / 2) * U, r * RY];
  };
  const pos = (hole) => rotate(base(hole));
  const shown = () => HOLES.filter((hole) => !capture || inHexagon(hole));

  svg.addEventListener("click", (ev) => {
    if (idleClick(last, status)) return;
    const node = ev.target.closest("[data-hole]");
    click(node ? node.dataset.hole : nearestCell(svg, ev, shown().map((hole) => [hole, pos(hole)]), U * 0.75));
  });

  // Hovering a destination previews the hops that move makes; any hole's name is shown under
  // the board.
  svg.addEventListener("mouseover", (ev) => {
    const cell = ev.target.closest("[data-hole]");
    here.textContent = cell ? t("cc.here", { hole: cell.dataset.hole }) : "";
    svg.querySelector(".preview-path")?.remove();
    const target = ev.target.closest("g.target");
    if (!target || !selected || !last) return;
    const path = movePath(last.msg.view, options, selected, target.dataset.hole);
    if (path.length > 1) svg.append(pathLine(path.map(pos), { cls: "preview-path", width: 4 }));
  });

  function click(hole) {
    const { msg, ctx } = last;
    const v = msg.view;
    const moves = msg.legal.map(parseMove);
    if (selected && hole) {
      const move = moves.find((m) => m.from === selected && m.to === hole);
      if (move) {
        selected = null;
        status.set(t("board.sent", { move: move.text }));
        ctx.submit(move.text);
        return;
      }
    }
    const owner = hole ? v.pieces[hole] : undefined;
    if (hole && owner !== undefined) {
      if (!capture && owner !== v.to_move) {
        status.set(t("cc.notYours", { hole, side: colourName(v, owner) }), "warn");
      } else if (hole === selected) {
        selected = null;
        status.set(t("board.cleared"));
      } else {
        const n = moves.filter((m) => m.from === hole).length;
        if (n) {
          selected = hole;
          status.set(t(n === 1 ? "cc.selectedOne" : "cc.selected", { hole, n }));
        } else {
          selected = null;
          status.set(t(capture ? "cc.cannotCapture" : "cc.cannotMove", { hole }), "warn");
        }
      }
    } else if (selected) {
      status.set(hole ? t("cc.noMoveThere", { from: selected, hole }) : t("board.cleared"), "warn");
      selected = null;
    } else {
      status.set(hole ? t("cc.emptyHole", { hole }) : hint(), "warn");
    }
    draw();
  }

  svg.addEventListener("mouseleave", () => {
    here.textContent = "";
  });

  /** The font size (board units) of the hole names, or 0 when they are not shown: the reader's
   * choice, else on where NAME_PX fits in NAME_MAX units. */
  function nameSize() {
    const width = svg.getBoundingClientRect().width;
    const size = width > 0 ? Math.max(NAME_PX, (NAME_PX * view[2]) / width) : NAME_PX;
    let chosen = null;
    try {
      chosen = localStorage.getItem(NAMES_KEY);
    } catch {
      // no storage: the default
    }
    namesBox.checked = chosen ? chosen === "on" : size <= NAME_MAX;
    return namesBox.checked ? size : 0;
  }

  function hint() {
    const example = last.msg.legal?.[0] || "c1-e5";
    return t(capture ? "cc.hintCapture" : "cc.hint", { example });
  }

  function describeLast(v, path) {
    if (path.length < 2) return "";
    const route = path.join("-");
    if (capture) {
      const over = isNeighbour(path[0], path[1]) ? null : between(path[0], path[1]);
      return over ? t("cc.lastCapture", { path: route, hole: over }) : t("cc.lastStep", { path: route });
    }
    if (path.length === 2 && isNeighbour(path[0], path[1])) return t("cc.lastStep", { path: route });
    return path.length === 2 ? t("cc.lastJump", { path: route }) : t("cc.lastJumps", { path: route, n: path.length - 1 });
  }

  function draw() {
    const { msg, ctx, path } = last;
    const v = msg.view;
    clear(svg);
    svg.append(s("defs", {},
      s("radialGradient", { id: "cc-shine", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": 0.7 }), s("stop", { offset: "45%", "stop-color": "#fff", "stop-opacity": 0 })),
      arrowDefs("cc-arrow"), suggestDefs("cc-suggest")));
    const grow = (p, k) => [p[0] * k, p[1] * k];
    if (capture) {
      const corners = ["e5", "e9", "i9", "m9", "m5", "i1"].map(pos);
      svg.append(s("polygon", { points: corners.map((p) => grow(p, 1.16).join(",")).join(" "), class: "cc-board", "stroke-width": 3, "stroke-linejoin": "round" }));
    } else {
      // Star outline: the two big triangles through the six tips.
      const tips = ["a1", "e13", "m13", "q1", "m1", "e1"].map(pos);
      const tri = (a, b, c) => s("polygon", { points: [a, b, c].map((p) => grow(p, 1.07).join(",")).join(" "), class: "cc-board", "stroke-width": 3, "stroke-linejoin": "round" });
      svg.append(tri(tips[0], tips[2], tips[4]), tri(tips[1], tips[3], tips[5]));
    }
    // Row letters beyond both ends of every row (the holes count from 1 at the row's left end).
    const holes = shown();
    for (const letter of ROWS) {
      const row = holes.filter((hole) => hole[0] === letter);
      if (!row.length) continue;
      const gap = capture ? 1.1 : 0.85; // (the hexagon's rim is wider than the star's)
      for (const [end, dx] of [[row[0], -gap], [row.at(-1), gap]]) {
        const [x, y] = base(end);
        svg.append(coordLabel(...rotate([x + dx * U, y]), letter, 19));
      }
    }

    const targetOf = new Map();
    (v.target_holes || []).forEach((list, p) => list.forEach((hole) => targetOf.set(hole, p)));
    const moves = ctx.interactive ? msg.legal.map(parseMove) : [];
    const movable = new Set(moves.map((m) => m.from));
    const dests = new Set(moves.filter((m) => m.from === selected).map((m) => m.to));
    const from = path.length ? path[0] : null, to = path.length ? path.at(-1) : null;
    const via = new Set(path.slice(1, -1));

    const named = nameSize();
    for (const hole of holes) {
      const [x, y] = pos(hole);
      const dest = dests.has(hole);
      const title = dest ? t("cc.destTitle", { hole, move: `${selected}-${hole}` }) : hole;
      const g = s("g", { "data-hole": hole, class: "cell" }, s("title", { text: title }));
      g.append(s("circle", { cx: x, cy: y, r: U * 0.5, fill: "transparent" }));
      const tp = targetOf.get(hole);
      const owner = v.pieces[hole];
      const label = named && owner === undefined && !dest;
      // A named hole is a wider ring round its name; a plain one a small dot.
      const r = label ? U * 0.42 : U * 0.2;
      g.append(tp !== undefined
        ? s("circle", { cx: x, cy: y, r, fill: seatColor(v, tp), opacity: label ? 0.35 : 0.55 })
        : s("circle", { cx: x, cy: y, r, class: label ? "cc-hole named" : "cc-hole" }));
      if (hole === from) g.append(lastMark(x, y, U * 0.42, "from"));
      if (hole === to) g.append(lastMark(x, y, U * 0.5, "to"));
      if (via.has(hole)) g.append(s("circle", { cx: x, cy: y, r: U * 0.14, class: "last-via", "pointer-events": "none" }));
      if (label) {
        g.append(s("text", { x, y: y + named * 0.36, class: "cc-name", "text-anchor": "middle", "font-size": named,
          "aria-hidden": "true", "pointer-events": "none", text: hole }));
      }
      if (owner !== undefined) {
        const colour = capture ? CAPTURE_PIECE : seatColor(v, owner);
        g.append(s("g", { class: "pg" },
          s("circle", { cx: x + 1.2, cy: y + 2, r: U * 0.4, fill: "rgba(0,0,0,.3)" }),
          s("circle", { cx: x, cy: y, r: U * 0.4, fill: colour, stroke: "rgba(0,0,0,.35)", "stroke-width": 1.5, class: `piece${movable.has(hole) ? " clickable" : ""}`, "data-owner": owner }),
          s("circle", { cx: x, cy: y, r: U * 0.4, fill: "url(#cc-shine)", "pointer-events": "none" })));
      }
      if (hole === selected) g.append(selectMark(x, y, U * 0.47));
      if (dest) {
        g.classList.add("target");
        g.append(destMark(x, y, U * 0.56, { occupied: owner !== undefined }));
      }
      svg.append(g);
    }
    if (path.length > 1) {
      const line = pathLine(path.map(pos), { arrow: "cc-arrow", width: 5 });
      line.dataset.path = path.join("-");
      svg.append(line);
    }
    svg.dataset.last = path.join("-");
    // A suggested move (a hint, the review's better move, an engine line), from this position.
    svg.dataset.suggest = "";
    const hint = typeof ctx.suggest === "string" && /^[a-q]\d+(-[a-q]\d+)+$/i.test(ctx.suggest) ? parseMove(ctx.suggest) : null;
    if (hint && CUBE.has(hint.from) && CUBE.has(hint.to)) {
      const route = movePath(v, options, hint.from, hint.to);
      svg.append(suggestRing(...pos(hint.from), U * 0.5), suggestLine(route.map(pos), "cc-suggest", 5));
      svg.dataset.suggest = hint.text;
    }
    drawInfo(v);
  }

  function drawInfo(v) {
    if (!capture) return;
    info2.hidden = false;
    clear(info2).append(h("dl", { class: "body kv" },
      h("dt", { text: t("cc.piecesLeft") }), h("dd", { id: "cc-pieces-left", text: String(v.pieces_left ?? Object.keys(v.pieces).length) }),
      h("dt", { text: t("cc.quiet") }), h("dd", { id: "cc-quiet", text: t("cc.quietOf", { n: v.quiet ?? 0, limit: 60 }) })));
  }

  /** Hop the moved piece along its path; a captured piece (食棋) fades as it is jumped. */
  function animate(prevView) {
    const { msg, path } = last;
    const v = msg.view;
    const move = lastText(msg);
    if (path.length < 2 || !prevView) return;
    const [a, b] = [path[0], path.at(-1)];
    if (prevView.pieces[a] === undefined || prevView.pieces[b] !== undefined || v.pieces[b] === undefined || v.pieces[a] !== undefined) return;
    runAnimations(svg, `${msg.ply} ${move}`, () => {
      const g = svg.querySelector(`[data-hole="${b}"]`);
      const pg = g?.querySelector(".pg");
      if (!pg) return [];
      const [tx, ty] = pos(b);
      const out = [];
      const over = capture ? between(a, b) : null;
      if (over && prevView.pieces[over] !== undefined && v.pieces[over] === undefined) {
        const [x, y] = pos(over);
        const ghost = s("g", { class: "captured" }, s("circle", { cx: x, cy: y, r: U * 0.4, fill: CAPTURE_PIECE, stroke: "rgba(0,0,0,.35)", "stroke-width": 1.5 }));
        svg.append(ghost);
        out.push(fadeOut(ghost, { delay: 120 }));
      }
      svg.append(g);
      const line = svg.querySelector(".last-path");
      if (line) svg.append(line); // the path stays on top of the piece
      out.push(hopThrough(pg, path.map((hole) => {
        const [x, y] = pos(hole);
        return [x - tx, y - ty];
      })));
      return out;
    });
  }

  return {
    render(msg, ctx) {
      const prevView = last?.msg.view;
      const v = msg.view;
      const orientation = ctx.orientation ?? ctx.seat ?? 0;
      const homes = v.homes || [];
      const newAngle = !capture && homes[orientation] ? ((homes[orientation] - 1) * Math.PI) / 3 : 0;
      const turned = newAngle !== angle;
      angle = newAngle;
      if (ctx.fresh || !ctx.interactive) selected = null;
      const move = lastText(msg);
      const m = move && /^[a-q]\d+(-[a-q]\d+)+$/i.test(move) ? parseMove(move) : null;
      // Work the path out on the position before the move when we have it (same answer).
      const path = !m ? [] : prevView && prevView !== v && prevView.pieces[m.from] !== undefined
        ? movePath(prevView, options, m.from, m.to) : movePath(v, options, m.from, m.to);
      last = { msg, ctx, path };
      draw();
      if (ctx.fresh && !turned && prevView && prevView !== v) animate(prevView);
      const said = describeLast(v, path);
      if (ctx.pending) status.set(t("board.sent", { move: ctx.pending }));
      else if (ctx.interactive && (ctx.fresh || !status.node.textContent)) status.set(said ? `${said} ${hint()}` : hint());
      else if (!ctx.interactive) status.set(said);
    },
  };
}
