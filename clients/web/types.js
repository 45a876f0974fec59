// @ts-check
// The protocol's types, generated from the JSON Schemas (see ../js/tools/generate-types.mjs).
// Other modules import them from here: `@typedef {import("./types.js").PublicState} PublicState`.

/** @typedef {import("../js/types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../js/types/protocol/public-state.js").ColumnView} ColumnView */
/** @typedef {import("../js/types/protocol/action.js").Action} ActionInput */
/** @typedef {import("../js/types/protocol/action.js").MoveAction} MoveAction */
/** @typedef {import("../js/types/protocol/action.js").TapAction} TapAction */
/** @typedef {import("../js/types/protocol/action.js").DrawAction} DrawAction */
/** @typedef {import("../js/types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../js/types/protocol/server-message.js").Change} Change */
/** @typedef {Change["patch"][number]} PatchOperation */
/** @typedef {import("../js/types/protocol/server-message.js").SnapshotMessage} SnapshotMessage */
/** @typedef {import("../js/types/protocol/server-message.js").SubscribedMessage} SubscribedMessage */
/** @typedef {import("../js/types/protocol/server-message.js").ResultMessage} ResultMessage */
/** @typedef {import("../js/types/protocol/server-message.js").ErrorMessage} ErrorMessage */
/** @typedef {import("../js/types/protocol/server-message.js").Rejection} Rejection */
/** @typedef {import("../js/types/protocol/server-message.js").RaceMessage} RaceMessage */
/** @typedef {import("../js/types/protocol/server-message.js").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("../js/types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../js/types/protocol/server-message.js").RacePlayer} RacePlayer */
/** @typedef {import("../js/types/protocol/server-message.js").RankingEntry} RankingEntry */
/** @typedef {import("../js/types/protocol/server-message.js").RatingChange} RatingChange */
/** @typedef {import("../js/types/protocol/server-message.js").You} You */
/** @typedef {import("../js/types/protocol/server-message.js").ErrorCode} ErrorCode */
/** @typedef {import("../js/types/protocol/client-message.js").ClientMessage} ClientMessage */
/** @typedef {import("../js/types/protocol/rest/create-game-request.js").CreateGameRequest} CreateGameRequest */
/** @typedef {import("../js/types/protocol/rest/created-game.js").CreatedGame} CreatedGame */
/** @typedef {import("../js/types/protocol/rest/game-state-response.js").GameStateResponse} GameStateResponse */
/** @typedef {import("../js/types/protocol/rest/create-race-request.js").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("../js/types/protocol/rest/join-race-request.js").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("../js/types/protocol/rest/race-joined.js").RaceJoined} RaceJoined */
/** @typedef {import("../js/types/protocol/rest/problem.js").Problem} Problem */
/** @typedef {import("../js/types/protocol/rest/player-created.js").PlayerCreated} PlayerCreated */
/** @typedef {import("../js/types/protocol/rest/player-view.js").PlayerView} PlayerView */
/** @typedef {import("../js/types/protocol/rest/player-stats.js").PlayerStats} PlayerStats */
/** @typedef {import("../js/types/protocol/rest/player-stats.js").ModeStats} ModeStats */
/** @typedef {import("../js/types/protocol/rest/player-stats.js").ModeRating} ModeRating */
/** @typedef {import("../js/types/protocol/rest/board.js").Board} Board */
/** @typedef {import("../js/types/protocol/rest/seek-response.js").SeekResponse} SeekResponse */
/** @typedef {import("../js/types/protocol/rest/link-code.js").LinkCode} LinkCode */
/** @typedef {import("../js/types/protocol/rest/daily-overview.js").DailyOverview} DailyOverview */
/** @typedef {import("../js/types/protocol/rest/daily-overview.js").DailyChallenge} DailyChallenge */
/** @typedef {import("../js/types/protocol/rest/daily-board.js").DailyBoard} DailyBoard */
/** @typedef {import("../js/types/protocol/rest/daily-board.js").BoardRow} BoardRow */
/** @typedef {import("../js/types/protocol/rest/daily-game-created.js").DailyGameCreated} DailyGameCreated */
/** @typedef {import("../js/types/protocol/rest/game-record-response.js").GameRecordResponse} GameRecordResponse */
/** @typedef {import("../js/types/protocol/rest/replay-response.js").ReplayResponse} ReplayResponse */
/** @typedef {import("../js/types/protocol/rest/changes-response.js").ChangesResponse} ChangesResponse */
/** @typedef {import("../js/types/protocol/rest/action-accepted.js").ActionAccepted} ActionAccepted */
/** @typedef {import("../js/types/protocol/rest/hint-response.js").HintResponse} HintResponse */
/** @typedef {import("../js/types/protocol/rest/hint-response.js").HintView} HintView */
/** @typedef {import("../js/types/protocol/rest/analysis-response.js").AnalysisResponse} AnalysisResponse */
/** @typedef {import("../js/types/protocol/rest/analysis-response.js").Verdict} Verdict */
/** @typedef {import("../js/types/protocol/rest/revoked.js").Revoked} Revoked */

export {};
