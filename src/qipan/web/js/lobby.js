// The lobby: create a game (game, variant, options, seats, which seat is mine), keep my seat in
// this browser, share the invitation links, list games.
import { api } from "./api.js";
import { clear, h, linkRow } from "./dom.js";
import { t } from "./i18n.js";
import { keepInvites, keepSeat } from "./seats.js";

const state = { meta: null, game: null, variant: null, options: {}, seats: [], mine: 0, describe: null };

export async function showLobby(app) {
  const meta = await api.meta();
  state.meta = meta;
  clear(app);
  const create = h("section", { class: "card", id: "create" });
  const side = h("div", { class: "side" });
  app.append(h("div", { class: "lobby" }, create, side));
  const wanted = new URLSearchParams(location.search).get("game");
  selectGame(create, meta.games.find((g) => g.name === wanted) || meta.games[0]);
  side.append(gamesPanel(t("lobby.playing"), "playing", "games"), gamesPanel(t("lobby.finished"), "finished", "finished"));
  // Only an element id (#games): a fragment like #invite=... is no selector and must not throw.
  if (/^#[A-Za-z][\w-]*$/.test(location.hash)) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

function selectGame(root, game) {
  state.game = game;
  state.variant = game.variants.length ? game.variants[0].name : null;
  state.options = {};
  state.seats = [];
  state.mine = 0;
  renderCreate(root);
  refreshSeats(root);
}

function renderCreate(root) {
  const game = state.game;
  clear(root).append(
    h("h2", { text: t("lobby.create") }),
    h("div", { class: "game-picker", role: "radiogroup", "aria-label": "game" },
      state.meta.games.map((g) =>
        h("button", {
          type: "button", class: `game-tile${g === game ? " on" : ""}`, role: "radio",
          "aria-checked": String(g === game), "data-game": g.name,
          onclick: () => selectGame(root, g),
        }, h("strong", { text: g.title }), h("small", { text: g.variants.length > 1 ? t("lobby.variants", { n: g.variants.length }) : t("lobby.variant1") })),
      ),
    ),
    h("p", { class: "hint" }, t("lobby.rules"), h("a", { href: `/static/rules/${game.name}.html`, target: "_blank", text: t("lobby.rulesLink", { title: game.title }) })),
  );
  if (game.variants.length) {
    const select = h("select", { name: "variant", onchange: (e) => { state.variant = e.target.value; renderOptions(root); refreshSeats(root); } },
      game.variants.map((v) => h("option", { value: v.name, selected: v.name === state.variant, text: v.name })));
    const help = h("small", { text: game.variants.find((v) => v.name === state.variant)?.help || "" });
    select.addEventListener("change", () => { help.textContent = game.variants.find((v) => v.name === state.variant)?.help || ""; });
    root.append(h("label", { class: "field" }, h("span", { text: t("lobby.variant") }), select, help));
  }
  // Options that name files on the server's machine (Sheng-Ke decks) are for the terminal only.
  const offered = game.options.filter((opt) => !opt.local_file);
  if (offered.length) {
    root.append(h("details", { class: "field", open: offered.length <= 4 },
      h("summary", { text: t("lobby.options") }), h("div", { class: "options-grid", id: "options" })));
    renderOptions(root);
  }
  root.append(h("h3", { text: t("lobby.seats") }), h("div", { class: "seats", id: "seats" }));
  root.append(
    h("p", { class: "error", id: "create-error" }),
    h("button", { class: "btn primary", id: "create-game", type: "button", onclick: () => createGame(root) }, t("lobby.createButton")),
    h("div", { id: "created" }),
  );
}

function renderOptions(root) {
  const grid = root.querySelector("#options");
  if (!grid) return;
  const defaults = state.game.variants.find((v) => v.name === state.variant)?.defaults || {};
  clear(grid).append(...state.game.options.filter((opt) => !opt.local_file).map((opt) => {
    const base = opt.name in defaults ? defaults[opt.name] : opt.default;
    return optionField(root, { ...opt, default: opt.name in state.options ? state.options[opt.name] : base }, base);
  }));
}

function optionField(root, opt, base) {
  const name = `opt-${opt.name}`;
  const onchange = (value) => {
    if (value === base) delete state.options[opt.name];
    else state.options[opt.name] = value;
    refreshSeats(root);
  };
  let input;
  const type = opt.type || (typeof opt.default === "boolean" ? "bool" : typeof opt.default === "number" ? (Number.isInteger(opt.default) ? "int" : "float") : "str");
  if (type === "bool") {
    input = h("input", { type: "checkbox", name, checked: opt.default, onchange: (e) => onchange(e.target.checked) });
    return h("label", { class: "field check", title: opt.help }, input, h("span", { text: opt.name.replaceAll("_", " ") }));
  }
  if (opt.choices && opt.choices.length) {
    input = h("select", { name, onchange: (e) => onchange(opt.choices.find((c) => String(c) === e.target.value)) },
      opt.choices.map((c) => h("option", { value: String(c), selected: c === opt.default, text: String(c) })));
  } else if (type === "int" || type === "float") {
    input = h("input", {
      type: "number", name, value: opt.default, min: opt.minimum ?? undefined, max: opt.maximum ?? undefined,
      step: type === "int" ? 1 : "any",
      onchange: (e) => e.target.value !== "" && onchange(Number(e.target.value)),
    });
  } else {
    input = h("input", { type: "text", name, value: opt.default ?? "", onchange: (e) => onchange(e.target.value) });
  }
  return h("label", { class: "field" }, h("span", { text: opt.name.replaceAll("_", " ") }), input, h("small", { text: opt.help }));
}

let describeSeq = 0;
async function refreshSeats(root) {
  const seq = ++describeSeq;
  const seatsNode = root.querySelector("#seats");
  const error = root.querySelector("#create-error");
  const button = root.querySelector("#create-game");
  try {
    const info = await api.describe(state.game.name, state.variant, state.options);
    if (seq !== describeSeq) return;
    state.describe = info;
    error.textContent = "";
    button.disabled = false;
    const old = state.seats;
    state.seats = info.player_names.map((_, i) => old[i] || (i === 0 ? { kind: "human" } : { kind: "ai", level: defaultLevel(info.levels) }));
    fixMine();
    renderSeats(seatsNode, info);
  } catch (err) {
    if (seq !== describeSeq) return;
    error.textContent = err.message;
    button.disabled = true;
    clear(seatsNode);
  }
}

/** Keep "my seat" on a human seat (the first one when it was switched to AI); null: none. */
function fixMine() {
  if (state.mine !== null && state.seats[state.mine]?.kind === "human") return;
  const first = state.seats.findIndex((s) => s.kind === "human");
  state.mine = first < 0 ? null : first;
}

function renderSeats(node, info) {
  clear(node);
  info.player_names.forEach((name, i) => {
    const seat = state.seats[i];
    const seg = h("div", { class: "seg", role: "group" },
      ["human", "ai"].map((kind) => h("button", {
        type: "button", class: seat.kind === kind ? "on" : "", "data-kind": kind,
        onclick: () => {
          state.seats[i] = kind === "ai" ? { kind, level: seat.level || defaultLevel(info.levels) } : { kind };
          fixMine();
          renderSeats(node, info);
        },
      }, kind === "ai" ? t("lobby.ai") : t("lobby.human"))));
    const level = seat.kind === "ai" && info.levels.length
      ? h("select", { name: `level-${i}`, onchange: (e) => { seat.level = e.target.value; } },
        info.levels.map((l) => h("option", { value: l, selected: l === seat.level, text: l })))
      : null;
    const mine = seat.kind === "human"
      ? h("label", { class: "mine" }, h("input", {
        type: "radio", name: "mine", value: String(i), checked: state.mine === i,
        onchange: () => { state.mine = i; },
      }), h("span", { text: t("lobby.mine") }))
      : null;
    node.append(h("div", { class: "seat-row", "data-seat": i }, h("span", { class: "seat-name", text: name }), seg, level, mine));
  });
}

async function createGame(root) {
  const error = root.querySelector("#create-error");
  const button = root.querySelector("#create-game");
  const spec = { game: state.game.name, variant: state.variant, options: state.options, seats: state.seats };
  if (state.mine !== null) spec.seat = state.mine;
  button.disabled = true;
  try {
    const created = await api.create(spec);
    error.textContent = "";
    if (created.seat !== null) keepSeat(created.id, created.seat, created.token, { creator: true });
    keepInvites(created.id, Object.fromEntries(created.seats.filter((s) => s.invite).map((s) => [s.seat, s.invite])));
    showLinks(root.querySelector("#created"), created);
  } catch (err) {
    error.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

function showLinks(node, created) {
  const mine = created.seat === null ? null : created.seats[created.seat];
  const play = mine ? `/play/${encodeURIComponent(created.id)}#seat=${mine.seat}` : `/play/${encodeURIComponent(created.id)}`;
  clear(node).append(
    h("div", { class: "card", style: "margin-top:1rem", id: "invite" },
      h("h3", { text: t("lobby.created") }),
      mine ? h("p", { class: "hint", text: t("lobby.yourSeat", { name: mine.name }) }) : null,
      created.seats.some((s) => s.invite) ? h("p", { class: "hint", text: t("lobby.inviteHint") }) : null,
      h("div", { class: "links" },
        created.seats.map((s) => {
          if (s.invite) return linkRow(s.name, s.url, "seat", { open: false });
          if (s.kind === "ai") return h("div", { class: "link-row" }, h("span", { class: "who", text: s.name }), h("span", { class: "hint", text: t("lobby.aiSeat", { level: s.level }) }));
          return null;
        }),
        linkRow(t("lobby.spectators"), created.spectator_url, "spectator")),
      h("p", { class: "hint", text: t("lobby.spectatorHint") }),
      h("p", {}, h("a", { class: "btn primary", href: play, id: "play-first" },
        mine ? t("lobby.playAs", { name: mine.name }) : t("lobby.watch"))),
    ),
  );
  node.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function gamesPanel(title, status, id) {
  const body = h("div", { class: "body" }, h("p", { class: "empty", text: t("loading") }));
  const panel = h("section", { class: "panel", id }, h("header", {}, h("span", { text: title }),
    h("button", { class: "btn small", type: "button", onclick: () => load() }, t("lobby.refresh"))), body);
  const load = async () => {
    try {
      const data = await api.list(status);
      const games = Array.isArray(data) ? data : data.games || [];
      clear(body);
      if (!games.length) {
        body.append(h("p", { class: "empty", text: status === "finished" ? t("lobby.noFinished") : t("lobby.noPlaying") }));
        return;
      }
      body.append(h("table", { class: "list" },
        h("tr", {}, h("th", { text: t("lobby.colGame") }), h("th", { text: t("lobby.colPlayers") }), h("th", { text: status === "finished" ? t("lobby.colResult") : t("lobby.colMoves") }), h("th", {})),
        games.slice(0, 50).map((g) => h("tr", { "data-id": g.id },
          h("td", { text: `${titleOf(g.game)}${g.variant && g.variant !== "standard" ? ` · ${g.variant}` : ""}` }),
          h("td", { text: (g.seats || []).map((s) => (s.kind === "ai" ? t("lobby.aiSeat", { level: s.level || "" }) : s.name)).join(" – ") }),
          h("td", { text: status === "finished" ? resultText(g.result) : String(g.plies ?? g.moves ?? "") }),
          h("td", {}, g.status === "unavailable" ? h("span", { class: "hint", text: t("lobby.unavailable") })
            : h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "btn small" }, status === "finished" ? t("lobby.replay") : t("lobby.watch")))))));
    } catch (err) {
      clear(body).append(h("p", { class: "error", text: err.message }));
    }
  };
  load();
  return panel;
}

function defaultLevel(levels) {
  return levels.includes("easy") ? "easy" : levels[0];
}

function titleOf(name) {
  return state.meta.games.find((g) => g.name === name)?.title || name;
}

function resultText(result) {
  if (!result) return "";
  return typeof result === "string" ? result : result.text || "";
}
