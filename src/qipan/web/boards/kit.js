// Shared board helpers: coordinate labels, destination and last-move marks, a status line under
// the board, forgiving hit tests, SVG icons and move animations.
//
// Colours of the marks come from CSS classes (css/style.css, "board kit"), so both themes and the
// e2e contrast check read them from one place. Animations use the Web Animations API on SVG
// groups (a CSS translate in an SVG element's user units) and are skipped entirely when the
// reader asked for reduced motion.
import { h, s, svgRoot } from "../js/dom.js";
import { sideName } from "../js/gamewords.js";
import { t } from "../js/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// -- marks -----------------------------------------------------------------------------------------

/** Where the selection can go: a dot on an empty cell, a double ring around an occupied one
 * (a push or a capture). ``r`` is the cell's radius in board units. */
export function destMark(x, y, r, { occupied = false } = {}) {
  if (occupied) {
    return s("g", { class: "dest", "pointer-events": "none" },
      s("circle", { cx: x, cy: y, r: r * 0.98, class: "dest-ring-outer" }),
      s("circle", { cx: x, cy: y, r: r * 0.98, class: "dest-ring" }));
  }
  return s("circle", { cx: x, cy: y, r: r * 0.42, class: "dest dest-dot", "pointer-events": "none" });
}

/** The last move: ``"from"`` rings a cell a piece left, ``"to"`` tints the cell it reached. */
export function lastMark(x, y, r, kind) {
  return s("circle", { cx: x, cy: y, r: kind === "to" ? r : r * 0.9, class: `last-${kind}`, "pointer-events": "none" });
}

/** A piece the last move moved: a bright ring inside a dark one, drawn over the piece, so it
 * reads on a white or a black piece and on either theme. */
export function movedRing(x, y, r) {
  return s("g", { class: "last-moved", "pointer-events": "none" },
    s("circle", { cx: x, cy: y, r, class: "last-ring-outer" }),
    s("circle", { cx: x, cy: y, r, class: "last-ring-inner" }));
}

/** The ring around a selected piece. */
export function selectMark(x, y, r) {
  return s("circle", { cx: x, cy: y, r, class: "selected", "pointer-events": "none" });
}

/** Arrow heads for ``pathLine`` (put once in the board's <defs>). */
export function arrowDefs(id) {
  return s("marker", { id, viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse" },
    s("path", { d: "M0,0 L10,5 L0,10 z", class: "last-arrow-head" }));
}

/** Arrow heads for a suggested move (a hint, the review's better move, an engine line). */
export function suggestDefs(id) {
  return s("marker", { id, viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse" },
    s("path", { d: "M0,0 L10,5 L0,10 z", class: "suggest-arrow-head" }));
}

/** A suggested move's route (blue, dashed, under a dark edge so it reads on both themes): the
 * boards draw ``ctx.suggest``, a notation string, with it. */
export function suggestLine(points, arrow, width = 7) {
  return suggestPath(`M${points.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" L")}`, arrow, width);
}

/** ``suggestLine`` along any SVG path ``d`` (an arc round a ring, a curve over a row);
 * ``both``: an arrow head at each end (a swap). */
export function suggestPath(d, arrow, width = 7, { both = false } = {}) {
  const attrs = (cls, w) => ({ d, class: cls, fill: "none", "stroke-width": w, "stroke-linecap": "round", "stroke-linejoin": "round" });
  return s("g", { class: "suggest", "pointer-events": "none" },
    s("path", attrs("suggest-edge", width + 4)),
    s("path", { ...attrs("suggest-path", width), "marker-end": `url(#${arrow})`, "marker-start": both ? `url(#${arrow})` : undefined }));
}

/** A ring round a piece a suggested move moves. */
export function suggestRing(x, y, r) {
  return s("circle", { cx: x, cy: y, r, class: "suggest-ring", "pointer-events": "none" });
}

/** A dashed blue frame round a square cell, card or stone a suggested move uses (a dark edge
 * under it, like ``suggestPath``); ``at`` names it for the page and tests (data-at). */
export function suggestFrame(x, y, w, hgt, at, { rx = 8 } = {}) {
  const rect = (cls, width) => s("rect", { x, y, width: w, height: hgt, rx, class: cls, fill: "none", "stroke-width": width });
  return s("g", { class: "suggest suggest-mark", "data-at": at, "pointer-events": "none" }, rect("suggest-edge", 8), rect("suggest-frame", 4.5));
}

/** A dashed blue ring (over a dark one) round a round cell or stone a suggested move uses. */
export function suggestCircle(x, y, r, at) {
  const ring = (cls, width) => s("circle", { cx: x, cy: y, r, class: cls, fill: "none", "stroke-width": width });
  return s("g", { class: "suggest suggest-mark", "data-at": at, "pointer-events": "none" }, ring("suggest-edge", 8), ring("suggest-frame", 4.5));
}

/** The short legend beside a board that draws a suggestion: a swatch of the blue dashes and the
 * move in words (``text``), so the picture says what it is; the page's own text (the hint line,
 * the review panel, the engine lines) stays what a screen reader announces. */
export function suggestNote(text, id) {
  const swatch = svgRoot(0, 0, 28, 14, { width: 28, height: 14, "aria-hidden": "true", class: "suggest-swatch" });
  swatch.append(s("path", { d: "M2,7 H20", class: "suggest-edge", "stroke-width": 6, fill: "none", "stroke-linecap": "round" }),
    s("path", { d: "M2,7 H20", class: "suggest-path", "stroke-width": 3, fill: "none", "stroke-dasharray": "5 3" }),
    s("path", { d: "M19,2 L27,7 L19,12 z", class: "suggest-arrow-head" }));
  return h("p", { class: "suggest-note", id, "data-move": text }, swatch, h("span", { text: t("board.suggest", { move: text }) }));
}

/** A route through ``points`` ([x, y] each) ending in an arrow; ``cls`` styles it. */
export function pathLine(points, { cls = "last-path", arrow = null, width = 6 } = {}) {
  return s("polyline", {
    points: points.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" "), class: cls, fill: "none",
    "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none",
    "marker-end": arrow ? `url(#${arrow})` : undefined,
  });
}

/** A coordinate label centred at (x, y); ``size`` in board units (make it ≥ 12 px on a phone). */
export function coordLabel(x, y, text, size) {
  return s("text", { x, y: y + size * 0.36, class: "coord", "text-anchor": "middle", "font-size": size, text });
}

// -- status line and hit tests ---------------------------------------------------------------------

/** A polite live line under the board saying what the last click did. */
export function statusLine(host, id) {
  const node = h("p", { class: "board-status", id, role: "status", "aria-live": "polite" });
  host.append(node);
  return {
    node,
    set(text, tone = "") {
      node.textContent = text || "";
      node.dataset.tone = tone;
    },
  };
}

/** For a click on a board that is not taking moves: says why on ``status`` (watching, or not
 * your turn; nothing while a move is on its way or once the game is over). True if the board
 * was idle, so the click is done with. ``last`` is the board's last {msg, ctx}. */
export function idleClick(last, status) {
  if (!last) return true;
  const { ctx, msg } = last;
  if (ctx.editing) return true; // the analysis board's editor takes the clicks
  if (ctx.interactive) return false;
  if (!msg.result && !ctx.pending) {
    status.set(ctx.seat === null || ctx.seat === undefined ? t("board.watching") : t("board.notYourTurn"), "warn");
  }
  return true;
}

/** The SVG user-space point under a pointer event. */
export function svgPoint(svg, ev) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
  return [p.x, p.y];
}

/** The cell nearest to a click, if one lies within ``reach`` board units: a tap between holes
 * still picks the hole it is nearest to. ``cells`` is an iterable of [name, [x, y]]. */
export function nearestCell(svg, ev, cells, reach) {
  const p = svgPoint(svg, ev);
  if (!p) return null;
  let best = null, bestD = reach * reach;
  for (const [name, [x, y]] of cells) {
    const d = (x - p[0]) ** 2 + (y - p[1]) ** 2;
    if (d <= bestD) {
      best = name;
      bestD = d;
    }
  }
  return best;
}

// -- icons -------------------------------------------------------------------------------------------

const ICONS = {
  first: "M5 4h2v16H5zM19 4v16L8 12z",
  prev: "M17 4v16L6 12z",
  next: "M7 4v16l11-8z",
  last: "M17 4h2v16h-2zM5 4v16l11-8z",
  close: "M6 4.6 12 10.6l6-6L19.4 6l-6 6 6 6-1.4 1.4-6-6-6 6L4.6 18l6-6-6-6z",
  flip: "M7 3 3 7h3v10h2V7h3zM17 21l4-4h-3V7h-2v10h-3z",
  shield: "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5z",
  marble: "M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16z",
  ring: "M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16zm0 2.5a5.5 5.5 0 1 1 0 11a5.5 5.5 0 1 1 0-11z",
};

/** A small inline SVG icon for HTML (buttons, scores), drawn in the current text colour; never a
 * rare Unicode glyph a font may lack. ``label`` makes it an image with that name. */
export function icon(name, { label = null, size = "1em", cls = "" } = {}) {
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: size, height: size, class: `icon ${cls}`.trim(), fill: "currentColor" })) svg.setAttribute(k, v);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.append(s("path", { d: ICONS[name] || ICONS.marble, "fill-rule": "evenodd" }));
  return svg;
}

// -- animation ---------------------------------------------------------------------------------------

/** Whether the reader asked for reduced motion (then boards draw the new position at once). */
export function reducedMotion() {
  return !!globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/** Run the animations ``start()`` makes (an array of Animation objects) on ``svg``, marking it
 * ``data-animating`` until they end and ``data-animated`` with ``label`` afterwards (boards use
 * "<ply> <move>"), so tests and the page can tell a move's animation has finished. Reduced
 * motion: nothing runs. */
export function runAnimations(svg, label, start) {
  if (reducedMotion() || typeof Element.prototype.animate !== "function") {
    svg.dataset.animated = label;
    return Promise.resolve();
  }
  const animations = start().filter(Boolean);
  svg.dataset.animating = label;
  const token = (svg._animToken = (svg._animToken || 0) + 1);
  return Promise.allSettled(animations.map((a) => a.finished)).then(() => {
    if (svg._animToken !== token) return;
    delete svg.dataset.animating;
    svg.dataset.animated = label;
  });
}

/** Move ``node`` from offset ``[dx, dy]`` (board units) back to where it is drawn. */
export function slideFrom(node, [dx, dy], { duration = 220, delay = 0 } = {}) {
  return node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
    { duration, delay, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
}

/** Move ``node`` through ``offsets`` (board units from where it is drawn, the last one [0, 0]),
 * rising a little between them like a hop; ``hop`` ms per leg. */
export function hopThrough(node, offsets, { hop = 170, lift = 1.18 } = {}) {
  const frames = [];
  offsets.forEach(([dx, dy], i) => {
    if (i > 0) {
      const [px, py] = offsets[i - 1];
      frames.push({ transform: `translate(${(px + dx) / 2}px, ${(py + dy) / 2}px) scale(${lift})` });
    }
    frames.push({ transform: `translate(${dx}px, ${dy}px) scale(1)` });
  });
  node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  return node.animate(frames, { duration: hop * Math.max(1, offsets.length - 1), easing: "ease-in-out", fill: "backwards" });
}

/** A marble pushed over the edge: it slides ``[dx, dy]`` off the board, then drops away (shrinks
 * and fades); the node is removed at the end. */
export function fallOff(node, [dx, dy], { duration = 650, delay = 0 } = {}) {
  node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  const a = node.animate([
    { transform: "translate(0px, 0px) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(1)`, opacity: 1, offset: 0.35 },
    { transform: `translate(${dx * 1.25}px, ${dy * 1.25 + 30}px) scale(.35)`, opacity: 0 },
  ], { duration, delay, easing: "ease-in", fill: "both" });
  a.finished.then(() => node.remove(), () => node.remove());
  return a;
}

/** Fade ``node`` out (a captured piece) after ``delay`` ms; it is removed at the end. */
export function fadeOut(node, { duration = 260, delay = 0 } = {}) {
  const a = node.animate([{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(.5)" }],
    { duration, delay, easing: "ease-in", fill: "both" });
  node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  a.finished.then(() => node.remove(), () => node.remove());
  return a;
}

/** Turn ``node`` over (a card or stone flipping onto its new face): it narrows to an edge and
 * opens again, about its own centre. */
export function flipIn(node, { duration = 320, delay = 0 } = {}) {
  node.style.transformBox = "fill-box";
  node.style.transformOrigin = "center";
  return node.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }],
    { duration, delay, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
}

// -- dice and keyboard (Kelighine, Sheng-Ke) ---------------------------------------------------------

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** A die face centred at (x, y), ``size`` wide, with ``n`` pips (1..6; another number is written). */
export function dieFace(x, y, size, n, { fill = "#f4efe2", pip = "#222", stroke = "rgba(0,0,0,.45)", dash = false } = {}) {
  const g = s("g", { class: "die" });
  g.append(s("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size * 0.2, fill, stroke,
    "stroke-width": Math.max(1, size * 0.07), "stroke-dasharray": dash ? `${size * 0.16} ${size * 0.1}` : undefined }));
  const spots = PIPS[n];
  if (!spots) {
    g.append(s("text", { x, y: y + size * 0.18, "text-anchor": "middle", "font-size": size * 0.5, fill: pip, "font-weight": 700, text: String(n) }));
    return g;
  }
  for (const [i, j] of spots) g.append(s("circle", { cx: x + i * size * 0.26, cy: y + j * size * 0.26, r: size * 0.1, fill: pip }));
  return g;
}

/** Make an SVG group a keyboard control: focusable, a button to assistive technology, Enter and
 * Space do ``action``. */
export function activate(node, label, action) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    ev.stopPropagation();
    action();
  });
  return node;
}

/** Who plays seat ``i`` of an update or replay frame: the nickname, else the side in the page's
 * language (as the players panel says it). */
export function seatLabel(msg, i) {
  const seat = msg?.seats?.[i];
  if (!seat) return t("game.player", { n: Number(i) + 1 });
  return seat.side && seat.name !== seat.side ? seat.name : sideName(seat.side ?? seat.name);
}
