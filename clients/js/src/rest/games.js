// @ts-check
// REST calls of games: create, read, play (actions, undo, resign), hints, analysis,
// records and replays. The game token comes from the client's token book unless given.

import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/action.js").Action} Action */
/** @typedef {import("../../types/protocol/rest/create-game-request.js").CreateGameRequest} CreateGameRequest */
/** @typedef {import("../../types/protocol/rest/created-game.js").CreatedGame} CreatedGame */
/** @typedef {import("../../types/protocol/rest/game-state-response.js").GameStateResponse} GameStateResponse */
/** @typedef {import("../../types/protocol/rest/changes-response.js").ChangesResponse} ChangesResponse */
/** @typedef {import("../../types/protocol/rest/action-accepted.js").ActionAccepted} ActionAccepted */
/** @typedef {import("../../types/protocol/rest/legal-actions-response.js").LegalActionsResponse} LegalActionsResponse */
/** @typedef {import("../../types/protocol/rest/game-record-response.js").GameRecordResponse} GameRecordResponse */
/** @typedef {import("../../types/protocol/rest/replay-response.js").ReplayResponse} ReplayResponse */
/** @typedef {import("../../types/protocol/rest/hint-response.js").HintResponse} HintResponse */
/** @typedef {import("../../types/protocol/rest/analysis-response.js").AnalysisResponse} AnalysisResponse */

/**
 * @typedef {object} TokenOption
 * @property {string | null} [token]  the game (or race) token; default the one the client
 *   was given for this game
 */

/**
 * @typedef {object} WriteOptions
 * @property {string | null} [token]
 * @property {number} [expectedVersion]  play only if the game is still at this version
 * @property {string} [requestId]  the idempotency key (default: a fresh one); send a
 *   request again with the same one to have it applied at most once
 */

/** The routes this module covers (checked against the OpenAPI document by the tests). */
export const ROUTES = [
  "POST /games",
  "GET /games/{game_id}",
  "GET /games/{game_id}/changes",
  "POST /games/{game_id}/actions",
  "POST /games/{game_id}/undo",
  "POST /games/{game_id}/resign",
  "GET /games/{game_id}/legal-actions",
  "GET /games/{game_id}/record",
  "GET /games/{game_id}/replay",
  "POST /games/{game_id}/hint",
  "GET /games/{game_id}/analysis",
];

export class GamesApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   * @param {(kind: string) => string} nextId
   */
  constructor(http, tokens, nextId) {
    this.http = http;
    this.tokens = tokens;
    this.nextId = nextId;
  }

  /**
   * A new game: a random deal (`game`, `draw`, `scoring`), a winnable or secret one, or the
   * deal of a `code`. Sent with the player token when the client has one, so that the game
   * counts for the player. The game token is kept for the calls that follow.
   * @param {CreateGameRequest} [request]
   * @returns {Promise<CreatedGame>}
   */
  async create(request = {}) {
    /** @type {CreatedGame} */
    const created = await this.http.json("POST", "/games", {
      body: request,
      token: this.tokens.player(),
    });
    this.tokens.setGame(created.game_id, created.player_token);
    return created;
  }

  /**
   * The public state now. With `etag` (an earlier answer's `ETag`, such as `"5"`), resolves
   * with null while nothing changed.
   * @param {string} gameId
   * @param {TokenOption & { etag?: string }} [options]
   * @returns {Promise<GameStateResponse | null>}
   */
  async get(gameId, options = {}) {
    const answer = await this.http.send("GET", `/games/${seg(gameId)}`, {
      token: this._token(gameId, options),
      headers: options.etag ? { "if-none-match": options.etag } : undefined,
    });
    return answer.status === 304 ? null : /** @type {GameStateResponse} */ (answer.data);
  }

  /**
   * One page of the changes after version `since`.
   * @param {string} gameId
   * @param {number} since
   * @param {TokenOption} [options]
   * @returns {Promise<ChangesResponse>}
   */
  changes(gameId, since, options = {}) {
    return this.http.json("GET", `/games/${seg(gameId)}/changes`, {
      query: { since },
      token: this._token(gameId, options),
    });
  }

  /**
   * Every page of the changes after `since`, in order (following `next_since`).
   * @param {string} gameId
   * @param {number} since
   * @param {TokenOption} [options]
   * @returns {AsyncGenerator<ChangesResponse>}
   */
  async *allChanges(gameId, since, options = {}) {
    for (let from = since; ; ) {
      const page = await this.changes(gameId, from, options);
      yield page;
      if (!page.more || page.next_since === undefined || page.next_since === null) return;
      from = page.next_since;
    }
  }

  /**
   * Plays one action over HTTP (the WebSocket's `Game.act` is the usual way).
   * @param {string} gameId
   * @param {Action | string} action
   * @param {WriteOptions} [options]
   * @returns {Promise<ActionAccepted>}
   */
  act(gameId, action, options = {}) {
    return this._write(gameId, "actions", { action }, options);
  }

  /**
   * @param {string} gameId
   * @param {WriteOptions} [options]
   * @returns {Promise<ActionAccepted>}
   */
  undo(gameId, options = {}) {
    return this._write(gameId, "undo", {}, options);
  }

  /**
   * @param {string} gameId
   * @param {Omit<WriteOptions, "expectedVersion">} [options]
   * @returns {Promise<ActionAccepted>}
   */
  resign(gameId, options = {}) {
    return this._write(gameId, "resign", {}, options);
  }

  /**
   * @param {string} gameId
   * @param {TokenOption} [options]
   * @returns {Promise<LegalActionsResponse>}
   */
  legalActions(gameId, options = {}) {
    return this.http.json("GET", `/games/${seg(gameId)}/legal-actions`, {
      token: this._token(gameId, options),
    });
  }

  /**
   * @param {string} gameId
   * @param {TokenOption} [options]
   * @returns {Promise<GameRecordResponse>}
   */
  record(gameId, options = {}) {
    return this.http.json("GET", `/games/${seg(gameId)}/record`, {
      token: this._token(gameId, options),
    });
  }

  /**
   * @param {string} gameId
   * @returns {Promise<ReplayResponse>}
   */
  replay(gameId) {
    return this.http.json("GET", `/games/${seg(gameId)}/replay`);
  }

  /**
   * @param {string} gameId
   * @param {TokenOption} [options]
   * @returns {Promise<HintResponse>}
   */
  hint(gameId, options = {}) {
    return this.http.json("POST", `/games/${seg(gameId)}/hint`, {
      body: {},
      token: this._token(gameId, options),
    });
  }

  /**
   * "Was it winnable?" once the game can be replayed. The first request has the solver
   * work the verdicts out (seconds), so it waits up to a minute unless told otherwise.
   * @param {string} gameId
   * @param {{ timeout?: number }} [options]
   * @returns {Promise<AnalysisResponse>}
   */
  analysis(gameId, options = {}) {
    return this.http.json("GET", `/games/${seg(gameId)}/analysis`, {
      timeout: options.timeout ?? Math.max(60_000, this.http.timeoutMs),
    });
  }

  /**
   * @param {string} gameId
   * @param {string} what
   * @param {Record<string, unknown>} body
   * @param {WriteOptions} options
   * @returns {Promise<ActionAccepted>}
   */
  _write(gameId, what, body, options) {
    const request = { ...body, request_id: options.requestId ?? this.nextId("h") };
    if (options.expectedVersion !== undefined) {
      Object.assign(request, { expected_version: options.expectedVersion });
    }
    return this.http.json("POST", `/games/${seg(gameId)}/${what}`, {
      body: request,
      token: this._token(gameId, options),
    });
  }

  /**
   * @param {string} gameId
   * @param {TokenOption} options
   */
  _token(gameId, options) {
    return options.token === undefined ? this.tokens.game(gameId) : options.token;
  }
}
