/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/**
 * The error of an HTTP refusal, from its RFC 9457 problem document when there is one.
 * @param {number} status
 * @param {unknown} body  the parsed body, or null
 * @param {string | null} retryAfterHeader
 */
export function fromProblem(status: number, body: unknown, retryAfterHeader: string | null): SolitaireError;
/**
 * The error of a WebSocket `error` frame.
 * @param {ErrorMessage} frame
 */
export function fromErrorFrame(frame: ErrorMessage): SolitaireError;
/**
 * The error of a `result` frame whose action a rule refused.
 * @param {{ id: string, game_id?: string | null, version?: number | null }} result
 * @param {Rejection} rejection
 */
export function fromRejection(result: {
    id: string;
    game_id?: string | null;
    version?: number | null;
}, rejection: Rejection): SolitaireError;
/** @typedef {import("../types/protocol/rest/problem.js").Problem} Problem */
/** @typedef {import("../types/protocol/server-message.js").ErrorMessage} ErrorMessage */
/** @typedef {import("../types/protocol/server-message.js").Rejection} Rejection */
/**
 * Codes of failures found by the SDK itself, never sent by the service:
 * - `timeout`: no answer within the request's time;
 * - `connection_lost`: the socket dropped before the answer, and the request is not one
 *   the SDK sends again (only actions, undos and resignations are, with their ids);
 * - `disconnected`: the SDK gave up reconnecting (see the `reconnect` option);
 * - `closed`: the client was closed;
 * - `cancelled`: a seek over the WebSocket was cancelled (`cancel()` or its AbortSignal);
 * - `network`: an HTTP request got no answer (the service is unreachable);
 * - `bad_answer`: an HTTP answer that is not the JSON the protocol promises.
 */
export const LOCAL_CODES: readonly string[];
/**
 * @typedef {object} ErrorDetails
 * @property {string | null} [rule]  the rule id of a `rule_violation` (`DS-TAB-1`...)
 * @property {string | null} [messageFi]  the Finnish text, when the service gave one
 * @property {number | null} [status]  the HTTP status of a REST refusal
 * @property {number | null} [retryAfter]  seconds to wait (`rate_limited`, `winnable_pool_empty`, `busy`)
 * @property {number | null} [currentVersion]  the game's version (`stale_version`, rejections)
 * @property {string | null} [reason]  the `reason` of `invalid_action` (`bad_index`...)
 * @property {string | null} [requestId]  the id of the request that was refused
 * @property {string | null} [gameId]
 * @property {string | null} [raceId]
 * @property {unknown} [body]  the problem document or the error frame as received
 */
/**
 * A refusal or a failure. `code` is one of the service's error codes (docs/protocol.md,
 * "Errors") or one of `LOCAL_CODES`; `rule` names the rule of a `rule_violation`;
 * `messageEn` and `messageFi` are the texts to show (Finnish only where the service sends
 * it: every rule violation has it). `message` is the English text.
 */
export class SolitaireError extends Error {
    /**
     * @param {string} code
     * @param {string} message  the English text
     * @param {ErrorDetails} [details]
     */
    constructor(code: string, message: string, details?: ErrorDetails);
    /** @type {string} */
    code: string;
    /** @type {string | null} */
    rule: string | null;
    /** @type {string} */
    messageEn: string;
    /** @type {string | null} */
    messageFi: string | null;
    /** @type {number | null} */
    status: number | null;
    /** @type {number | null} */
    retryAfter: number | null;
    /** @type {number | null} */
    currentVersion: number | null;
    /** @type {string | null} */
    reason: string | null;
    /** @type {string | null} */
    requestId: string | null;
    /** @type {string | null} */
    gameId: string | null;
    /** @type {string | null} */
    raceId: string | null;
    /** @type {unknown} */
    body: unknown;
    /** True for the SDK's own failures (`LOCAL_CODES`), false for the service's refusals. */
    get local(): boolean;
    /**
     * The text in `lang` (`"en"` or `"fi"`), in English where no Finnish text came.
     * @param {"en" | "fi"} lang
     */
    text(lang: "en" | "fi"): string;
}
export type Problem = import("../types/protocol/rest/problem.js").Problem;
export type ErrorMessage = import("../types/protocol/server-message.js").ErrorMessage;
export type Rejection = import("../types/protocol/server-message.js").Rejection;
export type ErrorDetails = {
    /**
     * the rule id of a `rule_violation` (`DS-TAB-1`...)
     */
    rule?: string | null | undefined;
    /**
     * the Finnish text, when the service gave one
     */
    messageFi?: string | null | undefined;
    /**
     * the HTTP status of a REST refusal
     */
    status?: number | null | undefined;
    /**
     * seconds to wait (`rate_limited`, `winnable_pool_empty`, `busy`)
     */
    retryAfter?: number | null | undefined;
    /**
     * the game's version (`stale_version`, rejections)
     */
    currentVersion?: number | null | undefined;
    /**
     * the `reason` of `invalid_action` (`bad_index`...)
     */
    reason?: string | null | undefined;
    /**
     * the id of the request that was refused
     */
    requestId?: string | null | undefined;
    gameId?: string | null | undefined;
    raceId?: string | null | undefined;
    /**
     * the problem document or the error frame as received
     */
    body?: unknown;
};
