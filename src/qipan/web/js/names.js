// The nickname: no account, no password. Chosen once, kept in this browser (localStorage
// "qipan.name"), editable from the header; checked like the server's qipan.server.names.check_name
// (stripped, 1..24 characters, no control, format, surrogate, private-use or unassigned character,
// no line or paragraph separator).
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "qipan.name";
export const MAX_NAME = 24;
// Unicode categories C* (Cc control, Cf format: bidi overrides, zero-width; Cs, Co, Cn), Zl, Zp.
const FORBIDDEN = /[\p{C}\p{Zl}\p{Zp}]/u;

/** ``{name}`` for an acceptable nickname (stripped), else ``{error}``: a sentence to show. */
export function checkName(text) {
  const name = String(text ?? "").trim();
  const length = [...name].length;
  if (!length) return { error: t("name.empty", { max: MAX_NAME }) };
  if (length > MAX_NAME) return { error: t("name.long", { max: MAX_NAME, n: length }) };
  if (FORBIDDEN.test(name)) return { error: t("name.control") };
  return { name };
}

/** The nickname kept in this browser, or null (none chosen, or an unacceptable stored value). */
export function currentName() {
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    return null;
  }
  const checked = stored === null ? null : checkName(stored);
  return checked?.name ?? null;
}

const listeners = new Set();

/** Call ``fn(name)`` whenever the nickname changes (in this page). */
export function onNameChange(fn) {
  listeners.add(fn);
}

function saveName(name) {
  localStorage.setItem(KEY, name);
  for (const fn of listeners) fn(name);
}

let dialog = null;

/** Ask for a nickname in a dialog: resolves to the saved name, or null when cancelled. */
export function askName() {
  dialog?.close();
  return new Promise((resolve) => {
    const input = h("input", {
      type: "text", id: "name-input", name: "nickname", autocomplete: "nickname", maxlength: 64,
      value: currentName() ?? "", "aria-describedby": "name-help name-error", spellcheck: "false",
    });
    const error = h("p", { class: "error", id: "name-error", role: "alert" });
    let result = null;
    const form = h("form", {
      method: "dialog",
      onsubmit: (event) => {
        const checked = checkName(input.value);
        if (checked.error) {
          event.preventDefault();
          error.textContent = checked.error;
          input.setAttribute("aria-invalid", "true");
          input.focus();
          return;
        }
        result = checked.name;
        saveName(result);
      },
    },
    h("h2", { id: "name-title", text: t("name.title") }),
    h("p", { class: "hint", id: "name-help", text: t("name.help", { max: MAX_NAME }) }),
    h("label", { class: "field", for: "name-input" }, h("span", { text: t("name.label") })),
    input,
    error,
    h("div", { class: "btns" },
      h("button", { type: "submit", class: "btn primary", id: "name-save" }, t("name.save")),
      h("button", { type: "button", class: "btn", id: "name-cancel", onclick: () => dialog.close() }, t("name.cancel"))));
    dialog = h("dialog", { class: "name-dialog", "aria-labelledby": "name-title" }, form);
    dialog.addEventListener("close", () => {
      dialog.remove();
      dialog = null;
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.select();
  });
}

const OFFER = "qipan.nameOffer"; // sessionStorage: the game whose page offers to choose a nickname

/** Game ``id`` was started without a nickname: its page will offer to choose one. */
export function offerNameOn(id) {
  try {
    sessionStorage.setItem(OFFER, id);
  } catch {
    // no storage: no offer
  }
}

/** On game ``id``'s page, a small non-modal offer to choose a nickname (the seat plays as
 * ``side`` meanwhile), if the game was started without one; null otherwise. It goes away for
 * good once a nickname is chosen or the offer is dismissed. */
export function nameOffer(id, side) {
  let wanted = null;
  try {
    wanted = sessionStorage.getItem(OFFER);
  } catch {
    return null;
  }
  if (wanted !== id || currentName()) return null;
  const node = h("section", { class: "panel name-offer", id: "name-offer", "aria-label": t("name.choose") },
    h("p", { class: "hint", text: t("name.offer", { side }) }),
    h("div", { class: "btns" },
      h("button", { type: "button", class: "btn small primary", id: "name-offer-choose", onclick: () => askName() }, t("name.choose")),
      h("button", { type: "button", class: "btn small", id: "name-offer-dismiss", onclick: () => done() }, t("name.offerLater"))));
  const done = () => {
    try {
      sessionStorage.removeItem(OFFER);
    } catch {
      // nothing kept
    }
    node.remove();
  };
  onNameChange(done);
  return node;
}

/** The name to play under: the kept one, or (first time) the one asked for; null if cancelled. */
export async function nameToPlay() {
  return currentName() ?? askName();
}

/** Fill the header's nickname button (#nick) and open the dialog from it. */
export function mountNameButton() {
  const button = document.getElementById("nick");
  if (!button) return;
  const show = () => {
    const name = currentName();
    clear(button).append(h("span", { class: "nick-label", text: name ?? t("name.choose") }));
    button.setAttribute("aria-label", name ? t("name.change", { name }) : t("name.choose"));
    button.classList.toggle("unset", !name);
  };
  show();
  onNameChange(show);
  button.addEventListener("click", () => askName());
}
