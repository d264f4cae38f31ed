// Abort, takeback and draw: the buttons a seat may use (enabled per the update's ``can``), the
// offers waiting for an answer (``offers``: [{offer, by}]), and what became of one's own offer.
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export class OffersView {
  /** ``send(message)`` sends on the game's socket; ``nameOf(seat)`` names a seat. */
  constructor(host, { seat, send, nameOf }) {
    Object.assign(this, { host, seat, send, nameOf });
    this.previous = null; // the last update's offers, ply and result
    this.withdrawn = new Set(); // offers this page withdrew (not "declined" when they vanish)
    this.answered = new Set(); // offers this page accepted or declined
    this.allowed = new Set(); // offers this seat has been allowed to make at some point
    this.key = null;
    this.list = h("div", { class: "offers-list" });
    this.note = h("p", { class: "offer-note", role: "status", id: "offer-note" });
    host.append(this.list, this.note);
  }

  /** A short notice under the buttons, gone after a while. */
  say(text) {
    this.note.textContent = text;
    this.fit();
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { this.note.textContent = ""; this.fit(); }, 8000);
  }

  /** Hidden while there is nothing to show. */
  fit() {
    this.host.hidden = !this.list.children.length && !this.note.textContent;
  }

  update(m) {
    this.explain(m);
    if (m.result && this.note.textContent) this.say("");
    const offers = Array.isArray(m.offers) ? m.offers : [];
    const can = (this.seat !== null && m.can) || {};
    const key = JSON.stringify([offers, can, !!m.result]);
    if (key === this.key) return;
    this.key = key;
    this.render(m, offers, can);
    this.fit();
  }

  render(m, offers, can) {
    const node = clear(this.list);
    if (m.result) return;
    for (const o of offers) node.append(this.offerRow(o));
    if (this.seat === null) return;
    const button = (id, label, enabled, onclick, cls = "") => h("button", {
      class: `btn small ${cls}`.trim(), type: "button", id, disabled: !enabled, onclick,
    }, label);
    const row = h("div", { class: "offer-buttons" });
    if (can.abort) {
      row.append(button("abort", t("game.abort"), true, () => this.send({ type: "abort" }), "danger"));
    }
    // A game that never allows an offer (no takebacks in Sheng-Ke, no draws in Abalone's rules
    // with three players...) shows no button for it: a button appears once it is first allowed.
    for (const kind of ["takeback", "draw"]) if (can[kind]) this.allowed.add(kind);
    if (this.allowed.has("takeback")) {
      row.append(button("offer-takeback", t("game.offerTakeback"), can.takeback && !this.mine(offers, "takeback"),
        () => this.offer("takeback")));
    }
    if (this.allowed.has("draw")) {
      row.append(button("offer-draw", t("game.offerDraw"), can.draw && !this.mine(offers, "draw"),
        () => this.offer("draw")));
    }
    if (row.children.length) node.append(row);
  }

  mine(offers, kind) {
    return offers.some((o) => o.offer === kind && o.by === this.seat);
  }

  offer(kind) {
    this.withdrawn.delete(kind);
    this.send({ type: "offer", offer: kind });
  }

  offerRow(o) {
    const kind = o.offer === "draw" ? "draw" : "takeback";
    if (o.by === this.seat) {
      return h("div", { class: "offer mine", "data-offer": kind, role: "status" },
        h("span", { text: t(kind === "draw" ? "game.youOfferedDraw" : "game.youAskedTakeback") }),
        h("button", {
          class: "btn small", type: "button", id: `withdraw-${kind}`,
          onclick: () => { this.withdrawn.add(kind); this.send({ type: "withdraw", offer: kind }); },
        }, t("game.withdraw")));
    }
    const name = this.nameOf(o.by);
    const text = t(kind === "draw" ? "game.drawOffered" : "game.takebackOffered", { name });
    if (this.seat === null) return h("div", { class: "offer", "data-offer": kind }, h("span", { text }));
    return h("div", { class: "offer theirs", "data-offer": kind, role: "alert" }, h("span", { text }),
      h("div", { class: "offer-buttons" },
        h("button", { class: "btn small primary", type: "button", id: `accept-${kind}`,
          onclick: () => { this.answered.add(kind); this.send({ type: "accept", offer: kind }); } }, t("game.accept")),
        h("button", { class: "btn small", type: "button", id: `decline-${kind}`,
          onclick: () => { this.answered.add(kind); this.send({ type: "decline", offer: kind }); } }, t("game.decline"))));
  }

  /** Say what happened to offers that are gone since the last update. */
  explain(m) {
    const before = this.previous;
    const offers = Array.isArray(m.offers) ? m.offers : [];
    this.previous = { offers, ply: m.ply, result: m.result };
    if (!before || this.seat === null) return;
    for (const o of before.offers) {
      if (offers.some((x) => x.offer === o.offer && x.by === o.by)) continue;
      const undone = typeof m.ply === "number" && m.ply < before.ply;
      if (o.offer === "takeback" && undone) {
        this.say(t("game.takebackDone"));
      } else if (m.result || m.ply !== before.ply) {
        // the game ended (a draw agreed, a resignation) or someone moved: nothing to say
      } else if (o.by === this.seat) {
        if (!this.withdrawn.delete(o.offer)) this.say(t(o.offer === "draw" ? "game.drawDeclined" : "game.takebackDeclined"));
      } else {
        // Answered here (accept/decline) or withdrawn by them; only the latter needs saying.
        if (!this.answered.has(o.offer)) this.say(t("game.offerWithdrawn", { name: this.nameOf(o.by) }));
      }
    }
    this.answered.clear();
  }
}
