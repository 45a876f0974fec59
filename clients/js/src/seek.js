// @ts-check
// Quick pairing over the client's WebSocket: a seek that lives while the socket does. The
// service cancels the seeks of a socket that closes, so a page or process that goes away
// takes its seek with it at once. After a reconnection the seek made on the old socket is
// gone (or was paired while the socket was down): the SDK cancels it over REST, which
// answers `paired` when a wave came first, and otherwise seeks again on the new socket.

import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./rest/pairing.js").PairingApi} PairingApi */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").SeekView} SeekView */
/** @typedef {import("../types/protocol/server-message.js").PairedMessage} PairedMessage */
/** @typedef {import("../types/protocol/client-message.js").SeekMessage} SeekMessage */

/**
 * The race a seek was paired into, and the seat in it: `player_token` is the race token
 * (also the game token of the seat's game), kept by the client.
 * @typedef {Omit<PairedMessage, "type">} Paired
 */

/**
 * @typedef {object} SeekNowOptions
 * @property {AbortSignal} [signal]  aborting cancels the seek (`cancel_seek`); the promise
 *   then rejects with `cancelled`, or resolves when a wave paired the seek first
 */

/**
 * @typedef {object} LiveSeekEvents
 * @property {SeekView} waiting  the service holds the seek; again after a reconnection,
 *   with the new seek's id
 * @property {Paired} paired  a wave paired the seek (once)
 * @property {SolitaireError} ended  the seek ended without a race (cancelled, refused, the
 *   client closed or gave up reconnecting); the promise rejects with the same error
 */

/** @extends {Emitter<LiveSeekEvents>} */
export class LiveSeek extends Emitter {
  /**
   * Use `client.pairing.live(mode)` or `client.pairing.seekNow(mode)`.
   * @param {Connection} connection
   * @param {PairingApi} pairing
   * @param {SeekMessage["mode"]} mode
   * @param {SeekNowOptions} [options]
   */
  constructor(connection, pairing, mode, options = {}) {
    super();
    this.connection = connection;
    this.pairing = pairing;
    this.mode = mode;
    /** @type {SeekView | null} the seek as the service last answered it */
    this.seek = null;
    /** @type {Paired | null} */
    this.paired = null;
    /** @type {SolitaireError | null} */
    this.error = null;
    this._asking = false;
    this._cancelling = false;
    this._wantsCancel = false;
    /** @type {Map<string, PairedMessage>} `paired` frames read before their seek's answer */
    this._early = new Map();
    /** @type {(value: Paired) => void} */
    let resolve = () => {};
    /** @type {(error: SolitaireError) => void} */
    let reject = () => {};
    /** Resolves with the race once paired; rejects with a `SolitaireError` otherwise. */
    this.result = /** @type {Promise<Paired>} */ (
      new Promise((ok, fail) => {
        resolve = ok;
        reject = fail;
      })
    );
    this._resolve = resolve;
    this._reject = reject;
    // Followed by its events alone, an unpaired seek is no unhandled rejection.
    this.result.catch(() => {});
    this._stops = [
      connection.on("message", (message) => this._read(message)),
      connection.on("open", ({ reconnected }) => {
        if (reconnected) void this._again();
      }),
      connection.on("status", (status) => this._status(status)),
    ];
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) {
        this._end(cancelledError(null));
        return;
      }
      const abort = () => void this.cancel();
      signal.addEventListener("abort", abort, { once: true });
      this._stops.push(() => signal.removeEventListener("abort", abort));
    }
    void this._ask();
  }

  /** True once paired, cancelled or failed. */
  get done() {
    return this.paired !== null || this.error !== null;
  }

  /**
   * Cancels the seek (`cancel_seek`). Resolves with the paired race when a wave came
   * first, with null once cancelled.
   * @returns {Promise<Paired | null>}
   */
  async cancel() {
    if (!this.done) {
      this._wantsCancel = true;
      // A seek not yet answered is cancelled when its answer comes.
      if (!this._asking) await this._cancelHeld();
    }
    return this.result.catch(() => null);
  }

  async _ask() {
    const token = this.pairing.tokens.player();
    if (!token) {
      this._end(
        new SolitaireError("unauthorized", "quick pairing needs a player token (players.create)"),
      );
      return;
    }
    this._asking = true;
    /** @type {ServerMessage} */
    let answer;
    try {
      answer = await this.connection.request({ type: "seek", mode: this.mode, token });
    } catch (error) {
      this._asking = false;
      // A socket lost before the answer: the reconnection seeks again.
      if (error instanceof SolitaireError && error.code === "connection_lost") return;
      this._end(asError(error));
      return;
    }
    this._asking = false;
    if (answer.type !== "seek") {
      this._end(new SolitaireError("bad_answer", `a ${answer.type} frame answered a seek`));
      return;
    }
    this._held(answer.seek);
  }

  /** @param {SeekView} seek */
  _held(seek) {
    if (this.done) return;
    this.seek = seek;
    const early = this._early.get(seek.seek_id);
    this._early.clear();
    if (early) {
      this._pair(early);
      return;
    }
    if (this._settled(seek)) return;
    this.emit("waiting", seek);
    if (this._wantsCancel) void this._cancelHeld();
  }

  /**
   * Ends on a seek that is no longer waiting; false while it waits.
   * @param {SeekView} seek
   */
  _settled(seek) {
    const race = seek.race;
    if (seek.status === "paired" && race && race.player_token) {
      this._pair({ ...race, player_token: race.player_token, seek_id: seek.seek_id });
      return true;
    }
    if (seek.status !== "waiting") {
      this._end(cancelledError(seek.seek_id));
      return true;
    }
    return false;
  }

  async _cancelHeld() {
    const seek = this.seek;
    if (this.done || this._cancelling || !seek) return;
    this._cancelling = true;
    try {
      const answer = await this.connection.request({ type: "cancel_seek", seek_id: seek.seek_id });
      if (answer.type === "seek" && this._settled(answer.seek)) return;
    } catch {
      // The socket went: the service cancelled the seek with it, or a wave paired it.
      try {
        const { seek: read } = await this.pairing.cancel(seek.seek_id);
        if (this._settled(read)) return;
      } catch {
        // Unknown to the service: nothing waits any more.
      }
    } finally {
      this._cancelling = false;
    }
    this._end(cancelledError(seek.seek_id));
  }

  /** A new socket: the old socket's seek is gone, or was paired meanwhile. */
  async _again() {
    if (this.done || this._asking) return;
    const old = this.seek;
    if (old) {
      try {
        const { seek: read } = await this.pairing.cancel(old.seek_id);
        if (read.status === "paired" && this._settled(read)) return;
      } catch {
        // Already dropped by the service (not_found): seek again all the same.
      }
    }
    if (this.done) return;
    if (this._wantsCancel) {
      this._end(cancelledError(old ? old.seek_id : null));
      return;
    }
    this.seek = null;
    await this._ask();
  }

  /** @param {ServerMessage} message */
  _read(message) {
    if (message.type !== "paired" || this.done) return;
    if (this.seek && message.seek_id === this.seek.seek_id) this._pair(message);
    else if (this._asking) this._early.set(message.seek_id, message);
  }

  /** @param {ConnectionStatus} status */
  _status(status) {
    if (status === "closed") this._end(new SolitaireError("closed", "the client was closed"));
    else if (status === "disconnected") {
      this._end(new SolitaireError("disconnected", "the client gave up reconnecting"));
    }
  }

  /** @param {Paired | PairedMessage} message */
  _pair(message) {
    if (this.done) return;
    const { seek_id, race_id, game_id, player_id, player_token, opponent } = message;
    const paired = { seek_id, race_id, game_id, player_id, player_token, opponent };
    this.paired = paired;
    this.pairing.tokens.setRace(race_id, player_token);
    this.pairing.tokens.setGame(game_id, player_token);
    this._stop();
    this.emit("paired", paired);
    this._resolve(paired);
  }

  /** @param {SolitaireError} error */
  _end(error) {
    if (this.done) return;
    this.error = error;
    this._stop();
    this.emit("ended", error);
    this._reject(error);
  }

  _stop() {
    for (const stop of this._stops.splice(0)) stop();
  }
}

/** @param {string | null} seekId */
function cancelledError(seekId) {
  return new SolitaireError("cancelled", "the seek was cancelled", { body: { seek_id: seekId } });
}

/** @param {unknown} error */
function asError(error) {
  if (error instanceof SolitaireError) return error;
  return new SolitaireError("bad_answer", String(error));
}
