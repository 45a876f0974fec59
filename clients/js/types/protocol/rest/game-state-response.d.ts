/* Generated from schemas/rest/game-state-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface GameStateResponse {
  game_id: string;
  version: number;
  state: PublicState;
  /**
   * Server time (ms) the game was dealt; null for a game made before it was kept.
   */
  clock_started_at: number | null;
  /**
   * Server time (ms) of this answer.
   */
  server_time: number;
}
/**
 * Everything a player may see. Face-down cards and the stock appear only as counts.
 *
 * This interface was referenced by `GameStateResponse`'s JSON-Schema
 * via the `definition` "PublicState".
 */
export interface PublicState {
  game: "DS" | "TF";
  draw: 1 | 3;
  scoring: "normal" | "vegas";
  columns: ColumnView[];
  /**
   * Cards left in the stock.
   */
  stock: number;
  /**
   * Waste pile, bottom to top; the last is playable.
   *
   * Items: Rank then suit, e.g. `TH`.
   */
  waste: string[];
  /**
   * Top card of each foundation place (DS: 8 places, two per suit in the order S S H H D D C C; TF: 4 places S H D C), or null when empty.
   */
  foundations: (string | null)[];
  score: number;
  /**
   * `1220`, or Vegas dollars: `$416`, `$0`, `-$104`.
   */
  score_display: string;
  moves: number;
  /**
   * How many actions can be undone now.
   */
  undo_available: number;
  won: boolean;
  /**
   * The player resigned: the game is over and final, like a won game.
   */
  resigned: boolean;
}
/**
 * This interface was referenced by `GameStateResponse`'s JSON-Schema
 * via the `definition` "ColumnView".
 */
export interface ColumnView {
  /**
   * Number of face-down cards (their faces are secret).
   */
  down: number;
  /**
   * Face-up cards, bottom to top.
   *
   * Items: Rank then suit, e.g. `TH`.
   */
  up: string[];
}
