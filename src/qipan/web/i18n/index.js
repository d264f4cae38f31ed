// Every area's string table (see js/i18n.js). Add one import line per area.
import game from "./game.js";
import board from "./board.js";
import abalone from "./abalone.js";
import chineseCheckers from "./chinese-checkers.js";
import kelighine from "./kelighine.js";
import shengke from "./shengke.js";
import tellstones from "./tellstones.js";
import lobby from "./lobby.js";
import meta from "./meta.js";
import analysis from "./analysis.js";
import tutorial from "./tutorial.js";
import deckshop from "./deckshop.js";
import puzzle from "./puzzle.js";

export default [
  game,
  board,
  abalone,
  chineseCheckers,
  kelighine,
  shengke,
  tellstones,
  lobby,
  meta,
  analysis,
  tutorial,
  deckshop,
  puzzle,
];
