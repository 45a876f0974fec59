/* Generated from schemas/rest/create-race-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface CreateRaceRequest {
  /**
   * Your display name.
   */
  name: string;
  game?: "DS" | "TF";
  draw?: 1 | 3;
  scoring?: "normal" | "vegas";
  max_players?: number;
  time_limit_seconds?: number | null;
  /**
   * Deal one the solver has won (a secret deal).
   */
  winnable?: boolean;
  /**
   * Finishing updates the ratings of every player who joined with a player token (docs/ratings.md). Needs the host's player token.
   */
  rated?: boolean;
}
