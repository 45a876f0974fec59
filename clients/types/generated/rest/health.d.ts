/* Generated from schemas/rest/health.json by clients/types/generate.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface Health {
  status: "ok" | "unavailable";
  store: string;
}
