/* Generated from schemas/rest/ready-request.json by clients/types/generate.mjs. Do not edit: change service/protocol.py, regenerate the schemas, then run this script. */

export interface ReadyRequest {
  ready?: boolean;
}
