/* Generated from schemas/rest/player-created.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface PlayerCreated {
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
  /**
   * The player token: a secret, shown once, sent as `Authorization: Bearer <token>`. It names the player and plays no game.
   */
  player_token: string;
}
/**
 * A player's rating in one mode, from rated races (docs/ratings.md).
 *
 * This interface was referenced by `PlayerCreated`'s JSON-Schema
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
