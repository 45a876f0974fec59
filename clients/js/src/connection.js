// @ts-check
// The one WebSocket a client shares between every game and race it follows: hello,
// requests matched to their answers by id (with a time limit each), frames paced to the
// rate the service announces, a heartbeat, and reconnection with exponential backoff and
// jitter. After every reconnection the followers resume first (each game subscribes again
// from its version, each race is watched again); then the requests still unanswered that
// are safe to repeat (actions, undos, resignations) are sent again with their same ids, so
// the service applies each of them once, whatever the network did.

import { Emitter } from "./emitter.js";
import { SolitaireError, fromErrorFrame } from "./errors.js";
import { FrameError, readFrame } from "./frames.js";

/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").WelcomeMessage} WelcomeMessage */
/** @typedef {import("../types/protocol/client-message.js").ClientMessage} ClientMessage */

/**
 * `idle` before the first `connect()`; `connecting` until the first connection is up;
 * `open`; `reconnecting` from a drop until the connection is back and every follower has
 * resumed; `disconnected` once the reconnection tries are spent (`reconnect()` starts
 * again); `closed` after `close()`.
 * @typedef {"idle" | "connecting" | "open" | "reconnecting" | "disconnected" | "closed"} ConnectionStatus
 */

/**
 * @typedef {object} ReconnectOptions
 * @property {number} [maxAttempts]  tries in a row before giving up (`disconnected`); default 10
 * @property {number} [baseDelayMs]  the first wait; each try doubles it; default 250
 * @property {number} [maxDelayMs]  the longest wait; default 8000
 */

/**
 * @typedef {object} ConnectionOptions
 * @property {string} url  the WebSocket address, `ws://host:port/ws`
 * @property {typeof WebSocket} [WebSocket]  the WebSocket class (default: the platform's)
 * @property {number} [requestTimeoutMs]  default time limit of a request; default 15000
 * @property {number} [heartbeatMs]  a ping after this long; default 15000
 * @property {number} [heartbeatTimeoutMs]  a socket silent this long is dropped and
 *   dialled again; default twice `heartbeatMs` plus 5 s
 * @property {ReconnectOptions} [reconnect]
 * @property {boolean} [changesInResults]  ask for the change of an accepted action inside
 *   its result (one frame per action); default true
 */

/**
 * @typedef {object} RequestOptions
 * @property {number} [timeout]  ms; default the connection's `requestTimeoutMs`
 * @property {boolean} [resend]  send again after a reconnection, with the same id (only for
 *   requests the service keeps idempotent by their id: action, undo, resign)
 * @property {boolean} [early]  sent while the followers resume, before the requests held
 *   back until then (used by the followers' own subscriptions)
 */

/**
 * A request waiting for its answer.
 * @typedef {object} Pending
 * @property {string} id
 * @property {Record<string, unknown>} frame
 * @property {(message: ServerMessage) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {ReturnType<typeof setTimeout> | undefined} timer
 * @property {boolean} resend
 * @property {boolean} early
 * @property {number} sentOn  the socket (by generation) it went out on; -1 while unsent
 */

/**
 * @typedef {object} ConnectionEvents
 * @property {ConnectionStatus} status  the status changed
 * @property {{ reconnected: boolean }} open  connected, followers resumed
 * @property {ServerMessage} message  every frame read, after the request it answers settles
 * @property {FrameError} frameRefused  a frame the SDK would not act on (it was ignored)
 * @property {SolitaireError} error  an error frame that answers no request of this client
 * @property {{ attempt: number, delayMs: number }} reconnecting  the next try, after a drop
 */

export const PROTOCOL = 1;
const PING = "p";

/** @extends {Emitter<ConnectionEvents>} */
export class Connection extends Emitter {
  /** @param {ConnectionOptions} options */
  constructor(options) {
    super();
    this.url = options.url;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? this.heartbeatMs * 2 + 5_000;
    this.reconnectOptions = {
      maxAttempts: options.reconnect?.maxAttempts ?? 10,
      baseDelayMs: options.reconnect?.baseDelayMs ?? 250,
      maxDelayMs: options.reconnect?.maxDelayMs ?? 8_000,
    };
    this.changesInResults = options.changesInResults ?? true;
    /** @type {typeof WebSocket | undefined} */
    this.WebSocketClass = options.WebSocket ?? globalThis.WebSocket;
    /** @type {ConnectionStatus} */
    this.status = "idle";
    /** @type {WelcomeMessage | null} the last welcome: this connection's limits */
    this.welcome = null;
    /** Times the socket was dialled again after a drop (for diagnostics and tests). */
    this.reconnects = 0;

    /** @type {WebSocket | null} */
    this._socket = null;
    /** Generation of the current socket: frames and closes of an older one are ignored. */
    this._generation = 0;
    this._resumed = false;
    this._everOpened = false;
    this._attempt = 0;
    /** @type {Map<string, Pending>} in the order they were made */
    this._pending = new Map();
    /** @type {Pending[]} */
    this._outbox = [];
    /** @type {Set<() => Promise<unknown>>} */
    this._resumers = new Set();
    this._tokens = 0;
    this._capacity = 1;
    this._refillPerMs = 0.01;
    this._refilledAt = 0;
    this._lastFrameAt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._flushTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._retryTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._dialTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this._heartbeat = undefined;
    /** @type {{ resolve: () => void, reject: (e: Error) => void }[]} */
    this._openWaiters = [];
    this._counter = 0;
    // Request ids are idempotency keys within a game for its whole life: a prefix drawn at
    // random keeps them apart from the ids of earlier page loads and other devices.
    this._prefix = randomTag();
  }

  /** A request id unique across page loads and devices. @param {string} kind */
  nextId(kind) {
    this._counter += 1;
    return `${kind}-${this._prefix}-${this._counter}`;
  }

  /**
   * Connects (once; later calls wait for the same connection). Resolves when the service
   * has welcomed the client and every follower has resumed.
   * @returns {Promise<void>}
   */
  connect() {
    if (this.status === "open") return Promise.resolve();
    if (this.status === "closed") return Promise.reject(closedError());
    const waiting = new Promise((resolve, reject) => {
      this._openWaiters.push({ resolve: () => resolve(undefined), reject });
    });
    if (this.status === "idle" || this.status === "disconnected") {
      this._attempt = 0;
      this._setStatus(this._everOpened ? "reconnecting" : "connecting");
      this._dial();
    }
    return /** @type {Promise<void>} */ (waiting);
  }

  /** Dials again at once after `disconnected` (or a drop); the followers resume. */
  reconnect() {
    if (this.status === "closed") return Promise.reject(closedError());
    if (this._socket) this.drop(); // this may spend the last try: then connect() dials
    if (this.status === "disconnected" || this.status === "idle") return this.connect();
    const opened = this.connect();
    this._attempt = 0;
    clearTimeout(this._retryTimer);
    this._dial();
    return opened;
  }

  /**
   * Sends a request with a fresh id and resolves with the frame that answers it (a
   * `result`, `subscribed`, `unsubscribed`, `race`, `hint` or `pong`); an `error` frame
   * rejects it with a `SolitaireError`. Requests made while the socket is down wait for
   * it (within their time limit).
   * @param {Record<string, unknown> & { type: string }} body  the message without its id
   * @param {RequestOptions} [options]
   * @returns {Promise<ServerMessage>}
   */
  request(body, options = {}) {
    if (this.status === "closed") return Promise.reject(closedError());
    if (this.status === "disconnected") return Promise.reject(disconnectedError());
    const id = this.nextId(body.type === "ping" ? PING : body.type.slice(0, 1));
    const timeout = options.timeout ?? this.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      /** @type {Pending} */
      const pending = {
        id,
        frame: { ...body, id },
        resolve,
        reject,
        timer: undefined,
        resend: options.resend ?? false,
        early: options.early ?? false,
        sentOn: -1,
      };
      pending.timer = setTimeout(() => {
        this._forget(pending);
        reject(
          new SolitaireError("timeout", `no answer to ${body.type} within ${timeout} ms`, {
            requestId: id,
            gameId: typeof body.game_id === "string" ? body.game_id : null,
            raceId: typeof body.race_id === "string" ? body.race_id : null,
          }),
        );
      }, timeout);
      this._pending.set(id, pending);
      this._outbox.push(pending);
      if (this.status === "idle") void this.connect().catch(() => {});
      this._flush();
    });
  }

  /**
   * Runs `resume` after every (re)connection, before the requests held back until then;
   * returns the function that stops it.
   * @param {() => Promise<unknown>} resume
   */
  addResumer(resume) {
    this._resumers.add(resume);
    return () => this._resumers.delete(resume);
  }

  /** Closes the socket as a network failure would: reconnection follows (for tests). */
  drop() {
    const socket = this._socket;
    if (socket) {
      this._lost(this._generation, "dropped by the client");
      try {
        socket.close(4000, "dropped by the client");
      } catch {
        // already closing
      }
    }
  }

  /** Closes for good: every waiting request is rejected with `closed`. */
  close() {
    if (this.status === "closed") return;
    const socket = this._socket;
    this._socket = null;
    this._generation += 1;
    this._stopTimers();
    this._setStatus("closed");
    this._failAll(closedError());
    if (socket) {
      try {
        socket.close(1000, "client closed");
      } catch {
        // already closing
      }
    }
  }

  // ---------------------------------------------------------------- the socket

  _dial() {
    const Socket = this.WebSocketClass;
    if (!Socket) {
      this._giveUp(
        new SolitaireError(
          "disconnected",
          "no WebSocket class: pass one as the `WebSocket` option (Node 20: `ws`'s, or run " +
            "node with --experimental-websocket; Node 22 and browsers have one)",
        ),
      );
      return;
    }
    this._generation += 1;
    const generation = this._generation;
    this._resumed = false;
    const previous = this._socket;
    if (previous) {
      this._socket = null;
      try {
        previous.close(4000, "superseded");
      } catch {
        // already closing
      }
    }
    let socket;
    try {
      socket = new Socket(this.url);
    } catch (error) {
      this._lost(generation, String(error));
      return;
    }
    socket.binaryType = "arraybuffer";
    this._socket = socket;
    socket.addEventListener("open", () => {
      if (generation !== this._generation) return;
      this._lastFrameAt = Date.now();
      /** @type {ClientMessage} */
      const hello = { type: "hello", protocol: PROTOCOL };
      if (this.changesInResults) hello.changes_in_results = true;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (generation === this._generation) this._receive(event.data);
    });
    socket.addEventListener("close", (event) => {
      this._lost(generation, `closed (${event.code}${event.reason ? ` ${event.reason}` : ""})`);
    });
    // Some WebSocket classes (Node 20's) report a failed connection by an error event
    // alone, with no close event after it.
    socket.addEventListener("error", () => this._lost(generation, "socket error"));
    // A connection that never gets to the welcome (a black hole) is given up like a drop.
    this._dialTimer = setTimeout(
      () => this._lost(generation, "no welcome in time"),
      Math.min(this.heartbeatTimeoutMs, 10_000),
    );
  }

  /**
   * The socket of `generation` is gone: requests that went out on it and are not safe to
   * repeat fail; the others wait for the next socket, which is dialled after a backoff.
   * @param {number} generation
   * @param {string} why
   */
  _lost(generation, why) {
    if (generation !== this._generation || this.status === "closed") return;
    this._generation += 1;
    const socket = this._socket;
    this._socket = null;
    this._stopTimers();
    if (socket && socket.readyState <= 1) {
      try {
        socket.close(4000, "lost");
      } catch {
        // already closing
      }
    }
    for (const pending of [...this._pending.values()]) {
      if (pending.sentOn === -1) continue;
      if (pending.resend) {
        pending.sentOn = -1;
      } else {
        this._forget(pending);
        pending.reject(
          new SolitaireError("connection_lost", `the connection was lost (${why})`, {
            requestId: pending.id,
          }),
        );
      }
    }
    // Everything unanswered goes out again in the order it was made; the followers'
    // resubscriptions are made afresh on the next socket.
    this._outbox = [...this._pending.values()];
    this._attempt += 1;
    const { maxAttempts, baseDelayMs, maxDelayMs } = this.reconnectOptions;
    if (this._attempt > maxAttempts) {
      this._giveUp(
        new SolitaireError(
          "disconnected",
          `the service could not be reached in ${maxAttempts} tries (${why})`,
        ),
      );
      return;
    }
    // Exponential backoff with jitter: half the step for sure, the other half at random,
    // so that clients dropped together do not all come back at the same moment.
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (this._attempt - 1));
    const delayMs = Math.round(step / 2 + Math.random() * (step / 2));
    this._setStatus(this._everOpened ? "reconnecting" : "connecting");
    this.emit("reconnecting", { attempt: this._attempt, delayMs });
    this._retryTimer = setTimeout(() => {
      if (this.status === "reconnecting" || this.status === "connecting") this._dial();
    }, delayMs);
  }

  /** @param {SolitaireError} error */
  _giveUp(error) {
    this._stopTimers();
    this._socket = null;
    this._setStatus("disconnected");
    this._failAll(error);
  }

  /** @param {Error} error */
  _failAll(error) {
    for (const pending of [...this._pending.values()]) {
      this._forget(pending);
      pending.reject(error);
    }
    this._outbox = [];
    const waiters = this._openWaiters.splice(0);
    for (const waiter of waiters) waiter.reject(error);
  }

  _stopTimers() {
    clearTimeout(this._retryTimer);
    clearTimeout(this._dialTimer);
    clearTimeout(this._flushTimer);
    clearInterval(this._heartbeat);
    this._flushTimer = undefined;
  }

  // ---------------------------------------------------------------- reading

  /** @param {unknown} data */
  _receive(data) {
    this._lastFrameAt = Date.now();
    /** @type {ServerMessage} */
    let message;
    try {
      message = readFrame(data);
    } catch (error) {
      if (error instanceof FrameError) this.emit("frameRefused", error);
      return;
    }
    if (message.type === "welcome") {
      this._welcome(message);
      return;
    }
    const id = "id" in message && typeof message.id === "string" ? message.id : null;
    const pending = id === null ? undefined : this._pending.get(id);
    if (message.type === "error" && message.code === "rate_limited" && pending) {
      this._throttled(pending);
      return;
    }
    if (message.type === "error" && message.code === "unsupported_protocol") {
      this._giveUp(fromErrorFrame(message));
      return;
    }
    // Followers see every frame in the order it came, before the request it answers
    // settles: a change carried by a result is applied before the next frame is read.
    this.emit("message", message);
    if (pending) {
      this._forget(pending);
      if (message.type === "error") pending.reject(fromErrorFrame(message));
      else pending.resolve(message);
    } else if (message.type === "error" && !id) {
      this.emit("error", fromErrorFrame(message));
    }
  }

  /** @param {WelcomeMessage} welcome */
  _welcome(welcome) {
    clearTimeout(this._dialTimer);
    const generation = this._generation;
    const reconnected = this._everOpened;
    if (reconnected) this.reconnects += 1;
    this._everOpened = true;
    this.welcome = welcome;
    // Paced a little under the announced rate, so that the service never drops a frame.
    this._capacity = Math.max(1, welcome.rate_burst - 2);
    this._refillPerMs = (welcome.rate_per_second * 0.9) / 1000;
    this._tokens = this._capacity;
    this._refilledAt = Date.now();
    this._startHeartbeat(generation);
    const resumes = [...this._resumers].map((resume) => resume().catch(() => {}));
    this._flush();
    void Promise.all(resumes).then(() => {
      if (generation !== this._generation || this.status === "closed") return;
      this._attempt = 0;
      this._resumed = true;
      this._setStatus("open");
      this._flush();
      for (const waiter of this._openWaiters.splice(0)) waiter.resolve();
      this.emit("open", { reconnected });
    });
  }

  /**
   * The service dropped `pending` unread (over its rate), and perhaps the frames after it.
   * It goes out again, with those of the others that are safe to repeat, once the pace
   * allows.
   * @param {Pending} pending
   */
  _throttled(pending) {
    this._tokens = 0;
    this._refilledAt = Date.now() + 500;
    const later = [...this._pending.values()].filter(
      (p) => p === pending || (p.resend && p.sentOn === this._generation),
    );
    for (const p of later) p.sentOn = -1;
    this._outbox = [...this._pending.values()].filter((p) => p.sentOn === -1);
    this._flush();
  }

  // ---------------------------------------------------------------- writing

  /** Sends what the pace allows, oldest first; held requests wait for the resumption. */
  _flush() {
    const socket = this._socket;
    if (!socket || socket.readyState !== 1 || !this.welcome) return;
    const now = Date.now();
    if (now > this._refilledAt) {
      this._tokens = Math.min(
        this._capacity,
        this._tokens + (now - this._refilledAt) * this._refillPerMs,
      );
      this._refilledAt = now;
    }
    const waiting = [];
    for (const pending of this._outbox) {
      if (pending.sentOn !== -1 || !this._pending.has(pending.id)) continue;
      if (!this._resumed && !pending.early) {
        waiting.push(pending);
        continue;
      }
      if (this._tokens < 1) {
        waiting.push(pending);
        continue;
      }
      this._tokens -= 1;
      pending.sentOn = this._generation;
      socket.send(JSON.stringify(pending.frame));
    }
    this._outbox = waiting;
    clearTimeout(this._flushTimer);
    this._flushTimer = undefined;
    const sendable = waiting.some((p) => this._resumed || p.early);
    if (sendable) {
      const wait = Math.max(1, Math.ceil((1 - this._tokens) / this._refillPerMs));
      this._flushTimer = setTimeout(() => this._flush(), wait);
    }
  }

  /** @param {number} generation */
  _startHeartbeat(generation) {
    clearInterval(this._heartbeat);
    const tick = Math.max(50, Math.min(this.heartbeatMs, this.heartbeatTimeoutMs) / 2);
    let lastPing = Date.now();
    this._heartbeat = setInterval(() => {
      if (generation !== this._generation) return;
      const now = Date.now();
      if (now - this._lastFrameAt > this.heartbeatTimeoutMs) {
        this._lost(generation, "no frame within the heartbeat timeout");
        return;
      }
      if (now - lastPing >= this.heartbeatMs) {
        lastPing = now;
        this.request({ type: "ping" }, { early: true }).catch(() => {});
      }
    }, tick);
  }

  /** @param {Pending} pending */
  _forget(pending) {
    clearTimeout(pending.timer);
    this._pending.delete(pending.id);
  }

  /** @param {ConnectionStatus} status */
  _setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.emit("status", status);
  }
}

function closedError() {
  return new SolitaireError("closed", "the client was closed");
}

function disconnectedError() {
  return new SolitaireError("disconnected", "the client gave up reconnecting: call reconnect()");
}

/**
 * Twelve random base-36 characters (a prefix that keeps request ids apart, not a secret:
 * where the platform has no `crypto.getRandomValues`, as React Native without a polyfill,
 * `Math.random` serves).
 */
function randomTag() {
  const bytes = new Uint8Array(12);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}
