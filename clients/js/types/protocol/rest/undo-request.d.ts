/* Generated from schemas/rest/undo-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface UndoRequest {
  expected_version?: number | null;
  request_id?: string | null;
}
