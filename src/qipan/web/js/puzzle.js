// The lobby's puzzle of the day (GET /api/puzzles/today): what it is, a link to its page
// (js/puzzles.js) and the terminal command that plays it (`qipan puzzle play ID`).
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { goal } from "./puzzles.js";

export function puzzlePanel() {
  const body = h("div", { class: "body" }, h("p", { class: "empty", text: t("loading") }));
  load(body);
  return h("section", { class: "panel", id: "puzzle-of-the-day", "aria-labelledby": "puzzle-title" },
    h("header", {}, h("h2", { id: "puzzle-title", text: t("puzzle.title") })), body);
}

async function load(body) {
  let puzzle;
  try {
    const response = await fetch("/api/puzzles/today");
    if (!response.ok) throw new Error(String(response.status));
    puzzle = await response.json();
  } catch {
    body.replaceChildren(h("p", { class: "hint", text: t("puzzle.unavailable") }));
    return;
  }
  const title = lang === "zh-Hant" ? puzzle.title["zh-Hant"] : puzzle.title.en;
  const rating = t(`puzzle.rating.${puzzle.rating}`);
  body.replaceChildren(
    h("p", { id: "puzzle-name", text: title }),
    h("p", { class: "hint", id: "puzzle-rating", text: `${rating} · ${goal(puzzle)}` }),
    h("p", {}, h("a", { class: "btn primary", id: "puzzle-open", href: `/puzzles/${encodeURIComponent(puzzle.id)}` }, t("puzzle.open")),
      " ", h("a", { href: "/puzzles", id: "puzzle-all" }, t("puzzle.all"))),
    h("p", { class: "hint", text: t("puzzle.orTerminal") }),
    h("code", { id: "puzzle-command", text: puzzle.command }));
}
