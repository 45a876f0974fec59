/* Generated from schemas/rest/hint-response.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export interface HintResponse {
  game_id: string;
  version: number;
  /**
   * Null when there is nothing to suggest.
   */
  hint: HintView | null;
  /**
   * Hints asked for in this game so far.
   */
  hints_used: number;
  /**
   * Why `hint` is null: set exactly when it is (docs/protocol.md).
   */
  no_hint?: NoHintView | null;
}
/**
 * One suggested action, worked out from what the player can see and has seen on the
 * way, and nothing else.
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "HintView".
 */
export interface HintView {
  /**
   * Action in notation, e.g. `c3>f1`.
   */
  action: string;
  /**
   * Object form of `action`.
   */
  action_object: (MoveAction | DrawAction | RecycleAction | TapAction | ResignAction) | null;
  /**
   * `safe_home`, `uncover`, `draw`... (docs/protocol.md).
   */
  reason: string;
  message_en: string;
  message_fi: string;
}
/**
 * Move cards between piles; to the foundations, `to` may be just `f`.
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "MoveAction".
 */
export interface MoveAction {
  type: "move";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  from: string;
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  to: string;
  /**
   * Cards taken from the top of a column.
   */
  count?: number;
}
/**
 * Tap the stock: draws 1 or 3 cards, or recycles the waste when the stock is empty.
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "DrawAction".
 */
export interface DrawAction {
  type: "draw";
}
/**
 * Turn the waste back into the stock (only when the stock is empty).
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "RecycleAction".
 */
export interface RecycleAction {
  type: "recycle";
}
/**
 * Tap (or double tap) the top card of a column or of the waste.
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "TapAction".
 */
export interface TapAction {
  type: "tap";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  from: string;
  double?: boolean;
}
/**
 * End the game where it stands: final like a won game (no more actions or undo).
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "ResignAction".
 */
export interface ResignAction {
  type: "resign";
}
/**
 * Why there is no hint to give.
 *
 * This interface was referenced by `HintResponse`'s JSON-Schema
 * via the `definition` "NoHintView".
 */
export interface NoHintView {
  /**
   * `no_useful_move`: the game goes on, but no move the player can see is of use and the stock has no new card to show; `game_over`: won or resigned.
   */
  reason: "no_useful_move" | "game_over";
  message_en: string;
  message_fi: string;
}
