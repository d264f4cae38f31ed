// A WebSocket that reconnects by itself with exponential backoff and keeps itself alive with pings.
export class GameSocket {
  constructor(url, { onMessage, onState }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.delay = 250;
    this.closed = false;
    this.ws = null;
    this.pinger = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.onState("connecting");
    ws.onopen = () => {
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
      this.onMessage(data);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.closed) return;
      this.onState("closed");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
    ws.onerror = () => ws.close();
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

export function socketUrl(id, seat, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = seat === null || seat === undefined ? "" : `?seat=${seat}&token=${encodeURIComponent(token)}`;
  return `${proto}//${location.host}/ws/games/${encodeURIComponent(id)}${query}`;
}
