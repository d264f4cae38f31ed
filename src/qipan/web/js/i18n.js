// The page's words in English and Traditional Chinese (繁體中文). t("key", {name}) gives the
// string in the chosen language with {name} filled in; the choice is kept in localStorage.
//
// The common words are below; each area of the client (a board, the chat, the clocks…) keeps
// its own in web/i18n/<area>.js, written the same way ({en: {...}, "zh-Hant": {...}}, one
// "key": "text" pair per entry) and listed in AREAS. Keys are prefixed with their area.
import AREAS from "../i18n/index.js";

const STRINGS = {
  en: {
    "nav.play": "Play", "nav.games": "Games", "nav.replays": "Replays", "nav.language": "中文",
    "loading": "Loading…", "error.title": "Something went wrong", "error.back": "Back to the lobby",
    // lobby
    "lobby.create": "Create a game", "lobby.variant": "Variant", "lobby.options": "Options", "lobby.seats": "Seats",
    "lobby.rules": "Rules: ", "lobby.rulesLink": "{title} in brief", "lobby.variants": "{n} variants",
    "lobby.variant1": "1 variant", "lobby.human": "Human", "lobby.ai": "AI", "lobby.mine": "my seat",
    "lobby.createButton": "Create game", "lobby.created": "Game created",
    "lobby.yourSeat": "Your seat: {name}. It is kept in this browser.",
    "lobby.playAs": "Play as {name}", "lobby.watch": "Watch",
    "lobby.inviteHint": "Send each other player their own invitation link: it opens that seat for whoever uses it first, once.",
    "lobby.spectatorHint": "Anyone with the spectator link can watch.",
    "lobby.spectators": "Spectators", "lobby.aiSeat": "AI ({level})",
    "lobby.playing": "Games in play", "lobby.finished": "Finished games", "lobby.refresh": "Refresh",
    "lobby.noPlaying": "No games in play.", "lobby.noFinished": "No finished games yet.",
    "lobby.colGame": "Game", "lobby.colPlayers": "Players", "lobby.colMoves": "Moves", "lobby.colResult": "Result",
    "lobby.replay": "Replay", "lobby.unavailable": "unavailable",
    "link.copy": "Copy", "link.open": "Open", "link.copied": "Link copied",
    // game page
    "game.connecting": "Connecting…", "game.reconnecting": "Reconnecting…", "game.rules": "rules", "game.lobby": "lobby",
    "game.moves": "Moves", "game.log": "Log", "game.play": "Play", "game.placeholder": "type a move, e.g. {move}",
    "game.notYourMove": "not your move", "game.moveLabel": "move in notation", "game.resign": "Resign",
    "game.resignConfirm": "Resign this game?", "game.you": "you", "game.invited": "invited", "game.online": "online",
    "game.offline": "offline", "game.yourMove": "Your move", "game.chance": "Chance…",
    "game.toMove": "{name} to move", "game.aiThinking": "{name} to move (AI thinking…)",
    "game.replayStatus": "Replay · ply {ply} of {n}", "game.over": "Game over", "game.overLog": "the game is over",
    "game.rematch": "Rematch", "game.joinRematch": "Join the rematch", "game.watchRematch": "Watch the rematch",
    "game.replay": "Replay", "game.newGame": "New game", "game.noMoves": "no moves yet",
    "game.hiddenMoves": "{n} moves — the list shows in the replay (remembering them is part of this game)",
    "game.notConnected": "not connected — the move was not sent", "game.notYourTurn": "it is not your move",
    "game.noReplay": "no replay: {error}", "game.noPly": "cannot show ply {ply}: {error}",
    "game.replayFirst": "start", "game.replayPrev": "previous move", "game.replayNext": "next move",
    "game.replayLast": "end", "game.replayExit": "back to the game", "game.noBoard": "no board for {game} in this client ({error})",
    "game.player": "player {n}",
    "seat.link": "Your seat on another device", "seat.linkHint": "This link opens your seat: keep it secret.",
    "seat.rejected": "This browser's key to seat {seat} was not accepted; you are watching.",
    "invite.title": "Invitations", "invite.hint": "Seats nobody has taken yet. Each link works once.",
    "invite.renew": "New invitation links", "invite.renewHint": "Lost a link? New links replace the old ones.",
    "invite.none": "no link in this browser", "invite.used": "This invitation has been used already.",
    "invite.over": "This game is over: its seats can no longer be taken. You can watch it.",
    "invite.invalid": "This invitation is not valid (it may have been replaced by a newer one).",
    "invite.claimed": "You have taken seat {name}.",
  },
  "zh-Hant": {
    "nav.play": "對弈", "nav.games": "棋局", "nav.replays": "重播", "nav.language": "English",
    "loading": "載入中…", "error.title": "出了點問題", "error.back": "回到大廳",
    "lobby.create": "開新棋局", "lobby.variant": "變體", "lobby.options": "選項", "lobby.seats": "座位",
    "lobby.rules": "規則：", "lobby.rulesLink": "{title} 簡介", "lobby.variants": "{n} 種變體",
    "lobby.variant1": "1 種變體", "lobby.human": "真人", "lobby.ai": "電腦", "lobby.mine": "我的座位",
    "lobby.createButton": "建立棋局", "lobby.created": "棋局已建立",
    "lobby.yourSeat": "你的座位：{name}。它保存在這個瀏覽器裡。",
    "lobby.playAs": "以 {name} 入座", "lobby.watch": "觀戰",
    "lobby.inviteHint": "把各自的邀請連結傳給其他棋手：第一個打開的人取得該座位，每個連結只能用一次。",
    "lobby.spectatorHint": "有觀戰連結的人都能觀戰。",
    "lobby.spectators": "觀戰者", "lobby.aiSeat": "電腦（{level}）",
    "lobby.playing": "進行中的棋局", "lobby.finished": "已結束的棋局", "lobby.refresh": "重新整理",
    "lobby.noPlaying": "目前沒有進行中的棋局。", "lobby.noFinished": "還沒有已結束的棋局。",
    "lobby.colGame": "遊戲", "lobby.colPlayers": "棋手", "lobby.colMoves": "手數", "lobby.colResult": "結果",
    "lobby.replay": "重播", "lobby.unavailable": "無法使用",
    "link.copy": "複製", "link.open": "開啟", "link.copied": "已複製連結",
    "game.connecting": "連線中…", "game.reconnecting": "重新連線中…", "game.rules": "規則", "game.lobby": "大廳",
    "game.moves": "棋譜", "game.log": "紀錄", "game.play": "下", "game.placeholder": "輸入一手，例如 {move}",
    "game.notYourMove": "還沒輪到你", "game.moveLabel": "以記譜法輸入一手", "game.resign": "認輸",
    "game.resignConfirm": "確定要認輸嗎？", "game.you": "你", "game.invited": "已邀請", "game.online": "在線",
    "game.offline": "離線", "game.yourMove": "輪到你了", "game.chance": "機運…",
    "game.toMove": "輪到 {name}", "game.aiThinking": "輪到 {name}（電腦思考中…）",
    "game.replayStatus": "重播 · 第 {ply} 手，共 {n} 手", "game.over": "棋局結束", "game.overLog": "棋局已結束",
    "game.rematch": "再來一局", "game.joinRematch": "加入再戰", "game.watchRematch": "觀看再戰",
    "game.replay": "重播", "game.newGame": "開新棋局", "game.noMoves": "尚無棋步",
    "game.hiddenMoves": "已下 {n} 手——棋譜在重播中顯示（記住棋步是這個遊戲的一部分）",
    "game.notConnected": "未連線——這一手沒有送出", "game.notYourTurn": "還沒輪到你",
    "game.noReplay": "無法重播：{error}", "game.noPly": "無法顯示第 {ply} 手：{error}",
    "game.replayFirst": "開頭", "game.replayPrev": "上一手", "game.replayNext": "下一手",
    "game.replayLast": "結尾", "game.replayExit": "回到棋局", "game.noBoard": "這個用戶端沒有 {game} 的棋盤（{error}）",
    "game.player": "棋手 {n}",
    "seat.link": "在另一台裝置上開啟你的座位", "seat.linkHint": "這個連結能打開你的座位：請保密。",
    "seat.rejected": "這個瀏覽器保存的座位 {seat} 金鑰無效；你正在觀戰。",
    "invite.title": "邀請", "invite.hint": "還沒有人入座的座位。每個連結只能用一次。",
    "invite.renew": "產生新的邀請連結", "invite.renewHint": "連結遺失了嗎？新連結會取代舊的。",
    "invite.none": "這個瀏覽器裡沒有連結", "invite.used": "這個邀請已經被使用過了。",
    "invite.over": "這局已經結束，座位不能再認領了。你可以觀看。",
    "invite.invalid": "這個邀請無效（可能已被新的邀請取代）。",
    "invite.claimed": "你已入座：{name}。",
  },
};

for (const area of AREAS) {
  for (const [language, words] of Object.entries(area)) Object.assign(STRINGS[language], words);
}

const KEY = "qipan.lang";

function initial() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in STRINGS) return saved;
  return (navigator.languages || [navigator.language]).some((l) => /^zh/i.test(l || "")) ? "zh-Hant" : "en";
}

export let lang = initial();

/** The string ``key`` in the page's language, with {name} placeholders filled from ``params``. */
export function t(key, params = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Switch between English and 繁體中文 (the page reloads to redraw everything). */
export function toggleLanguage() {
  localStorage.setItem(KEY, lang === "en" ? "zh-Hant" : "en");
  location.reload();
}

/** Fill elements marked data-i18n="key" (the static parts of index.html). */
export function translateStatic(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}
