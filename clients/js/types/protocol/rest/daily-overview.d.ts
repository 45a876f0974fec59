/* Generated from schemas/rest/daily-overview.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface DailyOverview {
  /**
   * Today, UTC (`YYYY-MM-DD`).
   */
  date: string;
  server_time: number;
  /**
   * Server time (ms) of the next day's challenges.
   */
  next_at: number;
  seconds_to_next: number;
  challenges: DailyChallenge[];
}
/**
 * This interface was referenced by `DailyOverview`'s JSON-Schema
 * via the `definition` "DailyChallenge".
 */
export interface DailyChallenge {
  /**
   * `<date>.<mode>`, e.g. `2026-12-01.TF.D1N`.
   */
  challenge_id: string;
  date: string;
  /**
   * Game, draw and scoring: `DS.D1N`, `DS.D3V`, `TF.D3N`...
   */
  mode: string;
  /**
   * Ranked attempts on the board (from their deal).
   */
  players: number;
  /**
   * With a player token: your ranked attempt's game, if any.
   */
  ranked_game_id?: string | null;
}
