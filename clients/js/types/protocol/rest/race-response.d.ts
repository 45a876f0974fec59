/* Generated from schemas/rest/race-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface RaceResponse {
  race: RaceView;
  you?: You | null;
}
/**
 * The public race. During the race it carries progress only, never boards or code.
 *
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "RaceView".
 */
export interface RaceView {
  race_id: string;
  join_code: string;
  game: "DS" | "TF";
  draw: 1 | 3;
  scoring: "normal" | "vegas";
  max_players: number;
  time_limit_seconds: number | null;
  status: "lobby" | "countdown" | "running" | "finished";
  /**
   * Player id of the host.
   */
  host: string;
  /**
   * Server clock (ms since the epoch) when sent.
   */
  server_time: number;
  /**
   * Server time the games start (ms).
   */
  start_at: number | null;
  /**
   * Server time of the time limit (ms).
   */
  ends_at: number | null;
  finished_at: number | null;
  players: RacePlayer[];
  result: RaceResult | null;
  rematch_race_id: string | null;
  /**
   * Finishing updates the players' ratings.
   */
  rated: boolean;
}
/**
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "RacePlayer".
 */
export interface RacePlayer {
  player_id: string;
  name: string;
  ready: boolean;
  state: "waiting" | "playing" | "won" | "resigned" | "disconnected";
  /**
   * Holds a race subscription over WebSocket.
   */
  connected: boolean;
  /**
   * Server-measured time from start to win.
   */
  finish_ms: number | null;
  /**
   * Cards on the foundations.
   */
  foundations: number;
  /**
   * Before the start, the opening score: 0 (Normal) or -104 (Vegas).
   */
  score: number;
  /**
   * `score` as the game shows it; before the start `0` (Normal) or `-$104` (Vegas), never empty.
   */
  score_display: string;
  moves: number;
}
/**
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "RaceResult".
 */
export interface RaceResult {
  /**
   * The deal's game code, published once the race is over.
   */
  code: string;
  ranking: RankingEntry[];
  /**
   * Player id -> game record (code and actions).
   */
  records: {
    [k: string]: string | undefined;
  };
  /**
   * A rated race's rating changes, one per player who brought a player token; null when fewer than two did.
   */
  ratings?: RatingChange[] | null;
}
/**
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "RankingEntry".
 */
export interface RankingEntry {
  rank: number;
  player_id: string;
  name: string;
  state: "waiting" | "playing" | "won" | "resigned";
  connected: boolean;
  finish_ms: number | null;
  foundations: number;
  score: number;
  score_display: string;
  moves: number;
}
/**
 * What a rated race did to one player's rating in its mode (docs/ratings.md).
 *
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "RatingChange".
 */
export interface RatingChange {
  /**
   * The player's id in the race.
   */
  player_id: string;
  /**
   * Place for the rating: equal for players the race order ties.
   */
  rank: number;
  /**
   * False: the game was played faster than a person plays, and counted as the last place.
   */
  verified: boolean;
  /**
   * The rating after the race.
   */
  rating: number;
  /**
   * What the race added to the rating (negative: lost).
   */
  change: number;
  /**
   * The rating's deviation after the race.
   */
  deviation: number;
  deviation_before: number;
}
/**
 * Private to one player: who you are and which game is yours.
 *
 * This interface was referenced by `RaceResponse`'s JSON-Schema
 * via the `definition` "You".
 */
export interface You {
  player_id: string;
  game_id: string;
}
