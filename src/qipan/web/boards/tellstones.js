// Tellstones: the line of seven slots and the pool. Click a pool stone then a slot to place it;
// click a stone in the line for hide / peek / challenge, or a second stone to swap them.
import { clear, h, s, svgRoot } from "../js/dom.js";

const GLYPH = { crown: "♛", shield: "⛨", sword: "⚔", flag: "⚑", knight: "♞", hammer: "⚒", scale: "⚖" };
const CN = { crown: "王冠", shield: "盾牌", sword: "寶劍", flag: "旗幟", knight: "騎士", hammer: "戰錘", scale: "天秤" };
const TEAM_COLORS = ["#c0392b", "#2d6fdc"];
const U = 80;
const BOARD_WORDS = new Set(["place", "hide", "swap", "peek", "challenge"]);

export const aspect = 3;

function teamOf(view, i) {
  const t = (view?.teams || []).findIndex((team) => team.includes(i));
  return t < 0 ? i : t;
}

export function seatColor(view, i) {
  return TEAM_COLORS[teamOf(view, i) % 2];
}

export function score(view, i) {
  if (!view?.scores) return null;
  return `${view.scores[teamOf(view, i)]}/${view.target}`;
}

export function log(view) {
  const out = [];
  if (view.last) out.push(`player ${view.last.player + 1}: ${view.last.action}`);
  if (view.revealed) out.push(`you peeked: slot ${view.revealed.slot} is ${view.revealed.stone}`);
  return out;
}

/** A shield outline (few fonts have a shield glyph). */
function shieldPath(x, y, k) {
  return `M${x - k},${y - k * 0.8} L${x + k},${y - k * 0.8} L${x + k},${y} Q${x + k},${y + k * 0.7} ${x},${y + k * 1.1} Q${x - k},${y + k * 0.7} ${x - k},${y} Z`;
}

const label = (lines, line, slot) => (lines > 1 ? `${"ab"[line]}${slot + 1}` : `${slot + 1}`);

export function create(host, extra, { seat }) {
  let last = null;
  let selected = null; // {pool: stone, line} or {slot: label}
  const svg = svgRoot(0, 0, 7.6 * U, 5 * U, { role: "img", "aria-label": "Tellstones table" });
  host.append(svg);
  const bar = h("section", { class: "panel", id: "ts-actions" });
  extra.append(bar);

  svg.addEventListener("click", (ev) => {
    if (!last || !last.ctx.interactive) return;
    const node = ev.target.closest("[data-slot],[data-pool]");
    const legal = last.msg.legal;
    if (!node) {
      selected = null;
      return draw();
    }
    if (node.dataset.pool) {
      selected = selected?.pool === node.dataset.pool && selected.line === node.dataset.line ? null : { pool: node.dataset.pool, line: node.dataset.line };
      return draw();
    }
    const slot = node.dataset.slot;
    if (selected?.pool) {
      const text = `place ${selected.pool} ${slot}`;
      if (legal.includes(text)) return submit(text);
    }
    if (selected?.slot && selected.slot !== slot) {
      const pair = [selected.slot, slot].sort((a, b) => Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, "")));
      const text = `swap ${pair[0]} ${pair[1]}`;
      if (legal.includes(text)) return submit(text);
    }
    const hasStone = node.dataset.stone !== "";
    selected = hasStone && selected?.slot !== slot ? { slot } : null;
    draw();
  });

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function stone(x, y, r, name, opts = {}) {
    const g = s("g", {});
    if (name === "?") {
      g.append(s("circle", { cx: x, cy: y, r, fill: "#3b3b46", stroke: "#1f1f27", "stroke-width": 3 }),
        s("circle", { cx: x, cy: y, r: r * 0.72, fill: "none", stroke: "#5a5a6a", "stroke-width": 2, "stroke-dasharray": "4 4" }));
      if (opts.peek) {
        g.append(s("text", { x, y: y + r * 0.22, "text-anchor": "middle", "font-size": r * 0.8, fill: "#ffd866", opacity: 0.9, text: GLYPH[opts.peek] || "?" }),
          s("text", { x, y: y + r * 0.75, "text-anchor": "middle", "font-size": r * 0.26, fill: "#ffd866", text: `peek: ${opts.peek}` }));
      } else {
        g.append(s("text", { x, y: y + r * 0.25, "text-anchor": "middle", "font-size": r * 0.7, fill: "#8d8da0", text: "?" }));
      }
      return g;
    }
    g.append(s("circle", { cx: x, cy: y + 2, r, fill: "rgba(0,0,0,.3)" }),
      s("circle", { cx: x, cy: y, r, fill: "#efe6d2", stroke: "#9c8b66", "stroke-width": 3 }),
      name === "shield"
        ? s("path", { d: shieldPath(x, y - r * 0.12, r * 0.42), fill: "none", stroke: "#3b2f1e", "stroke-width": Math.max(2, r * 0.08), "stroke-linejoin": "round" })
        : s("text", { x, y: y + r * 0.2, "text-anchor": "middle", "font-size": r * 0.85, fill: "#3b2f1e", text: GLYPH[name] || name[0] }),
      s("text", { x, y: y + r * 0.68, "text-anchor": "middle", "font-size": r * 0.24, fill: "#6d5a3a", text: name }));
    return g;
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const legal = ctx.interactive ? msg.legal : [];
    const nLines = v.lines.length;
    const rowH = 2.3 * U;
    svg.setAttribute("viewBox", `0 0 ${7.6 * U} ${nLines * rowH + 0.2 * U}`);
    host.style.setProperty("--board-aspect", String(7.6 * U / (nLines * rowH + 0.2 * U)));
    clear(svg);
    const placeTargets = new Set(selected?.pool ? legal.filter((t) => t.startsWith(`place ${selected.pool} `)).map((t) => t.split(" ")[2]) : []);
    const swapTargets = new Set(selected?.slot ? legal.filter((t) => t.startsWith("swap ") && t.split(" ").includes(selected.slot)).map((t) => t.split(" ").slice(1).find((x) => x !== selected.slot)) : []);
    const lastAction = v.last?.action || "";
    const lastSlots = new Set(lastAction.split(" ").filter((w) => /^[ab]?\d$/.test(w)));
    v.lines.forEach((line, li) => {
      const y0 = li * rowH + 0.2 * U;
      svg.append(s("rect", { x: 0.1 * U, y: y0, width: 7.4 * U, height: 1.25 * U, rx: 18, fill: "#2f4f3a", stroke: "#1f3326", "stroke-width": 3 }));
      line.forEach((name, i) => {
        const lab = label(nLines, li, i);
        const x = (i + 0.8) * U, y = y0 + 0.62 * U;
        const g = s("g", { "data-slot": lab, "data-stone": name || "", class: "cell" });
        g.append(s("circle", { cx: x, cy: y, r: 0.42 * U, fill: lastSlots.has(lab) ? "rgba(155,199,0,.45)" : "rgba(0,0,0,.18)" }));
        g.append(s("text", { x, y: y0 + 1.18 * U, "text-anchor": "middle", "font-size": 12, fill: "#9fbfa8", text: lab }));
        if (name) {
          const peek = name === "?" && v.revealed && v.revealed.slot === lab ? v.revealed.stone : null;
          g.append(stone(x, y, 0.36 * U, name, { peek }));
        }
        if (selected?.slot === lab) g.append(s("circle", { cx: x, cy: y, r: 0.43 * U, fill: "none", stroke: "#f1c40f", "stroke-width": 4, class: "selected" }));
        if (placeTargets.has(lab) || swapTargets.has(lab)) {
          g.classList.add("target");
          g.append(s("circle", { cx: x, cy: y, r: 0.43 * U, fill: "none", stroke: "#7bd88f", "stroke-width": 4, "stroke-dasharray": "6 5", class: "pulse" }));
        }
        svg.append(g);
      });
      const pool = v.pools[li] || [];
      svg.append(s("text", { x: 0.15 * U, y: y0 + 1.55 * U, "font-size": 13, fill: "#8a8784", text: nLines > 1 ? `pool ${"ab"[li]}` : "pool" }));
      pool.forEach((name, i) => {
        const x = (i + 0.8) * U + 0.5 * U, y = y0 + 1.72 * U;
        const canPlace = legal.some((t) => t.startsWith(`place ${name} `) && (nLines === 1 || t.split(" ")[2][0] === "ab"[li]));
        const g = s("g", { "data-pool": name, "data-line": String(li), class: canPlace ? "clickable" : "" });
        g.append(stone(x, y, 0.28 * U, name));
        if (selected?.pool === name && selected.line === String(li)) g.append(s("circle", { cx: x, cy: y, r: 0.33 * U, fill: "none", stroke: "#f1c40f", "stroke-width": 4, class: "selected" }));
        svg.append(g);
      });
    });
    drawActions(v, legal);
  }

  function drawActions(v, legal) {
    const phaseText = {
      start: "choosing who starts", turn: "", peeking: "peeking (up to three stones)",
      "answer-challenge": `challenge: name the stone in slot ${v.challenged ?? "?"}`,
      "answer-boast": `player ${(v.boaster ?? 0) + 1} boasts: believe, doubt or counter-boast`,
      "answer-counter": "counter-boast: believe or doubt", prove: "prove the boast: name the face-down stones left to right",
    }[v.phase] ?? v.phase;
    const buttons = [];
    if (selected?.slot) {
      for (const word of ["hide", "peek", "challenge"]) {
        for (const t of legal.filter((x) => x.split(" ")[0] === word && x.split(" ")[1] === selected.slot)) {
          buttons.push(h("button", { type: "button", class: "btn", "data-move": t, onclick: () => submit(t) }, `${t.includes("partner") ? "peek for partner" : word} ${selected.slot}`));
        }
      }
    }
    for (const t of legal.filter((x) => !BOARD_WORDS.has(x.split(" ")[0]))) {
      const [head, arg] = t.split(" ");
      const text = head === "name" ? `${GLYPH[arg] || ""} ${arg}` : head === "counter" ? "counter-boast" : t;
      buttons.push(h("button", { type: "button", class: `btn${head === "boast" ? " primary" : ""}`, "data-move": t, onclick: () => submit(t) }, text));
    }
    const hint = !legal.length ? "" : selected?.pool ? "click a highlighted slot to place it" : selected?.slot
      ? "choose an action, or click another stone to swap" : legal.some((t) => BOARD_WORDS.has(t.split(" ")[0])) ? "click a pool stone to place it, or a stone in the line" : "";
    clear(bar).append(h("header", {}, h("span", { text: phaseText || "actions" }), h("span", { text: `first to ${v.target}` })),
      h("div", { class: "body" },
        h("div", { class: "actions" }, hint ? h("span", { class: "label", text: hint }) : null, buttons),
        v.revealed ? h("p", { class: "hint", id: "ts-revealed", text: `You see slot ${v.revealed.slot}: ${v.revealed.stone} ${CN[v.revealed.stone] || ""}` }) : null));
  }

  return {
    render(msg, ctx) {
      if (ctx.fresh || !ctx.interactive) selected = null;
      last = { msg, ctx };
      draw();
    },
  };
}
