/* Generated from schemas/rest/rename-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface RenameRequest {
  /**
   * 1 to 24 characters once trimmed; no control or invisible characters, no space other than the plain one, never two in a row.
   */
  name: string;
}
