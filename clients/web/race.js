// @ts-check
// One race followed over the WebSocket: the race view, live progress, and commands.

import { OfflineError } from "./connection.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").RaceView} RaceView */
/** @typedef {import("./types.js").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("./types.js").You} You */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
/** @typedef {"ready" | "unready" | "start" | "resign" | "rematch"} RaceCommand */

/**
 * @typedef {object} RaceHandlers
 * @property {(race: RaceView) => void} onRace  the race changed (or progress arrived)
 * @property {(error: ErrorMessage | Error) => void} onError
 */

export class RaceSession {
  /**
   * @param {Connection} connection
   * @param {{ raceId: string, token: string, race?: RaceView | null, you?: You | null }} seat
   * @param {RaceHandlers} handlers
   */
  constructor(connection, seat, handlers) {
    this.connection = connection;
    this.raceId = seat.raceId;
    this.token = seat.token;
    /** @type {RaceView | null} */
    this.race = seat.race ?? null;
    /** @type {You | null} */
    this.you = seat.you ?? null;
    this.version = -1;
    /** Server clock minus local clock, in ms. */
    this.offset = this.race ? this.race.server_time - Date.now() : 0;
    this.handlers = handlers;
    this.closed = false;
    /** @param {ServerMessage} message */
    this.onMessage = (message) => this.handle(message);
    this.onReady = () => void this.watch();
    connection.listeners.add(this.onMessage);
    connection.readyListeners.add(this.onReady);
  }

  /** The server's clock now, as far as the last message tells. */
  serverNow() {
    return Date.now() + this.offset;
  }

  /** Follows the race as its player; the answer carries the race and `you`. */
  async watch() {
    if (this.closed || this.connection.status !== "open") return;
    try {
      const answer = await this.connection.request({
        type: "watch_race",
        race_id: this.raceId,
        token: this.token,
      });
      if (answer.type === "error") this.handlers.onError(answer);
    } catch (error) {
      if (!(error instanceof OfflineError)) throw error;
    }
  }

  /** @param {ServerMessage} message */
  handle(message) {
    if (this.closed) return;
    if (message.type === "race" && message.race_id === this.raceId) {
      // A watch answer restates the race at its current version; only older ones are stale.
      if (message.version < this.version) return;
      this.version = message.version;
      this.race = message.race;
      if (message.you) this.you = message.you;
      this.offset = message.race.server_time - Date.now();
      this.handlers.onRace(message.race);
    } else if (message.type === "race_progress" && message.race_id === this.raceId) {
      this.progress(message);
    } else if (message.type === "error" && message.race_id === this.raceId && !message.id) {
      this.handlers.onError(message);
    }
  }

  /** @param {RaceProgressMessage} message */
  progress(message) {
    const race = this.race;
    if (!race) return;
    const player = race.players.find((p) => p.player_id === message.player_id);
    if (!player) return;
    player.foundations = message.foundations;
    player.score = message.score;
    player.score_display = message.score_display;
    player.moves = message.moves;
    if (message.state === "won" || player.state === "playing") player.state = message.state;
    this.handlers.onRace(race);
  }

  /**
   * @param {RaceCommand} command
   * @returns {Promise<boolean>} accepted
   */
  async command(command) {
    try {
      const answer = await this.connection.request({
        type: "race_command",
        race_id: this.raceId,
        command,
      });
      if (answer.type === "error") {
        this.handlers.onError(answer);
        return false;
      }
      return answer.type === "result" && answer.status === "accepted";
    } catch (error) {
      this.handlers.onError(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  /** This player's entry in the race. */
  me() {
    return this.race?.players.find((p) => p.player_id === this.you?.player_id) ?? null;
  }

  isHost() {
    return !!this.race && !!this.you && this.race.host === this.you.player_id;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.connection.listeners.delete(this.onMessage);
    this.connection.readyListeners.delete(this.onReady);
    if (this.connection.status === "open") {
      this.connection.request({ type: "unwatch_race", race_id: this.raceId }).catch(() => {});
    }
  }
}
