// Tiny DOM helpers: h() builds HTML elements, s() builds SVG elements; toasts, clocks, links.
import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** An HTML element: h("button", {class: "btn", onclick}, "Go"). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element: s("circle", {cx: 1, cy: 2, r: 3}). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A fresh <svg> with a viewBox, ready to be filled. */
export function svgRoot(x, y, w, hgt, attrs = {}) {
  return s("svg", { viewBox: `${x} ${y} ${w} ${hgt}`, xmlns: SVG_NS, ...attrs });
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

let toastTimer = null;
/** A short message at the bottom of the screen (errors from the server, copy confirmations). */
export function toast(message, ms = 3500) {
  let node = document.querySelector(".toast");
  if (!node) {
    node = h("div", { class: "toast", role: "alert" });
    document.body.append(node);
  }
  node.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.remove(), ms);
}

export function formatClock(seconds) {
  const left = Math.max(0, seconds);
  const m = Math.floor(left / 60);
  const sec = Math.floor(left % 60);
  const tenths = left < 10 ? `.${Math.floor((left * 10) % 10)}` : "";
  return `${m}:${String(sec).padStart(2, "0")}${tenths}`;
}

/** Player colours used when a board does not define its own. */
export const PALETTE = ["#222", "#eee", "#d33", "#2a6fdb", "#2f9e44", "#e8a317"];

export function absolute(url) {
  return new URL(url, location.origin).href;
}

/** A link with Copy and Open buttons. Invitation links are not opened here: that would take
 * the seat for this browser. */
export function linkRow(who, url, cls, { open = true } = {}) {
  const full = absolute(url);
  return h("div", { class: `link-row ${cls}`, "data-url": full },
    h("span", { class: "who", text: who }),
    h("code", { text: full, title: full }),
    h("button", {
      type: "button", class: "btn small",
      onclick: () => navigator.clipboard?.writeText(full).then(() => toast(t("link.copied"), 1500), () => toast(full, 6000)),
    }, t("link.copy")),
    open ? h("a", { class: "btn small", href: url, target: cls === "spectator" ? "_blank" : undefined }, t("link.open")) : null);
}
