/* Generated from schemas/rest/health.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface Health {
  status: "ok" | "unavailable";
  store: string;
}
