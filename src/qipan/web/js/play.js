// The game page: board, players and clocks, offers, move list, chat, log, notation box, result
// and replay. The parts live in their own modules (clockview, offers, chat, replay, result,
// notify, sound); this one wires them to the game's socket.
//
// Which seat this browser plays comes from localStorage (seats.js), filled from the link's
// fragment (#invite=… claims a seat, #seat=N&token=… moves one here); the fragment is removed
// at once, so no secret stays in the address bar, the history or a bookmark. Only #seat=N and a
// replay position (#ply=12) stay.
import { api, gameMeta } from "./api.js";
import { absolute, clear, h, icon, iconButton, linkRow, PALETTE, toast } from "./dom.js";
import { ChatView } from "./chat.js";
import { ClockView } from "./clockview.js";
import { gameTitle, levelName, sideName, variantName } from "./gamewords.js";
import { t } from "./i18n.js";
import { tabSaysYourTurn } from "./notify.js";
import { currentName, nameOffer, onNameChange } from "./names.js";
import { OffersView } from "./offers.js";
import { fragment, plyFromHash, recordMoves, Replay } from "./replay.js";
import { resultHow, resultText } from "./result.js";
import { openAnalysis } from "./analysisboard.js";
import { evalText } from "./evaltext.js";
import { Review, SYMBOL } from "./review.js";
import { defaultSeat, forgetSeat, held, keepInvites, keepSeat, parseFragment, tokenFor } from "./seats.js";
import { chooseDeck, freeSeats } from "./deckchoice.js";
import { GameSocket, helloFor, socketUrl } from "./socket.js";
import * as sound from "./sound.js";

export async function showGame(app, id) {
  const wantedPly = plyFromHash(location.hash);
  const seat = await seatFromLink(id, wantedPly);
  let info;
  try {
    info = await api.game(id);
  } catch (err) {
    if (err.status === 404) return notFound(app, id);
    throw err;
  }
  if (info.status === "unavailable") return unavailable(app, info.reason || info.error || "");
  const found = (await gameMeta(info.game)) || { name: info.game, title: info.game, levels: [] };
  const meta = { ...found, title: gameTitle(info.game, found.title) };
  let board;
  try {
    board = await import(`/static/boards/${info.game}.js`);
  } catch (err) {
    throw new Error(t("game.noBoard", { game: info.game, error: err.message }));
  }
  document.title = `${meta.title} · qipan`;
  new GamePage(app, { id, seat, token: seat === null ? null : tokenFor(id, seat), info, meta, board, wantedPly }).start();
}

/** Read the link's fragment (claiming an invitation if it holds one), forget its secrets, and
 * return the seat this page plays (null: watch). */
async function seatFromLink(id, ply) {
  const link = parseFragment(location.hash);
  let seat = null;
  if (link.invite) {
    try {
      const claimed = await api.claim(id, link.invite, currentName(), await deckToBring(id));
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
  history.replaceState(history.state, "", `${location.pathname}${location.search}${fragment(seat, ply)}`);
  return seat;
}

/** Sheng-Ke: the deck an invited player brings (null: the one set for their seat). The invitation
 * is for one of the free seats (the link does not say which): the dialog names the deck set for it. */
async function deckToBring(id) {
  const info = await api.game(id).catch(() => null);
  if (info?.game !== "shengke" || info.status === "finished") return null;
  const free = freeSeats(info);
  if (!free.length) return null;
  const chosen = await chooseDeck(info, free, { cancel: false });
  return chosen?.deck ? chosen : null;
}

/** A page instead of the board: no such game, or one that cannot be played now. */
function notice(app, title, text) {
  document.title = `${title} · qipan`;
  clear(app).append(h("div", { class: "card notice", id: "game-notice" }, h("h2", { text: title }),
    h("p", { text }), h("a", { class: "btn", href: "/" }, t("error.back"))));
}

function notFound(app, id) {
  notice(app, t("game.noGame"), t("game.noGameHint", { id: id.length > 40 ? `${id.slice(0, 40)}…` : id }));
}

function unavailable(app, reason) {
  notice(app, t("game.setAside"), reason);
}

class GamePage {
  constructor(app, { id, seat, token, info, meta, board, wantedPly }) {
    Object.assign(this, { app, id, seat, token, info, meta, boardModule: board, wantedPly });
    this.msg = null; // the latest update from the server
    this.moves = []; // the public move history as far as this page knows it
    this.syncing = false; // a sync was asked for and not yet answered
    this.pending = false; // a move was sent and not yet answered
    this.confirmed = false; // the server accepted this page's seat (its controls show then)
    this.replay = null; // a Replay while replaying
    this.review = null; // a Review (of a finished game) while reviewing
    this.hint = null; // {ply, move, text}: the engine's best move for this seat's decision
    this.orientation = seat ?? 0; // the seat drawn at the bottom
    this.build();
  }

  get tableTalk() {
    return !!(this.info.public_table_talk ?? (this.info.game === "tellstones" && this.info.variant === "round-table"));
  }

  build() {
    const ranges = this.info.options?.ranges;  // Sheng-Ke's range table: its rules page draws this game's
    const rulesHref = `/static/rules/${this.info.game}.html${typeof ranges === "string" ? `?ranges=${encodeURIComponent(ranges)}` : ""}`;
    this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      banner: h("div", { class: "conn-banner", hidden: true, text: t("game.reconnecting") }),
      players: h("div", { class: "players", id: "players" }),
      status: h("div", { class: "status", id: "status", role: "status", text: t("game.connecting") }),
      countdown: h("div", { class: "abort-countdown", id: "abort-countdown", hidden: true }),
      offers: h("div", { class: "offers", id: "offers" }),
      result: h("div", { id: "result" }),
      invites: h("div", { id: "invites" }),
      replayBar: h("div", { id: "replay-bar" }),
      reviewHost: h("div", { id: "review-host" }),
      hintText: h("p", { class: "hint-text", id: "hint-text", role: "status", "aria-live": "polite" }),
      moves: h("div", { class: "moves", id: "moves" }),
      chat: h("div", { class: "chats", id: "chats" }),
      log: h("ol", { class: "log", id: "log" }),
      input: h("input", { type: "text", id: "notation", placeholder: t("game.placeholder", { move: "a1b2" }), autocomplete: "off", spellcheck: "false", "aria-label": t("game.moveLabel") }),
      controls: h("div", { class: "controls", id: "controls" }),
      mute: iconButton(sound.muted() ? "mute" : "sound", t("game.sound"), {
        id: "mute", "aria-pressed": String(!sound.muted()), onclick: () => this.toggleSound(),
      }),
    };
    const e = this.els;
    const aspect = this.boardModule.aspect || 1;
    e.boardHost.style.setProperty("--board-aspect", String(aspect));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    const notationForm = h("form", { class: "notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      e.input, h("button", { class: "btn", type: "submit" }, t("game.play")));
    const tools = h("div", { class: "head-tools" }, e.mute,
      this.seat === null ? iconButton("flip", t("game.flip"), { id: "flip", onclick: () => this.flip() }) : null);
    const side = h("aside", { class: "side" },
      h("section", { class: "panel game-head" },
        h("div", { class: "head-row" }, h("h2", { text: this.meta.title }), tools),
        h("div", { class: "sub" }, variantName(this.info.game, this.info.variant || "standard"), " · ",
          h("a", { href: rulesHref, target: "_blank", id: "rules-link" }, t("game.rules")), " · ",
          h("a", { href: "/" }, t("game.lobby")),
          this.info.hints ? [" · ", h("span", { class: "hints-on", id: "hints-on", text: t("an.hintsOn") })] : null),
        this.seat === null ? h("div", { class: "sub", id: "watching", text: t("game.watching") }) : null),
      this.seat !== null ? nameOffer(this.id, this.seatSide(this.seat) || this.seatName(this.seat)) : null,
      h("section", { class: "panel players-panel" }, e.players, e.status, e.countdown, e.offers),
      e.result,
      e.invites,
      h("section", { class: "panel" }, h("header", {}, h("span", { text: t("game.moves") })), e.moves, e.replayBar),
      e.reviewHost,
      this.seat !== null ? h("section", { class: "panel", id: "move-input", hidden: true }, notationForm, e.controls) : null,
      e.chat,
      h("section", { class: "panel", id: "log-panel", hidden: true }, h("header", {}, h("span", { text: t("game.log") })), e.log),
    );
    clear(this.app).append(h("div", { class: "play" }, h("div", { class: "board-col" }, e.banner, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra, { info: this.info, meta: this.meta, seat: this.seat });
    const send = (message) => this.socket.send(message);
    const nameOf = (i) => (typeof i === "number" ? this.seatName(i) : "");
    this.clocks = new ClockView(e.players, e.countdown, { seat: this.seat, nameOf, onLow: () => sound.play("lowtime") });
    this.offers = new OffersView(e.offers, { seat: this.seat, send, nameOf });
    this.chat = new ChatView(e.chat, {
      seat: this.seat, send, tableTalk: this.tableTalk,
      swatch: (i) => this.seatColor(i), sideOf: (i) => this.seatSide(i), nameFor: (m) => this.chatName(m),
    });
    if (this.seat !== null) {
      e.controls.append(h("button", {
        class: "btn danger small", type: "button", id: "resign",
        onclick: () => { if (confirm(t("game.resignConfirm"))) this.socket.send({ type: "resign" }); },
      }, t("game.resign")));
      if (this.info.hints) {
        e.controls.prepend(h("button", { class: "btn small", type: "button", id: "hint", onclick: () => this.askHint() }, t("an.hint")));
        e.controls.append(e.hintText);
      }
      const link = `/play/${encodeURIComponent(this.id)}#seat=${this.seat}&token=${encodeURIComponent(this.token)}`;
      e.controls.append(h("details", { class: "seat-link", id: "seat-link" }, h("summary", { text: t("seat.link") }),
        h("p", { class: "hint", text: t("seat.linkHint") }), linkRow("", link, "own", { open: false })));
    }
  }

  start() {
    this.socket = new GameSocket(socketUrl(this.id), helloFor(this.seat, this.token, currentName()), {
      onMessage: (m) => this.receive(m),
      onState: (st) => {
        this.els.banner.hidden = st === "open" || !this.msg;
        if (st === "open") this.syncing = true; // the first update after hello is the whole history
      },
      onFatal: (code, reason) => this.refused(code, reason),
    });
    // A new nickname reaches the server in the hello of a new connection.
    onNameChange((name) => this.socket.reconnect(helloFor(this.seat, this.token, name)));
    this.ticker = setInterval(() => this.clocks.tick(), 100);
    this.hashed = () => this.followHash();
    window.addEventListener("hashchange", this.hashed);
    if (this.info.status === "finished" || this.wantedPly !== null) this.enterReplay(this.wantedPly);
  }

  /** A fragment typed or pasted into this page's address: a position (#ply=12) shows it; a
   * secret (#invite=…, #token=…) is read, and removed, by loading the page again. */
  followHash() {
    const link = parseFragment(location.hash);
    if (link.invite || link.token) {
      location.reload();
      return;
    }
    const ply = plyFromHash(location.hash);
    if (ply === null) return;
    history.replaceState(history.state, "", `${location.pathname}${location.search}${fragment(this.seat, ply)}`);
    if (this.replay) this.replay.goto(ply);
    else this.enterReplay(ply);
  }

  /** The server closed the connection for good: say why instead of "Connecting…". */
  refused(code, reason) {
    clearInterval(this.ticker);
    window.removeEventListener("hashchange", this.hashed);
    this.replay?.close();
    if (code === 4403 && this.seat !== null) {
      // A stale or wrong key to this seat: forget it and watch.
      forgetSeat(this.id, this.seat);
      toast(t("seat.rejected", { seat: this.seat + 1 }), 8000);
      history.replaceState(history.state, "", location.pathname);
      showGame(this.app, this.id);
    } else if (code === 4404) {
      notFound(this.app, this.id);
    } else if (code === 4409) {
      unavailable(this.app, reason);
    } else {
      document.getElementById("move-input")?.setAttribute("hidden", "");
      const st = clear(this.els.status);
      st.append(h("span", { text: t("game.closed", { reason: reason || String(code) }) }), " ",
        h("button", { class: "btn small", type: "button", id: "reconnect", onclick: () => location.reload() }, t("game.reconnect")));
    }
  }

  receive(m) {
    if (m.type === "error") {
      this.pending = false;
      if (this.chat.claimError(m.error)) return;
      toast(m.error);
      this.addLog(m.error, { error: true });
      if (this.msg && !this.replay) this.render(this.msg);
      return;
    }
    if (m.type === "chat") return this.chat.add(m);
    if (m.type === "chats") return this.chat.replace(m.messages);
    if (m.type !== "update") return;
    this.pending = false;
    const previous = this.msg;
    const wasMine = this.myTurn;
    this.follow(m);
    const key = JSON.stringify([m.view, m.legal]);
    this.newPosition = key !== this.positionKey;
    this.positionKey = key;
    this.msg = m;
    if (!this.confirmed && this.seat !== null && m.seat === this.seat) {
      this.confirmed = true;
    }
    // The move box, Resign and the seat's link are for a game in play: gone once it is over.
    document.getElementById("move-input")?.toggleAttribute("hidden", !this.confirmed || !!m.result);
    this.chat.setOver(!!m.result);
    this.clocks.update(m);
    this.offers.update(m);
    this.els.banner.hidden = true;
    if (!this.replay) this.render(m);
    if (!previous && m.result && this.info.status !== "finished") this.addLog(t("game.overLog"));
    if (previous) this.sounds(previous, m, wasMine);
    tabSaysYourTurn(this.meta.title, this.myTurn);
  }

  /** A sound for a new move (the board may say it was a capture), then "your turn". */
  sounds(previous, m, wasMine) {
    const moved = m.ply > previous.ply;
    if (moved) {
      const kind = this.boardModule.moveSound?.(previous.view, m.view, m.last) || "move";
      sound.play(kind === "capture" ? "capture" : "move");
    }
    if (this.myTurn && !wasMine) setTimeout(() => sound.play("turn"), moved ? 180 : 0);
  }

  toggleSound() {
    sound.setMuted(!sound.muted());
    const on = !sound.muted();
    this.els.mute.setAttribute("aria-pressed", String(on));
    clear(this.els.mute).append(icon(on ? "sound" : "mute"));
    if (on) sound.play("move");
  }

  flip() {
    const n = (this.msg?.seats || this.info.seats || []).length || 2;
    this.orientation = (this.orientation + 1) % n;
    if (this.replay) this.replay.goto(this.replay.ply);
    else if (this.msg) this.render(this.msg);
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
    return !!m && this.seat !== null && this.confirmed && m.to_move === this.seat && !m.result && (m.legal || []).length > 0;
  }

  render(m) {
    const live = !this.replay;
    const interactive = live && this.myTurn && !this.pending;
    if (this.hint && this.hint.ply !== m.ply) this.hint = null; // a hint is for one position only
    this.els.hintText.textContent = this.hint ? this.hint.text : "";
    this.board.render(m, {
      seat: this.seat,
      orientation: this.orientation,
      interactive,
      fresh: this.newPosition,
      submit: (text) => this.submit(text),
      suggest: live && this.hint ? this.hint.move : null,
    });
    this.newPosition = false;
    this.renderPlayers(m);
    this.renderStatus(m, interactive);
    this.renderMoves(this.moves, m);
    this.renderLog(m);
    this.renderResult(m);
    this.renderInvites(m);
    this.els.input.disabled = !interactive;
    this.els.input.placeholder = m.result ? t("game.overLog")
      : interactive && m.legal.length ? t("game.placeholder", { move: m.legal[0] }) : t("game.notYourMove");
    const resign = document.getElementById("resign");
    if (resign) resign.disabled = !!m.result || !live;
    const hint = document.getElementById("hint");
    if (hint) hint.disabled = !interactive || this.hintBusy;
  }

  /** Who plays seat ``i``: their nickname, else the side in this page's language. */
  seatName(i) {
    const s = (this.msg?.seats || this.info.seats || [])[i];
    if (!s) return t("game.player", { n: i + 1 });
    return s.side && s.name !== s.side ? s.name : sideName(s.side ?? s.name);
  }

  /** The game's name for seat ``i`` ("black", "黑方"), when the server says it. */
  seatSide(i) {
    const s = (this.msg?.seats || this.info.seats || [])[i];
    return s?.side ? sideName(s.side) : "";
  }

  /** The name a chat message shows: the nickname it was sent under, a seat's side translated. */
  chatName(m) {
    if (typeof m.seat !== "number") return m.name || t("game.spectator");
    const s = (this.msg?.seats || this.info.seats || [])[m.seat];
    return !m.name || m.name === s?.side ? this.seatName(m.seat) : m.name;
  }

  seatColor(i) {
    const color = this.boardModule.seatColor || ((_, k) => PALETTE[k % PALETTE.length]);
    return color(this.msg?.view, i);
  }

  renderPlayers(m) {
    const seats = m.seats || this.info.seats || [];
    const score = this.boardModule.score || (() => null);
    clear(this.els.players);
    seats.forEach((s, i) => {
      const clock = m.clocks ? h("span", { class: "clock", "data-clock": i }) : null;
      const sc = score(m.view, i);
      const side = this.seatSide(i);
      const name = this.seatName(i);
      this.els.players.append(h("div", { class: `player${m.to_move === i && !m.result ? " to-move" : ""}`, "data-seat": i },
        h("span", { class: "swatch", style: `background:${this.seatColor(i)}` }),
        h("span", { class: "pname", text: name, title: side && side !== name ? `${name} (${side})` : name }),
        side && side !== name ? h("span", { class: "tag side", text: side }) : null,
        i === this.seat ? h("span", { class: "tag you", text: t("game.you") }) : null,
        s.kind === "ai" ? h("span", { class: "tag", text: t("lobby.aiSeat", { level: levelName(s.level || "") }) }) : null,
        s.kind === "human" && s.claimed === false ? h("span", { class: "tag invited", text: t("game.invited") }) : null,
        s.kind === "human" && "connected" in s ? h("span", { class: `conn${s.connected ? " on" : ""}`, title: s.connected ? t("game.online") : t("game.offline"), role: "img", "aria-label": s.connected ? t("game.online") : t("game.offline") }) : null,
        sc !== null && sc !== undefined ? h("span", { class: "score", text: String(sc) }) : null,
        clock));
    });
    this.clocks.tick();
  }

  renderStatus(m, interactive) {
    const st = this.els.status;
    st.classList.toggle("mine", interactive);
    if (this.replay) {
      st.textContent = t("game.replayStatus", { ply: this.replay.ply, n: this.replay.moves.length });
    } else if (m.result) {
      st.textContent = resultText(m.result, (i) => this.seatName(i));
    } else if ((m.seats || []).some((s) => s.kind === "human" && s.claimed === false)) {
      st.textContent = t("game.waitingSeats");
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

  /** The move list: numbered pairs ("1. a1b2 i9h8") when two players simply alternate, else one
   * numbered line per move. In a replay each move is a button that shows its position. */
  renderMoves(moves, m) {
    const node = this.els.moves;
    if (!this.replay && m && m.history === false) {
      node.classList.remove("paired");
      clear(node).append(h("span", {}), h("span", { class: "m empty", text: t("game.hiddenMoves", { n: m.ply }) }));
      return;
    }
    const atEnd = node.scrollTop + node.clientHeight >= node.scrollHeight - 4;
    clear(node);
    const seats = (m?.seats || this.info.seats || []).length;
    const chance = (mv) => mv.player === "chance" || mv.player === -1;
    const paired = seats === 2 && moves.length > 0 && !moves.some(chance)
      && moves.every((mv, i) => i === 0 || mv.player !== moves[i - 1].player);
    node.classList.toggle("paired", paired);
    // Reviewing, the position shown is a decision: the move made from it is the current one.
    const current = this.review ? this.replay.ply + 1 : this.replay ? this.replay.ply : moves.length;
    const entry = (mv, i) => {
      const ply = mv.ply ?? i + 1;
      const luck = chance(mv);
      const who = luck ? t("game.chanceMove") : this.seatName(mv.player);
      const side = luck ? "" : this.seatSide(mv.player);
      const verdict = this.review?.forMove(ply)?.verdict;
      const attrs = {
        class: ["m", luck ? "chance" : "", ply === current ? "cur" : "", this.replay ? "link" : "", verdict ? `v-${verdict}` : ""].join(" ").trim(),
        "data-ply": ply, "data-verdict": verdict || undefined,
        title: [side && side !== who ? `${who} (${side})` : who, verdict ? t(`an.${verdict}`) : ""].filter(Boolean).join(" · "),
      };
      const body = [luck ? null : h("span", { class: "dot", style: `background:${this.seatColor(mv.player)}` }),
        luck ? icon("die") : null, luck && mv.text === "chance" ? t("game.chanceHidden") : mv.text,
        verdict ? h("span", { class: "mark", "aria-label": t(`an.${verdict}`) }, SYMBOL[verdict]) : null];
      if (!this.replay) return h("span", attrs, ...body);
      return h("button", { ...attrs, type: "button", "aria-current": ply === current ? "step" : undefined,
        onclick: () => (this.review ? this.review.select(ply - 1) : this.replay.goto(ply)) }, ...body);
    };
    if (paired) {
      const heading = (seat) => h("span", { class: "mh", text: this.seatName(seat) });
      node.append(h("span", { class: "nh" }), heading(moves[0].player), heading(moves[1]?.player ?? 1 - moves[0].player));
      for (let i = 0; i < moves.length; i += 2) {
        node.append(h("span", { class: "n", text: `${i / 2 + 1}.` }), entry(moves[i], i),
          moves[i + 1] ? entry(moves[i + 1], i + 1) : h("span", { class: "m" }));
      }
    } else {
      moves.forEach((mv, i) => node.append(h("span", { class: "n", text: String(mv.ply ?? i + 1) }), entry(mv, i)));
    }
    if (!moves.length) node.append(h("span", {}), h("span", { class: "m empty", text: t("game.noMoves") }));
    const cur = node.querySelector(".cur");
    if (this.replay && cur) cur.scrollIntoView({ block: "nearest" });
    else if (atEnd || !this.replay) node.scrollTop = node.scrollHeight;
  }

  renderLog(m) {
    let lines = (this.boardModule.log ? this.boardModule.log(m.view, m) : m.view?.log) || [];
    if (!lines.length) lines = this.moves.map((mv) => mv.description).filter(Boolean).slice(-50);
    const node = this.els.log;
    const own = [...node.querySelectorAll("li.local")].slice(-5); // this page's lines stay, as they are
    clear(node);
    for (const line of lines) node.append(h("li", { text: typeof line === "string" ? line : JSON.stringify(line) }));
    node.append(...own);
    document.getElementById("log-panel").hidden = !node.children.length;
    node.scrollTop = node.scrollHeight;
  }

  /** A line in the page's own log; ``error``: a refusal from the server, marked by an icon. */
  addLog(text, { error = false } = {}) {
    document.getElementById("log-panel").hidden = false;
    this.els.log.append(error ? h("li", { class: "local error" }, icon("warning"), text) : h("li", { class: "local", text }));
    this.els.log.scrollTop = this.els.log.scrollHeight;
  }

  /** Download links for the record (JSON and readable text) of a finished game. */
  recordLinks() {
    const base = `/api/games/${encodeURIComponent(this.id)}`;
    const file = `qipan-${this.info.game}-${this.id}`; // as the server names the JSON download
    return h("div", { class: "records", id: "records" },
      h("span", { class: "label", text: t("game.records") }),
      h("a", { class: "btn small", href: `${base}/record?download=1`, download: `${file}.json`, id: "record-json" }, icon("download"), t("game.recordJson")),
      h("a", { class: "btn small", href: `${base}/record.txt`, download: `${file}.txt`, id: "record-text" }, icon("download"), t("game.recordText")));
  }

  renderResult(m) {
    const node = clear(this.els.result);
    if (!m.result || this.replay) return;
    const btns = h("div", { class: "btns" });
    if (this.seat !== null && this.token && this.confirmed) {
      btns.append(h("button", { class: "btn primary", type: "button", id: m.rematch ? "rematch-join" : "rematch", onclick: () => this.rematch() },
        m.rematch ? t("game.joinRematch") : t("game.rematch")));
    } else if (m.rematch) {
      btns.append(h("a", { class: "btn primary", href: `/play/${encodeURIComponent(m.rematch.id)}`, id: "rematch-join" }, t("game.watchRematch")));
    }
    btns.append(h("button", { class: "btn", type: "button", id: "replay", onclick: () => this.enterReplay() }, t("game.replay")),
      h("button", { class: "btn", type: "button", id: "review-open", onclick: () => this.startReview() }, t("an.review")),
      h("a", { class: "btn", href: "/" }, t("game.newGame")));
    const nameOf = (i) => this.seatName(i);
    const how = resultHow(this.boardModule, m.view, m.result, { nameOf, options: this.info.options || {}, ply: m.ply });
    node.append(h("section", { class: "result", id: "result-box" }, h("h3", { text: t("game.over") }),
      h("div", { class: "result-text", text: resultText(m.result, nameOf) }),
      how ? h("p", { class: "result-how", id: "result-how", text: how }) : null, btns, this.recordLinks()));
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
    this.board.render(this.msg, { seat: this.seat, orientation: this.orientation, interactive: false, fresh: false, submit: () => {}, pending: text });
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text) return;
    if (!this.myTurn) {
      toast(this.msg?.result ? t("game.overLog") : t("game.notYourTurn"));
      return;
    }
    this.els.input.value = "";
    this.submit(text);
  }

  /** Start or join the rematch: the server answers with this player's own new seat and token. */
  async rematch() {
    try {
      const r = await api.rematch(this.id, this.token, currentName());
      keepSeat(r.id, r.seat, r.token, { creator: held(this.id).creator === this.seat });
      location.href = absolute(`/play/${encodeURIComponent(r.id)}#seat=${r.seat}`);
    } catch (err) {
      toast(err.message);
    }
  }

  // -- replay ------------------------------------------------------------------------------

  /** Step through the game from its record, at ``ply`` (null: the end). */
  async enterReplay(ply = null) {
    let moves;
    try {
      ({ moves } = await recordMoves(this.id));
    } catch (err) {
      toast(t("game.noReplay", { error: err.message }));
      history.replaceState(history.state, "", `${location.pathname}${location.search}${fragment(this.seat, null)}`);
      return;
    }
    this.replay?.close();
    const over = this.info.status === "finished";
    this.replay = new Replay(this.els.replayBar, {
      id: this.id, seat: this.seat, moves,
      show: (frame) => this.showFrame(frame),
      leave: over ? null : () => this.exitReplay(),
    });
    this.els.input.disabled = true;
    await this.replay.goto(ply ?? moves.length);
  }

  exitReplay() {
    this.review?.close();
    this.review = null;
    this.replay?.close();
    this.replay = null;
    this.replayRecords?.remove();
    this.replayRecords = null;
    if (this.msg) {
      this.clocks.update(this.msg);
      this.render(this.msg);
    }
    tabSaysYourTurn(this.meta.title, this.myTurn);
  }

  /** A finished game offers its review under the move list. */
  offerReview() {
    const over = this.info.status === "finished" || !!this.msg?.result;
    if (!over || this.review || this.els.reviewHost.firstChild) return;
    const time = h("select", { id: "review-time" }, [0.5, 1, 2].map((v) => h("option", { value: String(v), text: `${v} s` })));
    this.els.reviewHost.append(h("section", { class: "panel review-offer" }, h("div", { class: "body" },
      h("p", { class: "hint", text: t("an.reviewHint") }),
      h("div", { class: "an-buttons" },
        h("button", { class: "btn", type: "button", id: "review-start", onclick: () => this.startReview(Number(time.value)) }, t("an.reviewStart")),
        h("label", { class: "check" }, h("span", { text: t("an.reviewTime") }), time)))));
  }

  /** Review the finished game: replay mode with the review panel, which analyses every decision. */
  async startReview(time = 0.5) {
    if (!this.replay) await this.enterReplay();
    if (!this.replay || this.review) return;
    const perfect = this.meta.perfect_information !== false;
    const players = (this.msg?.seats || this.info.seats || []).length || 2;
    this.review = new Review(this.els.reviewHost, {
      id: this.id, moves: this.replay.moves, seat: this.token ? this.seat : null, token: this.token, perfect, players,
      nameOf: (i) => this.seatName(i),
      show: (d) => this.replay.goto(d),
      changed: () => this.renderMoves(this.replay.moves, { seats: this.msg?.seats || this.info.seats }),
      analyseHere: perfect ? (d) => this.analyseFrom(d) : null, time,
    });
    this.review.follow(this.replay.ply);
    this.renderMoves(this.replay.moves, { seats: this.msg?.seats || this.info.seats });
    this.review.start();
  }

  /** Open the analysis board (a new tab) at the position of decision ``d``. */
  async analyseFrom(d) {
    try {
      const frame = await api.replay(this.id, d);
      openAnalysis({ game: this.info.game, variant: this.info.variant, options: this.info.options || {}, state: frame.view?.state });
    } catch (err) {
      toast(err.message);
    }
  }

  /** Ask the engine for this seat's best move (a game with hints on) and draw it on the board. */
  async askHint() {
    if (!this.myTurn || this.hintBusy) return;
    const ply = this.msg.ply;
    this.hintBusy = true;
    this.els.hintText.textContent = t("an.hintBusy");
    document.getElementById("hint")?.setAttribute("disabled", "");
    try {
      const { analysis } = await api.hint(this.id, this.token);
      const best = analysis?.lines?.[0];
      if (best && this.msg.ply === ply) {
        this.hint = { ply, move: best.move, text: t("an.hintShown", { move: best.move, eval: evalText(best.evaluation) }) };
      }
    } catch (err) {
      toast(err.message);
      this.els.hintText.textContent = "";
    } finally {
      this.hintBusy = false;
      if (this.msg && !this.replay) this.render(this.msg);
    }
  }

  showFrame(frame) {
    const r = this.replay;
    const shown = { ...frame, legal: [], moves: r.moves, seats: frame.seats || this.msg?.seats || this.info.seats };
    this.board.render(shown, { seat: null, orientation: this.orientation, interactive: false, fresh: true, submit: () => {},
      suggest: this.review?.suggestion(r.ply) ?? null });
    this.review?.follow(r.ply);
    this.offerReview();
    this.clocks.update({ clocks: frame.clocks || null, to_move: null, result: null, abort_at: null });
    this.renderPlayers({ ...shown, clocks: frame.clocks || null });
    this.renderStatus(shown, false);
    this.renderMoves(r.moves, shown);
    this.renderLog(shown);
    clear(this.els.result);
    if ((this.info.status === "finished" || this.msg?.result) && !this.replayRecords) {
      this.replayRecords = this.recordLinks();
      this.els.replayBar.after(this.replayRecords);
    }
    tabSaysYourTurn(this.meta.title, false);
  }
}
