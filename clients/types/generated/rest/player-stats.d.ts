/* Generated from schemas/rest/player-stats.json by clients/types/generate.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerStats {
  player_id: string;
  name: string;
  /**
   * Per mode such as `DS.D1N`.
   */
  modes: {
    [k: string]: ModeStats | undefined;
  };
}
/**
 * This interface was referenced by `PlayerStats`'s JSON-Schema
 * via the `definition` "ModeStats".
 */
export interface ModeStats {
  played: number;
  won: number;
  win_rate: number;
  /**
   * Games in which hints were asked for (kept from bests).
   */
  hinted: number;
  current_streak: number;
  best_streak: number;
  /**
   * Fastest win, server-measured.
   */
  best_time_ms: number | null;
  /**
   * Fewest moves for a win.
   */
  fewest_moves: number | null;
  best_score: number | null;
  /**
   * Vegas only: the sum of every game's final dollars.
   */
  bankroll?: number | null;
}
