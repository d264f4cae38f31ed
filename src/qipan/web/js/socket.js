// A WebSocket that says hello first (its seat and token travel in that message, never in the
// URL), reconnects by itself with exponential backoff and keeps itself alive with pings.
// Close codes after which retrying cannot help: 4403 wrong seat or token, 4404 no such game,
// 4408 no hello in time, 4409 the game is set aside as unavailable.
const FATAL = new Set([4403, 4404, 4408, 4409]);

export class GameSocket {
  constructor(url, hello, { onMessage, onState, onFatal }) {
    this.url = url;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.onFatal = onFatal || (() => {});
    this.delay = 250;
    this.closed = false;
    this.ws = null;
    this.pinger = null;
    this.lastError = null; // the server says why just before it closes a connection
    this.open();
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.onState("connecting");
    ws.onopen = () => {
      this.lastError = null;
      ws.send(JSON.stringify(this.hello));
      this.delay = 250;
      this.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data && data.type === "error") this.lastError = String(data.error || "");
      this.onMessage(data);
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.closed) return;
      if (FATAL.has(event.code)) {
        this.closed = true;
        this.onFatal(event.code, this.lastError || event.reason || "");
        return;
      }
      this.onState("closed");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
    ws.onerror = () => ws.close();
  }

  /** Connect again with a new hello (a new nickname, say). */
  reconnect(hello) {
    this.hello = hello;
    if (this.ws && !this.closed) this.ws.close();
  }

  get ready() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.ready) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}

/** The game's WebSocket address: only the public game id, nothing secret. */
export function socketUrl(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/games/${encodeURIComponent(id)}`;
}

/** The first message of a connection: a seat and its token, or a spectator's; with the nickname
 * this browser keeps, if any. */
export function helloFor(seat, token, name = null) {
  const hello = seat === null || seat === undefined || !token ? { type: "hello" } : { type: "hello", seat, token };
  if (name) hello.name = name;
  return hello;
}
