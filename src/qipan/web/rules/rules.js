// A rules page in the language the client uses (js/i18n.js keeps the choice): each page holds
// its text as <article lang="en"> and <article lang="zh-Hant">; the other is removed, so the page
// has one h1 (without scripts the English one shows: the Chinese article is marked hidden). Words
// outside the articles carry their Chinese in data-zh. The header button switches language.
import { lang, t, toggleLanguage } from "../js/i18n.js";

document.documentElement.lang = lang;
for (const article of document.querySelectorAll("main.rules > article[lang]")) {
  if (article.lang !== lang) {
    article.remove();
    continue;
  }
  article.hidden = false;
  if (article.dataset.title) document.title = article.dataset.title;
}
if (lang === "zh-Hant") {
  for (const node of document.querySelectorAll("[data-zh]")) node.textContent = node.dataset.zh;
}
const button = document.getElementById("lang");
if (button) {
  button.textContent = t("nav.language");
  button.hidden = false;
  button.addEventListener("click", toggleLanguage);
}
