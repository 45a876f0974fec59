/* Generated from schemas/rest/revoked.json by clients/types/generate.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface Revoked {
  /**
   * How many other tokens of the player stopped working.
   */
  revoked: number;
}
