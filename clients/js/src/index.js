// @ts-check
// The JavaScript SDK of the solitaire service (clients/js/README.md).

export { ArenaFollow } from "./arena.js";
export { SolitaireClient, socketUrlOf } from "./client.js";
export { Connection, PROTOCOL } from "./connection.js";
export { Emitter } from "./emitter.js";
export { LOCAL_CODES, SolitaireError } from "./errors.js";
export { FrameError, readFrame } from "./frames.js";
export { Game } from "./game.js";
export { Http } from "./http.js";
export { PatchError, applyPatch, parsePointer } from "./patch.js";
export { Race } from "./race.js";
export { LiveSeek } from "./seek.js";
export { Tokens } from "./tokens.js";
export { ROUTES as ARENA_ROUTES } from "./rest/arenas.js";
export { ROUTES as DAILY_ROUTES } from "./rest/daily.js";
export { ROUTES as GAME_ROUTES } from "./rest/games.js";
export { ROUTES as PAIRING_ROUTES } from "./rest/pairing.js";
export { ROUTES as PLAYER_ROUTES } from "./rest/players.js";
export { ROUTES as RACE_ROUTES } from "./rest/races.js";
export { ROUTES as SERVICE_ROUTES } from "./rest/service.js";

// Types, for `import type { ... } from "@solitaire/sdk"` and JSDoc imports.
/** @typedef {import("./arena.js").ArenaFollowEvents} ArenaFollowEvents */
/** @typedef {import("./arena.js").ArenaPage} ArenaPage */
/** @typedef {import("./arena.js").FollowArenaOptions} FollowArenaOptions */
/** @typedef {import("./client.js").ClientOptions} ClientOptions */
/** @typedef {import("./client.js").ClientEvents} ClientEvents */
/** @typedef {import("./client.js").FollowOptions} FollowOptions */
/** @typedef {import("./client.js").RaceFollowOptions} RaceFollowOptions */
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./connection.js").ConnectionOptions} ConnectionOptions */
/** @typedef {import("./connection.js").ReconnectOptions} ReconnectOptions */
/** @typedef {import("./connection.js").RequestOptions} RequestOptions */
/** @typedef {import("./errors.js").ErrorDetails} ErrorDetails */
/** @typedef {import("./game.js").GameEvents} GameEvents */
/** @typedef {import("./game.js").GameOptions} GameOptions */
/** @typedef {import("./game.js").Played} Played */
/** @typedef {import("./game.js").PlayOptions} PlayOptions */
/** @typedef {import("./patch.js").PatchOperation} PatchOperation */
/** @typedef {import("./race.js").RaceCommand} RaceCommand */
/** @typedef {import("./race.js").RaceEvents} RaceEvents */
/** @typedef {import("./race.js").RaceOptions} RaceOptions */
/** @typedef {import("./seek.js").LiveSeekEvents} LiveSeekEvents */
/** @typedef {import("./seek.js").Paired} Paired */
/** @typedef {import("./seek.js").SeekNowOptions} SeekNowOptions */
/** @typedef {import("../types/protocol/action.js").Action} Action */
/** @typedef {import("../types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../types/protocol/public-state.js").ColumnView} ColumnView */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").Change} Change */
/** @typedef {import("../types/protocol/server-message.js").ErrorCode} ErrorCode */
/** @typedef {import("../types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../types/protocol/server-message.js").RacePlayer} RacePlayer */
/** @typedef {import("../types/protocol/server-message.js").ScoreChange} ScoreChange */
/** @typedef {import("../types/protocol/server-message.js").HintAnswer} HintAnswer */
/** @typedef {import("../types/protocol/client-message.js").ClientMessage} ClientMessage */
