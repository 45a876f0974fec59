/* Generated from schemas/rest/daily-play-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * The body of `POST /daily/{date}/{mode}/games` (it may be empty).
 */
export interface DailyPlayRequest {
  /**
   * `true` or left out, alike: until its day is over a challenge is played only as each player's one ranked attempt. With no player token (401 `unauthorized`) or once the player's ranked attempt exists (409 `daily_attempt_used`) nothing is created; the same request sent again by the device that made the attempt, before its first action, answers that attempt again.
   */
  ranked?: true | null;
}
