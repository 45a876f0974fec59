/* Generated from schemas/action.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * An action object, or the same action in notation (`c3:2>c5`, `d`).
 */
export type Action = (MoveAction | DrawAction | RecycleAction | TapAction | ResignAction) | string;

/**
 * Move cards between piles; to the foundations, `to` may be just `f`.
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
 */
export interface DrawAction {
  type: "draw";
}
/**
 * Turn the waste back into the stock (only when the stock is empty).
 */
export interface RecycleAction {
  type: "recycle";
}
/**
 * Tap (or double tap) the top card of a column or of the waste.
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
 */
export interface ResignAction {
  type: "resign";
}
