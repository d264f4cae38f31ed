// The Sheng-Ke rules page draws the range table: the documented one, or the table a game uses
// when the page is opened as shengke.html?ranges=8/46/... (a game's page links so; an unreadable
// table is ignored).
import { DEFAULT_RANGES, parseRanges, rangeGrid, rangeLabel } from "../js/shengke-ranges.js";

const asked = new URLSearchParams(location.search).get("ranges");
const custom = asked === null ? null : parseRanges(asked);
const table = custom || parseRanges(DEFAULT_RANGES);
for (const list of document.querySelectorAll("ol.sk-table")) {
  list.replaceChildren(...table.map((cells, i) => {
    const item = document.createElement("li");
    const number = document.createElement("strong");
    number.textContent = String(i + 1);
    const language = list.closest("[lang]")?.getAttribute("lang") || "en";
    item.append(number, rangeGrid(cells, { label: rangeLabel(i + 1, cells, language) }));
    return item;
  }));
}
for (const note of document.querySelectorAll(".sk-custom")) {
  note.hidden = !custom || custom.join("/") === DEFAULT_RANGES;
  const code = note.querySelector("code");
  if (custom && code) code.textContent = custom.join("/");
}
