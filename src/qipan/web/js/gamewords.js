// What /api/meta and the seat summaries name in English (game titles, variants, options and
// their choices, AI levels, side names), in the page's language: the words are in
// web/i18n/meta.js, keyed by game and option name; anything without an entry shows as sent.
import { t } from "./i18n.js";

/** A name as an i18n key part ("chinese-checkers" → "chinese_checkers"). */
const part = (name) => String(name).replace(/\W/g, "_");

function lookup(key, fallback, params) {
  const text = t(key, params);
  return text === key ? fallback : text;
}

export function gameTitle(game, fallback = game) {
  return lookup(`meta.${part(game)}.title`, fallback);
}

export function variantName(game, variant) {
  return lookup(`meta.${part(game)}.v.${part(variant)}`, String(variant));
}

export function variantHelp(game, variant, fallback = "") {
  return lookup(`meta.${part(game)}.v.${part(variant)}.help`, fallback);
}

export function optionLabel(game, option) {
  return lookup(`meta.${part(game)}.o.${part(option)}`, String(option).replaceAll("_", " "));
}

export function optionHelp(game, option, fallback = "") {
  return lookup(`meta.${part(game)}.o.${part(option)}.help`, fallback);
}

export function choiceLabel(game, option, choice) {
  return lookup(`meta.${part(game)}.o.${part(option)}.c.${part(choice)}`, String(choice));
}

export function levelName(level) {
  return lookup(`meta.level.${part(level)}`, String(level));
}

/** A side's name ("black", "player 2 (team B)", "甲") as the rules call it in this language. */
export function sideName(side) {
  const text = String(side ?? "");
  let m = /^player (\d+) \(team (\w+)\)$/i.exec(text);
  if (m) return t("meta.side.playerTeam", { n: m[1], team: m[2] });
  m = /^player (\d+)$/i.exec(text);
  if (m) return t("meta.side.player", { n: m[1] });
  return /^[a-z]+$/i.test(text) ? lookup(`meta.side.${text.toLowerCase()}`, text) : text;
}

/** How a seat of a game summary reads: the nickname, the side when nobody chose one, or the AI. */
export function seatLabel(seat) {
  const side = seat.side ?? seat.name;
  if (seat.kind === "ai") return t("lobby.aiSeat", { level: levelName(seat.level || "") });
  if (!seat.claimed) return t("lobby.freeSeat", { side: sideName(side) });
  return seat.name && seat.name !== side ? seat.name : sideName(side);
}
