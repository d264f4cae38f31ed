// Every area's string table (see js/i18n.js). Add one import line per area.
import game from "./game.js";
import kelighine from "./kelighine.js";
import shengke from "./shengke.js";
import tellstones from "./tellstones.js";

export default [
  game,
  kelighine,
  shengke,
  tellstones,
];
