/* Generated from schemas/rest/arena-heats.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface ArenaHeats {
  arena_id: string;
  /**
   * Earliest first.
   */
  heats: ArenaHeat[];
}
/**
 * This interface was referenced by `ArenaHeats`'s JSON-Schema
 * via the `definition` "ArenaHeat".
 */
export interface ArenaHeat {
  /**
   * Read and replay it with the race's routes.
   */
  race_id: string;
  /**
   * Server time (ms) the wave that made it began pairing.
   */
  started_at: number;
  /**
   * Server time (ms) it was counted.
   */
  ended_at: number | null;
  /**
   * Player id -> outcome, once counted.
   */
  outcomes: {
    [k: string]: "win" | "draw" | "loss" | "none" | undefined;
  } | null;
  players: HeatPlayer[];
}
/**
 * This interface was referenced by `ArenaHeats`'s JSON-Schema
 * via the `definition` "HeatPlayer".
 */
export interface HeatPlayer {
  player_id: string;
  name: string;
  /**
   * Their rating in the mode when they joined.
   */
  rating: number;
  /**
   * Once counted: `none` when the race expired unplayed.
   */
  outcome?: ("win" | "draw" | "loss" | "none") | null;
  /**
   * Points the heat earned, once counted.
   */
  points?: number | null;
}
