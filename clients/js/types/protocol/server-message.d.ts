/* Generated from schemas/server-message.json by clients/js/tools/generate-types.mjs. Do not edit: change the service/protocol*.py models, regenerate the schemas, then run this script. */

export type ServerMessage =
  | WelcomeMessage
  | SubscribedMessage
  | SnapshotMessage
  | Change
  | ResultMessage
  | UnsubscribedMessage
  | ErrorMessage
  | PongMessage
  | HintAnswer
  | RaceMessage
  | RaceProgressMessage
  | SeekAnswer
  | PairedMessage
  | ArenaStandingsMessage;
export type ErrorCode =
  | "bad_json"
  | "bad_message"
  | "unsupported_protocol"
  | "hello_required"
  | "frame_too_large"
  | "rate_limited"
  | "too_many_subscriptions"
  | "not_found"
  | "unauthorized"
  | "not_player"
  | "not_subscribed"
  | "bad_code"
  | "invalid_action"
  | "rule_violation"
  | "stale_version"
  | "game_too_long"
  | "store_unavailable"
  | "race_running"
  | "race_full"
  | "race_started"
  | "race_not_started"
  | "race_over"
  | "race_not_finished"
  | "not_host"
  | "request_id_reused"
  | "game_not_over"
  | "bad_name"
  | "daily_closed"
  | "daily_running"
  | "daily_attempt_used"
  | "already_in_race"
  | "already_seeking"
  | "not_your_seek"
  | "arena_over"
  | "arena_started"
  | "not_in_arena"
  | "not_your_arena"
  | "winnable_pool_empty"
  | "winnable_not_offered"
  | "hints_not_allowed"
  | "busy"
  | "method_not_allowed"
  | "internal_error";

export interface WelcomeMessage {
  type: "welcome";
  protocol: number;
  max_frame_bytes: number;
  max_subscriptions: number;
  rate_per_second: number;
  rate_burst: number;
  /**
   * Present (true) when the `hello` asked for it.
   */
  changes_in_results?: boolean | null;
}
export interface SubscribedMessage {
  type: "subscribed";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
  role: "player" | "watcher";
  version: number;
  /**
   * True: the changes after `since` follow. False: a `snapshot` follows.
   */
  recovered: boolean;
}
export interface SnapshotMessage {
  type: "snapshot";
  game_id: string;
  version: number;
  state: PublicState;
}
/**
 * Everything a player may see. Face-down cards and the stock appear only as counts.
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
/**
 * One accepted action or undo, pushed to every subscriber of the game.
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
 */
export interface TurnedDownEvent {
  type: "turned_down";
  /**
   * `w` waste, `s` stock, `c1`.. columns, `f` foundation area, `f1`.. foundation places; any letter case.
   */
  pile: string;
}
export interface DrewEvent {
  type: "drew";
  /**
   * Items: Rank then suit, e.g. `TH`.
   */
  cards: string[];
}
export interface UndrewEvent {
  type: "undrew";
  count: number;
}
export interface RecycledEvent {
  type: "recycled";
  count: number;
}
export interface UnrecycledEvent {
  type: "unrecycled";
  count: number;
}
export interface WonEvent {
  type: "won";
}
export interface ResignedEvent {
  type: "resigned";
}
export interface UndoneEvent {
  type: "undone";
  /**
   * Action in notation, e.g. `c3>f1`.
   */
  action: string;
}
export interface AddOperation {
  op: "add";
  /**
   * JSON Pointer; `/-` appends to a list.
   */
  path: string;
  value: unknown;
}
export interface RemoveOperation {
  op: "remove";
  path: string;
}
export interface ReplaceOperation {
  op: "replace";
  path: string;
  value: unknown;
}
export interface ScoreChange {
  delta: number;
  total: number;
  display: string;
}
export interface ResultMessage {
  type: "result";
  /**
   * Client request id.
   */
  id: string;
  game_id?: string | null;
  race_id?: string | null;
  status: "accepted" | "rejected";
  /**
   * Game requests: the new version if accepted, the unchanged one if rejected. Absent for race commands (the race itself arrives as a `race` message).
   */
  version?: number | null;
  notation?: string | null;
  duplicate?: boolean;
  rejection?: Rejection | null;
  /**
   * Only on a connection whose `hello` asked for `changes_in_results`: the `change` this accepted action made, which that connection then does not get as a frame of its own. Absent when the action was a duplicate, or when changes made elsewhere were still on their way to this connection (the `change` frame then follows them, in version order).
   */
  change?: Change | null;
}
export interface Rejection {
  /**
   * Id of the rule that blocks the action (docs/rules.md).
   */
  rule_id: string;
  message_en: string;
  message_fi: string;
}
export interface UnsubscribedMessage {
  type: "unsubscribed";
  /**
   * Client request id.
   */
  id: string;
  game_id?: string | null;
  race_id?: string | null;
  arena_id?: string | null;
}
export interface ErrorMessage {
  type: "error";
  id?: string | null;
  code: ErrorCode;
  message: string;
  /**
   * A message for people, in English, where the error has one.
   */
  message_en?: string | null;
  /**
   * The same message in Finnish.
   */
  message_fi?: string | null;
  game_id?: string | null;
  race_id?: string | null;
  current_version?: number | null;
  reason?: string | null;
  /**
   * For `rate_limited`: seconds to wait.
   */
  retry_after?: number | null;
  /**
   * For `already_seeking`: your seek already waiting (in any mode).
   */
  seek_id?: string | null;
}
export interface PongMessage {
  type: "pong";
  id?: string | null;
}
/**
 * The answer to `hint`.
 */
export interface HintAnswer {
  type: "hint";
  /**
   * Client request id.
   */
  id: string;
  game_id: string;
  version: number;
  hint: HintView | null;
  hints_used: number;
  /**
   * Why `hint` is null: set exactly when it is (docs/protocol.md).
   */
  no_hint?: NoHintView | null;
}
/**
 * One suggested action, worked out from what the player can see and has seen on the
 * way, and nothing else.
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
 * Why there is no hint to give.
 */
export interface NoHintView {
  /**
   * `no_useful_move`: the game goes on, but no move the player can see is of use and the stock has no new card to show; `game_over`: won or resigned.
   */
  reason: "no_useful_move" | "game_over";
  message_en: string;
  message_fi: string;
}
/**
 * The race after a change (join, ready, countdown, start, win, resign, end, rematch).
 */
export interface RaceMessage {
  type: "race";
  /**
   * Set on the answer to `watch_race`.
   */
  id?: string | null;
  race_id: string;
  version: number;
  race: RaceView;
  /**
   * Only to a player, on `watch_race`.
   */
  you?: You | null;
}
/**
 * The public race. During the race it carries progress only, never boards or code.
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
 */
export interface You {
  player_id: string;
  game_id: string;
}
/**
 * A player's progress after each of their accepted actions (no cards).
 */
export interface RaceProgressMessage {
  type: "race_progress";
  race_id: string;
  player_id: string;
  state: "playing" | "won" | "resigned";
  foundations: number;
  score: number;
  score_display: string;
  moves: number;
  server_time: number;
}
/**
 * The answer to `seek` and to `cancel_seek`: the seek as it stands.
 */
export interface SeekAnswer {
  type: "seek";
  /**
   * Client request id.
   */
  id: string;
  seek: SeekView;
}
/**
 * A seek as its player reads it.
 */
export interface SeekView {
  seek_id: string;
  mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
  status: "waiting" | "paired" | "cancelled";
  /**
   * Your rating in the mode when you asked.
   */
  rating: number;
  /**
   * Server time (ms) you asked.
   */
  since: number;
  /**
   * Once `paired`: the race and your seat.
   */
  race: PairedRace | null;
}
/**
 * The race a seek was paired into, and your seat in it.
 */
export interface PairedRace {
  race_id: string;
  /**
   * Your game in the race.
   */
  game_id: string;
  /**
   * Your id in the race.
   */
  player_id: string;
  /**
   * Your race token (also your game's token). Computed from the player token that asked, so null when the seek is read with another of your player tokens.
   */
  player_token: string | null;
  opponent: Opponent;
}
export interface Opponent {
  name: string;
  /**
   * The opponent's rating in the mode when they asked.
   */
  rating: number;
}
/**
 * A seek of this connection was paired: the race and your seat, sent once. Watch the
 * race with `player_token` (`watch_race`); its countdown is already running.
 */
export interface PairedMessage {
  type: "paired";
  seek_id: string;
  race_id: string;
  game_id: string;
  player_id: string;
  /**
   * Your race token, also your game's token.
   */
  player_token: string;
  opponent: Opponent;
}
/**
 * A page of an arena's standings: in full after `follow_arena`, then only the lines
 * that changed (by rank) each time a heat is counted or a player joins or leaves, and
 * once more with `final` when every heat is counted. `you` is your own line when you
 * followed with your player token; it shows your heat as soon as you are paired.
 */
export interface ArenaStandingsMessage {
  type: "arena_standings";
  /**
   * The `follow_arena` this answers.
   */
  id?: string | null;
  arena_id: string;
  page: number;
  /**
   * Players in the standings.
   */
  total: number;
  /**
   * True: `rows` is the whole page; false: changed lines.
   */
  full: boolean;
  /**
   * True: the arena is over and every heat counted.
   */
  final: boolean;
  rows: ArenaRow[];
  you?: ArenaYou | null;
}
/**
 * A line of the standings.
 */
export interface ArenaRow {
  rank: number;
  player_id: string;
  name: string;
  /**
   * The player's rating in the mode when they joined.
   */
  rating: number;
  points: number;
  heats: number;
  wins: number;
  draws: number;
  losses: number;
  /**
   * Wins in a row.
   */
  streak: number;
  /**
   * On fire (two wins in a row): wins count 4, draws 2.
   */
  fire: boolean;
  /**
   * Mean of opponent rating ±400 (win/loss) per heat.
   */
  performance: number;
  /**
   * In a heat now.
   */
  playing: boolean;
  /**
   * Joined and not left: paired as soon as free.
   */
  present: boolean;
}
/**
 * Your own line, with your heat under way.
 */
export interface ArenaYou {
  rank: number;
  player_id: string;
  name: string;
  /**
   * The player's rating in the mode when they joined.
   */
  rating: number;
  points: number;
  heats: number;
  wins: number;
  draws: number;
  losses: number;
  /**
   * Wins in a row.
   */
  streak: number;
  /**
   * On fire (two wins in a row): wins count 4, draws 2.
   */
  fire: boolean;
  /**
   * Mean of opponent rating ±400 (win/loss) per heat.
   */
  performance: number;
  /**
   * In a heat now.
   */
  playing: boolean;
  /**
   * Joined and not left: paired as soon as free.
   */
  present: boolean;
  heat: ArenaSeat | null;
}
/**
 * Your heat under way: its race and your seat. Watch the race with `player_token`.
 */
export interface ArenaSeat {
  race_id: string;
  /**
   * Your game in the heat's race.
   */
  game_id: string;
  /**
   * Your id in the race.
   */
  player_id: string;
  /**
   * Your race token in every heat of this arena, computed from the player token that joined: null when read with another of your player tokens.
   */
  player_token: string | null;
  opponent: Opponent;
}
