/* Generated from schemas/rest/revoked.json by clients/types/generate.mjs. Do not edit: change service/protocol.py, regenerate the schemas, then run this script. */

export interface Revoked {
  /**
   * How many other tokens of the player stopped working.
   */
  revoked: number;
}
