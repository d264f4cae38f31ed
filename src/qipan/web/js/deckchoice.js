// Sheng-Ke: the deck a player brings when they take a seat (the lobby's Join, an invitation
// link): the deck the game's creator set for the seat, the built-in deck, or one the deck
// workshop keeps in this browser. It goes with the join or claim as options {"deck": ...}.
import { h } from "./dom.js";
import { sideName } from "./gamewords.js";
import { t } from "./i18n.js";
import { deckJson, legalSaved, savedDecks, shortName } from "./deckfile.js";

const SAVED = "saved:";

/** The name of the deck a game option deck_N holds ("default" or the deck as JSON). */
export function deckName(option) {
  if (typeof option !== "string" || !option.startsWith("{")) return t("deck.builtIn");
  try {
    const name = JSON.parse(option).name;
    return typeof name === "string" && name.trim() ? shortName(name) : "deck";
  } catch {
    return "deck";
  }
}

/** The seats of game ``info`` (its summary) a player may still take. */
export function freeSeats(info) {
  return (info.seats || []).filter((s) => s.kind === "human" && !s.claimed).map((s) => s.seat);
}

/** Ask which deck to bring to one of ``seats`` (their numbers) of the game ``info`` (its summary,
 * options included): the options for the join or claim ({} keeps the deck set for the seat), or
 * null when the player cancels (only if ``cancel``). Asks nothing when there is nothing to choose:
 * no deck saved in this browser and the built-in deck set. */
export function chooseDeck(info, seats, { cancel = true } = {}) {
  const set = seats.map((s) => info.options?.[`deck_${s}`] ?? "default");
  const builtIn = set.every((option) => !option.startsWith("{"));
  const saved = savedDecks();
  const names = Object.keys(saved).sort();
  if (builtIn && !names.length) return Promise.resolve({});
  const setName = new Set(set).size === 1 ? deckName(set[0])
    : seats.map((s, i) => `${sideName(info.seats?.[s]?.side ?? String(s))}: ${deckName(set[i])}`).join(" · ");
  return new Promise((resolve) => {
    const select = h("select", { id: "bring-deck", "aria-describedby": "bring-set" },
      h("option", { value: "", text: t("deck.setOption", { name: setName }) }),
      builtIn ? null : h("option", { value: "default", text: t("deck.builtIn") }),
      // "saved:": a deck saved as "default" is not the built-in one; one with problems is shown,
      // not chosen (the server would refuse it)
      names.map((name) => {
        const legal = legalSaved(saved[name]);
        const text = legal ? shortName(name) : t("deck.aiIllegal", { name: shortName(name) });
        return h("option", { value: SAVED + name, disabled: !legal, text });
      }));
    let result = null;
    const form = h("form", {
      method: "dialog",
      onsubmit: () => {
        const name = select.value;
        result = name === "" ? {} : { deck: name === "default" ? "default" : deckJson(saved[name.slice(SAVED.length)]) };
      },
    },
    h("h2", { id: "bring-title", text: t("deck.bringTitle") }),
    h("p", { class: "hint", id: "bring-set", text: builtIn ? t("deck.setHintBuiltIn") : t("deck.setHint", { name: setName }) }),
    h("label", { class: "field", for: "bring-deck" }, h("span", { text: t("deck.yours") })),
    select,
    h("p", { class: "hint" }, h("a", { href: "/static/workshop/shengke.html", target: "_blank", text: t("deck.link") })),
    h("div", { class: "btns" },
      h("button", { type: "submit", class: "btn primary", id: "bring-take" }, t("deck.take")),
      cancel ? h("button", { type: "button", class: "btn", id: "bring-cancel", onclick: () => dialog.close() }, t("name.cancel"))
        : null));
    const dialog = h("dialog", { class: "name-dialog", id: "bring-dialog", "aria-labelledby": "bring-title" }, form);
    if (!cancel) dialog.addEventListener("cancel", (event) => event.preventDefault());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    select.focus();
  });
}
