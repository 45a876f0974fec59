// @ts-check
// Following an arena's standings over the client's WebSocket: the service sends the
// followed page in full, then only the lines that changed, then a last, full page once
// the standings are final. The follower keeps the page whole by applying each change,
// and follows again after a reconnection (the page comes in full again).

import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";

/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./tokens.js").Tokens} Tokens */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").ArenaStandingsMessage} ArenaStandingsMessage */
/** @typedef {import("../types/protocol/server-message.js").ArenaRow} ArenaRow */
/** @typedef {import("../types/protocol/server-message.js").ArenaYou} ArenaYou */

/**
 * The followed page as it stands.
 * @typedef {object} ArenaPage
 * @property {string} arena_id
 * @property {number} page
 * @property {number} total  players in the standings
 * @property {boolean} final  the arena is over and every heat counted
 * @property {ArenaRow[]} rows  the page's lines, by rank
 * @property {ArenaYou | null} you  the client's own line and heat (with a player token)
 */

/**
 * @typedef {object} FollowArenaOptions
 * @property {number} [page]  the page of 20 lines, from 1 (default 1)
 * @property {AbortSignal} [signal]  aborting stops following (`unfollow_arena`)
 */

/**
 * @typedef {object} ArenaFollowEvents
 * @property {ArenaPage} standings  the page changed (the first time in full)
 * @property {ArenaPage} final  the standings are final; following stops
 * @property {SolitaireError} ended  following stopped before the final page: stopped
 *   (`cancelled`), refused, the client closed or gave up reconnecting
 */

/** @extends {Emitter<ArenaFollowEvents>} */
export class ArenaFollow extends Emitter {
  /**
   * Use `client.arenas.follow(arenaId)`.
   * @param {Connection} connection
   * @param {Tokens} tokens
   * @param {string} arenaId
   * @param {FollowArenaOptions} [options]
   */
  constructor(connection, tokens, arenaId, options = {}) {
    super();
    this.connection = connection;
    this.tokens = tokens;
    this.arenaId = arenaId;
    this.pageNumber = options.page ?? 1;
    /** @type {ArenaPage | null} the page as it stands, once the first full page came */
    this.page = null;
    /** @type {SolitaireError | null} why following stopped before the final page */
    this.error = null;
    /** True once the final page came. */
    this.finished = false;
    this._stops = [
      connection.on("message", (message) => this._read(message)),
      connection.on("open", ({ reconnected }) => {
        if (reconnected) void this._follow();
      }),
      connection.on("status", (status) => this._status(status)),
    ];
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) {
        this._end(new SolitaireError("cancelled", "following the arena was stopped"));
        return;
      }
      const abort = () => void this.stop();
      signal.addEventListener("abort", abort, { once: true });
      this._stops.push(() => signal.removeEventListener("abort", abort));
    }
    void this._follow();
  }

  /** True once following stopped. */
  get done() {
    return this.error !== null || this.finished;
  }

  /** Stops following (`unfollow_arena`). */
  async stop() {
    if (this.done) return;
    this._end(new SolitaireError("cancelled", "following the arena was stopped"));
    try {
      await this.connection.request({ type: "unfollow_arena", arena_id: this.arenaId });
    } catch {
      // Not followed any more (the socket went, or the standings were final).
    }
  }

  async _follow() {
    if (this.done) return;
    const token = this.tokens.player();
    /** @type {Record<string, unknown> & {type: string}} */
    const body = { type: "follow_arena", arena_id: this.arenaId, page: this.pageNumber };
    if (token) body.token = token;
    try {
      await this.connection.request(body);
    } catch (error) {
      // A socket lost before the answer: the reconnection follows again.
      if (error instanceof SolitaireError && error.code === "connection_lost") return;
      this._end(
        error instanceof SolitaireError ? error : new SolitaireError("bad_answer", String(error)),
      );
    }
  }

  /** @param {ServerMessage} message */
  _read(message) {
    if (message.type !== "arena_standings" || this.done) return;
    if (message.arena_id !== this.arenaId || message.page !== this.pageNumber) return;
    if (!message.full && this.page === null) return;
    const rows = message.full ? [] : [...(this.page?.rows ?? [])];
    for (const row of message.rows) {
      const at = rows.findIndex((r) => r.rank === row.rank);
      if (at >= 0) rows[at] = row;
      else rows.push(row);
    }
    rows.sort((a, b) => a.rank - b.rank);
    const kept = rows.filter((r) => r.rank <= message.total);
    // Between full pages `you` comes only when the client's own line changed.
    let you = this.page?.you ?? null;
    if (message.full) you = message.you ?? null;
    else if (message.you) you = message.you;
    const heat = you?.heat;
    if (heat && heat.player_token) {
      this.tokens.setRace(heat.race_id, heat.player_token);
      this.tokens.setGame(heat.game_id, heat.player_token);
    }
    this.page = {
      arena_id: message.arena_id,
      page: message.page,
      total: message.total,
      final: message.final,
      rows: kept,
      you,
    };
    this.emit("standings", this.page);
    if (message.final) {
      const page = this.page;
      this._stop();
      this.finished = true;
      this.emit("final", page);
    }
  }

  /** @param {ConnectionStatus} status */
  _status(status) {
    if (status === "closed") this._end(new SolitaireError("closed", "the client was closed"));
    else if (status === "disconnected") {
      this._end(new SolitaireError("disconnected", "the client gave up reconnecting"));
    }
  }

  /** @param {SolitaireError} error */
  _end(error) {
    if (this.done) return;
    this.error = error;
    this._stop();
    this.emit("ended", error);
  }

  _stop() {
    for (const stop of this._stops.splice(0)) stop();
  }
}
