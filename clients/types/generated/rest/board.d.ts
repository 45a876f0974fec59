/* Generated from schemas/rest/board.json by clients/types/generate.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface Board {
  board: string;
  /**
   * Players on the board.
   */
  size: number;
  /**
   * The `offset` asked for: `top` starts at rank `offset + 1` (0: the first).
   */
  offset: number;
  /**
   * The `offset` of the next page (`offset` plus the rows in `top`); null when `top` holds the board's last row or no row.
   */
  next_offset: number | null;
  top: BoardRow[];
  /**
   * With a player token: your own row.
   */
  you: BoardRow | null;
  /**
   * Your row and its neighbours.
   */
  around: BoardRow[];
}
/**
 * This interface was referenced by `Board`'s JSON-Schema
 * via the `definition` "BoardRow".
 */
export interface BoardRow {
  /**
   * 1 is first.
   */
  rank: number;
  player_id: string;
  name: string;
  /**
   * The board's sort key, lowest first.
   */
  score: number;
  /**
   * All-time boards: the best time (ms) or the longest streak.
   */
  value?: number | null;
  won?: boolean | null;
  time_ms?: number | null;
  moves?: number | null;
  foundations?: number | null;
  /**
   * Daily boards, once the day is over: the game, for its replay.
   */
  game_id?: string | null;
  /**
   * Daily boards: true while the attempt has not ended (it ranks as it stood at its first action). An attempt still open at the end of the day is then counted as it stood, not won.
   */
  open?: boolean | null;
}
