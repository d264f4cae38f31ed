// 生剋棋 Sheng-Ke: the 5×5 field, your hand, dice, decks and the resolution log.
// Click a card in your hand, then a highlighted cell; element picks (for a 6) are buttons.
import { clear, h, s, svgRoot } from "../js/dom.js";

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

export const aspect = 1;
/** Room kept under the board (rem) so the hand stays on screen. */
export const reserve = 17;

export function seatColor(_view, i) {
  return OWNER[i % 2];
}

export function score(view, i) {
  const p = view?.players?.[i];
  return p ? `${p.on_field}${p.score !== p.on_field ? ` (${p.score})` : ""}` : null;
}

export function log(view) {
  return (view.events || []).map((e) => e.text);
}

function cardFace(card, { w, x = 0, y = 0, flip = false }) {
  const el = ELEMENTS[card.element] || ELEMENTS.metal;
  const g = s("g", { transform: `translate(${x},${y})${flip ? ` rotate(180 ${w / 2} ${w / 2})` : ""}` });
  g.append(
    s("rect", { x: 3, y: 3, width: w - 6, height: w - 6, rx: 8, fill: el.fill, stroke: OWNER[card.owner % 2], "stroke-width": 5 }),
    s("text", { x: w / 2, y: w * 0.42, "text-anchor": "middle", "font-size": w * 0.3, fill: el.text, text: el.cn }),
    s("text", { x: w / 2, y: w * 0.64, "text-anchor": "middle", "font-size": w * 0.15, fill: el.text, text: card.name }),
    s("text", { x: w * 0.13, y: w * 0.88, "font-size": w * 0.15, fill: el.text, text: String(card.in), "font-weight": 700 }),
    s("text", { x: w * 0.87, y: w * 0.88, "text-anchor": "end", "font-size": w * 0.15, fill: el.text, text: String(card.out), "font-weight": 700 }),
  );
  return g;
}

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null; // card id from the hand
  const svg = svgRoot(0, 0, 5.6 * U, 5.6 * U, { role: "img", "aria-label": "Sheng-Ke field" });
  host.append(svg);
  const handBox = h("section", { class: "panel", id: "sk-hand" });
  const tableBox = h("section", { class: "panel", id: "sk-table" });
  extra.append(handBox, tableBox);
  const flip = seat === 1; // seat 0 (甲) sits at row 1, seat 1 (乙) at row 5: each sees their row at the bottom

  const pos = (cell) => {
    const c = COLS.indexOf(cell[0]);
    const r = Number(cell.slice(1)) - 1;
    return flip ? [(4 - c) * U + 0.4 * U, r * U + 0.1 * U] : [c * U + 0.4 * U, (4 - r) * U + 0.1 * U];
  };

  svg.addEventListener("click", (ev) => {
    if (!last || !last.ctx.interactive) return;
    const node = ev.target.closest("[data-cell]");
    if (node && selected) {
      const text = `${selected}@${node.dataset.cell}`;
      if (last.msg.legal.includes(text)) {
        selected = null;
        last.ctx.submit(text);
        return;
      }
    }
    selected = null;
    draw();
  });

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const legal = ctx.interactive ? msg.legal : [];
    clear(svg);
    const targets = new Set(selected ? legal.filter((t) => t.startsWith(`${selected}@`)).map((t) => t.split("@")[1]) : []);
    const placed = new Set((v.placed || []).map((p) => (typeof p === "string" ? p : p.cell)));
    const lastText = typeof msg.last === "string" ? msg.last : msg.last?.text;
    const lastCell = lastText && lastText.includes("@") ? lastText.split("@")[1] : null;
    const eventCells = new Set((v.events || []).flatMap((e) => [e.cell, e.other_cell]).filter(Boolean));
    svg.append(s("rect", { x: 0.3 * U, y: 0, width: 5.2 * U, height: 5.2 * U, rx: 14, fill: "#3a2f25" }));
    for (let c = 0; c < 5; c++) {
      for (let r = 1; r <= 5; r++) {
        const cell = `${COLS[c]}${r}`;
        const [x, y] = pos(cell);
        const g = s("g", { "data-cell": cell, class: "cell" });
        const hl = cell === lastCell || placed.has(cell) ? "rgba(155,199,0,.45)" : eventCells.has(cell) ? "rgba(230,120,40,.35)" : "#5a4a3a";
        g.append(s("rect", { x: x + 4, y: y + 4, width: U - 8, height: U - 8, rx: 8, fill: hl, stroke: "#6e5b47", "stroke-width": 1 }));
        const card = v.field?.[cell];
        if (card) g.append(s("g", { "data-card": card.id, "data-owner": card.owner }, cardFace(card, { w: U, x, y, flip: card.owner !== (seat ?? 0) })));
        if (targets.has(cell)) {
          g.classList.add("target");
          g.append(s("circle", { cx: x + U / 2, cy: y + U / 2, r: U * 0.14, fill: "rgba(40,160,60,.9)", class: "pulse" }));
        }
        svg.append(g);
      }
    }
    for (let c = 0; c < 5; c++) {
      const [x] = pos(`${COLS[c]}1`);
      svg.append(s("text", { x: x + U / 2, y: 5.45 * U, "text-anchor": "middle", class: "coord", "font-size": 16, text: COLS[c] }));
    }
    for (let r = 1; r <= 5; r++) {
      const [, y] = pos(`a${r}`);
      svg.append(s("text", { x: 0.15 * U, y: y + U / 2 + 5, "text-anchor": "middle", class: "coord", "font-size": 16, text: String(r) }));
    }
    drawHand(v, legal);
    drawTable(v, legal);
  }

  function drawHand(v, legal) {
    const me = seat !== null && seat !== undefined ? v.players?.[seat] : null;
    clear(handBox);
    if (!me) {
      handBox.append(h("header", {}, h("span", { text: "Hands" })),
        h("div", { class: "body hint", text: (v.players || []).map((p) => `${p.name}: ${p.hand_size} cards`).join(" · ") }));
      return;
    }
    const playable = new Set(legal.filter((t) => t.includes("@")).map((t) => t.split("@")[0]));
    const cards = (me.hand || []).map((card) => {
      const on = selected === card.id;
      const svgCard = svgRoot(0, 0, 90, 90, { width: 72, height: 72 });
      svgCard.append(cardFace(card, { w: 90 }));
      return h("button", {
        type: "button", class: `btn small${on ? " on" : ""}`, "data-hand": card.id, disabled: !playable.has(card.id),
        title: `${card.name} · ${card.element} · in ${card.in} / out ${card.out}`,
        style: "padding:.15rem",
        onclick: () => { selected = on ? null : card.id; draw(); },
      }, svgCard);
    });
    const picks = legal.filter((t) => !t.includes("@")).map((t) => {
      const el = t.split(" ")[1];
      return h("button", { type: "button", class: "btn", "data-move": t, onclick: () => submit(t) },
        t.startsWith("pick") && ELEMENTS[el] ? `pick ${ELEMENTS[el].cn} ${el}` : t);
    });
    handBox.append(h("header", {}, h("span", { text: `Your hand (${me.hand_size})` }),
      h("span", { text: playable.size ? (selected ? "click a green cell" : "click a card to place it") : "" })),
    h("div", { class: "body actions" }, cards.length ? cards : h("span", { class: "empty", text: "no cards" }), picks));
  }

  function drawTable(v) {
    const dice = (v.dice || []).map((d) => {
      const el = DIE_ELEMENT[d];
      return h("span", { class: "tag", style: `font-size:1rem;padding:.1rem .45rem;background:${ELEMENTS[el]?.fill || "#555"};color:${ELEMENTS[el]?.text || "#fff"}` },
        `⚀⚁⚂⚃⚄⚅`[d - 1] || String(d), " ", ELEMENTS[el]?.cn || "任");
    });
    const rows = (v.players || []).map((p, i) => h("tr", { "data-seat": i },
      h("td", {}, h("span", { class: "swatch", style: `display:inline-block;width:.8em;height:.8em;border-radius:50%;background:${OWNER[i % 2]};margin-right:.4em` }), p.name),
      h("td", { text: String(p.hand_size) }),
      h("td", { text: Object.entries(p.decks || {}).map(([el, d]) => `${ELEMENTS[el]?.cn || el}${d.size}`).join(" ") }),
      h("td", { text: String((p.discard || []).length) }),
      h("td", { text: String(p.on_field) })));
    clear(tableBox).append(h("header", {}, h("span", { text: `Turn ${Math.min((v.turn ?? 0) + 1, v.turns)} of ${v.turns}` }),
      h("span", { class: "actions" }, dice, (v.todo || []).length ? h("span", { class: "hint", text: ` to place: ${v.todo.map((e) => ELEMENTS[e]?.cn || e).join(" ")}` }) : null)),
    h("table", { class: "list" }, h("tr", {}, ["player", "hand", "decks", "discard", "field"].map((t) => h("th", { text: t }))), rows),
    h("p", { class: "hint", style: "padding:0 .7rem", text: `first player bonus +${v.first_bonus}; 生 wood→fire→earth→metal→water→wood · 剋 wood→earth→water→fire→metal→wood` }));
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      last = { msg, ctx };
      draw();
    },
  };
}
