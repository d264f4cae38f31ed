// "My games": the unfinished games this browser holds a seat in (js/seats.js keeps the tokens),
// to return to them, and a short history of the last ones that finished. What the lobby learnt
// about each game is kept in localStorage "qipan.mygames" ({id: {at, done?, gone?, last?}}), so a
// finished or vanished game is not asked about again.
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { gameTitle, seatLabel, variantName } from "./gamewords.js";
import { t } from "./i18n.js";
import { resultText } from "./result.js";
import { defaultSeat, held } from "./seats.js";

const SEATS_PREFIX = "qipan.game.";
const KEY = "qipan.mygames";
/** Unfinished games asked about per lobby visit (the newest first). */
export const MAX_CHECKED = 20;
/** Finished games kept in the history. */
export const HISTORY = 5;

function heldIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(SEATS_PREFIX)) continue;
    const id = key.slice(SEATS_PREFIX.length);
    if (Object.keys(held(id).seats).length) ids.push(id);
  }
  return ids;
}

function readKnown() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** What a row needs, kept for the history (no secret: the same as GET /api/games/{id}). */
function brief(summary) {
  return {
    game: summary.game, variant: summary.variant, moves: summary.moves, result: summary.result ?? null,
    seats: (summary.seats || []).map(({ name, side, kind, level, claimed }) => ({ name, side, kind, level, claimed })),
  };
}

function gameName(summary) {
  const variant = summary.variant && summary.variant !== "standard" ? ` · ${variantName(summary.game, summary.variant)}` : "";
  return `${gameTitle(summary.game)}${variant}`;
}

/** The "My games" panel; ``refresh()`` asks the server about the games again. */
export function myGamesPanel() {
  const body = h("div", { class: "body" });
  const node = h("section", { class: "panel", id: "my-games", "aria-labelledby": "my-games-title" },
    h("header", {}, h("h2", { id: "my-games-title", text: t("lobby.myGames") })), body);

  const row = (id, summary, finished) => {
    const seat = defaultSeat(id);
    const href = `/play/${encodeURIComponent(id)}${seat === null ? "" : `#seat=${seat}`}`;
    const waiting = (summary.seats || []).some((s) => s.kind === "human" && !s.claimed);
    const state = finished ? resultLine(summary)
      : waiting ? t("lobby.waiting") : t("lobby.movesN", { n: summary.moves ?? 0 });
    return h("tr", { "data-id": id },
      h("td", { text: gameName(summary) }),
      h("td", { text: (summary.seats || []).map(seatLabel).join(" – ") }),
      h("td", { text: state }),
      h("td", {}, h("a", { class: "btn small", href, "aria-label": `${finished ? t("lobby.replay") : t("lobby.return")}: ${gameName(summary)}` },
        finished ? t("lobby.replay") : t("lobby.return"))));
  };

  const table = (rows, label) => h("table", { class: "list", "aria-label": label }, rows);

  const refresh = async () => {
    const ids = heldIds();
    const known = readKnown();
    const now = Date.now();
    for (const id of Object.keys(known)) if (!ids.includes(id)) delete known[id];
    for (const id of ids) known[id] ??= { at: now };
    const ask = ids.filter((id) => !known[id].done && !known[id].gone)
      .sort((a, b) => known[b].at - known[a].at).slice(0, MAX_CHECKED);
    const answers = await Promise.all(ask.map((id) => api.game(id).then((summary) => ({ id, summary }), (error) => ({ id, error }))));
    const open = [];
    for (const { id, summary, error } of answers) {
      if (error) {
        if (error.status === 404) known[id].gone = true;
        continue;
      }
      if (summary.status === "playing") open.push([id, summary]);
      else {
        known[id].done = now;
        known[id].last = brief(summary);
      }
    }
    const history = ids.filter((id) => known[id].done && known[id].last).sort((a, b) => known[b].done - known[a].done);
    for (const id of history.slice(HISTORY)) delete known[id].last;
    try {
      localStorage.setItem(KEY, JSON.stringify(known));
    } catch {
      // storage full or refused: the panel still shows what it found
    }
    clear(body);
    if (!open.length) body.append(h("p", { class: "empty", text: t("lobby.noMyGames") }));
    else body.append(table(open.map(([id, summary]) => row(id, summary, false)), t("lobby.myGames")));
    const recent = history.slice(0, HISTORY);
    if (recent.length) {
      body.append(h("h3", { class: "sub", text: t("lobby.recentlyFinished") }),
        table(recent.map((id) => row(id, known[id].last, true)), t("lobby.recentlyFinished")));
    }
  };

  body.append(h("p", { class: "empty", text: t("loading") }));
  return { node, refresh };
}

/** A finished game's result in this language, its seats by nickname or side. */
export function resultLine(summary) {
  const seats = summary.seats || [];
  return resultText(summary.result, (i) => (seats[i] ? seatLabel({ ...seats[i], claimed: true }) : t("meta.side.player", { n: i + 1 })));
}
