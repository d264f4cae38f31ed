// 生剋棋 Sheng-Ke: the 5×5 field, your hand, dice, decks and the resolution log.
// Click a card in your hand, then a highlighted cell; element picks (for a 6) are buttons.
import { clear, h, s, svgRoot } from "../js/dom.js";
import { t } from "../js/i18n.js";
import { activate, dieFace, flipIn, runAnimations, suggestFrame, suggestNote } from "./kit.js";

const ELEMENTS = {
  wood: { cn: "木", fill: "#2f7d3b", text: "#eaf7e6" },
  fire: { cn: "火", fill: "#c0392b", text: "#fff1ec" },
  earth: { cn: "土", fill: "#b7862c", text: "#fff8e6" },
  metal: { cn: "金", fill: "#b9bec4", text: "#222" },
  water: { cn: "水", fill: "#24466e", text: "#e6f0ff" },
};
const DIE_ELEMENT = ["", "wood", "fire", "earth", "metal", "water", "any"];
const OWNER = ["#e2b13c", "#7c5cc4"];
const COLS = "abcde";
const U = 100;
// What each resolution event means for the picture: its string key, arrow colour and direction,
// and which card it destroyed (the placed card "self", the other one "other", or none).
const EVENTS = {
  行剋: { key: "sk.ev.strike", color: "#e03131", forward: true, destroys: "other" },
  剋行: { key: "sk.ev.struck", color: "#e03131", forward: false, destroys: "self" },
  行生: { key: "sk.ev.feed", none: "sk.ev.feedNone", color: "#2f9e44", forward: true },
  生行: { key: "sk.ev.fed", none: "sk.ev.fedNone", color: "#2f9e44", forward: false },
};

export const aspect = 1;
/** Room kept under the board (rem) so the hand stays on screen. */
export const reserve = 17;

export function seatColor(_view, i) {
  return OWNER[i % 2];
}

/** Cards on the field, plus the first player's bonus ("4+2", as the panel's "first player
 * bonus +2" says; "4 (6)" left players guessing what the 6 was). */
export function score(view, i) {
  const p = view?.players?.[i];
  return p ? `${p.on_field}${p.score > p.on_field ? `+${p.score - p.on_field}` : ""}` : null;
}

/** After the last turn, more cards on the field wins, the first player adding the bonus
 * (js/result.js). */
export function explainResult(view, _result, { nameOf }) {
  const [a, b] = view.players || [];
  if (!a || !b) return "";
  const words = { turns: view.turns, p0: nameOf(0), p1: nameOf(1), a: a.on_field, b: b.on_field, sa: a.score, sb: b.score };
  return typeof view.first === "number" && view.first_bonus
    ? t("sk.how", { ...words, first: nameOf(view.first), bonus: view.first_bonus }) : t("sk.howPlain", words);
}

const elementName = (el) => (ELEMENTS[el] ? `${ELEMENTS[el].cn} ${t(`sk.${el}`)}` : t("sk.any"));

function eventText(e) {
  const meaning = EVENTS[e.kind];
  if (!meaning) return e.text;
  const empty = (e.kind === "行生" && e.recycled === null) || (e.kind === "生行" && e.drew === false);
  return t(empty && meaning.none ? meaning.none : meaning.key,
    { card: e.card?.name, cell: e.cell, other: e.other?.name, otherCell: e.other_cell });
}

export function log(view) {
  return (view.events || []).map(eventText);
}

/** "capture" when a card left the field (destroyed), else "move". */
export function moveSound(prev, view) {
  const before = Object.entries(prev?.field || {});
  const now = view?.field || {};
  return before.some(([cell, card]) => now[cell]?.id !== card.id || now[cell]?.owner !== card.owner) ? "capture" : "move";
}

/** A card, text upright for everyone; a notch on its front edge (towards its owner's opponent)
 * shows which way its ranges point. ``front``: -1 up, 1 down. */
function cardFace(card, { w, x = 0, y = 0, front = -1 }) {
  const el = ELEMENTS[card.element] || ELEMENTS.metal;
  const g = s("g", { transform: `translate(${x},${y})`, class: "sk-card" });
  const notchY = front < 0 ? 3 : w - 3;
  g.append(
    s("rect", { x: 3, y: 3, width: w - 6, height: w - 6, rx: 8, fill: el.fill, stroke: OWNER[card.owner % 2], "stroke-width": 5 }),
    s("path", { d: `M${w / 2 - w * 0.11},${notchY - front * w * 0.1} L${w / 2},${notchY} L${w / 2 + w * 0.11},${notchY - front * w * 0.1} Z`, fill: OWNER[card.owner % 2], class: "sk-front" }),
    s("text", { x: w / 2, y: w * 0.42, "text-anchor": "middle", "font-size": w * 0.28, fill: el.text, text: el.cn }),
    s("text", { x: w / 2, y: w * 0.65, "text-anchor": "middle", "font-size": w * 0.19, fill: el.text, text: card.name }),
    s("text", { x: w * 0.12, y: w * 0.9, "font-size": w * 0.19, fill: el.text, text: String(card.in), "font-weight": 700 }),
    s("text", { x: w * 0.88, y: w * 0.9, "text-anchor": "end", "font-size": w * 0.19, fill: el.text, text: String(card.out), "font-weight": 700 }),
  );
  return g;
}

const isChance = (mv) => mv.player === "chance" || typeof mv.player !== "number" || mv.player < 0;

/** The cells of the newest turn that placed cards: its player's placements back to its roll. */
export function lastPlaced(moves) {
  let i = moves.length - 1;
  while (i >= 0 && !(moves[i].text || "").includes("@")) i--;
  if (i < 0) return [];
  const player = moves[i].player;
  const cells = [];
  for (; i >= 0 && !isChance(moves[i]) && moves[i].player === player; i--) {
    if (moves[i].text.includes("@")) cells.push(moves[i].text.split("@")[1]);
  }
  return cells;
}

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null; // card id from the hand
  let history = []; // the public moves as far as this board knows them
  let shownField = null; // the field drawn last, to flip new cards in
  const svg = svgRoot(0, 0, 5.6 * U, 5.6 * U, { role: "group", "aria-label": t("sk.field") });
  host.append(svg);
  const handBox = h("section", { class: "panel", id: "sk-hand" });
  const tableBox = h("section", { class: "panel", id: "sk-table" });
  const legend = h("section", { class: "panel", id: "sk-legend" });
  extra.append(handBox, tableBox, legend);
  let flip = false;

  // Seat 0 (甲) sits at row 1, seat 1 (乙) at row 5: each sees their own row at the bottom.
  const pos = (cell) => {
    const c = COLS.indexOf(cell[0]);
    const r = Number(cell.slice(1)) - 1;
    return flip ? [(4 - c) * U + 0.4 * U, r * U + 0.1 * U] : [c * U + 0.4 * U, (4 - r) * U + 0.1 * U];
  };

  function place(cell) {
    if (!last || !last.ctx.interactive) return;
    if (cell && selected) {
      const text = `${selected}@${cell}`;
      if (last.msg.legal.includes(text)) return submit(text);
    }
    selected = null;
    draw();
  }
  svg.addEventListener("click", (ev) => {
    const node = ev.target.closest("[data-cell]");
    place(node ? node.dataset.cell : null);
  });

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function follow(msg) {
    if (msg.type === "frame" || msg.first === undefined) history = (msg.moves || []).slice(0, msg.ply ?? undefined);
    else if (msg.first === 0) history = (msg.moves || []).slice();
    else if (msg.first <= history.length) history = history.slice(0, msg.first).concat(msg.moves || []);
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const me = ctx.orientation ?? ctx.seat ?? seat ?? 0;
    flip = me === 1;
    const legal = ctx.interactive ? msg.legal : [];
    clear(svg);
    const targets = new Set(selected ? legal.filter((x) => x.startsWith(`${selected}@`)).map((x) => x.split("@")[1]) : []);
    const placedNow = (v.placed || []).map((p) => (typeof p === "string" ? p : p.cell));
    const recent = new Set(placedNow.length ? placedNow : lastPlaced(history));
    const destroyed = new Map(); // cell -> {card, event}
    for (const e of v.events || []) {
      const meaning = EVENTS[e.kind];
      if (meaning?.destroys === "other" && !v.field?.[e.other_cell]) destroyed.set(e.other_cell, { card: e.other, e });
      if (meaning?.destroys === "self" && !v.field?.[e.cell]) destroyed.set(e.cell, { card: e.card, e });
    }
    svg.append(s("defs", {}, ["#e03131", "#2f9e44"].map((c, i) => s("marker", { id: `sk-arrow-${i}`, viewBox: "0 0 10 10", refX: "6", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto" },
      s("path", { d: "M0,0 L10,5 L0,10 z", fill: c, stroke: "#fff", "stroke-width": 1 })))));
    svg.append(s("rect", { x: 0.3 * U, y: 0, width: 5.2 * U, height: 5.2 * U, rx: 14, fill: "#3a2f25" }));
    const fresh = [];
    const overlays = [];
    for (let c = 0; c < 5; c++) {
      for (let r = 1; r <= 5; r++) {
        const cell = `${COLS[c]}${r}`;
        const [x, y] = pos(cell);
        const g = s("g", { "data-cell": cell, class: "cell" });
        g.append(s("rect", { x: x + 4, y: y + 4, width: U - 8, height: U - 8, rx: 8, fill: "#5a4a3a", stroke: "#6e5b47", "stroke-width": 1 }));
        const card = v.field?.[cell];
        if (card) {
          const owner = card.owner;
          const face = s("g", { "data-card": card.id, "data-owner": owner },
            s("title", { text: t("sk.cardTitle", { name: card.name, element: elementName(card.element), in: card.in, out: card.out, owner: (v.players?.[owner]?.name) ?? "" }) }),
            cardFace(card, { w: U, x, y, front: (owner === 0) !== flip ? -1 : 1 }));
          g.append(face);
          const before = shownField?.[cell];
          if (ctx.fresh && shownField && (!before || before.id !== card.id || before.owner !== owner)) fresh.push(face);
        } else if (destroyed.has(cell)) {
          const { card: gone, e } = destroyed.get(cell);
          const ghost = s("g", { class: "destroyed", "data-destroyed": gone.id, opacity: 0.4 },
            s("title", { text: t("sk.destroyedTitle", { card: gone.name, how: eventText(e) }) }), cardFace(gone, { w: U, x, y }));
          g.append(ghost, s("path", { d: `M${x + 18},${y + 18} L${x + U - 18},${y + U - 18} M${x + U - 18},${y + 18} L${x + 18},${y + U - 18}`, stroke: "#e03131", "stroke-width": 7, "stroke-linecap": "round", "pointer-events": "none", class: "destroyed-mark" }));
        }
        if (recent.has(cell) && card) {
          // Drawn over the card so it shows: the last turn's placements.
          overlays.push(s("rect", { x: x + 1, y: y + 1, width: U - 2, height: U - 2, rx: 10, fill: "none", stroke: "#fff", "stroke-width": 7, "pointer-events": "none", class: "last-move-outer" }),
            s("rect", { x: x + 1, y: y + 1, width: U - 2, height: U - 2, rx: 10, fill: "none", stroke: "#9bc700", "stroke-width": 4, "pointer-events": "none", class: "last-move", "data-last": cell }));
        }
        if (targets.has(cell)) {
          g.classList.add("target");
          g.append(s("circle", { cx: x + U / 2, cy: y + U / 2, r: U * 0.2, fill: "#1f9d3a", stroke: "#fff", "stroke-width": 4, class: "pulse", "pointer-events": "none" }));
          activate(g, cell, () => place(cell));
        }
        svg.append(g);
      }
    }
    svg.append(...overlays);
    for (const e of v.events || []) {
      const meaning = EVENTS[e.kind];
      if (!meaning || !e.other_cell || !e.cell) continue;
      const [a, b] = meaning.forward ? [e.cell, e.other_cell] : [e.other_cell, e.cell];
      const [x0, y0] = pos(a), [x1, y1] = pos(b);
      const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy) || 1;
      const trim = 0.3 * U;
      svg.append(s("line", { x1: x0 + U / 2 + dx / len * trim, y1: y0 + U / 2 + dy / len * trim, x2: x1 + U / 2 - dx / len * trim, y2: y1 + U / 2 - dy / len * trim,
        stroke: meaning.color, "stroke-width": 6, "stroke-linecap": "round", "marker-end": `url(#sk-arrow-${meaning.color === "#e03131" ? 0 : 1})`,
        class: "sk-event", "data-kind": e.kind, "pointer-events": "none" }));
    }
    for (let c = 0; c < 5; c++) {
      const [x] = pos(`${COLS[c]}1`);
      svg.append(s("text", { x: x + U / 2, y: 5.45 * U, "text-anchor": "middle", class: "coord", "font-size": 20, text: COLS[c] }));
    }
    for (let r = 1; r <= 5; r++) {
      const [, y] = pos(`a${r}`);
      svg.append(s("text", { x: 0.17 * U, y: y + U / 2 + 7, "text-anchor": "middle", class: "coord", "font-size": 20, text: String(r) }));
    }
    const suggestion = drawSuggestion(v, ctx.suggest);
    if (fresh.length) runAnimations(svg, `ply ${msg.ply ?? ""}`, () => fresh.map((node, i) => flipIn(node, { delay: i * 120 })));
    shownField = v.field || {};
    drawHand(v, legal, me, suggestion);
    drawTable(v);
    drawLegend();
  }

  /** The hand this page sees (its own seat's), or null. */
  function handOf(v) {
    const mine = last.ctx.seat ?? seat;
    return mine !== null && mine !== undefined ? v.players?.[mine]?.hand ?? null : null;
  }

  /** A suggested move (``ctx.suggest``: a hint, the review's better move, an engine line): a
   * placement frames its cell in blue dashes with the card faint inside (the card itself when
   * this page sees it in the hand, else its element's colour and its id) and frames the card in
   * the hand; an element pick frames its button. {text, card, cell, said}, or null. */
  function drawSuggestion(v, text) {
    svg.dataset.suggest = "";
    if (typeof text !== "string" || !text) return null;
    const [card, cell] = text.split("@");
    if (!cell) {
      const el = text.startsWith("pick ") ? text.split(" ")[1] : null;
      svg.dataset.suggest = text;
      return { text, said: ELEMENTS[el] ? `${text} (${t("sk.pick", { element: elementName(el) })})` : text };
    }
    if (!/^[a-e][1-5]$/.test(cell)) return null;
    const [x, y] = pos(cell);
    const known = handOf(v)?.find((c) => c.id === card);
    if (!v.field?.[cell]) {
      const ghost = s("g", { class: "suggest-card", opacity: 0.6, "pointer-events": "none" });
      if (known) {
        ghost.append(cardFace(known, { w: U, x, y, front: (known.owner === 0) !== flip ? -1 : 1 }));
      } else {
        const el = ELEMENTS[card.replace(/\d+$/, "")];
        ghost.append(s("rect", { x: x + 6, y: y + 6, width: U - 12, height: U - 12, rx: 8, fill: el?.fill ?? "#5a4a3a" }),
          s("text", { x: x + U / 2, y: y + U * 0.45, "text-anchor": "middle", "font-size": U * 0.28, fill: el?.text ?? "#fff", text: el?.cn ?? "?" }),
          s("text", { x: x + U / 2, y: y + U * 0.75, "text-anchor": "middle", "font-size": U * 0.18, fill: el?.text ?? "#fff", text: card.slice(0, 8) }));
      }
      svg.append(ghost);
    }
    svg.append(suggestFrame(x + 1, y + 1, U - 2, U - 2, cell, { rx: 10 }));
    svg.dataset.suggest = text;
    return { text, card, cell, said: `${text} (${t("sk.placeOn", { card: known?.name ?? card, cell })})` };
  }

  function drawHand(v, legal, me, suggestion) {
    const mine = last.ctx.seat ?? seat;
    const player = mine !== null && mine !== undefined ? v.players?.[mine] : null;
    const note = suggestion ? suggestNote(suggestion.said, "sk-suggest-note") : null;
    clear(handBox);
    if (!player || !player.hand) {
      handBox.append(h("header", {}, h("span", { text: t("sk.hands") })),
        h("div", { class: "body hint", text: (v.players || []).map((p) => t("sk.handCount", { name: p.name, n: p.hand_size })).join(" · ") }),
        note ? h("div", { class: "body" }, note) : "");
      return;
    }
    const playable = new Set(legal.filter((x) => x.includes("@")).map((x) => x.split("@")[0]));
    const cards = (player.hand || []).map((card) => {
      const on = selected === card.id;
      const svgCard = svgRoot(0, 0, 90, 90, { width: 72, height: 72, "aria-hidden": "true" });
      svgCard.append(cardFace(card, { w: 90, front: (me === mine) ? -1 : 1 }));
      return h("button", {
        type: "button", class: `btn small sk-hand-card${on ? " on" : ""}${card.id === suggestion?.card ? " suggest-target" : ""}`,
        "data-hand": card.id, disabled: !playable.has(card.id),
        title: t("sk.cardTitle", { name: card.name, element: elementName(card.element), in: card.in, out: card.out, owner: player.name }),
        "aria-pressed": on ? "true" : "false",
        onclick: () => { selected = on ? null : card.id; draw(); },
      }, svgCard);
    });
    const picks = legal.filter((x) => !x.includes("@")).map((x) => {
      const el = x.split(" ")[1];
      return h("button", { type: "button", class: `btn${x === suggestion?.text ? " suggest-target" : ""}`, "data-move": x, onclick: () => submit(x) },
        x.startsWith("pick") && ELEMENTS[el] ? t("sk.pick", { element: elementName(el) }) : x);
    });
    handBox.append(h("header", {}, h("span", { text: t("sk.yourHand", { n: player.hand_size }) }),
      h("span", { text: playable.size ? (selected ? t("sk.hintCell") : t("sk.hintCard")) : "" })),
    h("div", { class: "body actions" }, cards.length ? cards : h("span", { class: "empty", text: t("sk.noCards") }), picks),
    note ? h("div", { class: "body" }, note) : "");
  }

  function drawTable(v) {
    const dice = (v.dice || []).map((d) => {
      const el = DIE_ELEMENT[d];
      const icon = svgRoot(0, 0, 20, 20, { width: 22, height: 22, "aria-hidden": "true" });
      icon.append(dieFace(10, 10, 18, d));
      return h("span", { class: "tag sk-die", title: t("sk.die", { n: d, element: elementName(el) }), style: `background:${ELEMENTS[el]?.fill || "#555"};color:${ELEMENTS[el]?.text || "#fff"}` },
        icon, " ", ELEMENTS[el]?.cn || t("sk.any"));
    });
    const rows = (v.players || []).map((p, i) => h("tr", { "data-seat": i },
      h("td", {}, h("span", { class: "swatch", style: `display:inline-block;width:.8em;height:.8em;border-radius:50%;background:${OWNER[i % 2]};margin-right:.4em` }), p.name),
      h("td", { text: String(p.hand_size) }),
      h("td", { text: Object.entries(p.decks || {}).map(([el, d]) => `${ELEMENTS[el]?.cn || el}${d.size}`).join(" ") }),
      h("td", { text: String((p.discard || []).length) }),
      h("td", { text: String(p.on_field) })));
    const events = (v.events || []).map((e) => h("li", { "data-kind": e.kind, text: eventText(e) }));
    clear(tableBox).append(...[h("header", {}, h("span", { text: t("sk.turnOf", { n: Math.min((v.turn ?? 0) + 1, v.turns), total: v.turns }) }),
      h("span", { class: "actions" }, dice, (v.todo || []).length ? h("span", { class: "hint", text: t("sk.toPlace", { elements: v.todo.map((e) => ELEMENTS[e]?.cn || e).join(" ") }) }) : null)),
    h("table", { class: "list" }, h("tr", {}, ["sk.colPlayer", "sk.colHand", "sk.colDecks", "sk.colDiscard", "sk.colField"].map((k) => h("th", { text: t(k) }))), rows),
    events.length ? h("div", { class: "body" }, h("strong", { class: "hint", text: t("sk.lastEvents") }), h("ul", { class: "sk-events" }, events)) : null,
    h("p", { class: "hint", style: "padding:0 .7rem", text: `${t("sk.bonus", { n: v.first_bonus })} · ${t("sk.cycles")}` })].filter(Boolean));
  }

  function drawLegend() {
    if (legend.firstChild) return;
    const mini = (...children) => {
      const node = svgRoot(0, 0, 24, 24, { width: 24, height: 24, "aria-hidden": "true" });
      node.append(...children);
      return node;
    };
    legend.append(h("header", {}, h("span", { text: t("sk.legendTitle") })),
      h("ul", { class: "body sk-legend" },
        h("li", {}, mini(s("rect", { x: 3, y: 3, width: 18, height: 18, rx: 3, fill: "#5a4a3a", stroke: "#9bc700", "stroke-width": 3 })), h("span", { text: t("sk.legendPlaced") })),
        h("li", {}, mini(s("rect", { x: 3, y: 3, width: 18, height: 18, rx: 3, fill: "#c0392b", opacity: 0.4 }), s("path", { d: "M6,6 L18,18 M18,6 L6,18", stroke: "#e03131", "stroke-width": 3 })), h("span", { text: t("sk.legendDestroyed") })),
        h("li", {}, mini(s("path", { d: "M3,12 H17 M13,7 L20,12 L13,17", stroke: "#e03131", "stroke-width": 3, fill: "none" })), h("span", { text: t("sk.legendStrike") })),
        h("li", {}, mini(s("path", { d: "M3,12 H17 M13,7 L20,12 L13,17", stroke: "#2f9e44", "stroke-width": 3, fill: "none" })), h("span", { text: t("sk.legendFeed") })),
        h("li", {}, mini(s("rect", { x: 3, y: 5, width: 18, height: 16, rx: 3, fill: "#888" }), s("path", { d: "M8,5 L12,1 L16,5 Z", fill: "#e2b13c" })), h("span", { text: t("sk.legendFront") }))));
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      follow(msg);
      last = { msg, ctx };
      svg.dataset.interactive = String(!!ctx.interactive); // false while a move is on its way
      draw();
    },
  };
}
