/* Generated from schemas/rest/player-created.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerCreated {
  player_id: string;
  name: string;
  /**
   * Server time (ms since the epoch).
   */
  created_at: number;
  /**
   * The player token: a secret, shown once, sent as `Authorization: Bearer <token>`. It names the player and plays no game.
   */
  player_token: string;
}
