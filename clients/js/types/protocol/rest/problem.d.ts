/* Generated from schemas/rest/problem.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * This interface was referenced by `Problem`'s JSON-Schema
 * via the `definition` "ErrorCode".
 */
export type ErrorCode =
  | "bad_json"
  | "bad_message"
  | "unsupported_protocol"
  | "hello_required"
  | "frame_too_large"
  | "rate_limited"
  | "too_many_subscriptions"
  | "not_found"
  | "unauthorized"
  | "not_player"
  | "not_subscribed"
  | "bad_code"
  | "invalid_action"
  | "rule_violation"
  | "stale_version"
  | "game_too_long"
  | "store_unavailable"
  | "race_running"
  | "race_full"
  | "race_started"
  | "race_not_started"
  | "race_over"
  | "race_not_finished"
  | "not_host"
  | "request_id_reused"
  | "game_not_over"
  | "bad_name"
  | "daily_closed"
  | "daily_running"
  | "daily_attempt_used"
  | "already_in_race"
  | "already_seeking"
  | "not_your_seek"
  | "arena_over"
  | "arena_started"
  | "not_in_arena"
  | "not_your_arena"
  | "winnable_pool_empty"
  | "winnable_not_offered"
  | "hints_not_allowed"
  | "busy"
  | "method_not_allowed"
  | "internal_error";

/**
 * RFC 9457 problem details, the body of every HTTP error.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  rule_id?: string | null;
  message_en?: string | null;
  message_fi?: string | null;
  current_version?: number | null;
  /**
   * For `invalid_action`: `unknown_pile`, `bad_index`, `empty_pile`...
   */
  reason?: string | null;
  /**
   * For `rate_limited`: seconds to wait (also the `Retry-After` header).
   */
  retry_after?: number | null;
  /**
   * For `already_seeking`: your seek already waiting (in any mode).
   */
  seek_id?: string | null;
}
