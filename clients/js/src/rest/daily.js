// @ts-check
// REST calls of the daily challenge and of the all-time leaderboards.

import { seg } from "../http.js";

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/daily-overview.js").DailyOverview} DailyOverview */
/** @typedef {import("../../types/protocol/rest/daily-game-created.js").DailyGameCreated} DailyGameCreated */
/** @typedef {import("../../types/protocol/rest/daily-board.js").DailyBoard} DailyBoard */
/** @typedef {import("../../types/protocol/rest/board.js").Board} Board */

/**
 * Which rows of a board: `top` rows from rank `offset + 1`, and `around` rows either side
 * of your own (docs/protocol.md, "Reading a board").
 * @typedef {{ top?: number, offset?: number, around?: number }} BoardPage
 */

export const ROUTES = [
  "GET /daily",
  "POST /daily/{date}/{mode}/games",
  "GET /daily/{date}/{mode}",
  "GET /leaderboards/{board}",
];

export class DailyApi {
  /**
   * @param {Http} http
   * @param {Tokens} tokens
   */
  constructor(http, tokens) {
    this.http = http;
    this.tokens = tokens;
  }

  /**
   * Today's challenges; with a player token, your ranked attempts.
   * @returns {Promise<DailyOverview>}
   */
  overview() {
    return this.http.json("GET", "/daily", { token: this.tokens.player() });
  }

  /**
   * Your one ranked attempt at a challenge (needs a player token). Its game token is kept
   * for the calls that follow.
   * @param {string} date  `YYYY-MM-DD`, UTC
   * @param {string} mode  `DS.D1N`, `TF.D3N`...
   * @returns {Promise<DailyGameCreated>}
   */
  async play(date, mode) {
    /** @type {DailyGameCreated} */
    const created = await this.http.json("POST", `/daily/${seg(date)}/${seg(mode)}/games`, {
      body: {},
      token: this.tokens.player(),
    });
    this.tokens.setGame(created.game_id, created.player_token);
    return created;
  }

  /**
   * A challenge's board.
   * @param {string} date
   * @param {string} mode
   * @param {BoardPage} [page]
   * @returns {Promise<DailyBoard>}
   */
  board(date, mode, page = {}) {
    return this.http.json("GET", `/daily/${seg(date)}/${seg(mode)}`, {
      query: page,
      token: this.tokens.player(),
    });
  }

  /**
   * An all-time board: `streak.<mode>` or `best-time.<mode>`.
   * @param {string} board
   * @param {BoardPage} [page]
   * @returns {Promise<Board>}
   */
  leaderboard(board, page = {}) {
    return this.http.json("GET", `/leaderboards/${seg(board)}`, {
      query: page,
      token: this.tokens.player(),
    });
  }
}
