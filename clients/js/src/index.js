// @ts-check
// The JavaScript SDK of the solitaire service (clients/js/README.md).

export { SolitaireClient, socketUrlOf } from "./client.js";
export { Connection, PROTOCOL } from "./connection.js";
export { Emitter } from "./emitter.js";
export { LOCAL_CODES, SolitaireError } from "./errors.js";
export { FrameError, readFrame } from "./frames.js";
export { Game } from "./game.js";
export { Http } from "./http.js";
export { PatchError, applyPatch, parsePointer } from "./patch.js";
export { Race } from "./race.js";
export { Tokens } from "./tokens.js";
export { ROUTES as DAILY_ROUTES } from "./rest/daily.js";
export { ROUTES as GAME_ROUTES } from "./rest/games.js";
export { ROUTES as PLAYER_ROUTES } from "./rest/players.js";
export { ROUTES as RACE_ROUTES } from "./rest/races.js";
export { ROUTES as SERVICE_ROUTES } from "./rest/service.js";
