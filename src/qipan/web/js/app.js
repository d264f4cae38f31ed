// Entry point: picks the page from the URL ("/" lobby, "/play/<id>" a game or its replay,
// "/analysis" the analysis board, "/learn" the tutorials, "/puzzles" the puzzles).
import { clear, h } from "./dom.js";
import { t, toggleLanguage, translateStatic } from "./i18n.js";
import { mountNameButton } from "./names.js";

async function route() {
  translateStatic();
  document.getElementById("lang")?.addEventListener("click", toggleLanguage);
  mountNameButton();
  const app = document.getElementById("app");
  const match = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  try {
    if (match) {
      const { showGame } = await import("./play.js");
      await showGame(app, decodeURIComponent(match[1]));
    } else if (/^\/analysis\/?$/.test(location.pathname) || new URLSearchParams(location.search).has("analysis")) {
      const { showAnalysis } = await import("./analysisboard.js");
      await showAnalysis(app);
    } else if (/^\/learn\/?$/.test(location.pathname)) {
      const { showLearn } = await import("./tutorial.js");
      await showLearn(app);
    } else if (/^\/puzzles(\/[^/]*)?\/?$/.test(location.pathname)) {
      const { showPuzzles } = await import("./puzzles.js");
      await showPuzzles(app);
    } else {
      const { showLobby } = await import("./lobby.js");
      await showLobby(app);
    }
  } catch (err) {
    console.error(err);
    clear(app).append(
      h("div", { class: "card" }, h("h2", { text: t("error.title") }), h("p", { class: "error", text: err.message }),
        h("a", { class: "btn", href: "/" }, t("error.back"))),
    );
  }
}

route();
