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
    "link.copy": "Copy", "link.open": "Open", "link.copied": "Link copied",
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
    "link.copy": "複製", "link.open": "開啟", "link.copied": "已複製連結",
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
