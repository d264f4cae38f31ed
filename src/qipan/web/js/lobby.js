// The lobby: create a game (game, variant, options, seats), share its links, list games.
import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";

const state = { meta: null, game: null, variant: null, options: {}, seats: [], describe: null };

export async function showLobby(app) {
  const meta = await api.meta();
  state.meta = meta;
  clear(app);
  const create = h("section", { class: "card", id: "create" });
  const side = h("div", { class: "side" });
  app.append(h("div", { class: "lobby" }, create, side));
  const wanted = new URLSearchParams(location.search).get("game");
  selectGame(create, meta.games.find((g) => g.name === wanted) || meta.games[0]);
  side.append(gamesPanel("Games in play", "playing", "games"), gamesPanel("Finished games", "finished", "finished"));
  if (location.hash) document.querySelector(location.hash)?.scrollIntoView();
}

function selectGame(root, game) {
  state.game = game;
  state.variant = game.variants.length ? game.variants[0].name : null;
  state.options = {};
  state.seats = [];
  renderCreate(root);
  refreshSeats(root);
}

function renderCreate(root) {
  const game = state.game;
  clear(root).append(
    h("h2", { text: "Create a game" }),
    h("div", { class: "game-picker", role: "radiogroup", "aria-label": "game" },
      state.meta.games.map((g) =>
        h("button", {
          type: "button", class: `game-tile${g === game ? " on" : ""}`, role: "radio",
          "aria-checked": String(g === game), "data-game": g.name,
          onclick: () => selectGame(root, g),
        }, h("strong", { text: g.title }), h("small", { text: `${g.variants.length || 1} variant${g.variants.length > 1 ? "s" : ""}` })),
      ),
    ),
    h("p", { class: "hint" }, "Rules: ", h("a", { href: `/static/rules/${game.name}.html`, target: "_blank", text: `${game.title} in brief` })),
  );
  if (game.variants.length) {
    const select = h("select", { name: "variant", onchange: (e) => { state.variant = e.target.value; renderOptions(root); refreshSeats(root); } },
      game.variants.map((v) => h("option", { value: v.name, selected: v.name === state.variant, text: v.name })));
    const help = h("small", { text: game.variants.find((v) => v.name === state.variant)?.help || "" });
    select.addEventListener("change", () => { help.textContent = game.variants.find((v) => v.name === state.variant)?.help || ""; });
    root.append(h("label", { class: "field" }, h("span", { text: "Variant" }), select, help));
  }
  // Options that name files on the server's machine (Sheng-Ke decks) are for the terminal only.
  const offered = game.options.filter((opt) => !opt.local_file);
  if (offered.length) {
    root.append(h("details", { class: "field", open: offered.length <= 4 },
      h("summary", { text: "Options" }), h("div", { class: "options-grid", id: "options" })));
    renderOptions(root);
  }
  root.append(h("h3", { text: "Seats" }), h("div", { class: "seats", id: "seats" }));
  const seed = h("input", { type: "number", name: "seed", placeholder: "random", min: 0 });
  root.append(
    h("details", { class: "field" }, h("summary", { text: "Advanced" }), h("label", { class: "field" }, h("span", { text: "Seed (for dice and shuffles)" }), seed)),
    h("p", { class: "error", id: "create-error" }),
    h("button", { class: "btn primary", id: "create-game", type: "button", onclick: () => createGame(root, seed.value) }, "Create game"),
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
    renderSeats(seatsNode, info);
  } catch (err) {
    if (seq !== describeSeq) return;
    error.textContent = err.message;
    button.disabled = true;
    clear(seatsNode);
  }
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
          renderSeats(node, info);
        },
      }, kind === "ai" ? "AI" : "Human")));
    const level = seat.kind === "ai" && info.levels.length
      ? h("select", { name: `level-${i}`, onchange: (e) => { seat.level = e.target.value; } },
        info.levels.map((l) => h("option", { value: l, selected: l === seat.level, text: l })))
      : null;
    node.append(h("div", { class: "seat-row", "data-seat": i }, h("span", { class: "seat-name", text: name }), seg, level));
  });
}

async function createGame(root, seed) {
  const error = root.querySelector("#create-error");
  const button = root.querySelector("#create-game");
  const spec = { game: state.game.name, variant: state.variant, options: state.options, seats: state.seats };
  if (seed !== "") spec.seed = Number(seed);
  button.disabled = true;
  try {
    const created = await api.create(spec);
    error.textContent = "";
    showLinks(root.querySelector("#created"), created);
  } catch (err) {
    error.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

function linkRow(who, url, cls) {
  const full = absolute(url);
  return h("div", { class: `link-row ${cls}` },
    h("span", { class: "who", text: who }),
    h("code", { text: full, title: full }),
    h("button", {
      type: "button", class: "btn small",
      onclick: () => navigator.clipboard?.writeText(full).then(() => toast("Link copied", 1500), () => toast(full, 6000)),
    }, "Copy"),
    h("a", { class: "btn small", href: url, target: cls === "spectator" ? "_blank" : undefined }, "Open"));
}

function showLinks(node, created) {
  const humans = created.seats.filter((s) => s.kind === "human");
  clear(node).append(
    h("div", { class: "card", style: "margin-top:1rem", id: "invite" },
      h("h3", { text: "Game created — share the links" }),
      h("p", { class: "hint", text: "Each human seat has its own secret link. Anyone with the spectator link can watch." }),
      h("div", { class: "links" },
        created.seats.map((s) => s.kind === "human"
          ? linkRow(`${s.name}`, s.url, "seat")
          : h("div", { class: "link-row" }, h("span", { class: "who", text: s.name }), h("span", { class: "hint", text: `AI (${s.level})` }))),
        linkRow("Spectators", created.spectator_url, "spectator")),
      humans.length ? h("p", {}, h("a", { class: "btn primary", href: humans[0].url, id: "play-first" }, `Play as ${humans[0].name}`)) : null,
    ),
  );
  node.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function gamesPanel(title, status, id) {
  const body = h("div", { class: "body" }, h("p", { class: "empty", text: "Loading…" }));
  const panel = h("section", { class: "panel", id }, h("header", {}, h("span", { text: title }),
    h("button", { class: "btn small", type: "button", onclick: () => load() }, "Refresh")), body);
  const load = async () => {
    try {
      const data = await api.list(status);
      const games = Array.isArray(data) ? data : data.games || [];
      clear(body);
      if (!games.length) {
        body.append(h("p", { class: "empty", text: status === "finished" ? "No finished games yet." : "No games in play." }));
        return;
      }
      body.append(h("table", { class: "list" },
        h("tr", {}, h("th", { text: "Game" }), h("th", { text: "Players" }), h("th", { text: status === "finished" ? "Result" : "Moves" }), h("th", {})),
        games.slice(0, 50).map((g) => h("tr", { "data-id": g.id },
          h("td", { text: `${titleOf(g.game)}${g.variant && g.variant !== "standard" ? ` · ${g.variant}` : ""}` }),
          h("td", { text: (g.seats || []).map((s) => (s.kind === "ai" ? `AI ${s.level || ""}`.trim() : s.name)).join(" – ") }),
          h("td", { text: status === "finished" ? resultText(g.result) : String(g.plies ?? g.moves ?? "") }),
          h("td", {}, h("a", { href: `/play/${encodeURIComponent(g.id)}`, class: "btn small" }, status === "finished" ? "Replay" : "Watch"))))));
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
