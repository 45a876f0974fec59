/* Generated from schemas/rest/player-stats.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerStats {
  player_id: string;
  name: string;
  /**
   * Per mode such as `DS.D1N`.
   */
  modes: {
    [k: string]: ModeStats | undefined;
  };
  /**
   * Your own statistics only: your latest unverified games, newest first.
   */
  unverified_games?: UnverifiedGame[] | null;
  /**
   * Your own statistics only: whether you stand on public boards.
   */
  boards?: BoardStanding | null;
  /**
   * Rating per mode in which the player finished a rated race.
   */
  ratings: {
    [k: string]: ModeRating | undefined;
  };
}
/**
 * This interface was referenced by `PlayerStats`'s JSON-Schema
 * via the `definition` "ModeStats".
 */
export interface ModeStats {
  /**
   * Games counted: won, resigned, a daily attempt still open at its day's end, or a game left for another (a game counts from its deal, played or not).
   */
  played: number;
  won: number;
  win_rate: number;
  /**
   * Games in which hints were asked for (kept from bests).
   */
  hinted: number;
  /**
   * Your own statistics only: games played at a pace no person holds (`unverified_games` says which and why); counted here, kept from bests and public boards.
   */
  unverified?: number | null;
  current_streak: number;
  best_streak: number;
  /**
   * Verified wins in a row: the streak the public `streak.<mode>` board counts.
   */
  verified_streak: number;
  best_verified_streak: number;
  /**
   * Fastest verified win without hints, server-measured from the deal.
   */
  best_time_ms: number | null;
  /**
   * Fewest moves for a verified win without hints.
   */
  fewest_moves: number | null;
  best_score: number | null;
  /**
   * Vegas only: the sum of every game's final dollars.
   */
  bankroll?: number | null;
}
/**
 * This interface was referenced by `PlayerStats`'s JSON-Schema
 * via the `definition` "UnverifiedGame".
 */
export interface UnverifiedGame {
  game_id: string;
  /**
   * Game, draw and scoring: `DS.D1N`, `DS.D3V`, `TF.D3N`...
   */
  mode: string;
  /**
   * The rule of the plausibility floor it broke: `burst` (8 actions in a row each under 100 ms after the one before, undos aside), `pace` (a median under 150 ms before card moves over 20 moves); `unknown`: its log could not be read.
   */
  reason: "burst" | "pace" | "unknown";
  /**
   * What was measured, in English.
   */
  detail: string | null;
}
/**
 * This interface was referenced by `PlayerStats`'s JSON-Schema
 * via the `definition` "BoardStanding".
 */
export interface BoardStanding {
  /**
   * Your results can stand on public boards.
   */
  eligible: boolean;
  /**
   * Why not yet (account age, counted games), in English; null when eligible.
   */
  reason: string | null;
}
/**
 * A player's rating in one mode, from rated races (docs/ratings.md).
 *
 * This interface was referenced by `PlayerStats`'s JSON-Schema
 * via the `definition` "ModeRating".
 */
export interface ModeRating {
  /**
   * Starts at 1500; higher is stronger.
   */
  rating: number;
  /**
   * How unsure the rating still is; starts at 500.
   */
  deviation: number;
  /**
   * Rated races played in the mode.
   */
  games: number;
  /**
   * Fewer rated races than the server asks for a firm rating (`RATING_PROVISIONAL_GAMES`): kept off the `rating.<mode>` board.
   */
  provisional: boolean;
}
