// The lobby's puzzle of the day (js/puzzle.js). Puzzle titles come from the server in both languages.
export default {
  en: {
    "puzzle.title": "Puzzle of the day", "puzzle.play": "Play it in the terminal:",
    "puzzle.goal.crossing": "Best known: {n} moves", "puzzle.goal.eject": "Eject in {n}",
    "puzzle.goal.shiqi": "Leave one piece", "puzzle.rating.easy": "Easy", "puzzle.rating.medium": "Medium",
    "puzzle.rating.hard": "Hard", "puzzle.unavailable": "The puzzle of the day is not available right now.",
  },
  "zh-Hant": {
    "puzzle.title": "每日謎題", "puzzle.play": "在終端機裡玩：",
    "puzzle.goal.crossing": "已知最佳：{n} 步", "puzzle.goal.eject": "{n} 步內逐出一顆棋子",
    "puzzle.goal.shiqi": "只留下一顆棋子", "puzzle.rating.easy": "簡單", "puzzle.rating.medium": "中等",
    "puzzle.rating.hard": "困難", "puzzle.unavailable": "目前無法取得每日謎題。",
  },
};
