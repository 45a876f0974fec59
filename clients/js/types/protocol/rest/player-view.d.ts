/* Generated from schemas/rest/player-view.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerView {
  player_id: string;
  name: string;
  /**
   * Server time (ms since the epoch).
   */
  created_at: number;
}
