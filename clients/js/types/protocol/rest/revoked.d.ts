/* Generated from schemas/rest/revoked.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface Revoked {
  /**
   * How many other tokens of the player stopped working.
   */
  revoked: number;
}
