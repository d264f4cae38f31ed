// Entry point: picks the page from the URL ("/" lobby, "/play/<id>" a game or its replay).
import { clear, h } from "./dom.js";

async function route() {
  const app = document.getElementById("app");
  const match = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  try {
    if (match) {
      const { showGame } = await import("./play.js");
      await showGame(app, decodeURIComponent(match[1]), new URLSearchParams(location.search));
    } else {
      const { showLobby } = await import("./lobby.js");
      await showLobby(app);
    }
  } catch (err) {
    console.error(err);
    clear(app).append(
      h("div", { class: "card" }, h("h2", { text: "Something went wrong" }), h("p", { class: "error", text: err.message }),
        h("a", { class: "btn", href: "/" }, "Back to the lobby")),
    );
  }
}

route();
