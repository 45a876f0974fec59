/* Generated from schemas/rest/link-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface LinkRequest {
  link_code: string;
}
