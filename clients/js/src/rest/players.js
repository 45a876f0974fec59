// @ts-check
// REST calls of players: the player, its devices (link codes), and statistics.

import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/player-created.js").PlayerCreated} PlayerCreated */
/** @typedef {import("../../types/protocol/rest/player-view.js").PlayerView} PlayerView */
/** @typedef {import("../../types/protocol/rest/player-stats.js").PlayerStats} PlayerStats */
/** @typedef {import("../../types/protocol/rest/link-code.js").LinkCode} LinkCode */
/** @typedef {import("../../types/protocol/rest/revoked.js").Revoked} Revoked */

export const ROUTES = [
  "POST /players",
  "GET /players/me",
  "PATCH /players/me",
  "POST /players/me/link-codes",
  "POST /players/me/revoke-others",
  "GET /players/me/stats",
  "POST /players/link",
  "GET /players/{player_id}/stats",
];

export class PlayersApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   */
  constructor(http, tokens) {
    this.http = http;
    this.tokens = tokens;
  }

  /**
   * A new player. Its player token becomes the client's unless `{ keep: false }`.
   * @param {string} name
   * @param {{ keep?: boolean }} [options]
   * @returns {Promise<PlayerCreated>}
   */
  async create(name, options = {}) {
    /** @type {PlayerCreated} */
    const created = await this.http.json("POST", "/players", { body: { name } });
    if (options.keep ?? true) this.tokens.setPlayer(created.player_token);
    return created;
  }

  /** @returns {Promise<PlayerView>} */
  me() {
    return this.http.json("GET", "/players/me", { token: this._player() });
  }

  /**
   * @param {string} name
   * @returns {Promise<PlayerView>}
   */
  rename(name) {
    return this.http.json("PATCH", "/players/me", { body: { name }, token: this._player() });
  }

  /**
   * A one-time code that links another device to this player.
   * @returns {Promise<LinkCode>}
   */
  newLinkCode() {
    return this.http.json("POST", "/players/me/link-codes", { body: {}, token: this._player() });
  }

  /**
   * This device joins the player of `linkCode`; the new player token becomes the client's
   * unless `{ keep: false }`.
   * @param {string} linkCode
   * @param {{ keep?: boolean }} [options]
   * @returns {Promise<PlayerCreated>}
   */
  async link(linkCode, options = {}) {
    /** @type {PlayerCreated} */
    const linked = await this.http.json("POST", "/players/link", {
      body: { link_code: linkCode },
    });
    if (options.keep ?? true) this.tokens.setPlayer(linked.player_token);
    return linked;
  }

  /**
   * Signs every other device of the player out.
   * @returns {Promise<Revoked>}
   */
  revokeOthers() {
    return this.http.json("POST", "/players/me/revoke-others", {
      body: {},
      token: this._player(),
    });
  }

  /**
   * The player's own statistics (with what only the player sees); another player's public
   * ones with `playerId`.
   * @param {string} [playerId]
   * @returns {Promise<PlayerStats>}
   */
  stats(playerId) {
    if (playerId !== undefined) {
      return this.http.json("GET", `/players/${seg(playerId)}/stats`);
    }
    return this.http.json("GET", "/players/me/stats", { token: this._player() });
  }

  _player() {
    return this.tokens.player();
  }
}
