// Every area's string table (see js/i18n.js). Add one import line per area.
import game from "./game.js";

export default [
  game,
];
