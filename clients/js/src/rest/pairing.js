// @ts-check
// Quick pairing: over the client's WebSocket (`seekNow`, `live`: the seek lives while the
// socket does), or by REST calls (ask to race now in a mode, read the seek, cancel it).

import { seg } from "../http.js";
import { LiveSeek } from "../seek.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../connection.js").Connection} Connection */
/** @typedef {import("../seek.js").Paired} Paired */
/** @typedef {import("../seek.js").SeekNowOptions} SeekNowOptions */
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
   * @param {Connection | null} [connection]  the client's WebSocket, for `seekNow` and `live`
   */
  constructor(http, tokens, connection = null) {
    this.http = http;
    this.tokens = tokens;
    this.connection = connection;
  }

  /**
   * Asks to race now in a mode over the WebSocket, with the client's player token, and
   * resolves with the race once a wave pairs the seek (its race token is kept). The seek
   * lives while the socket does: the service cancels it when the socket closes. Aborting
   * `signal` cancels it (the promise rejects with `cancelled`, or resolves when a wave came
   * first). After a reconnection the SDK seeks again on the new socket (see `live`).
   * @param {SeekRequest["mode"]} mode  e.g. `"TF.D1N"`
   * @param {SeekNowOptions} [options]
   * @returns {Promise<Paired>}
   */
  seekNow(mode, options = {}) {
    return this.live(mode, options).result;
  }

  /**
   * `seekNow` with its events: `waiting` (the seek the service holds, again with a new
   * id after a reconnection), `paired`, `ended`; `result` is `seekNow`'s promise and
   * `cancel()` cancels.
   * @param {SeekRequest["mode"]} mode
   * @param {SeekNowOptions} [options]
   * @returns {LiveSeek}
   */
  live(mode, options = {}) {
    if (!this.connection) throw new TypeError("seeking over the WebSocket needs a connection");
    return new LiveSeek(this.connection, this, mode, options);
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
