// @ts-check
// REST calls of arena tournaments: the list, one arena, its standings and heats; make,
// cancel, join and leave (docs/arena.md).

import { ArenaFollow } from "../arena.js";
import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../connection.js").Connection} Connection */
/** @typedef {import("../arena.js").FollowArenaOptions} FollowArenaOptions */
/** @typedef {import("../../types/protocol/rest/create-arena-request.js").CreateArenaRequest} CreateArenaRequest */
/** @typedef {import("../../types/protocol/rest/arena-response.js").ArenaResponse} ArenaResponse */
/** @typedef {import("../../types/protocol/rest/arena-list.js").ArenaList} ArenaList */
/** @typedef {import("../../types/protocol/rest/arena-standings.js").ArenaStandings} ArenaStandings */
/** @typedef {import("../../types/protocol/rest/arena-heats.js").ArenaHeats} ArenaHeats */

export const ROUTES = [
  "GET /arenas",
  "POST /arenas",
  "GET /arenas/{arena_id}",
  "DELETE /arenas/{arena_id}",
  "POST /arenas/{arena_id}/players",
  "DELETE /arenas/{arena_id}/players/me",
  "GET /arenas/{arena_id}/standings",
  "GET /arenas/{arena_id}/heats",
];

export class ArenasApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   * @param {Connection | null} [connection]  the client's WebSocket, for `follow`
   */
  constructor(http, tokens, connection = null) {
    this.http = http;
    this.tokens = tokens;
    this.connection = connection;
  }

  /**
   * Follows a page of the arena's standings over the WebSocket (`follow_arena`), with
   * the client's player token when it has one (then `page.you` is its line and heat, the
   * heat's race token kept). `page` stays current: each change is applied as it comes.
   * Events: `standings` (the page changed), `final` (the last page; following stops),
   * `ended`. After a reconnection it follows again and the page comes in full.
   * @param {string} arenaId
   * @param {FollowArenaOptions} [options]
   * @returns {ArenaFollow}
   */
  follow(arenaId, options = {}) {
    if (!this.connection) throw new TypeError("following an arena needs a connection");
    return new ArenaFollow(this.connection, this.tokens, arenaId, options);
  }

  /**
   * Arenas upcoming, running and finished (the last two days).
   * @returns {Promise<ArenaList>}
   */
  async list() {
    return this.http.json("GET", "/arenas");
  }

  /**
   * Makes an arena of the client's player, starting now or `starts_in` minutes ahead.
   * @param {CreateArenaRequest} body  e.g. `{mode: "TF.D1N", name: "Friday", minutes: 30}`
   * @returns {Promise<ArenaResponse>}
   */
  async create(body) {
    return this.http.json("POST", "/arenas", { body, token: this.tokens.player() });
  }

  /**
   * The arena, with the client's line and heat when its player joined; the heat's race
   * token is kept.
   * @param {string} arenaId
   * @returns {Promise<ArenaResponse>}
   */
  async get(arenaId) {
    return this._kept(
      await this.http.json("GET", `/arenas/${seg(arenaId)}`, { token: this.tokens.player() }),
    );
  }

  /**
   * Cancels an arena the client's player made, before it starts.
   * @param {string} arenaId
   * @returns {Promise<ArenaResponse>}
   */
  async cancel(arenaId) {
    return this.http.json("DELETE", `/arenas/${seg(arenaId)}`, { token: this.tokens.player() });
  }

  /**
   * Joins the arena, or comes back after leaving.
   * @param {string} arenaId
   * @returns {Promise<ArenaResponse>}
   */
  async join(arenaId) {
    return this._kept(
      await this.http.json("POST", `/arenas/${seg(arenaId)}/players`, {
        token: this.tokens.player(),
      }),
    );
  }

  /**
   * Leaves the arena: no more heats until joining again.
   * @param {string} arenaId
   * @returns {Promise<ArenaResponse>}
   */
  async leave(arenaId) {
    return this.http.json("DELETE", `/arenas/${seg(arenaId)}/players/me`, {
      token: this.tokens.player(),
    });
  }

  /**
   * A page (from 1) of 20 lines of the standings.
   * @param {string} arenaId
   * @param {number} [page]
   * @returns {Promise<ArenaStandings>}
   */
  async standings(arenaId, page = 1) {
    return this.http.json("GET", `/arenas/${seg(arenaId)}/standings`, { query: { page } });
  }

  /**
   * Every heat: its race (readable and replayable once over) and outcomes.
   * @param {string} arenaId
   * @returns {Promise<ArenaHeats>}
   */
  async heats(arenaId) {
    return this.http.json("GET", `/arenas/${seg(arenaId)}/heats`);
  }

  /** @param {ArenaResponse} answer */
  _kept(answer) {
    const heat = answer.you?.heat;
    if (heat && heat.player_token) {
      this.tokens.setRace(heat.race_id, heat.player_token);
      this.tokens.setGame(heat.game_id, heat.player_token);
    }
    return answer;
  }
}
