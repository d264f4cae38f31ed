// Abalone board: 61 cells, rows a..i bottom to top; click marbles to pick a line, then a target.
// A line under the board says what each click did; the notation box is the keyboard path.
import { clear, h, s, svgRoot } from "../js/dom.js";
import { t } from "../js/i18n.js";
import {
  arrowDefs, coordLabel, destMark, fallOff, icon, idleClick, lastMark, movedRing, nearestCell, pathLine, runAnimations, selectMark,
  slideFrom, statusLine, suggestDefs, suggestLine, suggestRing,
} from "./kit.js";

const ROWS = "abcdefghi";
const DIRS = [[0, 1], [1, 1], [1, 0], [0, -1], [-1, -1], [-1, 0]];
const U = 52; // one cell step in SVG units
const RY = U * Math.sqrt(3) / 2;
const COLORS = ["black", "white"];
const FRAME = 1.27; // the rim, as a multiple of the corner cells' distance from the centre
const VIEW = [-3.15 * U, 4 * RY - 4.62 * U, 10.3 * U, 9.24 * U];

export const aspect = VIEW[2] / VIEW[3];

export function seatColor(_view, i) {
  return i === 0 ? "#1d1d1d" : "#f2f2f2";
}

export function score(view, i) {
  return view ? `${view.pushed_out[COLORS[i]]}/6` : null;
}

/** How the game ended by the rules: six marbles pushed out, a side with no move, or a draw by
 * the quiet-move limit or threefold repetition (js/result.js). */
export function explainResult(view, _result, { nameOf, options, winners }) {
  if (winners.length === 1) {
    const [w, l] = [winners[0], 1 - winners[0]];
    const n = view.pushed_out?.[COLORS[w]] ?? 0;
    return n >= 6 ? t("ab.how.out", { winner: nameOf(w), loser: nameOf(l), n }) : t("ab.how.stuck", { loser: nameOf(l) });
  }
  const limit = Number(options.quiet_move_limit) || (options.tournament ? 100 : 0);
  return limit && view.quiet >= limit ? t("ab.how.quiet", { n: view.quiet }) : t("ab.how.repetition");
}

/** "capture" when a marble was pushed off the board, "move" otherwise. */
export function moveSound(prevView, view) {
  const out = (v) => (v ? v.pushed_out.black + v.pushed_out.white : 0);
  return prevView && view && out(view) > out(prevView) ? "capture" : "move";
}

const onBoard = (r, n) => r >= 0 && r <= 8 && n >= Math.max(1, r - 3) && n <= Math.min(9, r + 5);
const name = (r, n) => `${ROWS[r]}${n}`;
const parse = (c) => [ROWS.indexOf(c[0]), Number(c[1])];
const step = (c, d) => {
  if (!c) return null;
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

/** The marbles a move moves and pushes, read against the position before it (``prev``) and
 * checked against the one after (``next``); null when ``text`` is not the move between them. */
export function moveEffect(prev, next, text) {
  if (!prev || !next || typeof text !== "string" || !/^([a-i][1-9]){2,3}$/.test(text) || typeof prev.to_move !== "number") return null;
  const colour = COLORS[prev.to_move], other = COLORS[1 - prev.to_move];
  const own = new Set(prev.marbles[colour]), opp = new Set(prev.marbles[other]);
  const m = describeMove(text, own);
  if (m.d < 0 || !m.moved.every((c) => own.has(c))) return null;
  const pushed = [];
  if (m.inline) for (let c = step(m.moved.at(-1), m.d); c && opp.has(c) && pushed.length < 3; c = step(c, m.d)) pushed.push(c);
  const ownAfter = new Set(next.marbles[colour]), oppAfter = new Set(next.marbles[other]);
  if (!m.moved.every((c) => ownAfter.has(step(c, m.d)))) return null;
  if (!pushed.every((c) => !step(c, m.d) || oppAfter.has(step(c, m.d)))) return null;
  return { colour, other, moved: m.moved, pushed, d: m.d };
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

const side = (colour) => t(`ab.${colour}`);

export function create(host, extra, { info } = {}) {
  const options = info?.options || {};
  let flip = false;
  const vpos = (r, n) => {
    const x = (n - 1 - r / 2) * U, y = (8 - r) * RY;
    return flip ? [4 * U - x, 8 * RY - y] : [x, y];
  };
  const pos = (c) => vpos(...parse(c));
  let selection = [];
  let last = null; // {msg, ctx}

  const svg = svgRoot(...VIEW, { role: "img", "aria-label": t("ab.board"), id: "abalone-board" });
  host.append(svg);
  const status = statusLine(extra, "board-status");
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
    if (idleClick(last, status)) return;
    const node = ev.target.closest("[data-cell]");
    click(node ? node.dataset.cell : nearestCell(svg, ev, CELLS.map((c) => [c, pos(c)]), U * 0.75));
  });

  function own() {
    const v = last.msg.view;
    return new Set(v.marbles[COLORS[v.to_move]] || []);
  }

  function candidates() {
    if (!selection.length) return [];
    const mine = own();
    const moves = last.msg.legal.map((m) => describeMove(m, mine));
    if (selection.length === 1) return moves.filter((m) => m.inline && m.moved[0] === selection[0]);
    const key = [...selection].sort().join();
    return moves.filter((m) => [...m.moved].sort().join() === key);
  }

  function targetMap() {
    const map = new Map();
    for (const m of candidates()) for (const c of m.targets) map.set(c, map.has(c) ? null : m);
    for (const [k, v] of map) if (!v) map.delete(k);
    return map;
  }

  /** Say what the selection is now and what to do next. */
  function selectionStatus(prefix = "") {
    const n = selection.length;
    let text;
    if (!n) text = t("ab.hint", { example: last.msg.legal?.[0] || "a1b2" });
    else if (!targetMap().size) text = n === 1 ? t("ab.cannotMoveOne", { cell: selection[0] }) : t("ab.cannotMoveLine", { n });
    else text = n === 1 ? t("ab.selectedOne", { cell: selection[0] }) : t("ab.selectedMany", { n, cells: selection.join(" ") });
    status.set(prefix ? `${prefix} ${text}` : text, n && !targetMap().size ? "warn" : "");
  }

  function click(cell) {
    const targets = targetMap();
    if (cell && targets.has(cell)) {
      const move = targets.get(cell);
      selection = [];
      status.set(t("board.sent", { move: move.text }));
      last.ctx.submit(move.text);
      return;
    }
    const mine = own();
    const v = last.msg.view;
    const theirs = new Set(v.marbles[COLORS[1 - v.to_move]] || []);
    if (cell && mine.has(cell)) {
      if (selection.includes(cell)) {
        selection = selection.filter((c) => c !== cell);
        if (!isLine(selection)) {
          selection = [];
          status.set(t("board.cleared"));
        } else selectionStatus(selection.length ? t("ab.removed", { cell }) : t("board.cleared"));
      } else if (isLine([...selection, cell])) {
        selection = [...selection, cell];
        selectionStatus();
      } else {
        const why = selection.length >= 3 ? t("ab.maxThree") : t("ab.notInLine", { cell });
        selection = [cell];
        selectionStatus(why);
      }
    } else if (cell && theirs.has(cell)) {
      status.set(selection.length ? t("ab.notYoursKept", { cell, side: side(COLORS[1 - v.to_move]) })
        : t("ab.notYours", { cell, side: side(COLORS[1 - v.to_move]) }), "warn");
    } else if (selection.length) {
      selection = [];
      status.set(cell ? t("ab.noMoveThere", { cell }) : t("board.cleared"), "warn");
    } else {
      status.set(t("ab.pickFirst"), "warn");
    }
    draw();
  }

  function marbleGroup(x, y, colour, extraClass = "") {
    return s("g", { class: "mg" },
      s("circle", { cx: x + 1.5, cy: y + 2.5, r: U * 0.43, fill: "rgba(0,0,0,.35)" }),
      s("circle", { cx: x, cy: y, r: U * 0.43, fill: `url(#ab-${colour})`, class: `marble ${colour}${extraClass}`, "data-marble": colour }));
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    clear(svg);
    svg.append(s("defs", {},
      s("radialGradient", { id: "ab-black", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#6a6a6a" }), s("stop", { offset: "55%", "stop-color": "#202020" }), s("stop", { offset: "100%", "stop-color": "#050505" })),
      s("radialGradient", { id: "ab-white", cx: "35%", cy: "30%", r: "70%" },
        s("stop", { offset: "0%", "stop-color": "#ffffff" }), s("stop", { offset: "60%", "stop-color": "#e4e1da" }), s("stop", { offset: "100%", "stop-color": "#a9a59c" })),
      arrowDefs("ab-arrow"), suggestDefs("ab-suggest")));
    // The board: a hexagon around the corner cells, with a rim for the coordinates.
    const corners = ["a1", "a5", "e9", "i9", "i5", "e1"].map(pos);
    const [cx, cy] = [2 * U, 4 * RY];
    const grow = (p, k) => [cx + (p[0] - cx) * k, cy + (p[1] - cy) * k];
    svg.append(s("polygon", { points: corners.map((p) => grow(p, FRAME).join(",")).join(" "), class: "ab-rim", "stroke-width": 6, "stroke-linejoin": "round" }));
    svg.append(s("polygon", { points: corners.map((p) => grow(p, 1.13).join(",")).join(" "), class: "ab-bed", "stroke-linejoin": "round" }));
    // Coordinates on the rim: row letters along the left edges, diagonal numbers along the bottom.
    const label = (r, n, text) => svg.append(coordLabel(...grow(vpos(r, n), 0.96), text, 18));
    for (let r = 0; r < 9; r++) label(r, Math.max(1, r - 3) - 1, ROWS[r].toUpperCase());
    for (let n = 1; n <= 9; n++) label(Math.max(0, n - 5) - 1, n, String(n));

    const black = new Set(v.marbles.black), white = new Set(v.marbles.white);
    const targets = ctx.interactive ? targetMap() : new Map();
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    const lastMove = lastMove_(v, lastText, last.effect);
    const mine = ctx.interactive ? own() : new Set();

    for (const c of CELLS) {
      const [x, y] = pos(c);
      const g = s("g", { "data-cell": c, class: "cell" });
      g.append(s("circle", { cx: x, cy: y, r: U * 0.5, fill: "transparent" }));
      g.append(s("circle", { cx: x, cy: y, r: U * 0.36, class: "ab-hole" }));
      if (lastMove?.from.has(c)) g.append(lastMark(x, y, U * 0.4, "from"));
      const colour = black.has(c) ? "black" : white.has(c) ? "white" : null;
      if (colour) g.append(marbleGroup(x, y, colour, mine.has(c) ? " clickable" : ""));
      if (lastMove?.to.has(c)) g.append(colour ? movedRing(x, y, U * 0.43) : lastMark(x, y, U * 0.5, "to"));
      if (selection.includes(c)) g.append(selectMark(x, y, U * 0.46));
      if (targets.has(c)) {
        g.classList.add("target");
        g.dataset.move = targets.get(c).text;
        g.dataset.moved = targets.get(c).moved.join(" ");
        g.append(destMark(x, y, U * 0.45, { occupied: !!colour }));
      }
      svg.append(g);
    }
    if (lastMove) {
      const [a, b] = [lastMove.arrowFrom, lastMove.arrowTo];
      svg.append(pathLine([a, b], { arrow: "ab-arrow", width: 5 }));
    }
    svg.dataset.last = lastText || "";
    drawSuggestion(v, ctx.suggest);
    drawScore(v);
  }

  /** A suggested move (``ctx.suggest``: a hint, the review's better move, an engine line): rings
   * round the marbles it moves and a blue arrow the way they go. */
  function drawSuggestion(v, text) {
    svg.dataset.suggest = "";
    if (typeof text !== "string" || !/^([a-i][1-9]){2,3}$/.test(text) || typeof v.to_move !== "number") return;
    const m = describeMove(text, new Set(v.marbles[COLORS[v.to_move]] || []));
    if (m.d < 0) return;
    for (const c of m.moved) svg.append(suggestRing(...pos(c), U * 0.47));
    const ends = [pos(m.moved[0]), pos(m.moved.at(-1))];
    const mid = [(ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2];
    const [r, n] = parse(m.moved[0]);
    const [ax, ay] = vpos(r, n), [bx, by] = vpos(r + DIRS[m.d][0], n + DIRS[m.d][1]);
    svg.append(suggestLine([mid, [mid[0] + (bx - ax) * 0.9, mid[1] + (by - ay) * 0.9]], "ab-suggest", 6));
    svg.dataset.suggest = text;
  }

  /** The cells the last move left and reached, and its arrow (from the middle of the moved line). */
  function lastMove_(v, text, effect) {
    if (!text || !/^([a-i][1-9]){2,3}$/.test(text)) return null;
    const cells = text.match(/[a-i][1-9]/g);
    const mover = typeof v.to_move === "number" ? COLORS[1 - v.to_move] : null;
    const after = new Set(mover ? v.marbles[mover] : [...v.marbles.black, ...v.marbles.white]);
    const d = dirBetween(cells[0], cells.at(-1));
    if (d < 0) return null;
    // After the move, the moved marbles stand one step on from where they were.
    const back = (c) => step(c, (d + 3) % 6);
    let moved;
    if (effect) {
      moved = effect.moved; // known from the position before the move
    } else if (cells.length === 2) {
      moved = [];
      for (let c = cells[1]; c && after.has(c) && moved.length < 3; c = step(c, d)) moved.push(back(c));
    } else {
      moved = describeMove(text, new Set()).moved;
    }
    const to = new Set(moved.map((c) => step(c, d)).filter(Boolean));
    const from = new Set(moved.filter((c) => !to.has(c)));
    const ends = [pos(moved[0]), pos(moved.at(-1))];
    const mid = [(ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2];
    const [dx, dy] = ((p, q) => [q[0] - p[0], q[1] - p[1]])(pos(cells[0]), cells.length === 2 ? pos(cells[1]) : pos(cells[2]));
    return { from, to, arrowFrom: mid, arrowTo: [mid[0] + dx, mid[1] + dy] };
  }

  function drawScore(v) {
    const limit = Number(options.quiet_move_limit) || 0;
    const pips = (n) => h("span", { class: "pips", "aria-hidden": "true" },
      ...Array.from({ length: 6 }, (_, i) => icon(i < n ? "marble" : "ring")));
    clear(scoreBox).append(h("dl", { class: "body kv" },
      ...COLORS.flatMap((c) => [
        h("dt", { text: t("ab.pushedOut", { side: side(c) }) }),
        h("dd", { "data-score": c }, pips(v.pushed_out[c]), ` ${v.pushed_out[c]}/6`),
      ]),
      // Only under the quiet-move rule is the count worth showing (the game is drawn at the limit).
      limit ? h("dt", { text: t("ab.quiet") }) : null,
      limit ? h("dd", { id: "abalone-quiet", text: t("ab.quietOf", { n: v.quiet, limit }) }) : null));
  }

  function animate() {
    const { msg, effect } = last;
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    if (!effect) return;
    runAnimations(svg, `${msg.ply} ${lastText}`, () => {
      const out = [];
      const shift = (from, to) => {
        const g = svg.querySelector(`[data-cell="${to}"]`);
        const mg = g?.querySelector(".mg");
        if (!mg) return;
        svg.append(g); // above the other cells while it slides
        const [fx, fy] = pos(from), [tx, ty] = pos(to);
        out.push(slideFrom(mg, [fx - tx, fy - ty]));
      };
      for (const c of effect.moved) shift(c, step(c, effect.d));
      for (const c of effect.pushed) {
        const to = step(c, effect.d);
        if (to) {
          shift(c, to);
          continue;
        }
        // Pushed over the edge: a stand-in marble leaves the board and drops away.
        const [r, n] = parse(c);
        const [x, y] = pos(c);
        const [ox, oy] = vpos(r + DIRS[effect.d][0], n + DIRS[effect.d][1]);
        const ghost = marbleGroup(x, y, effect.other);
        ghost.classList.add("ejected");
        svg.append(ghost);
        out.push(fallOff(ghost, [ox - x, oy - y]));
      }
      const arrow = svg.querySelector(".last-path");
      if (arrow) svg.append(arrow); // the arrow stays on top of the marbles that moved
      return out;
    });
  }

  return {
    render(msg, ctx) {
      const prevView = last?.msg.view;
      const orientation = ctx.orientation ?? ctx.seat ?? 0;
      const turned = flip !== (orientation === 1);
      flip = orientation === 1;
      const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
      // The move's marbles, when the previous position is the one right before it.
      const effect = prevView === msg.view ? last.effect : moveEffect(prevView, msg.view, lastText);
      last = { msg, ctx, effect };
      if (ctx.fresh || !ctx.interactive) selection = [];
      draw();
      if (ctx.fresh && !turned && effect && prevView !== msg.view) animate();
      if (ctx.pending) status.set(t("board.sent", { move: ctx.pending }));
      else if (ctx.interactive && ctx.fresh) status.set(t("ab.hint", { example: last.msg.legal?.[0] || "a1b2" }));
      else if (ctx.interactive && !selection.length && !status.node.textContent) status.set(t("ab.hint", { example: last.msg.legal?.[0] || "a1b2" }));
      else if (!ctx.interactive) status.set("");
    },
  };
}
