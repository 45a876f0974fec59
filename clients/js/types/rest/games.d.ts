/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
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
export const ROUTES: string[];
export class GamesApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     * @param {(kind: string) => string} nextId
     */
    constructor(http: Http, tokens: Tokens, nextId: (kind: string) => string);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    nextId: (kind: string) => string;
    /**
     * A new game: a random deal (`game`, `draw`, `scoring`), a winnable or secret one, or the
     * deal of a `code`. Sent with the player token when the client has one, so that the game
     * counts for the player. The game token is kept for the calls that follow.
     * @param {CreateGameRequest} [request]
     * @returns {Promise<CreatedGame>}
     */
    create(request?: CreateGameRequest): Promise<CreatedGame>;
    /**
     * The public state now. With `etag` (an earlier answer's `ETag`, such as `"5"`), resolves
     * with null while nothing changed.
     * @param {string} gameId
     * @param {TokenOption & { etag?: string }} [options]
     * @returns {Promise<GameStateResponse | null>}
     */
    get(gameId: string, options?: TokenOption & {
        etag?: string;
    }): Promise<GameStateResponse | null>;
    /**
     * One page of the changes after version `since`.
     * @param {string} gameId
     * @param {number} since
     * @param {TokenOption} [options]
     * @returns {Promise<ChangesResponse>}
     */
    changes(gameId: string, since: number, options?: TokenOption): Promise<ChangesResponse>;
    /**
     * Every page of the changes after `since`, in order (following `next_since`).
     * @param {string} gameId
     * @param {number} since
     * @param {TokenOption} [options]
     * @returns {AsyncGenerator<ChangesResponse>}
     */
    allChanges(gameId: string, since: number, options?: TokenOption): AsyncGenerator<ChangesResponse>;
    /**
     * Plays one action over HTTP (the WebSocket's `Game.act` is the usual way).
     * @param {string} gameId
     * @param {Action | string} action
     * @param {WriteOptions} [options]
     * @returns {Promise<ActionAccepted>}
     */
    act(gameId: string, action: Action | string, options?: WriteOptions): Promise<ActionAccepted>;
    /**
     * @param {string} gameId
     * @param {WriteOptions} [options]
     * @returns {Promise<ActionAccepted>}
     */
    undo(gameId: string, options?: WriteOptions): Promise<ActionAccepted>;
    /**
     * @param {string} gameId
     * @param {Omit<WriteOptions, "expectedVersion">} [options]
     * @returns {Promise<ActionAccepted>}
     */
    resign(gameId: string, options?: Omit<WriteOptions, "expectedVersion">): Promise<ActionAccepted>;
    /**
     * @param {string} gameId
     * @param {TokenOption} [options]
     * @returns {Promise<LegalActionsResponse>}
     */
    legalActions(gameId: string, options?: TokenOption): Promise<LegalActionsResponse>;
    /**
     * @param {string} gameId
     * @param {TokenOption} [options]
     * @returns {Promise<GameRecordResponse>}
     */
    record(gameId: string, options?: TokenOption): Promise<GameRecordResponse>;
    /**
     * @param {string} gameId
     * @returns {Promise<ReplayResponse>}
     */
    replay(gameId: string): Promise<ReplayResponse>;
    /**
     * @param {string} gameId
     * @param {TokenOption} [options]
     * @returns {Promise<HintResponse>}
     */
    hint(gameId: string, options?: TokenOption): Promise<HintResponse>;
    /**
     * "Was it winnable?" once the game can be replayed. The first request has the solver
     * work the verdicts out (seconds), so it waits up to a minute unless told otherwise.
     * @param {string} gameId
     * @param {{ timeout?: number }} [options]
     * @returns {Promise<AnalysisResponse>}
     */
    analysis(gameId: string, options?: {
        timeout?: number;
    }): Promise<AnalysisResponse>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type Action = import("../../types/protocol/action.js").Action;
export type CreateGameRequest = import("../../types/protocol/rest/create-game-request.js").CreateGameRequest;
export type CreatedGame = import("../../types/protocol/rest/created-game.js").CreatedGame;
export type GameStateResponse = import("../../types/protocol/rest/game-state-response.js").GameStateResponse;
export type ChangesResponse = import("../../types/protocol/rest/changes-response.js").ChangesResponse;
export type ActionAccepted = import("../../types/protocol/rest/action-accepted.js").ActionAccepted;
export type LegalActionsResponse = import("../../types/protocol/rest/legal-actions-response.js").LegalActionsResponse;
export type GameRecordResponse = import("../../types/protocol/rest/game-record-response.js").GameRecordResponse;
export type ReplayResponse = import("../../types/protocol/rest/replay-response.js").ReplayResponse;
export type HintResponse = import("../../types/protocol/rest/hint-response.js").HintResponse;
export type AnalysisResponse = import("../../types/protocol/rest/analysis-response.js").AnalysisResponse;
export type TokenOption = {
    /**
     * the game (or race) token; default the one the client
     * was given for this game
     */
    token?: string | null | undefined;
};
export type WriteOptions = {
    token?: string | null | undefined;
    /**
     * play only if the game is still at this version
     */
    expectedVersion?: number | undefined;
    /**
     * the idempotency key (default: a fresh one); send a
     * request again with the same one to have it applied at most once
     */
    requestId?: string | undefined;
};
