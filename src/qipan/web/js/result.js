// A finished game's result in the page's language, from the server's reason code and loser.
import { t } from "./i18n.js";

/** ``result`` ({returns, text, reason, loser}) as a sentence; ``nameOf(seat)`` names a seat. */
export function resultText(result, nameOf = (i) => t("game.player", { n: i + 1 })) {
  if (!result) return "";
  if (typeof result === "string") return result;
  const loser = typeof result.loser === "number" ? nameOf(result.loser) : null;
  const returns = Array.isArray(result.returns) ? result.returns : [];
  switch (result.reason) {
    case "resign":
    case "resignation": return withWinner(t("game.result.resign", { name: loser }), result, nameOf);
    case "time": return withWinner(t("game.result.time", { name: loser }), result, nameOf);
    case "abandoned": return withWinner(t("game.result.abandoned", { name: loser }), result, nameOf);
    case "aborted": return t("game.result.aborted");
    case "agreement": return t("game.result.agreement");
    case "move limit": return t("game.result.moveLimit");
    case "rules": {
      if (returns.length && returns.every((r) => r === returns[0])) return t("game.result.draw");
      const best = Math.max(...returns);
      const winners = returns.map((r, i) => (r === best ? i : null)).filter((i) => i !== null);
      // One winner, or a team (Tellstones' round table): never the server's English text.
      return t("game.result.wins", { name: winners.map(nameOf).join(t("game.result.and")) });
    }
    default:
      return loser !== null ? t("game.result.lost", { name: loser }) : result.text || "";
  }
}

/** "black resigned" → "black resigned · white wins" in a two-player game. */
function withWinner(text, result, nameOf) {
  const returns = Array.isArray(result.returns) ? result.returns : [];
  if (returns.length !== 2 || typeof result.loser !== "number") return text;
  return `${text} · ${t("game.result.wins", { name: nameOf(1 - result.loser) })}`;
}

/** How a game that ended by its rules was won or drawn (points, marbles pushed out, pieces
 * home, the turn limit…), from the board module's optional ``explainResult(view, result, ctx)``;
 * "" for other endings (a resignation or a flag says how already) or a board without one.
 * ``ctx``: {nameOf, options, ply}; the board also gets ``winners`` (the seats with the best
 * return; none in a draw). */
export function resultHow(board, view, result, ctx) {
  if (!view || !result || typeof result !== "object" || result.reason !== "rules") return "";
  if (typeof board?.explainResult !== "function") return "";
  const returns = Array.isArray(result.returns) ? result.returns : [];
  const best = Math.max(...returns);
  const winners = returns.every((r) => r === returns[0]) ? [] : returns.map((r, i) => (r === best ? i : null)).filter((i) => i !== null);
  return board.explainResult(view, result, {
    nameOf: (i) => t("game.player", { n: i + 1 }), options: {}, ply: null, ...ctx, winners,
  }) || "";
}
