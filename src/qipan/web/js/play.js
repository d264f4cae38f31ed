// The game page: board, players and clocks, move list, log, notation box, result and replay.
//
// Which seat this browser plays comes from localStorage (seats.js), filled from the link's
// fragment (#invite=… claims a seat, #seat=N&token=… moves one here); the fragment is removed
// at once, so no secret stays in the address bar, the history or a bookmark.
import { api, gameMeta } from "./api.js";
import { absolute, clear, formatClock, h, linkRow, PALETTE, toast } from "./dom.js";
import { t } from "./i18n.js";
import { defaultSeat, forgetSeat, held, keepInvites, keepSeat, parseFragment, tokenFor } from "./seats.js";
import { GameSocket, helloFor, socketUrl } from "./socket.js";

export async function showGame(app, id) {
  const seat = await seatFromLink(id);
  const info = await api.game(id);
  const meta = (await gameMeta(info.game)) || { name: info.game, title: info.game, levels: [] };
  let board;
  try {
    board = await import(`/static/boards/${info.game}.js`);
  } catch (err) {
    throw new Error(t("game.noBoard", { game: info.game, error: err.message }));
  }
  document.title = `${meta.title} · qipan`;
  new GamePage(app, { id, seat, token: seat === null ? null : tokenFor(id, seat), info, meta, board }).start();
}

/** Read the link's fragment (claiming an invitation if it holds one), forget it, and return
 * the seat this page plays (null: watch). */
async function seatFromLink(id) {
  const link = parseFragment(location.hash);
  let seat = null;
  if (link.invite) {
    try {
      const claimed = await api.claim(id, link.invite);
      keepSeat(id, claimed.seat, claimed.token);
      seat = claimed.seat;
    } catch (err) {
      // 409: used already (perhaps by this browser, which then holds the seat anyway).
      // The server says why: used already, or the game is over (both 409).
      const used = err.status === 409 && !/over/.test(err.message);
      toast(used ? t("invite.used") : err.status === 409 ? t("invite.over") : err.status === 403 ? t("invite.invalid")
        : err.message, 6000);
    }
  } else if (link.seat !== null && link.token) {
    keepSeat(id, link.seat, link.token);
    seat = link.seat;
  } else if (link.seat !== null && tokenFor(id, link.seat)) {
    seat = link.seat;
  }
  if (seat === null) seat = defaultSeat(id);
  const clean = `${location.pathname}${location.search}${seat === null ? "" : `#seat=${seat}`}`;
  history.replaceState(history.state, "", clean);
  return seat;
}

class GamePage {
  constructor(app, { id, seat, token, info, meta, board }) {
    Object.assign(this, { app, id, seat, token, info, meta, boardModule: board });
    this.msg = null; // the latest update from the server
    this.moves = []; // the public move history as far as this page knows it
    this.syncing = false; // a sync was asked for and not yet answered
    this.pending = false; // a move was sent and not yet answered
    this.clockBase = null;
    this.replay = null; // {moves, ply, cache} while replaying
    this.build();
  }

  build() {
    const rulesHref = `/static/rules/${this.info.game}.html`;
    this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      banner: h("div", { class: "conn-banner", hidden: true, text: t("game.reconnecting") }),
      players: h("div", { class: "players", id: "players" }),
      status: h("div", { class: "status", id: "status", text: t("game.connecting") }),
      result: h("div", { id: "result" }),
      invites: h("div", { id: "invites" }),
      replayBar: h("div", { id: "replay-bar" }),
      moves: h("div", { class: "moves", id: "moves" }),
      log: h("ol", { class: "log", id: "log" }),
      input: h("input", { type: "text", id: "notation", placeholder: t("game.placeholder", { move: "a1b2" }), autocomplete: "off", spellcheck: "false", "aria-label": t("game.moveLabel") }),
      controls: h("div", { class: "controls", id: "controls" }),
    };
    const e = this.els;
    const aspect = this.boardModule.aspect || 1;
    e.boardHost.style.setProperty("--board-aspect", String(aspect));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    const notationForm = h("form", { class: "notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      e.input, h("button", { class: "btn", type: "submit" }, t("game.play")));
    const side = h("aside", { class: "side" },
      h("section", { class: "panel game-head" },
        h("h2", { text: this.meta.title }),
        h("div", { class: "sub" }, this.info.variant || "standard", " · ",
          h("a", { href: rulesHref, target: "_blank", id: "rules-link" }, t("game.rules")), " · ",
          h("a", { href: "/" }, t("game.lobby")))),
      h("section", { class: "panel players-panel" }, e.players, e.status),
      e.result,
      e.invites,
      h("section", { class: "panel" }, h("header", {}, h("span", { text: t("game.moves") })), e.moves, e.replayBar),
      this.seat !== null ? h("section", { class: "panel", id: "move-input" }, notationForm, e.controls) : null,
      h("section", { class: "panel", id: "log-panel", hidden: true }, h("header", {}, h("span", { text: t("game.log") })), e.log),
    );
    clear(this.app).append(h("div", { class: "play" }, h("div", { class: "board-col" }, e.banner, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra, { info: this.info, meta: this.meta, seat: this.seat });
    if (this.seat !== null) {
      e.controls.append(h("button", {
        class: "btn danger small", type: "button", id: "resign",
        onclick: () => { if (confirm(t("game.resignConfirm"))) this.socket.send({ type: "resign" }); },
      }, t("game.resign")));
      const link = `/play/${encodeURIComponent(this.id)}#seat=${this.seat}&token=${encodeURIComponent(this.token)}`;
      e.controls.append(h("details", { class: "seat-link", id: "seat-link" }, h("summary", { text: t("seat.link") }),
        h("p", { class: "hint", text: t("seat.linkHint") }), linkRow("", link, "own", { open: false })));
    }
  }

  start() {
    this.socket = new GameSocket(socketUrl(this.id), helloFor(this.seat, this.token), {
      onMessage: (m) => this.receive(m),
      onState: (st) => {
        this.els.banner.hidden = st === "open" || !this.msg;
        if (st === "open") this.syncing = true; // the first update after hello is the whole history
      },
      onFatal: (code) => this.refused(code),
    });
    this.ticker = setInterval(() => this.tickClocks(), 100);
    if (this.info.status === "finished") this.enterReplay();
  }

  /** The server refused this page's seat (a stale or wrong token): forget it and watch. */
  refused(code) {
    clearInterval(this.ticker);
    if (code === 4403 && this.seat !== null) {
      forgetSeat(this.id, this.seat);
      toast(t("seat.rejected", { seat: this.seat }), 8000);
      history.replaceState(history.state, "", location.pathname);
      showGame(this.app, this.id);
    }
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
    this.follow(m);
    const first = !this.msg;
    const key = JSON.stringify([m.view, m.legal]);
    this.newPosition = key !== this.positionKey;
    this.positionKey = key;
    this.msg = m;
    this.clockBase = m.clocks ? { clocks: m.clocks.slice(), at: performance.now(), toMove: m.to_move } : null;
    this.els.banner.hidden = true;
    if (!this.replay) this.render(m);
    if (first && m.result && this.info.status !== "finished") this.addLog(t("game.overLog"));
  }

  /** Keep the move history from an update: the whole of it (first 0), or the moves after ply
   * ``first``; a gap (an update this page missed) asks the server for everything again. */
  follow(m) {
    if (m.first === 0) {
      this.moves = m.moves.slice();
      this.syncing = false;
    } else if (m.first <= this.moves.length) {
      this.moves = this.moves.slice(0, m.first).concat(m.moves);
    } else if (m.history && !this.syncing) {
      this.syncing = true;
      this.socket.send({ type: "sync" });
    } else if (!m.history) {
      this.moves = []; // a game whose moves are for the players to remember: none is kept
    }
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
    this.renderMoves(this.moves, m);
    this.renderLog(m);
    this.renderResult(m);
    this.renderInvites(m);
    this.els.input.disabled = !interactive;
    this.els.input.placeholder = interactive && m.legal.length ? t("game.placeholder", { move: m.legal[0] }) : t("game.notYourMove");
    const resign = document.getElementById("resign");
    if (resign) resign.disabled = !!m.result || !live;
  }

  seatName(i) {
    const seats = this.msg?.seats || this.info.seats || [];
    return seats[i]?.name ?? t("game.player", { n: i + 1 });
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
        i === this.seat ? h("span", { class: "tag you", text: t("game.you") }) : null,
        s.kind === "ai" ? h("span", { class: "tag", text: `AI ${s.level || ""}`.trim() }) : null,
        s.kind === "human" && s.claimed === false ? h("span", { class: "tag invited", text: t("game.invited") }) : null,
        s.kind === "human" && "connected" in s ? h("span", { class: `conn${s.connected ? " on" : ""}`, title: s.connected ? t("game.online") : t("game.offline") }) : null,
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
      const time = running ? left - (performance.now() - base.at) / 1000 : left;
      node.textContent = formatClock(time);
      node.classList.toggle("running", running && time >= 20);
      node.classList.toggle("low", running && time < 20);
    });
  }

  renderStatus(m, interactive) {
    const st = this.els.status;
    st.classList.toggle("mine", interactive);
    if (this.replay) {
      st.textContent = t("game.replayStatus", { ply: this.replay.ply, n: this.replay.moves.length });
    } else if (m.result) {
      st.textContent = resultText(m.result);
    } else if (m.to_move === "chance") {
      st.textContent = t("game.chance");
    } else if (interactive) {
      st.textContent = t("game.yourMove");
    } else if (typeof m.to_move === "number") {
      const s = (m.seats || [])[m.to_move];
      st.textContent = t(s && s.kind === "ai" ? "game.aiThinking" : "game.toMove", { name: this.seatName(m.to_move) });
    } else {
      st.textContent = "";
    }
  }

  renderMoves(moves, m) {
    const node = this.els.moves;
    if (!this.replay && m && m.history === false) {
      clear(node).append(h("span", {}), h("span", { class: "m empty", text: t("game.hiddenMoves", { n: m.ply }) }));
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
    if (!moves.length) node.append(h("span", {}), h("span", { class: "m empty", text: t("game.noMoves") }));
    const cur = node.querySelector(".cur");
    if (this.replay && cur) cur.scrollIntoView({ block: "nearest" });
    else if (atEnd || !this.replay) node.scrollTop = node.scrollHeight;
  }

  renderLog(m) {
    let lines = (this.boardModule.log ? this.boardModule.log(m.view, m) : m.view?.log) || [];
    if (!lines.length) lines = this.moves.map((mv) => mv.description).filter(Boolean).slice(-50);
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
    if (this.seat !== null && this.token) {
      btns.append(h("button", { class: "btn primary", type: "button", id: m.rematch ? "rematch-join" : "rematch", onclick: () => this.rematch() },
        m.rematch ? t("game.joinRematch") : t("game.rematch")));
    } else if (m.rematch) {
      btns.append(h("a", { class: "btn primary", href: `/play/${encodeURIComponent(m.rematch.id)}`, id: "rematch-join" }, t("game.watchRematch")));
    }
    btns.append(h("button", { class: "btn", type: "button", id: "replay", onclick: () => this.enterReplay() }, t("game.replay")),
      h("a", { class: "btn", href: "/" }, t("game.newGame")));
    node.append(h("section", { class: "result", id: "result-box" }, h("h3", { text: t("game.over") }),
      h("div", { text: resultText(m.result) }), btns));
  }

  /** For the game's creator: links for the seats nobody has taken, and a way to replace them. */
  renderInvites(m) {
    const node = this.els.invites;
    const mine = held(this.id);
    const open = (m.seats || []).filter((s) => s.kind === "human" && s.claimed === false);
    if (mine.creator === null || mine.creator !== this.seat || !open.length || m.result) {
      clear(node);
      return;
    }
    const key = JSON.stringify([open.map((s) => s.seat), mine.invites]);
    if (key === this.invitesKey && node.firstChild) return;
    this.invitesKey = key;
    clear(node).append(h("section", { class: "panel", id: "invite-panel" },
      h("header", {}, h("span", { text: t("invite.title") })),
      h("div", { class: "body" },
        h("p", { class: "hint", text: t("invite.hint") }),
        h("div", { class: "links" }, open.map((s) => {
          const code = mine.invites[String(s.seat)];
          return code ? linkRow(s.name, `/play/${encodeURIComponent(this.id)}#invite=${encodeURIComponent(code)}`, "seat", { open: false })
            : h("div", { class: "link-row" }, h("span", { class: "who", text: s.name }), h("span", { class: "hint", text: t("invite.none") }));
        })),
        h("p", { class: "hint", text: t("invite.renewHint") }),
        h("button", { class: "btn small", type: "button", id: "renew-invites", onclick: () => this.renewInvites() }, t("invite.renew")))));
  }

  async renewInvites() {
    try {
      const reply = await api.invites(this.id, this.token);
      keepInvites(this.id, Object.fromEntries(reply.invites.map((i) => [i.seat, i.invite])));
      this.invitesKey = null;
      if (this.msg) this.renderInvites(this.msg);
    } catch (err) {
      toast(err.message);
    }
  }

  submit(text) {
    if (!this.myTurn || this.pending) return;
    if (!this.socket.send({ type: "move", move: text })) {
      toast(t("game.notConnected"));
      return;
    }
    this.pending = true;
    this.board.render(this.msg, { seat: this.seat, interactive: false, fresh: false, submit: () => {}, pending: text });
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text) return;
    if (!this.myTurn) {
      toast(t("game.notYourTurn"));
      return;
    }
    this.els.input.value = "";
    this.submit(text);
  }

  /** Start or join the rematch: the server answers with this player's own new seat and token. */
  async rematch() {
    try {
      const r = await api.rematch(this.id, this.token);
      keepSeat(r.id, r.seat, r.token, { creator: held(this.id).creator === this.seat });
      location.href = absolute(`/play/${encodeURIComponent(r.id)}#seat=${r.seat}`);
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
      toast(t("game.noReplay", { error: err.message }));
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
      btn("⏮", t("game.replayFirst"), "replay-first", () => this.goto(0)),
      btn("◀", t("game.replayPrev"), "replay-prev", () => this.goto(this.replay.ply - 1)),
      this.plyLabel,
      btn("▶", t("game.replayNext"), "replay-next", () => this.goto(this.replay.ply + 1)),
      btn("⏭", t("game.replayLast"), "replay-last", () => this.goto(this.replay.moves.length)),
    );
    if (this.info.status !== "finished") {
      bar.append(btn("✕", t("game.replayExit"), "replay-exit", () => this.exitReplay()));
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
        toast(t("game.noPly", { ply, error: err.message }));
        return;
      }
      r.cache.set(ply, frame);
    }
    if (this.replay !== r || r.ply !== ply) return;
    const shown = { ...frame, legal: [], moves: r.moves, seats: frame.seats || this.msg?.seats || this.info.seats };
    this.board.render(shown, { seat: null, interactive: false, fresh: true, submit: () => {} });
    this.renderPlayers({ ...shown, clocks: frame.clocks || null });
    this.renderStatus(shown, false);
    this.renderMoves(r.moves, shown);
    this.renderLog(shown);
    clear(this.els.result);
  }
}

export function resultText(result) {
  if (!result) return "";
  return typeof result === "string" ? result : result.text || JSON.stringify(result);
}
