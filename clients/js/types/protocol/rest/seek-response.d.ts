/* Generated from schemas/rest/seek-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface SeekResponse {
  seek: SeekView;
}
/**
 * A seek as its player reads it.
 *
 * This interface was referenced by `SeekResponse`'s JSON-Schema
 * via the `definition` "SeekView".
 */
export interface SeekView {
  seek_id: string;
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
  status: "waiting" | "paired" | "cancelled";
  /**
   * Your rating in the mode when you asked.
   */
  rating: number;
  /**
   * Server time (ms) you asked.
   */
  since: number;
  /**
   * Once `paired`: the race and your seat.
   */
  race: PairedRace | null;
}
/**
 * The race a seek was paired into, and your seat in it.
 *
 * This interface was referenced by `SeekResponse`'s JSON-Schema
 * via the `definition` "PairedRace".
 */
export interface PairedRace {
  race_id: string;
  /**
   * Your game in the race.
   */
  game_id: string;
  /**
   * Your id in the race.
   */
  player_id: string;
  /**
   * Your race token (also your game's token). Computed from the player token that asked, so null when the seek is read with another of your player tokens.
   */
  player_token: string | null;
  opponent: Opponent;
}
/**
 * This interface was referenced by `SeekResponse`'s JSON-Schema
 * via the `definition` "Opponent".
 */
export interface Opponent {
  name: string;
  /**
   * The opponent's rating in the mode when they asked.
   */
  rating: number;
}
