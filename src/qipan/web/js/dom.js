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

const ICON_PATHS = {
  first: "M5 4h2v16H5zM20 4v16L9 12z",
  prev: "M18 4v16L6 12z",
  next: "M6 4v16l12-8z",
  last: "M17 4h2v16h-2zM4 4v16l11-8z",
  close: "M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z",
  flip: "M7 3 3 7h3v9h2V7h3zm10 18 4-4h-3V8h-2v9h-3z",
  sound: "M3 9v6h4l5 5V4L7 9zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z",
  mute: "M3 9v6h4l5 5V4L7 9zm13.6 3 2.7-2.7-1.4-1.4-2.7 2.7-2.7-2.7-1.4 1.4 2.7 2.7-2.7 2.7 1.4 1.4 2.7-2.7 2.7 2.7 1.4-1.4z",
  link: "M10.6 13.4a1 1 0 0 0 1.4 0l4-4a3 3 0 0 0-4.2-4.2l-1.5 1.5 1.4 1.4 1.5-1.5a1 1 0 0 1 1.4 1.4l-4 4a1 1 0 0 0 0 1.4zm2.8-2.8a1 1 0 0 0-1.4 0l-4 4a3 3 0 0 0 4.2 4.2l1.5-1.5-1.4-1.4-1.5 1.5a1 1 0 0 1-1.4-1.4l4-4a1 1 0 0 0 0-1.4z",
  download: "M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16 6.3 10.3l1.4-1.4 3.3 3.3zM4 18h16v2H4z",
  // A warning triangle; its "!" is wound the other way, so it is a hole.
  warning: "M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z",
  // A die showing five; the pips are wound the other way, so they are holes.
  die: "M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3zM8 6.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zm8 0a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zm-4 4a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zm-4 4a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3zm8 0a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z",
};

/** A small inline SVG icon (never a font glyph, which may be missing); decorative: the button
 * that holds it carries the accessible name. */
export function icon(name) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", width: "20", height: "20", "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICON_PATHS[name], fill: "currentColor" }));
}

/** A button showing only an icon, named by ``label`` for screen readers and as its tooltip. */
export function iconButton(name, label, attrs = {}) {
  return h("button", { class: "btn small icon-btn", type: "button", title: label, "aria-label": label, ...attrs }, icon(name));
}
