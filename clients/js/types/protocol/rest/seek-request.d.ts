/* Generated from schemas/rest/seek-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface SeekRequest {
  /**
   * The mode to race in, such as `DS.D1N`.
   */
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
}
