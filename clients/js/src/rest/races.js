// @ts-check
// REST calls of races: create, join, read, and the players' commands.

import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/create-race-request.js").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("../../types/protocol/rest/join-race-request.js").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("../../types/protocol/rest/race-joined.js").RaceJoined} RaceJoined */
/** @typedef {import("../../types/protocol/rest/race-response.js").RaceResponse} RaceResponse */

/** @typedef {{ token?: string | null }} TokenOption */

export const ROUTES = [
  "POST /races",
  "POST /races/join",
  "GET /races/{race_id}",
  "POST /races/{race_id}/ready",
  "POST /races/{race_id}/start",
  "POST /races/{race_id}/resign",
  "POST /races/{race_id}/rematch",
];

export class RacesApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   */
  constructor(http, tokens) {
    this.http = http;
    this.tokens = tokens;
  }

  /**
   * A new race, with you as its host. The race token (also your race game's game token)
   * is kept for the calls that follow.
   * @param {CreateRaceRequest} request
   * @returns {Promise<RaceJoined>}
   */
  async create(request) {
    return this._seat(
      await this.http.json("POST", "/races", { body: request, token: this.tokens.player() }),
    );
  }

  /**
   * Takes a seat in the race of a join code.
   * @param {JoinRaceRequest} request
   * @returns {Promise<RaceJoined>}
   */
  async join(request) {
    return this._seat(
      await this.http.json("POST", "/races/join", { body: request, token: this.tokens.player() }),
    );
  }

  /**
   * The race; with the race token, `you` too.
   * @param {string} raceId
   * @param {TokenOption} [options]
   * @returns {Promise<RaceResponse>}
   */
  get(raceId, options = {}) {
    return this.http.json("GET", `/races/${seg(raceId)}`, { token: this._token(raceId, options) });
  }

  /**
   * @param {string} raceId
   * @param {boolean} [ready]  false takes it back
   * @param {TokenOption} [options]
   * @returns {Promise<RaceResponse>}
   */
  ready(raceId, ready = true, options = {}) {
    return this._command(raceId, "ready", options, { ready });
  }

  /**
   * @param {string} raceId
   * @param {TokenOption} [options]
   * @returns {Promise<RaceResponse>}
   */
  start(raceId, options = {}) {
    return this._command(raceId, "start", options);
  }

  /**
   * @param {string} raceId
   * @param {TokenOption} [options]
   * @returns {Promise<RaceResponse>}
   */
  resign(raceId, options = {}) {
    return this._command(raceId, "resign", options);
  }

  /**
   * The new race of the same players; the same race token plays it.
   * @param {string} raceId
   * @param {TokenOption} [options]
   * @returns {Promise<RaceResponse>}
   */
  async rematch(raceId, options = {}) {
    const token = this._token(raceId, options);
    /** @type {RaceResponse} */
    const answer = await this._command(raceId, "rematch", options);
    if (token) this.tokens.setRace(answer.race.race_id, token);
    if (token && answer.you) this.tokens.setGame(answer.you.game_id, token);
    return answer;
  }

  /**
   * @param {string} raceId
   * @param {string} command
   * @param {TokenOption} options
   * @param {unknown} [body]
   */
  _command(raceId, command, options, body) {
    return this.http.json("POST", `/races/${seg(raceId)}/${command}`, {
      body,
      token: this._token(raceId, options),
    });
  }

  /** @param {RaceJoined} joined */
  _seat(joined) {
    this.tokens.setRace(joined.race_id, joined.player_token);
    this.tokens.setGame(joined.game_id, joined.player_token);
    return joined;
  }

  /**
   * @param {string} raceId
   * @param {TokenOption} options
   */
  _token(raceId, options) {
    return options.token === undefined ? this.tokens.race(raceId) : options.token;
  }
}
