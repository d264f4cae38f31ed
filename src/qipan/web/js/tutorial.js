// The tutorials (/learn): a course per game, each lesson a position on the real engine with a
// task for the learner (docs/tutorials.md).
//
// The server holds the lessons and judges every try (POST /api/tutorials/{game}/{lesson} with
// the correct moves so far and the try): a correct move is applied and explained, a wrong one is
// refused with the lesson's explanation or the engine's reason, and nothing changes. Which
// lessons are done is kept in this browser (localStorage "qipan.learn").
import { api } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { sideName } from "./gamewords.js";

const DONE = "qipan.learn";

/** The words of a {en, "zh-Hant"} pair in the page's language. */
const say = (words) => (words ? words[lang] ?? words.en : "");

/** Which lessons this browser has finished: {game: [lesson ids]}. */
export function finished() {
  try {
    const kept = JSON.parse(localStorage.getItem(DONE) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

function markDone(game, lesson) {
  const kept = finished();
  const list = Array.isArray(kept[game]) ? kept[game] : [];
  if (!list.includes(lesson)) kept[game] = [...list, lesson];
  try {
    localStorage.setItem(DONE, JSON.stringify(kept));
  } catch {
    // Storage refused (private mode, quota): the lesson is still done, just not remembered.
  }
}

function lessonUrl(game, lesson) {
  return `/learn?game=${encodeURIComponent(game)}&lesson=${encodeURIComponent(lesson)}`;
}

/** The lobby's entry to the tutorials. */
export function learnPanel() {
  return h("section", { class: "panel", id: "learn-entry", "aria-labelledby": "learn-entry-title" },
    h("header", {}, h("h2", { id: "learn-entry-title", text: t("learn.title") })),
    h("div", { class: "body" }, h("p", { class: "hint", text: t("learn.lobbyHint") }),
      h("a", { class: "btn primary", href: "/learn", id: "learn-link" }, t("learn.start"))));
}

export async function showLearn(app) {
  const params = new URLSearchParams(location.search);
  const { courses } = await api.tutorials();
  const course = courses.find((c) => c.game === params.get("game"));
  const lesson = course?.lessons.find((l) => l.id === params.get("lesson"));
  if (course && lesson) {
    await new LessonPage(app, course, lesson).open();
  } else {
    showCourses(app, courses);
  }
}

/** The lessons of ``game`` this browser has finished (a damaged record counts as none). */
const mineOf = (done, game) => (Array.isArray(done[game]) ? done[game] : []);

/** The course to show open: the first one started and not finished, else the first not finished. */
function currentCourse(courses, done) {
  const counts = courses.map((c) => c.lessons.filter((l) => mineOf(done, c.game).includes(l.id)).length);
  const open = courses.filter((c, i) => counts[i] < c.lessons.length);
  return (open.find((c) => counts[courses.indexOf(c)] > 0) ?? open[0])?.game;
}

function showCourses(app, courses) {
  document.title = `${t("learn.title")} · qipan`;
  const done = finished();
  const current = currentCourse(courses, done);
  // Each course folds (<details>): the list of every lesson is several screens long on a phone.
  clear(app).append(h("div", { class: "learn", id: "learn" },
    h("section", { class: "card learn-head" }, h("h1", { text: t("learn.title") }), h("p", { class: "hint", text: t("learn.intro") })),
    h("div", { class: "learn-courses" }, courses.map((course) => {
      const mine = mineOf(done, course.game);
      const count = course.lessons.filter((l) => mine.includes(l.id)).length;
      return h("details", { class: "panel learn-course", "data-course": course.game, open: course.game === current },
        h("summary", {},
          h("span", { class: "learn-chevron", "aria-hidden": "true", text: "▸" }),
          h("h2", { id: `course-${course.game}`, text: say(course.title) }),
          h("span", { class: "feed-status learn-count", text: t("learn.count", { done: count, n: course.lessons.length }) })),
        h("div", { class: "body" },
          h("ol", { class: "learn-lessons" }, course.lessons.map((l) => {
            const ok = mine.includes(l.id);
            return h("li", { class: ok ? "done" : "", "data-lesson": l.id },
              h("a", { href: lessonUrl(course.game, l.id) }, say(l.title)),
              ok ? h("span", { class: "learn-tick", text: t("learn.doneMark") }) : null,
              h("span", { class: "hint learn-rules", text: l.rules.map((r) => say(course.rules[r])).join(" · ") }));
          })),
          h("a", { class: "hint", href: `/static/rules/${course.game}.html`, text: t("learn.rulesPage") })));
    }))));
}

class LessonPage {
  constructor(app, course, lesson) {
    Object.assign(this, { app, course, lesson });
    this.moves = [];
    this.busy = false;
  }

  async open() {
    const first = await api.tutorial(this.course.game, this.lesson.id, { moves: [] });
    const meta = (await api.meta()).games.find((g) => g.name === first.game);
    this.info = await api.describe(first.game, first.variant, first.options);
    this.boardModule = await import(`/static/boards/${first.game}.js`);
    document.title = `${say(this.lesson.title)} · ${t("learn.title")} · qipan`;
    this.build(meta, first);
    this.show(first, null);
  }

  build(meta, first) {
    const e = (this.els = {
      boardHost: h("div", { class: "board-wrap", id: "board" }),
      extra: h("div", { class: "board-extra", id: "board-extra" }),
      step: h("p", { class: "learn-step", id: "learn-step" }),
      prompt: h("p", { class: "learn-prompt", id: "learn-prompt" }),
      feedback: h("div", { class: "learn-feedback", id: "learn-feedback", role: "status", "aria-live": "polite" }),
      input: h("input", { type: "text", id: "learn-move", autocomplete: "off", spellcheck: "false", "aria-label": t("game.moveLabel") }),
      next: h("a", { class: "btn primary", id: "learn-next", hidden: true }, t("learn.next")),
    });
    e.form = h("form", { class: "notation", id: "learn-form", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } }, e.input,
      h("button", { class: "btn", type: "submit", id: "learn-play" }, t("game.play")));
    e.boardHost.style.setProperty("--board-aspect", String(this.boardModule.aspect || 1));
    e.boardHost.style.setProperty("--board-reserve", `${this.boardModule.reserve || 9}rem`);
    const index = this.course.lessons.indexOf(this.lesson);
    const rules = this.lesson.rules.map((r) => say(this.course.rules[r])).join(" · ");
    const side = h("aside", { class: "side" },
      h("section", { class: "panel players-panel learn-panel", "aria-labelledby": "learn-title" }, h("div", { class: "body" },
        h("p", { class: "hint" }, h("a", { href: "/learn", id: "learn-back" }, t("learn.back")), " · ",
          t("learn.lessonOf", { course: say(this.course.title), k: index + 1, n: this.course.lessons.length })),
        h("h1", { id: "learn-title", text: say(this.lesson.title) }),
        h("p", { class: "learn-intro", id: "learn-intro", text: say(first.intro) }),
        h("p", { class: "hint learn-rules", text: t("learn.rules", { rules }) }),
        e.step, e.prompt, e.feedback,
        e.form,
        h("div", { class: "an-buttons" },
          h("button", { type: "button", class: "btn small", id: "learn-restart", onclick: () => this.restart() }, t("learn.restart")),
          e.next))));
    clear(this.app).append(h("div", { class: "play learn-lesson", id: "learn-lesson", "data-lesson": this.lesson.id },
      h("div", { class: "board-col" }, e.boardHost, e.extra), side));
    this.board = this.boardModule.create(e.boardHost, e.extra,
      { info: { game: first.game, variant: first.variant, options: first.options }, meta, seat: first.seat });
  }

  /** Show the lesson as the server answered it, with the verdict on the last try. */
  show(pos, verdict) {
    this.pos = pos;
    this.moves = pos.moves;
    const e = this.els;
    e.step.textContent = pos.done ? t("learn.complete") : t("learn.stepOf", { k: pos.step + 1, n: pos.steps });
    e.prompt.textContent = pos.done ? "" : say(pos.prompt);
    e.prompt.hidden = pos.done;
    const box = clear(e.feedback);
    box.dataset.kind = verdict?.kind ?? "";
    if (verdict?.kind === "correct") box.append(h("strong", { text: t("learn.correct") }), " ", say(verdict.explain));
    else if (verdict?.kind === "wrong") box.append(h("strong", { text: t("learn.wrong") }), " ", say(verdict.explain));
    else if (verdict?.kind === "illegal") box.append(h("strong", { text: t("learn.illegal") }), " ", say(verdict.reason));
    if (pos.done) markDone(this.course.game, this.lesson.id);
    e.next.hidden = !pos.done;
    if (pos.next) e.next.setAttribute("href", lessonUrl(this.course.game, pos.next));
    else {
      e.next.setAttribute("href", "/learn");
      e.next.textContent = t("learn.allDone");
    }
    e.form.hidden = pos.done;
    e.input.placeholder = !pos.done && pos.legal.length ? t("game.placeholder", { move: pos.legal[0] }) : "";
    this.renderBoard(true);
  }

  renderBoard(fresh) {
    const pos = this.pos;
    const seats = this.info.player_names.map((name) => ({ name: sideName(name), side: name }));
    const msg = { view: pos.view, legal: pos.legal, to_move: pos.to_move, last: pos.last, ply: pos.moves.length, seats,
      result: null, moves: [] };
    this.board.render(msg, { seat: pos.seat, interactive: !pos.done && !this.busy && pos.legal.length > 0, fresh,
      submit: (text) => this.play(text), suggest: null, editing: false });
  }

  async play(move) {
    if (this.busy || this.pos.done) return;
    this.busy = true;
    try {
      const answer = await api.tutorial(this.course.game, this.lesson.id, { moves: this.moves, move });
      this.busy = false;
      this.show(answer, answer.verdict);
    } catch (err) {
      this.busy = false;
      toast(err.message);
      this.renderBoard(true);
    }
  }

  typed() {
    const text = this.els.input.value.trim();
    if (!text) return;
    this.els.input.value = "";
    this.play(text);
  }

  async restart() {
    try {
      this.show(await api.tutorial(this.course.game, this.lesson.id, { moves: [] }), null);
    } catch (err) {
      toast(err.message);
    }
  }
}
