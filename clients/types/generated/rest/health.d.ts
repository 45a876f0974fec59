/* Generated from schemas/rest/health.json by clients/types/generate.mjs. Do not edit: change service/protocol.py, regenerate the schemas, then run this script. */

export interface Health {
  status: "ok" | "unavailable";
  store: string;
}
