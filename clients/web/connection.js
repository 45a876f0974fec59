// @ts-check
// The WebSocket half of the protocol: hello, requests matched to answers by id, pushed
// messages handed to listeners, and reconnection after a dropped socket.

/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").ClientRequest} ClientRequest */
/** @typedef {"connecting" | "open" | "closed"} LinkStatus */

export const PROTOCOL = 1;
const PING_EVERY_MS = 20_000;
const BACKOFF_MS = [200, 500, 1000, 2000, 4000];

/** The socket is not open (yet, or any more): the request was not sent. */
export class OfflineError extends Error {}

export class Connection {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {LinkStatus} */
    this.status = "closed";
    this.counter = 0;
    // Request ids are idempotency keys within a game: one that a previous page load (or
    // another tab) already used would be answered as a duplicate and not applied again.
    this.idPrefix = randomTag();
    this.attempt = 0;
    this.everOpened = false;
    /** @type {Map<string, { resolve: (m: ServerMessage) => void, reject: (e: Error) => void }>} */
    this.pending = new Map();
    /** @type {Set<(message: ServerMessage) => void>} */
    this.listeners = new Set();
    /** @type {Set<(reconnected: boolean) => void>} called after every welcome */
    this.readyListeners = new Set();
    /** @type {Set<(status: LinkStatus) => void>} */
    this.statusListeners = new Set();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
  }

  /** A fresh request id, unique across page loads. @param {string} prefix */
  nextId(prefix = "r") {
    this.counter += 1;
    return `${prefix}-${this.idPrefix}-${this.counter}`;
  }

  /** @param {LinkStatus} status */
  setStatus(status) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.setStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      // One frame per action: the change an accepted action makes comes in its result. A
      // server without the option leaves it out of the welcome and sends change frames.
      /** @type {ClientMessage} */
      const hello = { type: "hello", protocol: PROTOCOL, changes_in_results: true };
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      /** @type {ServerMessage} */
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      this.receive(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      clearInterval(this.pingTimer);
      for (const { reject } of this.pending.values()) reject(new OfflineError("connection lost"));
      this.pending.clear();
      this.setStatus("closed");
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** @param {ServerMessage} message */
  receive(message) {
    if (message.type === "welcome") {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
      for (const listener of this.readyListeners) listener(reconnected);
      return;
    }
    if ("id" in message && typeof message.id === "string") {
      const waiter = this.pending.get(message.id);
      if (waiter) {
        this.pending.delete(message.id);
        waiter.resolve(message);
      }
    }
    for (const listener of this.listeners) listener(message);
  }

  /**
   * Sends a message as is; false when the socket is not open.
   * @param {ClientMessage} message
   */
  send(message) {
    if (!this.socket || this.status !== "open") return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Sends a request with a new id; resolves with the message that answers it (`result`,
   * `subscribed`, `race`, `unsubscribed` or `error`).
   * @param {ClientRequest} request
   * @returns {Promise<ServerMessage>}
   */
  request(request) {
    const id = this.nextId(request.type.slice(0, 1));
    const message = /** @type {ClientMessage} */ ({ ...request, id });
    return new Promise((resolve, reject) => {
      if (!this.send(message)) {
        reject(new OfflineError("not connected"));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  /** Closes the socket as a network failure would; reconnection follows. */
  drop() {
    this.socket?.close(4000, "dropped by the client");
  }
}

/** Twelve random base-36 characters. */
function randomTag() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/** The service's WebSocket address, next to the page. */
export function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
