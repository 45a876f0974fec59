/* Generated from schemas/rest/daily-play-request.json by clients/types/generate.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * The body of `POST /daily/{date}/{mode}/games` (it may be empty).
 */
export interface DailyPlayRequest {
  /**
   * `true`: this must be the ranked attempt. With no player token (401 `unauthorized`) or once the player's ranked attempt exists (409 `daily_attempt_used`) nothing is created. Left out: the player's first game is the ranked attempt, later ones are unranked practice. A player's first game is always the ranked one, so there is no `false`.
   */
  ranked?: true | null;
}
