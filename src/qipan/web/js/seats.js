// The seats this browser holds, kept in localStorage (never in a URL the server sees):
// "qipan.game.<id>" → {seats: {"<seat>": token}, creator: <seat> | null, invites: {"<seat>": code}}.
const PREFIX = "qipan.game.";

function read(id) {
  try {
    const data = JSON.parse(localStorage.getItem(PREFIX + id) || "null");
    if (data && typeof data === "object" && data.seats && typeof data.seats === "object") {
      return { seats: data.seats, creator: data.creator ?? null, invites: data.invites || {} };
    }
  } catch {
    // unreadable: start afresh
  }
  return { seats: {}, creator: null, invites: {} };
}

function write(id, data) {
  localStorage.setItem(PREFIX + id, JSON.stringify(data));
}

/** Everything kept for game ``id``. */
export function held(id) {
  return read(id);
}

/** The token this browser holds for ``seat`` of game ``id``, or null. */
export function tokenFor(id, seat) {
  return read(id).seats[String(seat)] ?? null;
}

/** The seat to open when the page does not say: the lowest seat held, or null (watch). */
export function defaultSeat(id) {
  const seats = Object.keys(read(id).seats).map(Number).filter(Number.isInteger);
  return seats.length ? Math.min(...seats) : null;
}

export function keepSeat(id, seat, token, { creator = false } = {}) {
  const data = read(id);
  data.seats[String(seat)] = token;
  if (creator) data.creator = seat;
  write(id, data);
}

export function forgetSeat(id, seat) {
  const data = read(id);
  delete data.seats[String(seat)];
  if (data.creator === seat) data.creator = null;
  write(id, data);
}

/** Keep invitation codes (the creator's, to show again): {seat: code}, replacing older ones. */
export function keepInvites(id, invites) {
  const data = read(id);
  Object.assign(data.invites, invites);
  write(id, data);
}

/** Secrets a link may carry in its fragment: #invite=CODE, #seat=N&token=T, or just #seat=N. */
export function parseFragment(hash) {
  const params = new URLSearchParams((hash || "").replace(/^#/, ""));
  const seatText = params.get("seat");
  const seat = seatText !== null && /^\d{1,3}$/.test(seatText) ? Number(seatText) : null;
  return { invite: params.get("invite"), seat, token: params.get("token") };
}
