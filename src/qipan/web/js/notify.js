// The tab says when it is your turn: "● Your move · Abalone · qipan" and a green favicon;
// both go back to normal otherwise.
import { t } from "./i18n.js";

const ICON = (fill, ring) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><circle cx='8' cy='8' r='7' fill='${fill}'`
  + `${ring ? ` stroke='${ring}' stroke-width='2'` : ""}/></svg>`);
const NORMAL = ICON("#c9a227");
const YOUR_TURN = ICON("#3fb950", "#0b3d16");

let shown = null;

/** Show (or stop showing) "your move" in the tab's title and icon for the game ``title``. */
export function tabSaysYourTurn(title, yours) {
  const key = `${title}|${yours}`;
  if (key === shown) return;
  shown = key;
  document.title = yours ? `● ${t("game.yourMove")} · ${title} · qipan` : `${title} · qipan`;
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = yours ? YOUR_TURN : NORMAL;
}
