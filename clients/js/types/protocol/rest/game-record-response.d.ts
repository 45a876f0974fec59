/* Generated from schemas/rest/game-record-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface GameRecordResponse {
  game_id: string;
  code: string;
  /**
   * Items: Action in notation, e.g. `c3>f1`.
   */
  actions: string[];
  /**
   * The code followed by every action, space separated.
   */
  record: string;
  version: number;
  won: boolean;
  resigned: boolean;
}
