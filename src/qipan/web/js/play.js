// The game page: board, players and clocks, move list, log, notation box, result and replay.
import { api, gameMeta } from "./api.js";
import { clear, formatClock, h, PALETTE, toast } from "./dom.js";
import { GameSocket, socketUrl } from "./socket.js";

export async function showGame(app, id, params) {
  const seatParam = params.get("seat");
  const seat = seatParam === null ? null : Number(seatParam);
  const token = params.get("token");
  const info = await api.game(id);
  const meta = (await gameMeta(info.game)) || { name: info.game, title: info.game, levels: [] };
  let board;
  try {
    board = await import(`/static/boards/${info.game}.js`);
  } catch (err) {
    throw new Error(`no board for ${info.game} in this client (${err.message})`);
  }
  document.title = `${meta.title} · qipan`;
  new GamePage(app, { id, seat, token, info, meta, board }).start();
}

class GamePage {
  constructor(app, { id, seat, token, info, meta, board }) {
    Object.assign(this, { app, id, seat, token, info, meta, boardModule: board });
    this.msg = null; // the latest update from the server
    this.pending = false; // a move was sent and not yet answered
    this.clockBase = null;
    this.replay = null; // {moves, ply, cache} while replaying
    this.build();
  }

  build() {
    const rulesHref = `/static/rules/${this.info.game}.html`;
    const variant = this.info.variant && this.info.variant !== "standard" ? ` · ${this.info.variant}` : "";
    this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      banner: h("div", { class: "conn-banner", hidden: true, text: "Reconnecting…" }),
      players: h("div", { class: "players", id: "players" }),
      status: h("div", { class: "status", id: "status", text: "Connecting…" }),
      result: h("div", { id: "result" }),
      replayBar: h("div", { id: "replay-bar" }),
      moves: h("div", { class: "moves", id: "moves" }),
      log: h("ol", { class: "log", id: "log" }),
      input: h("input", { type: "text", id: "notation", placeholder: "type a move, e.g. a1b2", autocomplete: "off", spellcheck: "false", "aria-label": "move in notation" }),
      controls: h("div", { class: "controls", id: "controls" }),
    };
    const e = this.els;
    const aspect = this.boardModule.aspect || 1;
    e.boardHost.style.setProperty("--board-aspect", String(aspect));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    const notationForm = h("form", { class: "notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      e.input, h("button", { class: "btn", type: "submit" }, "Play"));
    const side = h("aside", { class: "side" },
      h("section", { class: "panel game-head" },
        h("h2", { text: this.meta.title }),
        h("div", { class: "sub" }, `${this.info.variant || ""}${variant ? "" : ""}`.trim() || "standard", " · ",
          h("a", { href: rulesHref, target: "_blank", id: "rules-link" }, "rules"), " · ",
          h("a", { href: "/" }, "lobby"))),
      h("section", { class: "panel players-panel" }, e.players, e.status),
      e.result,
      h("section", { class: "panel" }, h("header", {}, h("span", { text: "Moves" })), e.moves, e.replayBar),
      this.seat !== null ? h("section", { class: "panel", id: "move-input" }, notationForm, e.controls) : null,
      h("section", { class: "panel", id: "log-panel", hidden: true }, h("header", {}, h("span", { text: "Log" })), e.log),
    );
    clear(this.app).append(h("div", { class: "play" }, h("div", { class: "board-col" }, e.banner, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra, { info: this.info, meta: this.meta, seat: this.seat });
    if (this.seat !== null) {
      e.controls.append(h("button", {
        class: "btn danger small", type: "button", id: "resign",
        onclick: () => { if (confirm("Resign this game?")) this.socket.send({ type: "resign" }); },
      }, "Resign"));
    }
  }

  start() {
    this.socket = new GameSocket(socketUrl(this.id, this.seat, this.token), {
      onMessage: (m) => this.receive(m),
      onState: (st) => { this.els.banner.hidden = st === "open" || !this.msg; },
    });
    this.ticker = setInterval(() => this.tickClocks(), 100);
    if (this.info.status === "finished") this.enterReplay();
  }

  receive(m) {
    if (m.type === "error") {
      this.pending = false;
      toast(m.error);
      this.addLog(`⚠ ${m.error}`);
      if (this.msg && !this.replay) this.render(this.msg);
      return;
    }
    if (m.type !== "update") return;
    this.pending = false;
    const first = !this.msg;
    const key = JSON.stringify([m.view, m.legal]);
    this.newPosition = key !== this.positionKey;
    this.positionKey = key;
    this.msg = m;
    this.clockBase = m.clocks ? { clocks: m.clocks.slice(), at: performance.now(), toMove: m.to_move } : null;
    this.els.banner.hidden = true;
    if (!this.replay) this.render(m);
    if (first && m.result && this.info.status !== "finished") this.addLog("the game is over");
  }

  get myTurn() {
    const m = this.msg;
    return !!m && this.seat !== null && m.to_move === this.seat && !m.result && (m.legal || []).length > 0;
  }

  render(m) {
    const live = !this.replay;
    const interactive = live && this.myTurn && !this.pending;
    this.board.render(m, {
      seat: this.seat,
      interactive,
      fresh: this.newPosition,
      submit: (text) => this.submit(text),
    });
    this.newPosition = false;
    this.renderPlayers(m);
    this.renderStatus(m, interactive);
    this.renderMoves(m.moves || []);
    this.renderLog(m);
    this.renderResult(m);
    this.els.input.disabled = !interactive;
    this.els.input.placeholder = interactive && m.legal.length ? `type a move, e.g. ${m.legal[0]}` : "not your move";
    const resign = document.getElementById("resign");
    if (resign) resign.disabled = !!m.result || !live;
  }

  seatName(i) {
    const seats = this.msg?.seats || this.info.seats || [];
    return seats[i]?.name ?? `player ${i + 1}`;
  }

  renderPlayers(m) {
    const seats = m.seats || this.info.seats || [];
    const color = this.boardModule.seatColor || ((_, i) => PALETTE[i % PALETTE.length]);
    const score = this.boardModule.score || (() => null);
    clear(this.els.players);
    seats.forEach((s, i) => {
      const clock = m.clocks ? h("span", { class: "clock", "data-clock": i, text: formatClock(m.clocks[i]) }) : null;
      const sc = score(m.view, i);
      this.els.players.append(h("div", { class: `player${m.to_move === i && !m.result ? " to-move" : ""}`, "data-seat": i },
        h("span", { class: "swatch", style: `background:${color(m.view, i)}` }),
        h("span", { class: "pname", text: s.name }),
        i === this.seat ? h("span", { class: "tag you", text: "you" }) : null,
        s.kind === "ai" ? h("span", { class: "tag", text: `AI ${s.level || ""}`.trim() }) : null,
        s.kind === "human" && "connected" in s ? h("span", { class: `conn${s.connected ? " on" : ""}`, title: s.connected ? "online" : "offline" }) : null,
        sc !== null && sc !== undefined ? h("span", { class: "score", text: String(sc) }) : null,
        clock));
    });
    this.tickClocks();
  }

  tickClocks() {
    const base = this.clockBase;
    if (!base || this.replay) return;
    const over = !!this.msg?.result;
    base.clocks.forEach((left, i) => {
      const node = this.els.players.querySelector(`[data-clock="${i}"]`);
      if (!node) return;
      const running = !over && base.toMove === i;
      const t = running ? left - (performance.now() - base.at) / 1000 : left;
      node.textContent = formatClock(t);
      node.classList.toggle("running", running && t >= 20);
      node.classList.toggle("low", running && t < 20);
    });
  }

  renderStatus(m, interactive) {
    const st = this.els.status;
    st.classList.toggle("mine", interactive);
    if (this.replay) {
      st.textContent = `Replay · ply ${this.replay.ply} of ${this.replay.moves.length}`;
    } else if (m.result) {
      st.textContent = resultText(m.result);
    } else if (m.to_move === "chance") {
      st.textContent = "Chance…";
    } else if (interactive) {
      st.textContent = "Your move";
    } else if (typeof m.to_move === "number") {
      const s = (m.seats || [])[m.to_move];
      st.textContent = `${this.seatName(m.to_move)} to move${s && s.kind === "ai" ? " (AI thinking…)" : ""}`;
    } else {
      st.textContent = "";
    }
  }

  renderMoves(moves) {
    const node = this.els.moves;
    if (this.boardModule.hideMovesWhilePlaying && !this.replay && !this.msg?.result) {
      clear(node).append(h("span", {}), h("span", { class: "m empty", text: `${moves.length} moves — the list shows in the replay (memory is part of this game)` }));
      return;
    }
    const atEnd = node.scrollTop + node.clientHeight >= node.scrollHeight - 4;
    clear(node);
    const color = this.boardModule.seatColor || ((_, i) => PALETTE[i % PALETTE.length]);
    const current = this.replay ? this.replay.ply : moves.length;
    moves.forEach((mv, i) => {
      const ply = mv.ply ?? i + 1;
      const chance = mv.player === "chance" || mv.player === -1;
      const who = chance ? "⚄ " : "";
      const cls = ["m", chance ? "chance" : "", ply === current ? "cur" : "", this.replay ? "link" : ""].join(" ").trim();
      node.append(h("span", { class: "n", text: String(ply) }),
        h("span", {
          class: cls, "data-ply": ply, title: chance ? "chance" : this.seatName(mv.player),
          onclick: this.replay ? () => this.goto(ply) : undefined,
        },
        chance ? null : h("span", { class: "dot", style: `display:inline-block;width:.55em;height:.55em;border-radius:50%;margin-right:.4em;background:${color(this.msg?.view, mv.player)}` }),
        who + mv.text));
    });
    if (!moves.length) node.append(h("span", {}), h("span", { class: "m empty", text: "no moves yet" }));
    const cur = node.querySelector(".cur");
    if (this.replay && cur) cur.scrollIntoView({ block: "nearest" });
    else if (atEnd || !this.replay) node.scrollTop = node.scrollHeight;
  }

  renderLog(m) {
    let lines = (this.boardModule.log ? this.boardModule.log(m.view, m) : m.view?.log) || [];
    if (!lines.length) lines = (m.moves || []).map((mv) => mv.description).filter(Boolean).slice(-50);
    const node = this.els.log;
    const errors = [...node.querySelectorAll("li.local")].map((li) => li.textContent);
    clear(node);
    for (const line of lines) node.append(h("li", { text: typeof line === "string" ? line : JSON.stringify(line) }));
    for (const text of errors.slice(-5)) node.append(h("li", { class: "local", text }));
    document.getElementById("log-panel").hidden = !node.children.length;
    node.scrollTop = node.scrollHeight;
  }

  addLog(text) {
    document.getElementById("log-panel").hidden = false;
    this.els.log.append(h("li", { class: "local", text }));
    this.els.log.scrollTop = this.els.log.scrollHeight;
  }

  renderResult(m) {
    const node = clear(this.els.result);
    if (!m.result || this.replay) return;
    const btns = h("div", { class: "btns" });
    if (this.seat !== null && this.token && !(m.rematch && m.rematch.url)) {
      btns.append(h("button", { class: "btn primary", type: "button", id: "rematch", onclick: () => this.rematch() }, "Rematch"));
    }
    if (m.rematch && m.rematch.url) {
      btns.append(h("a", { class: "btn primary", href: m.rematch.url, id: "rematch-join" }, this.seat === null ? "Watch the rematch" : "Join the rematch"));
    }
    btns.append(h("button", { class: "btn", type: "button", id: "replay", onclick: () => this.enterReplay() }, "Replay"),
      h("a", { class: "btn", href: "/" }, "New game"));
    node.append(h("section", { class: "result", id: "result-box" }, h("h3", { text: "Game over" }),
      h("div", { text: resultText(m.result) }), btns));
  }

  submit(text) {
    if (!this.myTurn || this.pending) return;
    if (!this.socket.send({ type: "move", move: text })) {
      toast("not connected — the move was not sent");
      return;
    }
    this.pending = true;
    this.board.render(this.msg, { seat: this.seat, interactive: false, fresh: false, submit: () => {}, pending: text });
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text) return;
    if (!this.myTurn) {
      toast("it is not your move");
      return;
    }
    this.els.input.value = "";
    this.submit(text);
  }

  async rematch() {
    try {
      const r = await api.rematch(this.id, this.seat, this.token);
      const url = r.url || (r.id ? `/play/${r.id}` : null);
      if (url) location.href = url;
    } catch (err) {
      toast(err.message);
    }
  }

  // -- replay ------------------------------------------------------------------------------

  async enterReplay() {
    let record;
    try {
      record = await api.record(this.id);
    } catch (err) {
      toast(`no replay: ${err.message}`);
      return;
    }
    const moves = (record.moves || []).map((mv, i) => ({ ply: i + 1, player: mv.player, text: mv.move ?? mv.text }));
    this.replay = { moves, ply: moves.length, cache: new Map() };
    this.els.input.disabled = true;
    const bar = clear(this.els.replayBar);
    bar.classList.add("replay-bar");
    const btn = (label, title, id, fn) => h("button", { class: "btn small", type: "button", title, id, onclick: fn }, label);
    this.plyLabel = h("span", { class: "ply" });
    bar.append(
      btn("⏮", "start", "replay-first", () => this.goto(0)),
      btn("◀", "previous move", "replay-prev", () => this.goto(this.replay.ply - 1)),
      this.plyLabel,
      btn("▶", "next move", "replay-next", () => this.goto(this.replay.ply + 1)),
      btn("⏭", "end", "replay-last", () => this.goto(this.replay.moves.length)),
    );
    if (this.info.status !== "finished") {
      bar.append(btn("✕", "back to the game", "replay-exit", () => this.exitReplay()));
    }
    document.addEventListener("keydown", (this.keys = (ev) => {
      if (!this.replay || ev.target instanceof HTMLInputElement) return;
      if (ev.key === "ArrowLeft") this.goto(this.replay.ply - 1);
      if (ev.key === "ArrowRight") this.goto(this.replay.ply + 1);
    }));
    await this.goto(moves.length);
  }

  exitReplay() {
    this.replay = null;
    document.removeEventListener("keydown", this.keys);
    clear(this.els.replayBar);
    if (this.msg) this.render(this.msg);
  }

  async goto(ply) {
    const r = this.replay;
    if (!r) return;
    ply = Math.max(0, Math.min(r.moves.length, ply));
    r.ply = ply;
    this.plyLabel.textContent = `${ply} / ${r.moves.length}`;
    let frame = r.cache.get(ply);
    if (!frame) {
      try {
        frame = await api.replay(this.id, ply);
      } catch (err) {
        toast(`cannot show ply ${ply}: ${err.message}`);
        return;
      }
      r.cache.set(ply, frame);
    }
    if (this.replay !== r || r.ply !== ply) return;
    const shown = { ...frame, legal: [], moves: r.moves, seats: frame.seats || this.msg?.seats || this.info.seats };
    this.board.render(shown, { seat: null, interactive: false, fresh: true, submit: () => {} });
    this.renderPlayers({ ...shown, clocks: frame.clocks || null });
    this.renderStatus(shown, false);
    this.renderMoves(r.moves);
    this.renderLog(shown);
    clear(this.els.result);
  }
}

export function resultText(result) {
  if (!result) return "";
  return typeof result === "string" ? result : result.text || JSON.stringify(result);
}
