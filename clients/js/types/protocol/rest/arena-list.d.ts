/* Generated from schemas/rest/arena-list.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface ArenaList {
  server_time: number;
  /**
   * Soonest first.
   */
  upcoming: ArenaView[];
  running: ArenaView[];
  /**
   * Those of the last two days, latest first.
   */
  finished: ArenaView[];
}
/**
 * This interface was referenced by `ArenaList`'s JSON-Schema
 * via the `definition` "ArenaView".
 */
export interface ArenaView {
  arena_id: string;
  name: string;
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
  /**
   * Server time (ms) the arena starts.
   */
  start_at: number;
  /**
   * Server time (ms) it stops pairing.
   */
  ends_at: number;
  minutes: number;
  status: "upcoming" | "running" | "finished" | "cancelled";
  /**
   * True once it ended and every heat is counted.
   */
  final: boolean;
  /**
   * Made by the service's schedule, not by a player.
   */
  scheduled: boolean;
  /**
   * The player id of the player who made it (who alone may cancel it); null for a scheduled arena.
   */
  created_by: string | null;
  /**
   * Players who joined (0 in the list of arenas).
   */
  players: number;
  server_time: number;
}
