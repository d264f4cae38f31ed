// Replay: step through a game's positions (fetched from /api/games/{id}/replay/{ply} and kept),
// with the position in the address's fragment (…#ply=12) so a link opens that position.
import { api } from "./api.js";
import { absolute, clear, h, iconButton, toast } from "./dom.js";
import { t } from "./i18n.js";

/** The ply a fragment asks for (#ply=12, also beside #seat=N), or null. */
export function plyFromHash(hash) {
  const text = new URLSearchParams((hash || "").replace(/^#/, "")).get("ply");
  return text !== null && /^\d{1,6}$/.test(text) ? Number(text) : null;
}

/** The fragment of a page playing ``seat`` (null: watching) showing ``ply`` (null: live). */
export function fragment(seat, ply) {
  const parts = [];
  if (seat !== null && seat !== undefined) parts.push(`seat=${seat}`);
  if (ply !== null && ply !== undefined) parts.push(`ply=${ply}`);
  return parts.length ? `#${parts.join("&")}` : "";
}

export class Replay {
  /** ``show(frame)`` draws a position; ``leave()`` goes back to the live game (null: no way
   * back, the game is over). */
  constructor(bar, { id, seat, moves, show, leave }) {
    Object.assign(this, { bar, id, seat, moves, show });
    this.ply = moves.length;
    this.cache = new Map();
    clear(bar);
    bar.classList.add("replay-bar");
    this.label = h("span", { class: "ply", "aria-live": "polite" });
    bar.append(
      iconButton("first", t("game.replayFirst"), { id: "replay-first", onclick: () => this.goto(0) }),
      iconButton("prev", t("game.replayPrev"), { id: "replay-prev", onclick: () => this.goto(this.ply - 1) }),
      this.label,
      iconButton("next", t("game.replayNext"), { id: "replay-next", onclick: () => this.goto(this.ply + 1) }),
      iconButton("last", t("game.replayLast"), { id: "replay-last", onclick: () => this.goto(this.moves.length) }),
      iconButton("link", t("game.copyPosition"), { id: "replay-link", onclick: () => this.copyLink() }),
    );
    if (leave) bar.append(iconButton("close", t("game.replayExit"), { id: "replay-exit", onclick: leave }));
    this.keys = (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
      if (ev.key === "ArrowLeft") this.goto(this.ply - 1);
      if (ev.key === "ArrowRight") this.goto(this.ply + 1);
      if (ev.key === "Home") this.goto(0);
      if (ev.key === "End") this.goto(this.moves.length);
    };
    document.addEventListener("keydown", this.keys);
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    clear(this.bar);
    history.replaceState(history.state, "", `${location.pathname}${location.search}${fragment(this.seat, null)}`);
  }

  /** Show the position after ``ply`` moves (clamped to the game). */
  async goto(ply) {
    ply = Math.max(0, Math.min(this.moves.length, ply));
    this.ply = ply;
    this.label.textContent = `${ply} / ${this.moves.length}`;
    history.replaceState(history.state, "", `${location.pathname}${location.search}${fragment(this.seat, ply)}`);
    let frame = this.cache.get(ply);
    if (!frame) {
      try {
        frame = await api.replay(this.id, ply);
      } catch (err) {
        toast(t("game.noPly", { ply, error: err.message }));
        return;
      }
      this.cache.set(ply, frame);
    }
    if (this.closed || this.ply !== ply) return;
    this.show(frame);
  }

  /** A link anyone may open to see this position (no seat in it). */
  copyLink() {
    const url = absolute(`/play/${encodeURIComponent(this.id)}${fragment(null, this.ply)}`);
    navigator.clipboard?.writeText(url).then(() => toast(t("link.copied"), 1500), () => toast(url, 6000));
  }
}

/** The record's moves as the move list shows them. */
export async function recordMoves(id) {
  const record = await api.record(id);
  return { record, moves: (record.moves || []).map((mv, i) => ({ ply: i + 1, player: mv.player, text: mv.move ?? mv.text })) };
}
