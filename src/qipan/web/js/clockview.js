// The clocks beside the seats, counting down between updates, and the countdown to the abort of
// a game whose first moves are missing.
//
// From each update: ``clocks`` (seconds left per seat), ``clock_running`` (false until that
// seat's first move: its time is not charged before), ``abort_at`` (epoch seconds) and, if the
// server sends it, ``now`` (its clock, to cancel out a difference with this computer's).
import { formatClock } from "./dom.js";
import { t } from "./i18n.js";

/** Below this many seconds a running clock turns red and, for this page's seat, sounds once. */
export function lowTime(base) {
  return base >= 120 ? 20 : 10;
}

export class ClockView {
  /** ``host`` holds the [data-clock=i] nodes; ``countdown`` shows the abort countdown;
   * ``onLow`` runs once per turn when this page's own running clock goes low. */
  constructor(host, countdown, { seat, nameOf, onLow }) {
    Object.assign(this, { host, countdown, seat, nameOf, onLow });
    this.base = null;
    this.warned = false;
  }

  update(m) {
    const now = Date.now() / 1000;
    const skew = typeof m.now === "number" ? now - m.now : 0;
    const over = !!m.result;
    const running = (m.clocks || []).map((_, i) => !over && m.to_move === i
      && (Array.isArray(m.clock_running) ? !!m.clock_running[i] : true));
    this.base = {
      clocks: m.clocks ? m.clocks.slice() : null,
      running,
      at: performance.now(),
      total: m.clock?.base ?? Math.max(...(m.clocks || [0])),
      abortIn: !over && typeof m.abort_at === "number" ? m.abort_at + skew - now : null,
      waiting: typeof m.to_move === "number" ? m.to_move : null,
    };
    if (!(this.seat !== null && running[this.seat])) this.warned = false;
    this.tick();
  }

  /** Seconds left on ``seat``'s clock now. */
  left(seat) {
    const b = this.base;
    if (!b || !b.clocks) return null;
    return b.clocks[seat] - (b.running[seat] ? (performance.now() - b.at) / 1000 : 0);
  }

  tick() {
    const b = this.base;
    if (!b) return;
    (b.clocks || []).forEach((_, i) => {
      const node = this.host.querySelector(`[data-clock="${i}"]`);
      if (!node) return;
      const left = this.left(i);
      const low = left < lowTime(b.total);
      node.textContent = formatClock(left);
      node.classList.toggle("running", b.running[i] && !low);
      node.classList.toggle("low", b.running[i] && low);
      node.classList.toggle("waiting", !b.running[i] && b.waiting === i && b.abortIn !== null);
      if (i === this.seat && b.running[i] && low && !this.warned) {
        this.warned = true;
        this.onLow?.();
      }
    });
    if (b.abortIn === null) {
      this.countdown.hidden = true;
    } else {
      const left = Math.max(0, b.abortIn - (performance.now() - b.at) / 1000);
      this.countdown.hidden = false;
      this.countdown.textContent = b.waiting === this.seat ? t("game.abortInYou", { time: formatClock(left) })
        : t("game.abortIn", { time: formatClock(left), name: this.nameOf(b.waiting) });
    }
  }
}
