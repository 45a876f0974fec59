/* Generated from schemas/rest/replay-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * An ended game, to be watched again: replay `actions` from the deal of `code`.
 */
export interface ReplayResponse {
  game_id: string;
  code: string;
  /**
   * Server time the game was created (ms).
   */
  created_at: number | null;
  race_id: string | null;
  challenge_id: string | null;
  actions: ReplayAction[];
  result: ReplayResult;
}
/**
 * This interface was referenced by `ReplayResponse`'s JSON-Schema
 * via the `definition` "ReplayAction".
 */
export interface ReplayAction {
  /**
   * Action in notation, e.g. `c3>f1`.
   */
  notation: string;
  /**
   * Server time of the action, in ms after the game was created.
   */
  at_ms: number | null;
}
/**
 * This interface was referenced by `ReplayResponse`'s JSON-Schema
 * via the `definition` "ReplayResult".
 */
export interface ReplayResult {
  won: boolean;
  resigned: boolean;
  moves: number;
  /**
   * Cards on the foundations at the end.
   */
  foundations: number;
  score: number;
  score_display: string;
  /**
   * From the first action to the last.
   */
  duration_ms: number | null;
}
