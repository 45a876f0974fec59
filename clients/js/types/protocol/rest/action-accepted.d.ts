/* Generated from schemas/rest/action-accepted.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

/**
 * Answer to an HTTP action or undo.
 */
export interface ActionAccepted {
  game_id: string;
  version: number;
  /**
   * Action in notation, e.g. `c3>f1`.
   */
  notation: string;
  /**
   * True when the request id had already been applied.
   */
  duplicate: boolean;
  /**
   * The change this request made (null if duplicate).
   */
  change: Change | null;
}
/**
 * One accepted action or undo, pushed to every subscriber of the game.
 *
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "Change".
 */
export interface Change {
  type: "change";
  game_id: string;
  /**
   * Version after this change; exactly one more than before.
   */
  version: number;
  /**
   * The action as applied (what a tap became).
   */
  notation: string;
  /**
   * Object form of `notation`; null for undo.
   */
  action: (MoveAction | DrawAction | RecycleAction | TapAction | ResignAction) | null;
  events: (
    | MovedEvent
    | FlippedEvent
    | TurnedDownEvent
    | DrewEvent
    | UndrewEvent
    | RecycledEvent
    | UnrecycledEvent
    | WonEvent
    | ResignedEvent
    | UndoneEvent
  )[];
  /**
   * RFC 6902 patch from the previous public state to the new one.
   *
   * Items: One RFC 6902 operation; the service emits only add, remove and replace.
   */
  patch: (AddOperation | RemoveOperation | ReplaceOperation)[];
  score: ScoreChange;
}
/**
 * Move cards between piles; to the foundations, `to` may be just `f`.
 *
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
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
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "DrawAction".
 */
export interface DrawAction {
  type: "draw";
}
/**
 * Turn the waste back into the stock (only when the stock is empty).
 *
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "RecycleAction".
 */
export interface RecycleAction {
  type: "recycle";
}
/**
 * Tap (or double tap) the top card of a column or of the waste.
 *
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
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
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "ResignAction".
 */
export interface ResignAction {
  type: "resign";
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "MovedEvent".
 */
export interface MovedEvent {
  type: "moved";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  from: string;
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  to: string;
  /**
   * Items: Rank then suit, e.g. `TH`.
   */
  cards: string[];
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "FlippedEvent".
 */
export interface FlippedEvent {
  type: "flipped";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  pile: string;
  /**
   * Rank then suit, e.g. `TH`.
   */
  card: string;
}
/**
 * An undo turned the top card of a column face down again.
 *
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "TurnedDownEvent".
 */
export interface TurnedDownEvent {
  type: "turned_down";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  pile: string;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "DrewEvent".
 */
export interface DrewEvent {
  type: "drew";
  /**
   * Items: Rank then suit, e.g. `TH`.
   */
  cards: string[];
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "UndrewEvent".
 */
export interface UndrewEvent {
  type: "undrew";
  count: number;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "RecycledEvent".
 */
export interface RecycledEvent {
  type: "recycled";
  count: number;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "UnrecycledEvent".
 */
export interface UnrecycledEvent {
  type: "unrecycled";
  count: number;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "WonEvent".
 */
export interface WonEvent {
  type: "won";
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "ResignedEvent".
 */
export interface ResignedEvent {
  type: "resigned";
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "UndoneEvent".
 */
export interface UndoneEvent {
  type: "undone";
  /**
   * Action in notation, e.g. `c3>f1`.
   */
  action: string;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "AddOperation".
 */
export interface AddOperation {
  op: "add";
  /**
   * JSON Pointer; `/-` appends to a list.
   */
  path: string;
  value: unknown;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "RemoveOperation".
 */
export interface RemoveOperation {
  op: "remove";
  path: string;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "ReplaceOperation".
 */
export interface ReplaceOperation {
  op: "replace";
  path: string;
  value: unknown;
}
/**
 * This interface was referenced by `ActionAccepted`'s JSON-Schema
 * via the `definition` "ScoreChange".
 */
export interface ScoreChange {
  delta: number;
  total: number;
  display: string;
}
