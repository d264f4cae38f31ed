// Tellstones: the line of seven slots and the pool. Click a pool stone then a slot to place it;
// click a stone in the line for hide / peek / challenge, or a second stone to swap them.
// Symbols are SVG paths (fonts rarely have a shield, hammer or scale glyph).
import { clear, h, s, svgRoot } from "../js/dom.js";
import { t } from "../js/i18n.js";
import {
  activate, flipIn, runAnimations, seatLabel, slideFrom, suggestCircle, suggestDefs, suggestNote, suggestPath,
} from "./kit.js";

const SYMBOLS = ["crown", "shield", "sword", "flag", "knight", "hammer", "scale"];
// 24×24 paths, drawn filled.
const ICONS = {
  crown: "M3 17h18v3H3zM3 6l4.6 4.2L12 3l4.4 7.2L21 6l-1.6 9.5H4.6z",
  shield: "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5zm0 2.2L18 6.5V11c0 3.9-2.5 7.3-6 8.8z",
  sword: "M10.8 2h2.4l.8 2.5V14h-4V4.5zM6.5 14h11v2.2h-11zM10.9 16.2h2.2v3.6h-2.2zM12 19.4a1.7 1.7 0 1 1 0 3.4a1.7 1.7 0 1 1 0-3.4z",
  flag: "M4.5 2h2.2v20H4.5zM6.7 3H20l-3.4 4.6L20 12.2H6.7z",
  knight: "M6 22h12.5v-2c0-4-1-7.6-3.2-10.6L16.5 5l-2.8 1.5C10 6.7 7.2 9.2 6 12.8l2.3 1.4 2.9-1.8c.1 2.4-1.8 4.8-4 8z",
  hammer: "M4 3.5h13.5l2.5 2.5v4.5H4zM10.6 10.5h2.8V22h-2.8z",
  scale: "M11 3h2v16h-2zM6.5 19.5h11V22h-11zM3 6h18v2H3zM4.5 8h1.4l3 6H7.6L5.2 9.4 2.8 14H1.5zM18.1 8h1.4l3 6h-1.3l-2.4-4.6L16.4 14h-1.3zM1.2 14h8a4 4 0 0 1-8 0zM14.8 14h8a4 4 0 0 1-8 0z",
};
const TEAM_COLORS = ["#c0392b", "#2d6fdc"];
const U = 80;
const W = 7.2 * U;
const ROW = 3.05 * U; // one line, its slot numbers, the pool and the stone names
const BOARD_WORDS = new Set(["place", "hide", "swap", "peek", "challenge"]);

export const aspect = W / ROW;
/** Room kept beside the board's height (rem): the wide table stays a comfortable size on a desktop. */
export const reserve = 32;

function teamOf(view, i) {
  const team = (view?.teams || []).findIndex((members) => members.includes(i));
  return team < 0 ? i : team;
}

export function seatColor(view, i) {
  return TEAM_COLORS[teamOf(view, i) % 2];
}

export function score(view, i) {
  if (!view?.scores) return null;
  return `${view.scores[teamOf(view, i)]}/${view.target}`;
}

/** Three points, a boast proved (or failed), or the turn limit (js/result.js). */
export function explainResult(view, _result, { nameOf, options }) {
  const team = (k) => (view.teams?.[k] || [k]).map(nameOf).join(t("game.result.and"));
  const [a, b] = view.scores || [0, 0];
  const w = view.winner;
  if (typeof w !== "number") return "";
  if (view.end === "turn-limit") {
    const n = Number(options.turn_limit) || view.turn;
    return w === 2 ? t("ts.how.limitDraw", { n, a, b }) : t("ts.how.limit", { n, a, b, winner: team(w) });
  }
  if (w === 2) return "";
  if (view.end === "proof") {
    const prover = typeof view.last?.player === "number" ? teamOf(view, view.last.player) : w;
    return prover === w ? t("ts.how.proved", { winner: team(w) }) : t("ts.how.failed", { loser: team(1 - w) });
  }
  return t("ts.how.score", { winner: team(w), target: view.target, a, b });
}

const stoneName = (name) => (SYMBOLS.includes(name) ? t(`ts.${name}`) : name);
const who = seatLabel;

/** The last decision in words: "player 2 hid the stone on 3". */
function actionText(last, m) {
  if (!last) return "";
  const [word, a, b, c] = last.action.split(" ");
  const name = last.player === "chance" ? "" : who(m, last.player);
  switch (word) {
    case "place": return t("ts.act.place", { name, stone: stoneName(a), slot: b });
    case "hide": return t("ts.act.hide", { name, slot: a });
    case "swap": return t("ts.act.swap", { name, a, b });
    case "peek": return t(b === "partner" ? "ts.act.peekPartner" : "ts.act.peek", { name, slot: a });
    case "challenge": return t("ts.act.challenge", { name, slot: a });
    case "name": return t("ts.act.name", { name, stone: stoneName(a) });
    case "first": return t("ts.act.first", { name: who(m, a) });
    case "stop": case "boast": case "believe": case "doubt": case "counter": return t(`ts.act.${word}`, { name });
    default: return [word, a, b, c].filter(Boolean).join(" ");
  }
}

export function log(view, m) {
  const out = [];
  if (view.last) out.push(actionText(view.last, m));
  if (view.revealed) out.push(t("ts.youSee", { slot: view.revealed.slot, stone: stoneName(view.revealed.stone) }));
  return out;
}

/** "capture" when a point was scored or the game was decided (a challenge or boast), else "move". */
export function moveSound(prev, view) {
  const before = (prev?.scores || []).join(",");
  return (before && before !== (view?.scores || []).join(",")) || (view?.winner != null && prev?.winner == null) ? "capture" : "move";
}

/** A symbol centred at (x, y), ``size`` wide. */
function symbol(name, x, y, size, fill) {
  const k = size / 24;
  return s("path", { d: ICONS[name] || "", transform: `translate(${x - size / 2},${y - size / 2}) scale(${k})`, fill, "fill-rule": "evenodd", class: "ts-symbol" });
}

/** The slots the last action touched: "swap 2 4" → 2, 4. */
const touched = (action) => (action || "").split(" ").filter((w) => /^[ab]?\d$/.test(w));

const label = (lines, line, slot) => (lines > 1 ? `${"ab"[line]}${slot + 1}` : `${slot + 1}`);

/** An action in words, as its button says it: "place the crown on 3", "swap 2 and 4", "boast". */
function actionWords(text, m) {
  const [word, a, b] = text.split(" ");
  switch (word) {
    case "place": return t("ts.placeOn", { stone: stoneName(a), slot: b });
    case "swap": return t("ts.swap", { a, b });
    case "peek": return t(b === "partner" ? "ts.peekPartner" : "ts.peek", { slot: a });
    case "hide": case "challenge": return t(`ts.${word}`, { slot: a });
    case "name": return t("ts.nameIt", { stone: stoneName(a) });
    case "first": return t("ts.starts", { name: who(m, a) });
    case "boast": case "believe": case "doubt": case "counter": case "stop": return t(`ts.${word}`);
    default: return text;
  }
}

export function create(host, extra) {
  let last = null;
  let selected = null; // {pool: stone, line} or {slot: label}
  let shown = null; // the view drawn last, to animate from
  const svg = svgRoot(0, 0, W, ROW, { role: "group", "aria-label": t("ts.table") });
  host.append(svg);
  const bar = h("section", { class: "panel", id: "ts-actions" });
  extra.append(bar);

  function choose(node) {
    if (!last || !last.ctx.interactive) return;
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
  }
  svg.addEventListener("click", (ev) => choose(ev.target.closest("[data-slot],[data-pool]")));

  function submit(text) {
    selected = null;
    last.ctx.submit(text);
  }

  function stone(x, y, r, name, { peek = null, small = false } = {}) {
    const g = s("g", { class: "ts-stone" });
    g.append(s("circle", { cx: x, cy: y + 3, r, fill: "rgba(0,0,0,.3)" }));
    if (name === "?") {
      g.append(s("circle", { cx: x, cy: y, r, fill: "#3b3b46", stroke: peek ? "#ffd866" : "#1f1f27", "stroke-width": 3, "stroke-dasharray": peek ? "6 4" : null }),
        s("circle", { cx: x, cy: y, r: r * 0.74, fill: "none", stroke: "#5a5a6a", "stroke-width": 2, "stroke-dasharray": "4 4" }));
      if (peek) g.append(symbol(peek, x, y, r * 1.1, "#ffd866"));
      else g.append(s("text", { x, y: y + r * 0.28, "text-anchor": "middle", "font-size": r * 0.8, fill: "#a0a0b4", text: "?" }));
      return g;
    }
    g.append(s("circle", { cx: x, cy: y, r, fill: "#efe6d2", stroke: "#9c8b66", "stroke-width": 3 }),
      symbol(name, x, y, r * (small ? 1.05 : 1.15), "#3b2f1e"));
    return g;
  }

  function draw() {
    const { msg, ctx } = last;
    const v = msg.view;
    const legal = ctx.interactive ? msg.legal : [];
    const nLines = v.lines.length;
    svg.setAttribute("viewBox", `0 0 ${W} ${nLines * ROW}`);
    host.style.setProperty("--board-aspect", String(W / (nLines * ROW)));
    clear(svg);
    svg.append(s("defs", {}, suggestDefs("ts-suggest")), s("rect", { x: 0, y: 0, width: W, height: nLines * ROW, rx: 22, fill: "#3a2f25" }));
    const placeTargets = new Set(selected?.pool ? legal.filter((x) => x.startsWith(`place ${selected.pool} `)).map((x) => x.split(" ")[2]) : []);
    const swapTargets = new Set(selected?.slot ? legal.filter((x) => x.startsWith("swap ") && x.split(" ").includes(selected.slot)).map((x) => x.split(" ").slice(1).find((y) => y !== selected.slot)) : []);
    const lastSlots = new Set(touched(v.last?.action));
    const moves = []; // {node, from: [x, y], to: [x, y]} and flips, for the animation
    const flips = [];
    const where = new Map(); // slot label / pool stone -> [x, y] in this drawing
    v.lines.forEach((line, li) => {
      const y0 = li * ROW;
      svg.append(s("rect", { x: 0.05 * U, y: y0 + 0.05 * U, width: W - 0.1 * U, height: 1.45 * U, rx: 18, fill: "#2f4f3a", stroke: "#1f3326", "stroke-width": 3 }));
      line.forEach((name, i) => {
        const lab = label(nLines, li, i);
        const x = (i + 0.6) * U, y = y0 + 0.64 * U;
        where.set(lab, [x, y]);
        const peek = name === "?" && v.revealed && v.revealed.slot === lab ? v.revealed.stone : null;
        const text = !name ? t("ts.slotEmpty", { slot: lab }) : name === "?" ? (peek ? t("ts.slotPeeked", { slot: lab, stone: stoneName(peek) }) : t("ts.slotHidden", { slot: lab }))
          : t("ts.slotStone", { slot: lab, stone: stoneName(name) });
        const g = s("g", { "data-slot": lab, "data-stone": name || "", class: "cell" }, s("title", { text }));
        g.append(s("circle", { cx: x, cy: y, r: 0.47 * U, fill: "rgba(0,0,0,.2)" }));
        if (lastSlots.has(lab)) {
          g.append(s("circle", { cx: x, cy: y, r: 0.5 * U, fill: "none", stroke: "#fff", "stroke-width": 7, class: "last-move-outer" }),
            s("circle", { cx: x, cy: y, r: 0.5 * U, fill: "none", stroke: "#9bc700", "stroke-width": 4, class: "last-move" }));
        }
        g.append(s("text", { x, y: y0 + 1.38 * U, "text-anchor": "middle", "font-size": 20, fill: "#cfe3d4", text: lab, class: "ts-slot-label" }));
        if (name) {
          const node = stone(x, y, 0.45 * U, name, { peek });
          g.append(node);
          const before = shown?.lines?.[li]?.[i];
          if (ctx.fresh && shown && before !== undefined && before !== name) {
            const fromPool = !before && SYMBOLS.includes(name) && shown.pools?.[li]?.includes(name);
            const swapped = v.last?.action?.startsWith("swap ") && lastSlots.has(lab);
            if (fromPool) moves.push({ node, key: `pool ${li} ${name}`, to: [x, y] });
            else if (swapped) moves.push({ node, key: [...lastSlots].find((other) => other !== lab), to: [x, y] });
            else if (before) flips.push(node);
          }
        }
        if (selected?.slot === lab) g.append(s("circle", { cx: x, cy: y, r: 0.5 * U, fill: "none", stroke: "#f1c40f", "stroke-width": 5, class: "selected" }));
        if (placeTargets.has(lab) || swapTargets.has(lab)) {
          g.classList.add("target");
          g.append(s("circle", { cx: x, cy: y, r: 0.47 * U, fill: "none", stroke: "#7bd88f", "stroke-width": 5, "stroke-dasharray": "7 5", class: "pulse" }));
        }
        if (legal.length && (name || placeTargets.has(lab))) activate(g, text, () => choose(g));
        svg.append(g);
      });
      svg.append(s("text", { x: 0.2 * U, y: y0 + 1.8 * U, "font-size": 20, fill: "#e8dcc4", class: "ts-pool-caption", text: nLines > 1 ? t("ts.poolOf", { line: "ab"[li] }) : t("ts.pool") }));
      const pool = v.pools[li] || [];
      SYMBOLS.forEach((name, i) => {
        const x = (i + 0.6) * U, y = y0 + 2.25 * U;
        where.set(`pool ${li} ${name}`, [x, y]);
        if (!pool.includes(name)) return;
        const canPlace = legal.some((x2) => x2.startsWith(`place ${name} `) && (nLines === 1 || x2.split(" ")[2][0] === "ab"[li]));
        const g = s("g", { "data-pool": name, "data-line": String(li), class: `ts-pool${canPlace ? " clickable" : ""}` }, s("title", { text: t("ts.poolStone", { stone: stoneName(name) }) }));
        g.append(s("circle", { cx: x, cy: y, r: 0.47 * U, fill: "transparent" }), stone(x, y, 0.4 * U, name, { small: true }),
          s("text", { x, y: y0 + 2.93 * U, "text-anchor": "middle", "font-size": 20, fill: "#f1e7d3", class: "ts-stone-name", text: stoneName(name) }));
        if (selected?.pool === name && selected.line === String(li)) g.append(s("circle", { cx: x, cy: y, r: 0.46 * U, fill: "none", stroke: "#f1c40f", "stroke-width": 5, class: "selected" }));
        if (canPlace) activate(g, t("ts.poolStone", { stone: stoneName(name) }), () => choose(g));
        svg.append(g);
      });
    });
    if (moves.length || flips.length) {
      runAnimations(svg, `ply ${v.ply ?? ""}`, () => [
        ...moves.map((m) => {
          const from = where.get(m.key);
          return from ? slideFrom(m.node, [from[0] - m.to[0], from[1] - m.to[1]], { duration: 320 }) : null;
        }),
        ...flips.map((node) => flipIn(node)),
      ]);
    }
    shown = v;
    drawActions(v, legal, msg, drawSuggestion(ctx.suggest, where, nLines, msg));
  }

  /** A suggested move (``ctx.suggest``: a hint, the review's better move, an engine line): dashed
   * blue rings round the slots it acts on (and the pool stone a placement takes, with an arrow
   * up to its slot; a swap's two slots joined by a two-headed arrow below the stones). Naming,
   * boasting and answering have nothing on the table to point at: the bar frames their button.
   * Every suggestion is said in words under the bar's buttons. {text, said}, or null. */
  function drawSuggestion(text, where, nLines, msg) {
    svg.dataset.suggest = "";
    if (typeof text !== "string" || !text) return null;
    const [word, a, b] = text.split(" ");
    const at = (slot) => where.get(slot);
    const ring = (slot, r = 0.5 * U) => suggestCircle(...at(slot), r, slot);
    // An arrow goes under the stones, slot numbers and captions of its line (they stay readable).
    const under = (slot, node) => {
      const line = nLines > 1 ? "ab".indexOf(slot[0]) : 0;
      svg.insertBefore(node, svg.querySelector(`[data-slot="${label(nLines, line, 0)}"]`));
    };
    if (word === "place" && at(b)) {
      const pool = where.get(`pool ${nLines > 1 ? "ab".indexOf(b[0]) : 0} ${a}`);
      if (pool) {
        const [x0, y0] = pool, [x1, y1] = at(b);
        const len = Math.hypot(x1 - x0, y1 - y0) || 1;
        const gap = (k) => [(x1 - x0) / len * k, (y1 - y0) / len * k];
        const [sx, sy] = gap(0.5 * U), [ex, ey] = gap(0.62 * U);
        svg.append(suggestCircle(x0, y0, 0.46 * U, `pool ${a}`));
        under(b, suggestPath(`M${x0 + sx},${y0 + sy} L${x1 - ex},${y1 - ey}`, "ts-suggest", 5));
      }
      svg.append(ring(b));
    } else if (word === "swap" && at(a) && at(b)) {
      const [xa, y] = at(a), [xb] = at(b);
      // Below the line, from each ring's lower side facing the other, dipping under the slot
      // numbers between them (over the stones it would hide them).
      const side = Math.sign(xb - xa) * 0.5 * U * Math.sin(0.7), down = y + 0.5 * U * Math.cos(0.7), low = y + 1.26 * U;
      svg.append(ring(a), ring(b),
        suggestPath(`M${xa + side},${down} C${xa + side},${low} ${xb - side},${low} ${xb - side},${down}`, "ts-suggest", 4, { both: true }));
    } else if (["hide", "peek", "challenge"].includes(word) && at(a)) {
      svg.append(ring(a));
    }
    svg.dataset.suggest = text;
    return { text, said: `${text} (${actionWords(text, msg)})` };
  }

  function drawActions(v, legal, msg, suggestion) {
    const phaseText = {
      start: t("ts.phase.start"), turn: t("ts.phase.turn"), peeking: t("ts.phase.peeking"),
      "answer-challenge": t("ts.phase.answerChallenge", { slot: v.challenged ?? "?" }),
      "answer-boast": t("ts.phase.answerBoast", { name: who(msg, v.boaster ?? 0) }),
      "answer-counter": t("ts.phase.answerCounter"), prove: t("ts.phase.prove", { slot: v.proving ?? "?" }), over: t("ts.phase.over"),
    }[v.phase] ?? v.phase;
    const buttons = [];
    if (selected?.slot) {
      for (const word of ["hide", "peek", "challenge"]) {
        for (const x of legal.filter((y) => y.split(" ")[0] === word && y.split(" ")[1] === selected.slot)) {
          buttons.push(h("button", { type: "button", class: "btn", "data-move": x, onclick: () => submit(x) },
            t(x.includes("partner") ? "ts.peekPartner" : `ts.${word}`, { slot: selected.slot })));
        }
      }
    }
    for (const x of legal.filter((y) => !BOARD_WORDS.has(y.split(" ")[0]))) {
      const [head, arg] = x.split(" ");
      let content;
      if (head === "name") {
        const icon = svgRoot(0, 0, 24, 24, { width: 22, height: 22, "aria-hidden": "true" });
        icon.append(symbol(arg, 12, 12, 22, "currentColor"));
        content = [icon, stoneName(arg)];
      } else if (head === "first") {
        content = t("ts.starts", { name: who(msg, arg) });
      } else {
        content = ["boast", "believe", "doubt", "counter", "stop"].includes(head) ? t(`ts.${head}`) : x;
      }
      const cls = `btn${head === "boast" ? " primary" : ""}${x === suggestion?.text ? " suggest-target" : ""}`;
      buttons.push(h("button", { type: "button", class: cls, "data-move": x, onclick: () => submit(x) }, content));
    }
    const naming = legal.some((x) => x.startsWith("name "));
    const hint = !legal.length ? "" : naming ? t("ts.hintName") : selected?.pool ? t("ts.hintPlace") : selected?.slot
      ? t("ts.hintSlot") : legal.some((x) => BOARD_WORDS.has(x.split(" ")[0])) ? t("ts.hintBoard") : "";
    clear(bar).append(h("header", {}, h("span", { id: "ts-phase", text: phaseText }), h("span", { text: t("ts.firstTo", { n: v.target }) })),
      h("div", { class: "body" },
        v.last ? h("p", { class: "hint", id: "ts-last", text: t("ts.last", { text: actionText(v.last, msg) }) }) : null,
        h("div", { class: "actions" }, hint ? h("span", { class: "label", text: hint }) : null, buttons),
        suggestion ? suggestNote(suggestion.said, "ts-suggest-note") : null,
        v.revealed ? h("p", { class: "hint", id: "ts-revealed", "data-stone": v.revealed.stone, text: t("ts.youSee", { slot: v.revealed.slot, stone: stoneName(v.revealed.stone) }) }) : null));
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
