/* Generated from schemas/rest/link-code.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface LinkCode {
  /**
   * 8 characters; works once, until `expires_at`.
   */
  link_code: string;
  /**
   * Server time (ms) the code stops working.
   */
  expires_at: number;
}
