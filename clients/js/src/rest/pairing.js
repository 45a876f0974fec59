// @ts-check
// REST calls of quick pairing: ask to race now in a mode, read the seek, cancel it.

import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/seek-request.js").SeekRequest} SeekRequest */
/** @typedef {import("../../types/protocol/rest/seek-response.js").SeekResponse} SeekResponse */

export const ROUTES = [
  "POST /pairing/seeks",
  "GET /pairing/seeks/{seek_id}",
  "DELETE /pairing/seeks/{seek_id}",
];

export class PairingApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   */
  constructor(http, tokens) {
    this.http = http;
    this.tokens = tokens;
  }

  /**
   * Asks to race now in a mode, with the client's player token. Poll `get` until the
   * seek is `paired` (each read keeps it alive); its race token is then kept.
   * @param {SeekRequest["mode"]} mode  e.g. `"TF.D1N"`
   * @returns {Promise<SeekResponse>}
   */
  async seek(mode) {
    const body = { mode };
    return this._kept(
      await this.http.json("POST", "/pairing/seeks", { body, token: this.tokens.player() }),
    );
  }

  /**
   * The seek: `waiting`, `paired` (with `race`) or `cancelled`.
   * @param {string} seekId
   * @returns {Promise<SeekResponse>}
   */
  async get(seekId) {
    return this._kept(
      await this.http.json("GET", `/pairing/seeks/${seg(seekId)}`, {
        token: this.tokens.player(),
      }),
    );
  }

  /**
   * Cancels the seek; one already paired stays paired (the answer says so).
   * @param {string} seekId
   * @returns {Promise<SeekResponse>}
   */
  async cancel(seekId) {
    return this._kept(
      await this.http.json("DELETE", `/pairing/seeks/${seg(seekId)}`, {
        token: this.tokens.player(),
      }),
    );
  }

  /** @param {SeekResponse} answer */
  _kept(answer) {
    const race = answer.seek.race;
    if (race && race.player_token) {
      this.tokens.setRace(race.race_id, race.player_token);
      this.tokens.setGame(race.game_id, race.player_token);
    }
    return answer;
  }
}
