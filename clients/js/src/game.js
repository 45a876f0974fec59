// @ts-check
// One game followed over the shared WebSocket, as its player or as a watcher. Its `state`
// is kept equal to the server's public state by applying each change's JSON Patch in
// version order (pushed changes and those the results of its own actions carry alike); a
// gap makes it subscribe again from its version, a patch that does not apply from nothing
// (a snapshot). Actions are requests with ids: after a lost connection they are sent again
// with the same ids once the game has subscribed again, so each is applied once.

import { Emitter } from "./emitter.js";
import { SolitaireError, fromRejection } from "./errors.js";
import { PatchError, applyPatch } from "./patch.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").Change} Change */
/** @typedef {import("../types/protocol/server-message.js").ScoreChange} ScoreChange */
/** @typedef {import("../types/protocol/server-message.js").HintAnswer} HintAnswer */
/** @typedef {import("../types/protocol/server-message.js").ResultMessage} ResultMessage */
/** @typedef {import("../types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../types/protocol/action.js").Action} Action */

/**
 * What an accepted action, undo or resignation answers: the version it produced, the
 * action as applied, and whether the service had applied it already (a request sent again
 * after a lost connection).
 * @typedef {object} Played
 * @property {number} version
 * @property {string} notation
 * @property {boolean} duplicate
 * @property {Change | null} change  the change it made (null for a duplicate, or when it
 *   came as a frame of its own)
 */

/**
 * @typedef {object} PlayOptions
 * @property {number} [expectedVersion]  play only if the game is still at this version
 *   (else `stale_version`)
 * @property {number} [timeout]  ms for the answer (and for the state to include it)
 */

/**
 * @typedef {object} GameOptions
 * @property {string} gameId
 * @property {string | null} [token]  the game (or race) token: play; none: watch
 * @property {PublicState | null} [state]  a state already known (a creation answer's)
 * @property {number} [version]  its version
 * @property {boolean} [waitForStart]  a race game: until the race runs, `race_not_started`
 *   (and `not_found`) mean "not yet", and subscribing is tried again every 250 ms
 * @property {number} [maxInFlight]  actions of this game sent and unanswered at most; the
 *   others wait their turn (the service remembers the ids of the last 32); default 8
 */

/**
 * @typedef {object} GameEvents
 * @property {{ change: Change, state: PublicState, previous: PublicState }} change  a change
 *   was applied: `change.events` say what happened, in order, for animation
 * @property {{ state: PublicState, version: number }} snapshot  the state was replaced whole
 * @property {ScoreChange & { version: number }} score  the score changed
 * @property {PublicState} over  the game ended (won or resigned)
 * @property {boolean} synced  subscribed and up to date (true), or no longer sure (false)
 * @property {SolitaireError} error  a failure not tied to a request of yours
 * @property {Game} left  `leave()` was called
 */

/** @extends {Emitter<GameEvents>} */
export class Game extends Emitter {
  /**
   * @param {Connection} connection
   * @param {GameOptions} options
   */
  constructor(connection, options) {
    super();
    this.connection = connection;
    /** @type {string} */
    this.id = options.gameId;
    /** @type {string | null} */
    this.token = options.token ?? null;
    /** @type {PublicState | null} the server's public state, as of `version` */
    this.state = options.state ?? null;
    /** @type {number} -1 until a state is known */
    this.version = options.state ? (options.version ?? 0) : -1;
    /** @type {"player" | "watcher" | null} */
    this.role = null;
    /** True while subscribed and up to date. */
    this.synced = false;
    /** True once `leave()` was called. */
    this.closed = false;
    this.waitForStart = options.waitForStart ?? false;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 8);

    this._resyncing = false;
    this._inFlight = 0;
    /** @type {(() => void)[]} actions waiting for their turn */
    this._turns = [];
    /** @type {{ version: number, resolve: () => void, reject: (e: Error) => void }[]} */
    this._waiters = [];
    /** @param {ServerMessage} message */
    this._onMessage = (message) => this._handle(message);
    this._stopListening = connection.on("message", this._onMessage);
    /** @type {() => void} */
    this._stopResuming = () => {};
  }

  /**
   * Follows the game: subscribes (connecting first when needed), and again after every
   * reconnection. Resolves once the state is the server's.
   * @returns {Promise<Game>}
   */
  async follow() {
    this._stopResuming();
    this._stopResuming = this.connection.addResumer(() => this._subscribe({ early: true }));
    if (this.connection.status !== "open") {
      await this.connection.connect(); // its resumption subscribes this game
      if (this.synced) return this;
    }
    return this._subscribe();
  }

  /** Whether the game is over (won or resigned). */
  get over() {
    return !!this.state && (this.state.won || this.state.resigned);
  }

  // ---------------------------------------------------------------- playing

  /**
   * Plays one action (notation such as `"c3>f"`, or an object); resolves once the local
   * state includes it, rejects with a `SolitaireError` (`rule_violation` with its `rule`
   * and messages, `stale_version`, `invalid_action`...).
   * @param {Action | string} action
   * @param {PlayOptions} [options]
   * @returns {Promise<Played>}
   */
  act(action, options = {}) {
    return this._play({ type: "action", game_id: this.id, action }, options);
  }

  /**
   * Takes the last action back.
   * @param {PlayOptions} [options]
   */
  undo(options = {}) {
    return this._play({ type: "undo", game_id: this.id }, options);
  }

  /**
   * Ends the game where it stands (in a race: resigns from the race).
   * @param {{ timeout?: number }} [options]
   */
  resign(options = {}) {
    return this._play({ type: "resign", game_id: this.id }, { timeout: options.timeout });
  }

  /**
   * A suggested action, from what the player can see (not sent again after a lost
   * connection: each hint counts).
   * @param {{ timeout?: number }} [options]
   * @returns {Promise<HintAnswer>}
   */
  async hint(options = {}) {
    const answer = await this.connection.request(
      { type: "hint", game_id: this.id },
      { timeout: options.timeout },
    );
    if (answer.type !== "hint") throw unexpected(answer);
    return answer;
  }

  /**
   * @param {Record<string, unknown> & { type: string }} body
   * @param {PlayOptions} options
   * @returns {Promise<Played>}
   */
  async _play(body, options) {
    if (this.closed) throw new SolitaireError("closed", "this game is no longer followed");
    const timeout = options.timeout ?? this.connection.requestTimeoutMs;
    const deadline = Date.now() + timeout;
    if (options.expectedVersion !== undefined) body.expected_version = options.expectedVersion;
    await this._turn();
    let answer;
    try {
      answer = await this.connection.request(body, { timeout, resend: true });
    } catch (error) {
      // The service no longer counts this connection as following the game (its
      // resumption failed, say): subscribe again, for the next actions.
      if (error instanceof SolitaireError && error.code === "not_subscribed") this._resync(false);
      throw error;
    } finally {
      this._inFlight -= 1;
      this._turns.shift()?.();
    }
    if (answer.type !== "result") throw unexpected(answer);
    if (answer.status === "rejected") {
      throw answer.rejection
        ? fromRejection(answer, answer.rejection)
        : new SolitaireError("bad_answer", "a rejection without its rule", { body: answer });
    }
    const version = answer.version ?? this.version;
    await this._reach(version, deadline);
    return {
      version,
      notation: answer.notation ?? "",
      duplicate: answer.duplicate ?? false,
      change: answer.change ?? null,
    };
  }

  /** Waits until fewer than `maxInFlight` actions of this game are unanswered. */
  _turn() {
    if (this._inFlight < this.maxInFlight && this._turns.length === 0) {
      this._inFlight += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this._turns.push(() => {
        this._inFlight += 1;
        resolve(undefined);
      });
    });
  }

  /**
   * Resolves once the local state is at `version` or later.
   * @param {number} version
   * @param {number} deadline
   * @returns {Promise<void>}
   */
  _reach(version, deadline) {
    if (this.version >= version) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._waiters = this._waiters.filter((w) => w !== waiter);
        reject(new SolitaireError("timeout", `the game did not reach version ${version} in time`));
      }, Math.max(1, deadline - Date.now()));
      const waiter = {
        version,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        /** @param {Error} error */
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this._waiters.push(waiter);
    });
  }

  // ---------------------------------------------------------------- following

  /**
   * Subscribes (again): from the version held, or for a snapshot when there is none.
   * Resolves once the state is up to date with the subscription.
   * @param {{ snapshot?: boolean, early?: boolean }} [options]
   * @returns {Promise<Game>}
   */
  async _subscribe(options = {}) {
    if (this.closed) return this;
    this._resyncing = true;
    this._setSynced(false);
    try {
      for (let tries = 0; ; tries += 1) {
        const since = options.snapshot || !this.state || this.version < 0 ? null : this.version;
        /** @type {ServerMessage} */
        let answer;
        try {
          answer = await this.connection.request(
            {
              type: "subscribe",
              game_id: this.id,
              ...(this.token ? { token: this.token } : {}),
              ...(since === null ? {} : { since }),
            },
            { early: options.early },
          );
        } catch (error) {
          if (error instanceof SolitaireError && error.code === "connection_lost" && !options.early) {
            // The next connection's resumption subscribes this game again.
            await this.connection.connect();
            if (this.synced || this.closed) return this;
            continue;
          }
          const notYet =
            error instanceof SolitaireError &&
            (error.code === "race_not_started" || error.code === "not_found");
          if (notYet && this.waitForStart && tries < 240) {
            await new Promise((resolve) => setTimeout(resolve, 250));
            if (this.closed) return this;
            continue;
          }
          if (error instanceof SolitaireError && !error.local) this.emit("error", error);
          throw error;
        }
        if (answer.type !== "subscribed") throw unexpected(answer);
        this.role = answer.role;
        this.waitForStart = false;
        await this._reach(answer.version, Date.now() + this.connection.requestTimeoutMs);
        this._resyncing = false;
        this._setSynced(true);
        return this;
      }
    } finally {
      this._resyncing = false;
    }
  }

  /** @param {ServerMessage} message */
  _handle(message) {
    if (this.closed || !("game_id" in message) || message.game_id !== this.id) return;
    if (message.type === "snapshot") {
      this.state = message.state;
      this.version = message.version;
      this.emit("snapshot", { state: message.state, version: message.version });
      this._settleWaiters();
      if (this.over) this.emit("over", message.state);
    } else if (message.type === "change") {
      this._apply(message);
    } else if (message.type === "result" && message.change) {
      // Applied here, in the order frames arrive, rather than where the request awaits its
      // answer: a change frame read after this result must find it applied.
      this._apply(message.change);
    } else if (message.type === "error" && !message.id) {
      this.emit("error", new SolitaireError(message.code, message.message, { body: message }));
    }
  }

  /** @param {Change} change */
  _apply(change) {
    if (change.version <= this.version) return; // applied already
    const previous = this.state;
    if (!previous || change.version !== this.version + 1) {
      // A gap: ask for what is missing, unless a subscription is under way (its changes
      // follow on this connection, in order).
      if (!this._resyncing) this._resync(false);
      return;
    }
    let state;
    try {
      state = applyPatch(previous, change.patch);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      this._resync(true);
      return;
    }
    this.state = state;
    this.version = change.version;
    this.emit("change", { change, state, previous });
    if (change.score.delta !== 0 || change.score.display !== previous.score_display) {
      this.emit("score", { ...change.score, version: change.version });
    }
    this._settleWaiters();
    if (this.over && !(previous.won || previous.resigned)) this.emit("over", state);
  }

  /** @param {boolean} snapshot */
  _resync(snapshot) {
    if (this.connection.status !== "open") return; // the resumption will subscribe
    this._subscribe({ snapshot }).catch(() => {});
  }

  _settleWaiters() {
    const ready = this._waiters.filter((w) => w.version <= this.version);
    if (!ready.length) return;
    this._waiters = this._waiters.filter((w) => w.version > this.version);
    for (const waiter of ready) waiter.resolve();
  }

  /** @param {boolean} synced */
  _setSynced(synced) {
    if (this.synced === synced) return;
    this.synced = synced;
    this.emit("synced", synced);
  }

  /**
   * Stops following the game (unsubscribes when connected). Its actions still unanswered
   * are answered as before.
   */
  leave() {
    if (this.closed) return;
    this.closed = true;
    this._setSynced(false);
    this._stopListening();
    this._stopResuming();
    for (const waiter of this._waiters.splice(0)) {
      waiter.reject(new SolitaireError("closed", "this game is no longer followed"));
    }
    if (this.connection.status === "open") {
      this.connection.request({ type: "unsubscribe", game_id: this.id }).catch(() => {});
    }
    this.emit("left", this);
  }
}

/** @param {ServerMessage} answer */
function unexpected(answer) {
  return new SolitaireError("bad_answer", `an unexpected ${answer.type} frame`, { body: answer });
}
