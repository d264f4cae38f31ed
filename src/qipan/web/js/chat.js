// Table talk: the players' chat and the spectators' chat, each shown only when this page may
// read it (the server sends nothing else). A seat writes to the players' channel, a spectator to
// the spectators'. In Tellstones' round-table variant the players' chat is the open table talk
// the rules require, heard by everyone.
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export const MAX_CHAT = 300; // characters, as the server allows
const ERROR_WINDOW = 3000; // ms after a send in which an error is taken to be about it

export class ChatView {
  /** ``send(message)`` → false when not connected; ``swatch(seat)`` → a colour or null;
   * ``sideOf(seat)`` → the seat's side; ``nameFor(message)`` → the name to show. */
  constructor(host, { seat, send, swatch, sideOf, nameFor, tableTalk }) {
    Object.assign(this, { host, seat, send, swatch, sideOf, nameFor, tableTalk });
    this.messages = new Map(); // n → message
    this.panels = {};
    this.sent = null; // {text, at} of the last message sent and not yet seen back
    this.own = seat === null ? "spectators" : "players";
    this.over = false; // the game is over: the players read the spectators' chat too
    this.panel(this.own);
    if (seat === null && tableTalk) this.panel("players");
  }

  /** The panel of ``channel``, made on first use. */
  panel(channel) {
    if (this.panels[channel]) return this.panels[channel];
    const writable = channel === this.own;
    const title = channel === "players" ? (this.tableTalk ? t("game.tableTalk") : t("game.chatPlayers"))
      : t("game.chatSpectators");
    const lines = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": title });
    const p = { lines, error: h("p", { class: "chat-error", role: "status" }) };
    let form = null;
    if (writable) {
      p.input = h("input", {
        type: "text", maxlength: String(MAX_CHAT), autocomplete: "off", id: `chat-input-${channel}`,
        placeholder: t("game.chatPlaceholder"), "aria-label": t("game.chatLabel"),
      });
      form = h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.submit(p); } },
        p.input, h("button", { class: "btn small", type: "submit" }, t("game.chatSend")));
    }
    p.hint = channel === "spectators" && this.seat === null ? h("p", { class: "hint", text: this.spectatorsHint() }) : null;
    p.node = h("section", { class: "panel chat", id: `chat-${channel}`, "data-channel": channel },
      h("header", {}, h("span", { text: title })), lines, p.hint, p.error, form);
    this.host.append(p.node);
    this.panels[channel] = p;
    this.draw(channel);
    return p;
  }

  /** What spectators are told about who reads their chat: the players too once the game is over. */
  spectatorsHint() {
    return t(this.over ? "game.chatSpectatorsHintOver" : "game.chatSpectatorsHint");
  }

  /** The game is over (or not): the players now read the spectators' chat. */
  setOver(over) {
    if (this.over === over) return;
    this.over = over;
    const hint = this.panels.spectators?.hint;
    if (hint) hint.textContent = this.spectatorsHint();
  }

  submit(p) {
    const text = p.input.value.trim().slice(0, MAX_CHAT);
    if (!text) return;
    if (!this.send({ type: "chat", text })) {
      p.error.textContent = t("game.chatNotSent");
      return;
    }
    p.error.textContent = "";
    this.sent = { text, at: performance.now() };
    p.input.value = "";
  }

  /** An error from the server soon after a send is about the message: say it under the input
   * (and give the text back); returns whether it was taken. */
  claimError(error) {
    if (!this.sent || performance.now() - this.sent.at > ERROR_WINDOW) return false;
    const p = this.panels[this.own];
    p.error.textContent = error;
    if (!p.input.value) p.input.value = this.sent.text;
    this.sent = null;
    return true;
  }

  /** All the messages this page may read (a ``chats`` message, after each (re)connection). */
  replace(messages) {
    this.messages.clear();
    for (const m of messages || []) this.add(m, false);
    for (const channel of Object.keys(this.panels)) this.draw(channel);
  }

  /** One ``chat`` message. */
  add(m, draw = true) {
    if (!m || typeof m.text !== "string" || (m.channel !== "players" && m.channel !== "spectators")) return;
    this.messages.set(m.n ?? `${m.at}:${this.messages.size}`, m);
    if (this.sent && m.text === this.sent.text && m.channel === this.own) this.sent = null;
    this.panel(m.channel);
    if (draw) this.draw(m.channel);
  }

  draw(channel) {
    const p = this.panels[channel];
    const node = p.lines;
    const atEnd = node.scrollTop + node.clientHeight >= node.scrollHeight - 4;
    clear(node);
    const shown = [...this.messages.values()].filter((m) => m.channel === channel)
      .sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
    for (const m of shown) {
      const seat = typeof m.seat === "number" ? m.seat : null;
      const colour = seat === null ? null : this.swatch(seat);
      const side = seat === null ? t("game.spectator") : this.sideOf(seat);
      node.append(h("li", { "data-n": m.n },
        colour ? h("span", { class: "swatch", style: `background:${colour}` }) : null,
        h("span", { class: "who", title: side || undefined, text: `${this.nameFor(m)}:` }), " ",
        h("span", { class: "text", text: m.text })));
    }
    if (!shown.length) node.append(h("li", { class: "empty", text: t("game.chatEmpty") }));
    if (atEnd || shown.length) node.scrollTop = node.scrollHeight;
  }
}
