/* Generated from schemas/rest/join-race-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface JoinRaceRequest {
  /**
   * Shared by the host: 8 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ23456789` (any case; spaces and dashes are ignored).
   */
  join_code: string;
  name: string;
}
