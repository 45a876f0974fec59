// @ts-check
// The tokens a client holds: the player token (who you are across games and devices), and
// the game and race tokens it was given, kept by id so that calls need only the id.

export class Tokens {
  /** @param {string | null | (() => string | null)} [player] */
  constructor(player = null) {
    /** @type {string | null | (() => string | null)} */
    this._player = player;
    /** @type {Map<string, string>} */
    this._games = new Map();
    /** @type {Map<string, string>} */
    this._races = new Map();
  }

  /** The player token to send, or null (anonymous). */
  player() {
    return typeof this._player === "function" ? this._player() : this._player;
  }

  /**
   * A token, or a function that reads it each time (from a store the front end keeps).
   * @param {string | null | (() => string | null)} token
   */
  setPlayer(token) {
    this._player = token;
  }

  /** @param {string} gameId */
  game(gameId) {
    return this._games.get(gameId) ?? null;
  }

  /** @param {string} gameId @param {string} token */
  setGame(gameId, token) {
    this._games.set(gameId, token);
  }

  /** @param {string} raceId */
  race(raceId) {
    return this._races.get(raceId) ?? null;
  }

  /** @param {string} raceId @param {string} token */
  setRace(raceId, token) {
    this._races.set(raceId, token);
  }
}
