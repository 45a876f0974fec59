/* Generated from schemas/rest/analysis-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * Was it winnable? For an ended game only: the line would reveal hidden cards.
 */
export interface AnalysisResponse {
  game_id: string;
  deal: Verdict;
  /**
   * From where the player stopped (null for a won game).
   */
  position: Verdict1 | null;
}
/**
 * From the deal's start.
 */
export interface Verdict {
  /**
   * `unwinnable` is a proof; `unknown`: the budget ran out first.
   */
  result: "won" | "unwinnable" | "unknown";
  /**
   * A winning line, for `won`.
   */
  line: string[] | null;
  /**
   * CPU seconds the solver spent.
   */
  seconds: number;
}
/**
 * This interface was referenced by `AnalysisResponse`'s JSON-Schema
 * via the `definition` "Verdict".
 */
export interface Verdict1 {
  /**
   * `unwinnable` is a proof; `unknown`: the budget ran out first.
   */
  result: "won" | "unwinnable" | "unknown";
  /**
   * A winning line, for `won`.
   */
  line: string[] | null;
  /**
   * CPU seconds the solver spent.
   */
  seconds: number;
}
