/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
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
export const ROUTES: string[];
export class DailyApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     */
    constructor(http: Http, tokens: Tokens);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    /**
     * Today's challenges; with a player token, your ranked attempts.
     * @returns {Promise<DailyOverview>}
     */
    overview(): Promise<DailyOverview>;
    /**
     * Your one ranked attempt at a challenge (needs a player token). Its game token is kept
     * for the calls that follow.
     * @param {string} date  `YYYY-MM-DD`, UTC
     * @param {string} mode  `DS.D1N`, `TF.D3N`...
     * @returns {Promise<DailyGameCreated>}
     */
    play(date: string, mode: string): Promise<DailyGameCreated>;
    /**
     * A challenge's board.
     * @param {string} date
     * @param {string} mode
     * @param {BoardPage} [page]
     * @returns {Promise<DailyBoard>}
     */
    board(date: string, mode: string, page?: BoardPage): Promise<DailyBoard>;
    /**
     * An all-time board: `streak.<mode>` or `best-time.<mode>`.
     * @param {string} board
     * @param {BoardPage} [page]
     * @returns {Promise<Board>}
     */
    leaderboard(board: string, page?: BoardPage): Promise<Board>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type DailyOverview = import("../../types/protocol/rest/daily-overview.js").DailyOverview;
export type DailyGameCreated = import("../../types/protocol/rest/daily-game-created.js").DailyGameCreated;
export type DailyBoard = import("../../types/protocol/rest/daily-board.js").DailyBoard;
export type Board = import("../../types/protocol/rest/board.js").Board;
/**
 * Which rows of a board: `top` rows from rank `offset + 1`, and `around` rows either side
 * of your own (docs/protocol.md, "Reading a board").
 */
export type BoardPage = {
    top?: number;
    offset?: number;
    around?: number;
};
