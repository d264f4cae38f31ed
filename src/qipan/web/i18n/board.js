// Words every board says (boards/kit.js and the boards that use it).
export default {
  en: {
    "board.watching": "You are watching this game.", "board.notYourTurn": "It is not your move yet.",
    "board.cleared": "Selection cleared.", "board.sent": "Playing {move}…",
    "board.suggest": "Blue dashes: the engine's move, {move}",
  },
  "zh-Hant": {
    "board.watching": "你正在觀戰。", "board.notYourTurn": "還沒輪到你。",
    "board.cleared": "已取消選取。", "board.sent": "下出 {move}…",
    "board.suggest": "藍色虛線：引擎建議的一手，{move}",
  },
};
