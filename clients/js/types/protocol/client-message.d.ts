/* Generated from schemas/client-message.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export type ClientMessage =
  | HelloMessage
  | SubscribeMessage
  | UnsubscribeMessage
  | ActionMessage
  | UndoMessage
  | ResignMessage
  | HintMessage
  | PingMessage
  | WatchRaceMessage
  | UnwatchRaceMessage
  | RaceCommandMessage
  | SeekMessage
  | CancelSeekMessage
  | FollowArenaMessage
  | UnfollowArenaMessage;

export interface HelloMessage {
  type: "hello";
  /**
   * Protocol version the client speaks (1).
   */
  protocol: number;
  /**
   * True: the `result` of an accepted action carries its `change`, and this connection gets no separate `change` frame for it (one frame instead of two).
   */
  changes_in_results?: boolean;
}
/**
 * Watch a game, or play it when `token` is its game token (for a race game, the race
 * token).
 */
export interface SubscribeMessage {
  type: "subscribe";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
  token?: string | null;
  /**
   * Last version the client has; resume from there.
   */
  since?: number | null;
}
export interface UnsubscribeMessage {
  type: "unsubscribe";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
}
export interface ActionMessage {
  type: "action";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
  /**
   * An action object, or the same action in notation (`c3:2>c5`, `d`).
   */
  action: (MoveAction | DrawAction | RecycleAction | TapAction | ResignAction) | string;
  expected_version?: number | null;
}
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
export interface UndoMessage {
  type: "undo";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
  expected_version?: number | null;
}
/**
 * End your game where it stands; in a race, this is resigning from the race.
 */
export interface ResignMessage {
  type: "resign";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
}
/**
 * Ask for a hint in your game (needs a player subscription); counted in the game.
 */
export interface HintMessage {
  type: "hint";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
}
export interface PingMessage {
  type: "ping";
  id?: string | null;
}
/**
 * Follow a race: as a player with your race token (marks you connected), or as a
 * spectator without one.
 */
export interface WatchRaceMessage {
  type: "watch_race";
  /**
   * Client request id.
   */
  id: string;
  race_id: string;
  token?: string | null;
}
export interface UnwatchRaceMessage {
  type: "unwatch_race";
  /**
   * Client request id.
   */
  id: string;
  race_id: string;
}
/**
 * A player's race command; needs a `watch_race` with the player's race token first.
 */
export interface RaceCommandMessage {
  type: "race_command";
  /**
   * Client request id.
   */
  id: string;
  race_id: string;
  command: "ready" | "unready" | "start" | "resign" | "rematch";
}
/**
 * Ask to race now in `mode` (quick pairing), with your player token. The seek lives
 * while this connection does: closing it cancels the seek.
 */
export interface SeekMessage {
  type: "seek";
  /**
   * Client request id.
   */
  id: string;
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
  /**
   * Your player token.
   */
  token: string;
}
/**
 * Cancel a seek of this connection.
 */
export interface CancelSeekMessage {
  type: "cancel_seek";
  /**
   * Client request id.
   */
  id: string;
  seek_id: string;
}
/**
 * Follow a page of an arena's standings (`arena_standings`); with your player token,
 * your own line too. Following again changes the page.
 */
export interface FollowArenaMessage {
  type: "follow_arena";
  /**
   * Client request id.
   */
  id: string;
  arena_id: string;
  /**
   * Page of 20 lines, from 1.
   */
  page?: number;
  /**
   * Your player token.
   */
  token?: string | null;
}
export interface UnfollowArenaMessage {
  type: "unfollow_arena";
  /**
   * Client request id.
   */
  id: string;
  arena_id: string;
}
