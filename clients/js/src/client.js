// @ts-check
// The one object a front end holds: the REST calls, grouped as the service's routes are
// (games, races, players, daily), and one WebSocket shared by every game and race it
// follows. A new group of routes is a module of `rest/` and one line here.

import { Connection } from "./connection.js";
import { Emitter } from "./emitter.js";
import { Game } from "./game.js";
import { Http } from "./http.js";
import { Race } from "./race.js";
import { ArenasApi } from "./rest/arenas.js";
import { DailyApi } from "./rest/daily.js";
import { GamesApi } from "./rest/games.js";
import { PairingApi } from "./rest/pairing.js";
import { PlayersApi } from "./rest/players.js";
import { RacesApi } from "./rest/races.js";
import { ServiceApi } from "./rest/service.js";
import { Tokens } from "./tokens.js";

/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./connection.js").ReconnectOptions} ReconnectOptions */
/** @typedef {import("./frames.js").FrameError} FrameError */
/** @typedef {import("./errors.js").SolitaireError} SolitaireError */
/** @typedef {import("../types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../types/protocol/server-message.js").You} You */

/**
 * @typedef {object} ClientOptions
 * @property {string} [url]  the service, `http://host:port` (default: the page's origin)
 * @property {string} [socketUrl]  the WebSocket (default: `ws://` or `wss://` + host + `/ws`)
 * @property {string | null | (() => string | null)} [playerToken]  sent where a player
 *   token is wanted; a function is asked each time
 * @property {typeof fetch} [fetch]  default: the platform's
 * @property {typeof WebSocket} [WebSocket]  default: the platform's (Node 20 has none
 *   without --experimental-websocket: pass `ws`'s)
 * @property {number} [requestTimeoutMs]  default time limit of a request, REST or
 *   WebSocket; default 15000
 * @property {number} [heartbeatMs]  a ping after this long; default 15000
 * @property {number} [heartbeatTimeoutMs]  a socket silent this long is dialled again;
 *   default twice `heartbeatMs` plus 5 s
 * @property {ReconnectOptions} [reconnect]  tries and backoff
 * @property {boolean} [changesInResults]  default true: one frame per accepted action
 * @property {number} [maxInFlight]  unanswered actions per game at most; default 8
 */

/**
 * @typedef {object} FollowOptions
 * @property {string | null} [token]  the game (or race) token; default the one the client
 *   was given for this game; null watches
 * @property {PublicState | null} [state]  a state already known (a creation answer's)
 * @property {number} [version]  its version
 * @property {boolean} [waitForStart]  a race game: wait for the race to run
 */

/**
 * @typedef {object} RaceFollowOptions
 * @property {string | null} [token]  the race token; default the one the client was given
 *   for this race; null spectates
 * @property {RaceView | null} [race]  the race as already known
 * @property {You | null} [you]
 */

/**
 * @typedef {object} ClientEvents
 * @property {ConnectionStatus} status  the WebSocket's status changed
 * @property {FrameError} frameRefused  the service sent a frame the SDK would not act on
 * @property {SolitaireError} error  an error frame that answers no request
 */

/** @extends {Emitter<ClientEvents>} */
export class SolitaireClient extends Emitter {
  /** @param {ClientOptions} [options] */
  constructor(options = {}) {
    super();
    const origin = options.url ?? globalThis.location?.origin;
    if (!origin) throw new TypeError("SolitaireClient needs the service's url");
    this.tokens = new Tokens(options.playerToken ?? null);
    this.http = new Http({ baseUrl: origin, fetch: options.fetch, timeoutMs: options.requestTimeoutMs });
    this.connection = new Connection({
      url: options.socketUrl ?? socketUrlOf(this.http.baseUrl),
      WebSocket: options.WebSocket,
      requestTimeoutMs: options.requestTimeoutMs,
      heartbeatMs: options.heartbeatMs,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs,
      reconnect: options.reconnect,
      changesInResults: options.changesInResults,
    });
    this.maxInFlight = options.maxInFlight;
    const nextId = (/** @type {string} */ kind) => this.connection.nextId(kind);
    /** Games: create, read, play over HTTP, hints, analysis, records, replays. */
    this.games = new GamesApi(this.http, this.tokens, nextId);
    /** Races: create, join, read, commands. */
    this.races = new RacesApi(this.http, this.tokens);
    /** Quick pairing: race now over the WebSocket, or seek, read and cancel by REST. */
    this.pairing = new PairingApi(this.http, this.tokens, this.connection);
    /** Arena tournaments: list, make, join, leave, standings (followed live), heats. */
    this.arenas = new ArenasApi(this.http, this.tokens, this.connection);
    /** Players, link codes, statistics. */
    this.players = new PlayersApi(this.http, this.tokens);
    /** The daily challenge and the leaderboards. */
    this.daily = new DailyApi(this.http, this.tokens);
    /** Health and the OpenAPI document. */
    this.service = new ServiceApi(this.http);
    /** @type {Map<string, Game>} */
    this._games = new Map();
    /** @type {Map<string, Race>} */
    this._races = new Map();
    this.connection.on("status", (status) => this.emit("status", status));
    this.connection.on("frameRefused", (error) => this.emit("frameRefused", error));
    this.connection.on("error", (error) => this.emit("error", error));
  }

  /** The WebSocket's status. */
  get status() {
    return this.connection.status;
  }

  /** Opens the WebSocket (following a game or a race opens it too). */
  connect() {
    return this.connection.connect();
  }

  /**
   * The game object of `gameId` for this client, made (not yet following) when there is
   * none: listen to its events, then `follow()` it. The same object is returned until it
   * is left.
   * @param {string} gameId
   * @param {FollowOptions} [options]
   * @returns {Game}
   */
  game(gameId, options = {}) {
    const known = this._games.get(gameId);
    if (known) return known;
    const token = options.token === undefined ? this.tokens.game(gameId) : options.token;
    const game = new Game(this.connection, {
      gameId,
      token,
      state: options.state,
      version: options.version,
      waitForStart: options.waitForStart,
      maxInFlight: this.maxInFlight,
    });
    this._games.set(gameId, game);
    game.once("left", () => {
      if (this._games.get(gameId) === game) this._games.delete(gameId);
    });
    return game;
  }

  /**
   * Follows a game over the WebSocket: as its player with its token (the client keeps the
   * tokens of the games it created), or as a watcher (`token: null`). Resolves once its
   * state is the server's; a game that cannot be followed is left, and the promise rejects.
   * @param {string} gameId
   * @param {FollowOptions} [options]
   * @returns {Promise<Game>}
   */
  async follow(gameId, options = {}) {
    const game = this.game(gameId, options);
    if (game.synced) return game;
    try {
      return await game.follow();
    } catch (error) {
      game.leave();
      throw error;
    }
  }

  /**
   * The race object of `raceId` for this client, made (not yet watching) when there is
   * none: listen to its events, then `follow()` it.
   * @param {string} raceId
   * @param {RaceFollowOptions} [options]
   * @returns {Race}
   */
  race(raceId, options = {}) {
    const known = this._races.get(raceId);
    if (known) return known;
    const token = options.token === undefined ? this.tokens.race(raceId) : options.token;
    const race = new Race(this.connection, { raceId, token, race: options.race, you: options.you });
    this._races.set(raceId, race);
    race.once("left", () => {
      if (this._races.get(raceId) === race) this._races.delete(raceId);
    });
    return race;
  }

  /**
   * Follows a race: as one of its players with the race token (kept by the client for the
   * races it created or joined), or as a spectator (`token: null`). Resolves once the race
   * view is the server's.
   * @param {string} raceId
   * @param {RaceFollowOptions} [options]
   * @returns {Promise<Race>}
   */
  async watchRace(raceId, options = {}) {
    const race = this.race(raceId, options);
    if (race.version >= 0) return race;
    try {
      return await race.follow();
    } catch (error) {
      race.leave();
      throw error;
    }
  }

  /**
   * Follows this player's own game of a followed race, once the race runs.
   * @param {Race} race
   * @returns {Promise<Game>}
   */
  playRace(race) {
    if (!race.you || !race.token) {
      return Promise.reject(new TypeError("only a player of the race has a game in it"));
    }
    return this.follow(race.you.game_id, { token: race.token, waitForStart: true });
  }

  /** The games followed now. */
  get followedGames() {
    return [...this._games.values()];
  }

  /** The races followed now. */
  get followedRaces() {
    return [...this._races.values()];
  }

  /** Closes the WebSocket for good; REST calls still work. */
  close() {
    this.connection.close();
  }
}

/**
 * The WebSocket beside the REST API: `http://host:port` -> `ws://host:port/ws`, `https`
 * -> `wss`, a path prefix kept (a service behind a proxy at `/solitaire`).
 * @param {string} baseUrl
 */
export function socketUrlOf(baseUrl) {
  const base = baseUrl.replace(/\/+$/, "");
  if (/^https:/i.test(base)) return `wss:${base.slice("https:".length)}/ws`;
  if (/^http:/i.test(base)) return `ws:${base.slice("http:".length)}/ws`;
  return `${base}/ws`;
}
