/* Generated from schemas/rest/arena-standings.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface ArenaStandings {
  arena_id: string;
  page: number;
  /**
   * Players in the standings.
   */
  total: number;
  final: boolean;
  /**
   * Up to 20 lines, best first.
   */
  rows: ArenaRow[];
}
/**
 * A line of the standings.
 *
 * This interface was referenced by `ArenaStandings`'s JSON-Schema
 * via the `definition` "ArenaRow".
 */
export interface ArenaRow {
  rank: number;
  player_id: string;
  name: string;
  /**
   * The player's rating in the mode when they joined.
   */
  rating: number;
  points: number;
  heats: number;
  wins: number;
  draws: number;
  losses: number;
  /**
   * Wins in a row.
   */
  streak: number;
  /**
   * On fire (two wins in a row): wins count 4, draws 2.
   */
  fire: boolean;
  /**
   * Mean of opponent rating ±400 (win/loss) per heat.
   */
  performance: number;
  /**
   * In a heat now.
   */
  playing: boolean;
  /**
   * Joined and not left: paired as soon as free.
   */
  present: boolean;
}
