/* Generated from schemas/rest/create-arena-request.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface CreateArenaRequest {
  /**
   * The mode every heat is played in, such as `DS.D1N`.
   */
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
  /**
   * The arena's name.
   */
  name: string;
  /**
   * How long the arena runs.
   */
  minutes: number;
  /**
   * Minutes from now it starts (up to 7 days); 0: now.
   */
  starts_in?: number;
}
