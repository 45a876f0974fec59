// @ts-check
// One game followed over the WebSocket: the local public state is kept by applying the
// changes in version order, pushed ones and those the results of this client's own
// actions carry alike; a gap or a bad patch makes it subscribe again.

import { applyPatch } from "./patch.js";
import { OfflineError } from "./connection.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").Change} Change */
/** @typedef {import("./types.js").Rejection} Rejection */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./types.js").ActionInput} ActionInput */

/**
 * @typedef {object} GameHandlers
 * @property {(change: Change | null) => void} onState  the state changed (null: snapshot)
 * @property {(rejection: Rejection) => void} onRejected  a rule refused an action
 * @property {(error: ErrorMessage | Error) => void} onError  any other failure
 * @property {(synced: boolean) => void} onSynced  subscribed (true) or lost the socket (false)
 */

export class GameSession {
  /**
   * @param {Connection} connection
   * @param {{ gameId: string, token: string | null, code?: string | null,
   *           state?: PublicState | null, version?: number, awaitCreation?: boolean }} game
   * @param {GameHandlers} handlers
   */
  constructor(connection, game, handlers) {
    this.connection = connection;
    this.gameId = game.gameId;
    this.token = game.token;
    this.code = game.code ?? null;
    /** @type {PublicState | null} */
    this.state = game.state ?? null;
    this.version = game.version ?? -1;
    this.handlers = handlers;
    this.resyncing = false;
    this.closed = false;
    /**
     * A race announces its countdown before the players' games exist: until the first
     * subscription succeeds, "not found" means "not yet" and the subscription is retried.
     */
    this.awaitCreation = game.awaitCreation ?? false;
    this.creationRetries = 0;
    /** @param {ServerMessage} message */
    this.onMessage = (message) => this.handle(message);
    /** @param {boolean} _reconnected */
    this.onReady = (_reconnected) => void this.subscribe();
    connection.listeners.add(this.onMessage);
    connection.readyListeners.add(this.onReady);
  }

  /**
   * Subscribes (again): from the version held, or for a full snapshot when there is none.
   * @param {{ snapshot?: boolean }} [options]
   */
  async subscribe(options = {}) {
    if (this.closed || this.connection.status !== "open") return;
    const since = options.snapshot || !this.state || this.version < 0 ? null : this.version;
    this.resyncing = true;
    try {
      const answer = await this.connection.request({
        type: "subscribe",
        game_id: this.gameId,
        token: this.token,
        ...(since === null ? {} : { since }),
      });
      const notYet = answer.type === "error" && (answer.code === "not_found" || answer.code === "race_not_started");
      if (notYet && this.awaitCreation) {
        if (this.creationRetries < 40) {
          this.creationRetries += 1;
          setTimeout(() => void this.subscribe(options), 250);
          return;
        }
      }
      if (answer.type === "error") this.handlers.onError(answer);
      if (answer.type === "subscribed" && !this.closed) {
        this.awaitCreation = false;
        this.handlers.onSynced(true);
      }
    } catch (error) {
      if (!(error instanceof OfflineError)) throw error;
      this.handlers.onSynced(false);
    } finally {
      this.resyncing = false;
    }
  }

  /** @param {ServerMessage} message */
  handle(message) {
    if (this.closed) return;
    if (message.type === "snapshot" && message.game_id === this.gameId) {
      this.state = message.state;
      this.version = message.version;
      this.handlers.onState(null);
    } else if (message.type === "change" && message.game_id === this.gameId) {
      this.applyChange(message);
    } else if (message.type === "result" && message.game_id === this.gameId && message.change) {
      // Handled here, in the order messages arrive, rather than where the request awaits
      // its answer: a change frame read after this result must find it applied.
      this.applyChange(message.change);
    } else if (message.type === "error" && message.game_id === this.gameId && !message.id) {
      this.handlers.onError(message);
    }
  }

  /** @param {Change} change */
  applyChange(change) {
    if (change.version <= this.version) return; // already have it
    if (!this.state || change.version !== this.version + 1) {
      // A gap: ask for what is missing (unless that is already under way).
      if (!this.resyncing) void this.subscribe();
      return;
    }
    try {
      this.state = applyPatch(this.state, change.patch);
    } catch {
      void this.subscribe({ snapshot: true });
      return;
    }
    this.version = change.version;
    this.handlers.onState(change);
  }

  /**
   * Sends an action; the new state arrives as a change (in the result, or as a frame).
   * @param {ActionInput} action
   */
  act(action) {
    return this.send({ type: "action", game_id: this.gameId, action });
  }

  undo() {
    return this.send({ type: "undo", game_id: this.gameId });
  }

  /**
   * @param {import("./types.js").ClientRequest} request
   * @returns {Promise<boolean>} whether the action was accepted
   */
  async send(request) {
    try {
      const answer = await this.connection.request(request);
      if (answer.type === "result") {
        if (answer.status === "rejected" && answer.rejection) {
          this.handlers.onRejected(answer.rejection);
        }
        return answer.status === "accepted";
      }
      if (answer.type === "error") {
        this.handlers.onError(answer);
        if (answer.code === "not_subscribed") void this.subscribe();
      }
    } catch (error) {
      this.handlers.onError(error instanceof Error ? error : new Error(String(error)));
    }
    return false;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.connection.listeners.delete(this.onMessage);
    this.connection.readyListeners.delete(this.onReady);
    if (this.connection.status === "open") {
      this.connection.request({ type: "unsubscribe", game_id: this.gameId }).catch(() => {});
    }
  }
}
