/* Generated from schemas/rest/board.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

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
  /**
   * `top` rows (asked for) from rank `offset + 1`, lowest `score` first.
   */
  top: BoardRow[];
  /**
   * With a player token: your own row, the same as in `top` or `around`; null when you are not on the board.
   */
  you: BoardRow | null;
  /**
   * Your row and `around` (asked for) rows either side of it.
   */
  around: BoardRow[];
}
/**
 * This interface was referenced by `Board`'s JSON-Schema
 * via the `definition` "BoardRow".
 */
export interface BoardRow {
  /**
   * 1 is first; no two rows share a rank. Equal `score`s rank in the order they were reached: the first to reach one ranks first.
   */
  rank: number;
  player_id: string;
  name: string;
  /**
   * The board's sort key, lowest first. `best-time.<mode>`: the time in ms. `streak.<mode>`: minus the streak. `rating.<mode>`: minus the rating. Daily boards: won, `time_ms` x 100000 + `moves`; not won, 10^14 + cards not on the foundations x 100000 + `moves`. Points (Normal or Vegas) rank on no board.
   */
  score: number;
  /**
   * All-time boards, what they rank: `best-time.<mode>` the best time in ms (lower is better), `streak.<mode>` the longest streak of games won in a row (higher is better), `rating.<mode>` the rating, rounded (higher is better).
   */
  value?: number | null;
  won?: boolean | null;
  /**
   * Daily boards: a won attempt's time in ms, from its deal to the win.
   */
  time_ms?: number | null;
  moves?: number | null;
  /**
   * Daily boards: cards on the foundations when the attempt ended.
   */
  foundations?: number | null;
  /**
   * Daily boards, once the day is over: the game, for its replay.
   */
  game_id?: string | null;
  /**
   * Daily boards: true while the attempt has not ended (it ranks as it was dealt). An attempt still open at the end of the day is then counted as it stood, not won: one never played counts as played and not won.
   */
  open?: boolean | null;
}
