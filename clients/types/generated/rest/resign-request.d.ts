/* Generated from schemas/rest/resign-request.json by clients/types/generate.mjs. Do not edit: change service/protocol.py, regenerate the schemas, then run this script. */

export interface ResignRequest {
  request_id?: string | null;
}
