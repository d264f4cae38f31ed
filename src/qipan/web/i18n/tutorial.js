// Tutorial words (js/tutorial.js). The lessons' own texts come from the server in both languages.
export default {
  en: {
    "learn.nav": "Learn", "learn.title": "Learn to play", "learn.start": "Start a lesson",
    "learn.lobbyHint": "Short lessons teach every rule of each game, nearly all of them by playing it on the real engine.",
    "learn.intro": "Each lesson sets up a position and asks for a move. Your progress is kept in this browser.",
    "learn.count": "{done} of {n} done", "learn.doneMark": "● done", "learn.rulesPage": "The rules on one page",
    "learn.back": "All lessons", "learn.lessonOf": "{course}, lesson {k} of {n}", "learn.rules": "Rules: {rules}",
    "learn.stepOf": "Step {k} of {n}", "learn.complete": "Lesson complete!",
    "learn.correct": "Well done.", "learn.wrong": "Not quite.", "learn.illegal": "The engine refuses this move:",
    "learn.restart": "Restart the lesson", "learn.next": "Next lesson", "learn.allDone": "Back to all lessons",
  },
  "zh-Hant": {
    "learn.nav": "學習", "learn.title": "學習下棋", "learn.start": "開始上課",
    "learn.lobbyHint": "簡短課程教會每個遊戲的所有規則，幾乎每一條都在真正的引擎上實際走一遍。",
    "learn.intro": "每一課都會擺出一個局面，請你走一步。你的進度保存在這個瀏覽器裡。",
    "learn.count": "已完成 {done}／{n}", "learn.doneMark": "● 完成", "learn.rulesPage": "一頁規則摘要",
    "learn.back": "所有課程", "learn.lessonOf": "{course}：第 {k} 課，共 {n} 課", "learn.rules": "規則：{rules}",
    "learn.stepOf": "第 {k} 步，共 {n} 步", "learn.complete": "本課完成！",
    "learn.correct": "做得好。", "learn.wrong": "還不對。", "learn.illegal": "引擎不接受這一步：",
    "learn.restart": "重新開始本課", "learn.next": "下一課", "learn.allDone": "回到所有課程",
  },
};
