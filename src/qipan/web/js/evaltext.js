// Evaluations as a player reads them ("+1.3 marbles", "win 63%", "wins in 3") and as the review's
// graph plots them (a score in -1..1). An evaluation is qipan.ai.analysis's Evaluation.to_json():
// {value, win, balance, unit, mate, exact}, always from the side of the player deciding.
import { t } from "./i18n.js";

const UNITS = new Set(["marbles", "moves", "points", "cards", "stones"]);

/** "+1.3", "−0.4", "0.0" (a value that rounds to zero has no sign). */
function signed(x, digits = 1) {
  const text = Math.abs(x).toFixed(digits);
  return `${Number(text) === 0 ? "" : x > 0 ? "+" : "\u2212"}${text}`;
}

/** The unit's word in the page's language (an unknown unit is shown as the server wrote it). */
export function unitWord(unit) {
  return UNITS.has(unit) ? t(`an.unit.${unit}`) : String(unit);
}

/** "+1.3 marbles · win 63%", "wins in 3", "score +0.12": the parts that are known. */
export function evalText(e) {
  if (!e) return "";
  if (typeof e.mate === "number" && e.mate !== 0) {
    return e.mate > 0 ? t("an.eval.mateWin", { n: e.mate }) : t("an.eval.mateLose", { n: -e.mate });
  }
  const parts = [];
  if (typeof e.balance === "number") parts.push(e.unit ? `${signed(e.balance)} ${unitWord(e.unit)}` : signed(e.balance));
  if (typeof e.win === "number") parts.push(t("an.eval.win", { p: Math.round(e.win * 100) }));
  if (!parts.length && typeof e.value === "number") parts.push(t("an.eval.score", { v: signed(e.value, 2) }));
  if (e.exact && parts.length) parts.push(t("an.eval.exact"));
  return parts.join(" · ");
}

/** The evaluation as a number in -1..1 for the player it is from: win probability where known,
 * else the balance (or the engine's value) squashed so ±3 units is most of the way. */
export function evalScore(e) {
  if (!e) return 0;
  if (typeof e.mate === "number" && e.mate !== 0) return Math.sign(e.mate);
  if (typeof e.win === "number") return Math.max(-1, Math.min(1, 2 * e.win - 1));
  const x = typeof e.balance === "number" ? e.balance : typeof e.value === "number" ? e.value : 0;
  return Math.tanh(x / 3);
}
