// The lobby: find a game (play the AI in one click, join an open game, return to my games),
// create one (js/createform.js), watch games in play and replay finished ones. Open games and
// games in play follow the server live (js/lobbyfeed.js).
import { api } from "./api.js";
import { createForm, defaultLevel } from "./createform.js";
import { clear, h, toast } from "./dom.js";
import { gameTitle, levelName, seatLabel, sideName, variantName } from "./gamewords.js";
import { t } from "./i18n.js";
import { followLobby, POLL_MS } from "./lobbyfeed.js";
import { myGamesPanel, resultLine } from "./mygames.js";
import { currentName, nameToPlay, offerNameOn } from "./names.js";
import { defaultSeat, keepSeat } from "./seats.js";
import { chooseDeck, freeSeats } from "./deckchoice.js";
import { puzzlePanel } from "./puzzle.js";
import { learnPanel } from "./tutorial.js";

/** Rows shown per list. */
const LIST_MAX = 50;

export async function showLobby(app) {
  const meta = await api.meta();
  clear(app);
  const mine = myGamesPanel();
  const open = listPanel("open", t("lobby.open"));
  const playing = listPanel("games", t("lobby.playing"));
  const finished = listPanel("finished", t("lobby.finished"), () => loadFinished(finished));
  const create = h("section", { class: "card", id: "create", "aria-labelledby": "create-title" });
  app.append(h("div", { class: "lobby" },
    h("div", { class: "lobby-find" }, quickPanel(meta), learnPanel(), puzzlePanel(), open.node, mine.node),
    create,
    h("div", { class: "lobby-watch" }, playing.node, finished.node)));
  createForm(create, meta, { game: new URLSearchParams(location.search).get("game"), onCreated: () => mine.refresh() });

  let seen = new Set();
  followLobby((lists) => {
    if (lists.error) {
      for (const panel of [open, playing]) clear(panel.body).append(h("p", { class: "error", text: lists.error }));
      return;
    }
    renderOpen(open, lists.open.slice(0, LIST_MAX));
    renderPlaying(playing, lists.playing.slice(0, LIST_MAX));
    // A game that left both lists has finished (or expired): the other lists may show it now.
    const now = new Set([...lists.open, ...lists.playing].map((g) => g.id));
    if ([...seen].some((id) => !now.has(id))) {
      loadFinished(finished);
      mine.refresh();
    }
    seen = now;
  }, (mode) => {
    open.status.textContent = mode === "live" ? t("lobby.live") : t("lobby.polling", { s: POLL_MS / 1000 });
  });
  loadFinished(finished);
  mine.refresh();
  // Only an element id (#games): a fragment like #invite=... is no selector and must not throw.
  if (/^#[A-Za-z][\w-]*$/.test(location.hash)) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

function listPanel(id, title, refresh = null) {
  const body = h("div", { class: "body" }, h("p", { class: "empty", text: t("loading") }));
  const status = h("span", { class: "feed-status" });
  const node = h("section", { class: "panel", id, "aria-labelledby": `${id}-title` },
    h("header", {}, h("h2", { id: `${id}-title`, text: title }), status,
      refresh ? h("button", { class: "btn small", type: "button", onclick: refresh }, t("lobby.refresh")) : null),
    body);
  return { node, body, status, title };
}

function gameName(g) {
  const variant = g.variant && g.variant !== "standard" ? ` · ${variantName(g.game, g.variant)}` : "";
  return `${gameTitle(g.game)}${variant}`;
}

/** "5+3", or "untimed". */
export function clockText(clock) {
  if (!clock) return t("lobby.untimed");
  const minutes = clock.base / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${clock.increment ?? 0}`;
}

function table(panel, head, rows) {
  return h("table", { class: "list", "aria-labelledby": panel.node.id + "-title" },
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text ? text : h("span", { class: "sr", text: t("lobby.colAction") }))))),
    h("tbody", {}, rows));
}

/** The link to a game this browser holds a seat in, or null. */
function myLink(g) {
  const seat = defaultSeat(g.id);
  return seat === null ? null
    : h("a", { class: "btn small", href: `/play/${encodeURIComponent(g.id)}#seat=${seat}`, "aria-label": `${t("lobby.return")}: ${gameName(g)}` }, t("lobby.return"));
}

function renderOpen(panel, games) {
  clear(panel.body);
  if (!games.length) {
    panel.body.append(h("p", { class: "empty", text: t("lobby.noOpen") }));
    return;
  }
  panel.body.append(table(panel, [t("lobby.colGame"), t("lobby.colPlayers"), ""], games.map((g) => {
    const free = (g.seats || []).filter((s) => s.kind === "human" && !s.claimed);
    const actions = myLink(g) ?? free.map((s) => h("button", {
      type: "button", class: "btn small primary join", "data-seat": s.seat,
      "aria-label": t("lobby.joinAsIn", { side: sideName(s.side ?? s.name), game: gameName(g) }),
      onclick: (e) => join(g, s.seat, e.currentTarget),
    }, t("lobby.joinAs", { side: sideName(s.side ?? s.name) })));
    return h("tr", { "data-id": g.id },
      h("td", {}, gameName(g), "clock" in g ? h("span", { class: "clock-tag", title: t("lobby.colClock") }, clockText(g.clock)) : null),
      h("td", { text: (g.seats || []).map(seatLabel).join(" – ") }),
      h("td", {}, h("div", { class: "actions-cell" }, actions)));
  })));
}

function renderPlaying(panel, games) {
  clear(panel.body);
  if (!games.length) {
    panel.body.append(h("p", { class: "empty", text: t("lobby.noPlaying") }));
    return;
  }
  panel.body.append(table(panel, [t("lobby.colGame"), t("lobby.colPlayers"), t("lobby.colMoves"), ""], games.map((g) =>
    h("tr", { "data-id": g.id },
      h("td", { text: gameName(g) }),
      h("td", { text: (g.seats || []).map(seatLabel).join(" – ") }),
      h("td", { text: String(g.moves ?? "") }),
      h("td", {}, myLink(g) ?? h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "btn small", "aria-label": `${t("lobby.watch")}: ${gameName(g)}` }, t("lobby.watch")))))));
}

async function loadFinished(panel) {
  try {
    const games = (await api.list("finished")).slice(0, LIST_MAX);
    clear(panel.body);
    if (!games.length) {
      panel.body.append(h("p", { class: "empty", text: t("lobby.noFinished") }));
      return;
    }
    panel.body.append(table(panel, [t("lobby.colGame"), t("lobby.colPlayers"), t("lobby.colResult"), ""], games.map((g) =>
      h("tr", { "data-id": g.id },
        h("td", { text: gameName(g) }),
        h("td", { text: (g.seats || []).map((s) => seatLabel({ ...s, claimed: true })).join(" – ") }),
        h("td", { text: g.status === "unavailable" ? t("lobby.unavailable") : resultLine(g) }),
        h("td", {}, g.status === "unavailable" ? null
          : h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "btn small", "aria-label": `${t("lobby.replay")}: ${gameName(g)}` }, t("lobby.replay")))))));
  } catch (err) {
    clear(panel.body).append(h("p", { class: "error", text: err.message }));
  }
}

/** One click: a public game against the AI at ``level``, default variant, untimed, my seat first. */
function quickPanel(meta) {
  return h("section", { class: "panel", id: "quick", "aria-labelledby": "quick-title" },
    h("header", {}, h("h2", { id: "quick-title", text: t("lobby.quick") })),
    h("div", { class: "body" },
      h("p", { class: "hint", text: t("lobby.quickHint") }),
      h("ul", { class: "quick-list" }, meta.games.map((game) => {
        const title = gameTitle(game.name, game.title);
        return h("li", { class: "quick-game", "data-quick": game.name },
          h("span", { class: "quick-title", id: `quick-${game.name}`, text: title }),
          h("div", { class: "quick-levels", role: "group", "aria-labelledby": `quick-${game.name}` },
            game.levels.map((level) => h("button", {
              type: "button", class: `btn level${level === defaultLevel(game.levels) ? " suggested" : ""}`, "data-level": level,
              "aria-label": t("lobby.playAI", { game: title, level: levelName(level) }),
              onclick: (e) => playAI(game, level, e.currentTarget),
            }, levelName(level)))));
      }))));
}

/** Starts at once: without a nickname the seat plays under its side's name, and the game's page
 * offers to choose one (names.nameOffer) without holding the game up. */
async function playAI(game, level, button) {
  const name = currentName();
  button.disabled = true;
  try {
    const info = await api.describe(game.name, null, {});
    const seats = info.player_names.map((_, i) => (i === 0 ? { kind: "human" } : { kind: "ai", level }));
    const created = await api.create({ game: game.name, seats, seat: 0, public: true, name });
    keepSeat(created.id, created.seat, created.token, { creator: true });
    if (!name) offerNameOn(created.id);
    location.assign(`/play/${encodeURIComponent(created.id)}#seat=${created.seat}`);
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

async function join(g, seat, button) {
  const name = await nameToPlay();
  if (!name) return;
  button.disabled = true;
  try {
    const options = g.game === "shengke" ? await deckToBring(g.id, seat) : {};
    if (options === null) {
      button.disabled = false;
      return;
    }
    const claimed = await api.join(g.id, name, seat, options.deck ? options : null);
    keepSeat(g.id, claimed.seat, claimed.token);
    location.assign(`/play/${encodeURIComponent(g.id)}#seat=${claimed.seat}`);
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

/** Sheng-Ke: the deck to bring to ``seat`` (null: the first free one) of game ``id``; null if cancelled. */
async function deckToBring(id, seat) {
  const info = await api.game(id);
  return chooseDeck(info, seat === null ? freeSeats(info).slice(0, 1) : [seat]);
}
