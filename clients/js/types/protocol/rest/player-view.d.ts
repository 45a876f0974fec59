/* Generated from schemas/rest/player-view.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerView {
  player_id: string;
  name: string;
  /**
   * Server time (ms since the epoch).
   */
  created_at: number;
  /**
   * `GET /players/me` only: your rating per mode such as `DS.D1N`.
   */
  ratings?: {
    [k: string]: ModeRating | undefined;
  } | null;
}
/**
 * A player's rating in one mode, from rated races (docs/ratings.md).
 *
 * This interface was referenced by `PlayerView`'s JSON-Schema
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
