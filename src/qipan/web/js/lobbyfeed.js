// The lobby's live lists: open games and games in play, pushed by the server on /ws/lobby
// ({"type": "lobby", "open": [...], "playing": [...]}). While the socket is down the lists are
// polled from GET /api/games?status=open|playing, and the socket is tried again with backoff.
import { api } from "./api.js";

export const POLL_MS = 5000;
export const PING_MS = 25000;
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30000;

/** Start following the lobby: ``onLists({open, playing})`` on every change, ``onMode("live" |
 * "polling")`` when the source changes. Returns a function that stops everything. */
export function followLobby(onLists, onMode) {
  let socket = null;
  let pollTimer = null;
  let pingTimer = null;
  let retryTimer = null;
  let retryDelay = RETRY_MIN_MS;
  let stopped = false;

  const poll = async () => {
    try {
      const [open, playing] = await Promise.all([api.list("open"), api.list("playing")]);
      if (!stopped && pollTimer) onLists({ open, playing });
    } catch (err) {
      if (!stopped && pollTimer) onLists({ error: err.message });
    }
  };

  const startPolling = () => {
    if (pollTimer || stopped) return;
    onMode("polling");
    pollTimer = setInterval(poll, POLL_MS);
    poll();
  };

  const stopPolling = () => {
    clearInterval(pollTimer);
    pollTimer = null;
  };

  const connect = () => {
    retryTimer = null;
    if (stopped) return;
    try {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    } catch {
      startPolling();
      retryLater();
      return;
    }
    socket.addEventListener("open", () => {
      clearInterval(pingTimer);
      pingTimer = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send('{"type":"ping"}'), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg?.type !== "lobby") return;
      retryDelay = RETRY_MIN_MS;
      stopPolling();
      onMode("live");
      onLists({ open: Array.isArray(msg.open) ? msg.open : [], playing: Array.isArray(msg.playing) ? msg.playing : [] });
    });
    socket.addEventListener("close", () => {
      socket = null;
      clearInterval(pingTimer);
      if (stopped) return;
      startPolling();
      retryLater();
    });
  };

  const retryLater = () => {
    if (retryTimer || stopped) return;
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(RETRY_MAX_MS, retryDelay * 2);
  };

  connect();
  return () => {
    stopped = true;
    stopPolling();
    clearInterval(pingTimer);
    clearTimeout(retryTimer);
    socket?.close();
  };
}
