// @ts-check
// One race followed over the shared WebSocket, as one of its players (with the race token)
// or as a spectator: the race view, replaced by each newer `race` message and brought up
// to date by `race_progress` between them; the players' commands; and the player's own
// race game, followed once the race runs.

import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../types/protocol/server-message.js").RacePlayer} RacePlayer */
/** @typedef {import("../types/protocol/server-message.js").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("../types/protocol/server-message.js").You} You */
/** @typedef {"ready" | "unready" | "start" | "resign" | "rematch"} RaceCommand */

/**
 * @typedef {object} RaceOptions
 * @property {string} raceId
 * @property {string | null} [token]  the race token: a player; none: a spectator
 * @property {RaceView | null} [race]  the race as already known
 * @property {You | null} [you]
 */

/**
 * @typedef {object} RaceEvents
 * @property {RaceView} race  the race changed (a `race` message, or live progress)
 * @property {RaceProgressMessage} progress  a player's live figures (also folded into `race`)
 * @property {SolitaireError} error  a failure not tied to a request of yours
 * @property {Race} left  `leave()` was called
 */

/** @extends {Emitter<RaceEvents>} */
export class Race extends Emitter {
  /**
   * @param {Connection} connection
   * @param {RaceOptions} options
   */
  constructor(connection, options) {
    super();
    this.connection = connection;
    /** @type {string} */
    this.id = options.raceId;
    /** @type {string | null} */
    this.token = options.token ?? null;
    /** @type {RaceView | null} */
    this.race = options.race ?? null;
    /** @type {You | null} this player's id and game (null for a spectator) */
    this.you = options.you ?? null;
    /** @type {number} the version of the last `race` message; -1 before the first */
    this.version = -1;
    /** Server clock minus local clock, in ms. */
    this.clockOffset = this.race ? this.race.server_time - Date.now() : 0;
    this.closed = false;
    /** @param {ServerMessage} message */
    this._onMessage = (message) => this._handle(message);
    this._stopListening = connection.on("message", this._onMessage);
    /** @type {() => void} */
    this._stopResuming = () => {};
  }

  /**
   * Watches the race (connecting first when needed), and again after every reconnection.
   * Resolves with the race as the service has it.
   * @returns {Promise<Race>}
   */
  async follow() {
    this._stopResuming();
    this._stopResuming = this.connection.addResumer(() => this._watch(true));
    if (this.connection.status !== "open") {
      await this.connection.connect();
      if (this.version >= 0) return this;
    }
    await this._watch(false);
    return this;
  }

  /** @param {boolean} early */
  async _watch(early) {
    if (this.closed) return;
    try {
      await this.connection.request(
        { type: "watch_race", race_id: this.id, ...(this.token ? { token: this.token } : {}) },
        { early },
      );
    } catch (error) {
      if (error instanceof SolitaireError && !error.local) this.emit("error", error);
      throw error;
    }
  }

  /** The server's clock now, as far as the last message tells. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }

  /** This player's row of the race, or null (a spectator, or before the race is known). */
  me() {
    return this.race?.players.find((p) => p.player_id === this.you?.player_id) ?? null;
  }

  /** Whether this player is the host. */
  isHost() {
    return !!this.race && !!this.you && this.race.host === this.you.player_id;
  }

  /**
   * Sends a player's command; resolves once the service accepted it (the new race view
   * follows as a `race` event). Not sent again after a lost connection.
   * @param {RaceCommand} command
   * @param {{ timeout?: number }} [options]
   * @returns {Promise<void>}
   */
  async command(command, options = {}) {
    const answer = await this.connection.request(
      { type: "race_command", race_id: this.id, command },
      { timeout: options.timeout },
    );
    if (answer.type !== "result" || answer.status !== "accepted") {
      throw new SolitaireError("bad_answer", `an unexpected ${answer.type} frame`, {
        body: answer,
      });
    }
  }

  /** @param {boolean} [ready]  false takes it back */
  ready(ready = true) {
    return this.command(ready ? "ready" : "unready");
  }

  /** The host starts the countdown without waiting for everyone to be ready. */
  start() {
    return this.command("start");
  }

  resign() {
    return this.command("resign");
  }

  /** Asks for a new race with the same players (its id comes as `race.rematch_race_id`). */
  rematch() {
    return this.command("rematch");
  }

  /** @param {ServerMessage} message */
  _handle(message) {
    if (this.closed || !("race_id" in message) || message.race_id !== this.id) return;
    if (message.type === "race") {
      // A watch answer restates the race at its current version; only older ones are stale.
      if (message.version < this.version) return;
      this.version = message.version;
      this.race = message.race;
      if (message.you) this.you = message.you;
      this.clockOffset = message.race.server_time - Date.now();
      this.emit("race", message.race);
    } else if (message.type === "race_progress") {
      this._progress(message);
    } else if (message.type === "error" && !message.id) {
      this.emit("error", new SolitaireError(message.code, message.message, { body: message }));
    }
  }

  /** @param {RaceProgressMessage} message */
  _progress(message) {
    this.emit("progress", message);
    const race = this.race;
    const player = race?.players.find((p) => p.player_id === message.player_id);
    if (!race || !player) return;
    player.foundations = message.foundations;
    player.score = message.score;
    player.score_display = message.score_display;
    player.moves = message.moves;
    if (message.state === "won" || player.state === "playing") {
      player.state = /** @type {RacePlayer["state"]} */ (message.state);
    }
    this.clockOffset = message.server_time - Date.now();
    this.emit("race", race);
  }

  /** Stops following the race (unwatches it when connected). */
  leave() {
    if (this.closed) return;
    this.closed = true;
    this._stopListening();
    this._stopResuming();
    if (this.connection.status === "open") {
      this.connection.request({ type: "unwatch_race", race_id: this.id }).catch(() => {});
    }
    this.emit("left", this);
  }
}
