// JSON over HTTP to the qipan server.
async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && (data.error || data.detail)) || `${response.status} ${response.statusText}`;
    const error = new Error(typeof message === "string" ? message : JSON.stringify(message));
    error.status = response.status;
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return data;
}

/** ``body`` with the nickname when there is one (the server names the seat by it). */
function named(body, name) {
  return name ? { ...body, name } : body;
}

let metaPromise = null;
export const api = {
  meta: () => (metaPromise ??= call("GET", "/api/meta")),
  describe: (game, variant, options) => call("POST", "/api/describe", { game, variant, options }),
  create: (spec) => call("POST", "/api/games", spec),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  list: (status) => call("GET", `/api/games?status=${encodeURIComponent(status)}`),
  record: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/record`),
  replay: (id, ply) => call("GET", `/api/games/${encodeURIComponent(id)}/replay/${ply}`),
  rematch: (id, token, name = null) => call("POST", `/api/games/${encodeURIComponent(id)}/rematch`, named({ token }, name)),
  join: (id, name, seat = null, options = null) => call("POST", `/api/games/${encodeURIComponent(id)}/join`,
    named({ ...(seat === null ? {} : { seat }), ...(options ? { options } : {}) }, name)),
  claim: (id, invite, name = null, options = null) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/claim`, named(options ? { invite, options } : { invite }, name)),
  invites: (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/invites`, { token }),
  // Analysis (docs/server-api.md): a set-up position, a step through positions, a finished
  // game's decision, a hint in a game with hints on.
  analyse: (body) => call("POST", "/api/analyse", body),
  position: (body) => call("POST", "/api/position", body),
  review: (id, ply, body) => call("POST", `/api/games/${encodeURIComponent(id)}/review/${ply}`, body),
  hint: (id, token) => call("POST", `/api/games/${encodeURIComponent(id)}/hint`, { token }),
  // Tutorials (js/tutorial.js): the courses, and a lesson after its correct moves with a try.
  tutorials: () => call("GET", "/api/tutorials"),
  tutorial: (game, lesson, body) => call("POST", `/api/tutorials/${encodeURIComponent(game)}/${encodeURIComponent(lesson)}`, body),
  // Puzzles (js/puzzles.js): the catalogue, a puzzle after your moves with a try, a hint.
  puzzles: () => call("GET", "/api/puzzles"),
  puzzle: (id, body) => call("POST", `/api/puzzles/${encodeURIComponent(id)}/play`, body),
  puzzleHint: (id, body) => call("POST", `/api/puzzles/${encodeURIComponent(id)}/hint`, body),
};

/** The metadata of one game from /api/meta, or undefined. */
export async function gameMeta(name) {
  const meta = await api.meta();
  return meta.games.find((g) => g.name === name);
}
