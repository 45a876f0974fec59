/* Generated from schemas/rest/create-game-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * Give `game`, `draw` and `scoring` for a random deal, or a `code` to replay a deal.
 */
export interface CreateGameRequest {
  game?: "DS" | "TF";
  draw?: 1 | 3;
  scoring?: "normal" | "vegas";
  code?: string | null;
  /**
   * Deal from a secret 128-bit seed whose code is shown only once the game is over (won or resigned). Not with `code`.
   */
  secret?: boolean;
  /**
   * Deal one the solver has won (a secret deal, so also `secret`). Not with `code`.
   */
  winnable?: boolean;
}
