/* Generated from schemas/rest/arena-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface ArenaResponse {
  arena: ArenaView;
  /**
   * Your line, when your player token joined it.
   */
  you: ArenaYou | null;
}
/**
 * This interface was referenced by `ArenaResponse`'s JSON-Schema
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
/**
 * Your own line, with your heat under way.
 *
 * This interface was referenced by `ArenaResponse`'s JSON-Schema
 * via the `definition` "ArenaYou".
 */
export interface ArenaYou {
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
  heat: ArenaSeat | null;
}
/**
 * Your heat under way: its race and your seat. Watch the race with `player_token`.
 *
 * This interface was referenced by `ArenaResponse`'s JSON-Schema
 * via the `definition` "ArenaSeat".
 */
export interface ArenaSeat {
  race_id: string;
  /**
   * Your game in the heat's race.
   */
  game_id: string;
  /**
   * Your id in the race.
   */
  player_id: string;
  /**
   * Your race token in every heat of this arena, computed from the player token that joined: null when read with another of your player tokens.
   */
  player_token: string | null;
  opponent: Opponent;
}
/**
 * This interface was referenced by `ArenaResponse`'s JSON-Schema
 * via the `definition` "Opponent".
 */
export interface Opponent {
  name: string;
  /**
   * The opponent's rating in the mode when they asked.
   */
  rating: number;
}
