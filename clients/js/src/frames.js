// @ts-check
// Reading the service's frames: JSON objects whose shape the SDK checks before it trusts
// them. A frame that is not JSON, not an object, of an unknown type, or missing what the
// SDK relies on is refused (`FrameError`): the connection reports it and reads on, and no
// state is touched by it.

/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */

/** A frame from the server that the SDK refuses to act on. */
export class FrameError extends Error {
  /**
   * @param {string} message
   * @param {unknown} frame  the frame as received (text, bytes or parsed value)
   */
  constructor(message, frame) {
    super(message);
    this.name = "FrameError";
    this.frame = frame;
  }
}

/** @param {unknown} v */
const isString = (v) => typeof v === "string";
/** @param {unknown} v */
const isCount = (v) => Number.isSafeInteger(v) && /** @type {number} */ (v) >= 0;
/** @param {unknown} v */
const isNumber = (v) => typeof v === "number" && Number.isFinite(v);
/** @param {unknown} v */
const isBool = (v) => typeof v === "boolean";
/** @param {unknown} v */
const optional = (v) => v === undefined || v === null;
/**
 * @param {unknown} v
 * @returns {v is Record<string, any>}
 */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** @param {unknown} op */
function isOperation(op) {
  if (!isObject(op) || !isString(op.path)) return false;
  if (op.op === "remove") return true;
  return (op.op === "add" || op.op === "replace") && "value" in op;
}

/** @param {unknown} state */
function isState(state) {
  return (
    isObject(state) &&
    Array.isArray(state.columns) &&
    state.columns.every(
      (c) => isObject(c) && isCount(c.down) && Array.isArray(c.up) && c.up.every(isString),
    ) &&
    Array.isArray(state.waste) &&
    Array.isArray(state.foundations) &&
    isCount(state.stock) &&
    isNumber(state.score) &&
    isString(state.score_display) &&
    isCount(state.moves) &&
    isBool(state.won)
  );
}

/** @param {unknown} change */
export function isChange(change) {
  return (
    isObject(change) &&
    change.type === "change" &&
    isString(change.game_id) &&
    isCount(change.version) &&
    change.version > 0 &&
    isString(change.notation) &&
    Array.isArray(change.events) &&
    change.events.every((e) => isObject(e) && isString(e.type)) &&
    Array.isArray(change.patch) &&
    change.patch.every(isOperation) &&
    isObject(change.score) &&
    isNumber(change.score.delta) &&
    isNumber(change.score.total) &&
    isString(change.score.display)
  );
}

/** @param {Record<string, any>} m */
function isRace(m) {
  const race = m.race;
  return (
    isObject(race) &&
    isString(race.race_id) &&
    isString(race.status) &&
    Array.isArray(race.players) &&
    race.players.every((p) => isObject(p) && isString(p.player_id)) &&
    isNumber(race.server_time)
  );
}

/** @param {unknown} seek */
function isSeek(seek) {
  return (
    isObject(seek) &&
    isString(seek.seek_id) &&
    isString(seek.mode) &&
    (seek.status === "waiting" || seek.status === "paired" || seek.status === "cancelled") &&
    isNumber(seek.rating) &&
    (optional(seek.race) || isSeat(seek.race))
  );
}

/** @param {unknown} seat  a paired race and the seat in it */
function isSeat(seat) {
  return (
    isObject(seat) &&
    isString(seat.race_id) &&
    isString(seat.game_id) &&
    isString(seat.player_id) &&
    (optional(seat.player_token) || isString(seat.player_token)) &&
    isObject(seat.opponent) &&
    isString(seat.opponent.name) &&
    isNumber(seat.opponent.rating)
  );
}

/** @param {unknown} row  a line of an arena's standings */
function isArenaRow(row) {
  return (
    isObject(row) &&
    isCount(row.rank) &&
    isString(row.player_id) &&
    isString(row.name) &&
    isNumber(row.points) &&
    isBool(row.playing) &&
    isBool(row.present)
  );
}

/**
 * What each type of frame must hold for the SDK to act on it.
 * @type {Record<string, (m: Record<string, any>) => boolean>}
 */
const CHECKS = {
  welcome: (m) =>
    isCount(m.protocol) &&
    isCount(m.max_frame_bytes) &&
    isCount(m.max_subscriptions) &&
    isNumber(m.rate_per_second) &&
    m.rate_per_second > 0 &&
    isCount(m.rate_burst) &&
    m.rate_burst > 0 &&
    (optional(m.changes_in_results) || isBool(m.changes_in_results)),
  subscribed: (m) =>
    isString(m.id) &&
    isString(m.game_id) &&
    (m.role === "player" || m.role === "watcher") &&
    isCount(m.version) &&
    isBool(m.recovered),
  snapshot: (m) => isString(m.game_id) && isCount(m.version) && isState(m.state),
  change: (m) => isChange(m),
  result: (m) =>
    isString(m.id) &&
    (m.status === "accepted" || m.status === "rejected") &&
    (optional(m.version) || isCount(m.version)) &&
    (m.status === "accepted" ||
      !isString(m.game_id) ||
      (isObject(m.rejection) &&
        isString(m.rejection.rule_id) &&
        isString(m.rejection.message_en) &&
        isString(m.rejection.message_fi))) &&
    (optional(m.change) || isChange(m.change)),
  unsubscribed: (m) => isString(m.id),
  error: (m) => isString(m.code) && isString(m.message) && (optional(m.id) || isString(m.id)),
  pong: (m) => optional(m.id) || isString(m.id),
  hint: (m) =>
    isString(m.id) &&
    isString(m.game_id) &&
    isCount(m.version) &&
    isCount(m.hints_used) &&
    (m.hint === null || (isObject(m.hint) && isString(m.hint.action))),
  race: (m) => isString(m.race_id) && isCount(m.version) && isRace(m),
  race_progress: (m) =>
    isString(m.race_id) &&
    isString(m.player_id) &&
    isString(m.state) &&
    isCount(m.foundations) &&
    isNumber(m.score) &&
    isString(m.score_display) &&
    isCount(m.moves),
  seek: (m) => isString(m.id) && isSeek(m.seek),
  paired: (m) => isString(m.seek_id) && isSeat(m) && isString(m.player_token),
  arena_standings: (m) =>
    isString(m.arena_id) &&
    isCount(m.page) &&
    isCount(m.total) &&
    isBool(m.full) &&
    isBool(m.final) &&
    Array.isArray(m.rows) &&
    m.rows.every(isArenaRow) &&
    (optional(m.you) || (isArenaRow(m.you) && (optional(m.you.heat) || isSeat(m.you.heat)))),
};

/** @type {TextDecoder | null} made on the first binary frame (some platforms have none) */
let decoder = null;

/** @param {ArrayBuffer | ArrayBufferView} bytes */
function decode(bytes) {
  if (typeof TextDecoder === "undefined") throw new Error("no TextDecoder");
  decoder ??= new TextDecoder("utf-8", { fatal: true });
  return decoder.decode(bytes);
}

/**
 * Parses and checks one frame (text, or UTF-8 JSON bytes); throws `FrameError` when the
 * SDK cannot act on it.
 * @param {unknown} data  a WebSocket message's data
 * @returns {ServerMessage}
 */
export function readFrame(data) {
  let text;
  try {
    if (typeof data === "string") text = data;
    else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) text = decode(data);
    else throw new FrameError("a frame that is neither text nor bytes", data);
  } catch (error) {
    if (error instanceof FrameError) throw error;
    throw new FrameError("a binary frame that is not UTF-8", data);
  }
  /** @type {unknown} */
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    throw new FrameError("a frame that is not JSON", data);
  }
  if (!isObject(message) || !isString(message.type)) {
    throw new FrameError("a frame that is not an object with a type", data);
  }
  const check = Object.hasOwn(CHECKS, message.type) ? CHECKS[message.type] : undefined;
  if (!check) throw new FrameError(`a frame of unknown type ${JSON.stringify(message.type)}`, data);
  if (!check(message)) throw new FrameError(`a ${message.type} frame of the wrong shape`, data);
  return /** @type {ServerMessage} */ (/** @type {unknown} */ (message));
}
