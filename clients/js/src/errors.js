// @ts-check
// One error type for every failure the SDK reports: a refusal of the service (over HTTP or
// the WebSocket, a rule included) or a failure of the SDK's own (a timeout, a lost socket).

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
export const LOCAL_CODES = Object.freeze([
  "timeout",
  "connection_lost",
  "disconnected",
  "closed",
  "cancelled",
  "network",
  "bad_answer",
]);

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
  constructor(code, message, details = {}) {
    super(message);
    this.name = "SolitaireError";
    /** @type {string} */
    this.code = code;
    /** @type {string | null} */
    this.rule = details.rule ?? null;
    /** @type {string} */
    this.messageEn = message;
    /** @type {string | null} */
    this.messageFi = details.messageFi ?? null;
    /** @type {number | null} */
    this.status = details.status ?? null;
    /** @type {number | null} */
    this.retryAfter = details.retryAfter ?? null;
    /** @type {number | null} */
    this.currentVersion = details.currentVersion ?? null;
    /** @type {string | null} */
    this.reason = details.reason ?? null;
    /** @type {string | null} */
    this.requestId = details.requestId ?? null;
    /** @type {string | null} */
    this.gameId = details.gameId ?? null;
    /** @type {string | null} */
    this.raceId = details.raceId ?? null;
    /** @type {unknown} */
    this.body = details.body ?? null;
  }

  /** True for the SDK's own failures (`LOCAL_CODES`), false for the service's refusals. */
  get local() {
    return LOCAL_CODES.includes(this.code);
  }

  /**
   * The text in `lang` (`"en"` or `"fi"`), in English where no Finnish text came.
   * @param {"en" | "fi"} lang
   */
  text(lang) {
    return lang === "fi" && this.messageFi ? this.messageFi : this.messageEn;
  }
}

/**
 * The error of an HTTP refusal, from its RFC 9457 problem document when there is one.
 * @param {number} status
 * @param {unknown} body  the parsed body, or null
 * @param {string | null} retryAfterHeader
 */
export function fromProblem(status, body, retryAfterHeader) {
  const problem = isProblem(body) ? body : null;
  const retryHeader = retryAfterHeader === null ? NaN : Number(retryAfterHeader);
  const retryAfter = problem?.retry_after ?? (Number.isFinite(retryHeader) ? retryHeader : null);
  if (!problem) {
    return new SolitaireError(status >= 500 ? "internal_error" : "bad_answer", `HTTP ${status}`, {
      status,
      retryAfter,
      body,
    });
  }
  return new SolitaireError(problem.code, problem.message_en ?? problem.detail, {
    rule: problem.rule_id ?? null,
    messageFi: problem.message_fi ?? null,
    status,
    retryAfter,
    currentVersion: problem.current_version ?? null,
    reason: problem.reason ?? null,
    body,
  });
}

/**
 * The error of a WebSocket `error` frame.
 * @param {ErrorMessage} frame
 */
export function fromErrorFrame(frame) {
  return new SolitaireError(frame.code, frame.message_en ?? frame.message, {
    messageFi: frame.message_fi ?? null,
    retryAfter: frame.retry_after ?? null,
    currentVersion: frame.current_version ?? null,
    reason: frame.reason ?? null,
    requestId: frame.id ?? null,
    gameId: frame.game_id ?? null,
    raceId: frame.race_id ?? null,
    body: frame,
  });
}

/**
 * The error of a `result` frame whose action a rule refused.
 * @param {{ id: string, game_id?: string | null, version?: number | null }} result
 * @param {Rejection} rejection
 */
export function fromRejection(result, rejection) {
  return new SolitaireError("rule_violation", rejection.message_en, {
    rule: rejection.rule_id,
    messageFi: rejection.message_fi,
    currentVersion: result.version ?? null,
    requestId: result.id,
    gameId: result.game_id ?? null,
    body: result,
  });
}

/**
 * @param {unknown} body
 * @returns {body is Problem}
 */
function isProblem(body) {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (/** @type {Record<string, unknown>} */ (body).code) === "string" &&
    typeof (/** @type {Record<string, unknown>} */ (body).detail) === "string"
  );
}
