// @ts-check
// The protocol's types, generated from the JSON Schemas (see ../js/tools/generate-types.mjs).
// Other modules import them from here: `@typedef {import("./types.js").PublicState} PublicState`.

/** @typedef {import("../js/types/protocol/public-state").PublicState} PublicState */
/** @typedef {import("../js/types/protocol/public-state").ColumnView} ColumnView */
/** @typedef {import("../js/types/protocol/action").Action} ActionInput */
/** @typedef {import("../js/types/protocol/action").MoveAction} MoveAction */
/** @typedef {import("../js/types/protocol/action").TapAction} TapAction */
/** @typedef {import("../js/types/protocol/action").DrawAction} DrawAction */
/** @typedef {import("../js/types/protocol/server-message").ServerMessage} ServerMessage */
/** @typedef {import("../js/types/protocol/server-message").Change} Change */
/** @typedef {Change["patch"][number]} PatchOperation */
/** @typedef {import("../js/types/protocol/server-message").SnapshotMessage} SnapshotMessage */
/** @typedef {import("../js/types/protocol/server-message").SubscribedMessage} SubscribedMessage */
/** @typedef {import("../js/types/protocol/server-message").ResultMessage} ResultMessage */
/** @typedef {import("../js/types/protocol/server-message").ErrorMessage} ErrorMessage */
/** @typedef {import("../js/types/protocol/server-message").Rejection} Rejection */
/** @typedef {import("../js/types/protocol/server-message").RaceMessage} RaceMessage */
/** @typedef {import("../js/types/protocol/server-message").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("../js/types/protocol/server-message").RaceView} RaceView */
/** @typedef {import("../js/types/protocol/server-message").RacePlayer} RacePlayer */
/** @typedef {import("../js/types/protocol/server-message").RankingEntry} RankingEntry */
/** @typedef {import("../js/types/protocol/server-message").You} You */
/** @typedef {import("../js/types/protocol/server-message").ErrorCode} ErrorCode */
/** @typedef {import("../js/types/protocol/client-message").ClientMessage} ClientMessage */
/** @typedef {import("../js/types/protocol/rest/create-game-request").CreateGameRequest} CreateGameRequest */
/** @typedef {import("../js/types/protocol/rest/created-game").CreatedGame} CreatedGame */
/** @typedef {import("../js/types/protocol/rest/game-state-response").GameStateResponse} GameStateResponse */
/** @typedef {import("../js/types/protocol/rest/create-race-request").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("../js/types/protocol/rest/join-race-request").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("../js/types/protocol/rest/race-joined").RaceJoined} RaceJoined */
/** @typedef {import("../js/types/protocol/rest/problem").Problem} Problem */
/** @typedef {import("../js/types/protocol/rest/player-created").PlayerCreated} PlayerCreated */
/** @typedef {import("../js/types/protocol/rest/player-view").PlayerView} PlayerView */
/** @typedef {import("../js/types/protocol/rest/player-stats").PlayerStats} PlayerStats */
/** @typedef {import("../js/types/protocol/rest/player-stats").ModeStats} ModeStats */
/** @typedef {import("../js/types/protocol/rest/link-code").LinkCode} LinkCode */
/** @typedef {import("../js/types/protocol/rest/daily-overview").DailyOverview} DailyOverview */
/** @typedef {import("../js/types/protocol/rest/daily-overview").DailyChallenge} DailyChallenge */
/** @typedef {import("../js/types/protocol/rest/daily-board").DailyBoard} DailyBoard */
/** @typedef {import("../js/types/protocol/rest/daily-board").BoardRow} BoardRow */
/** @typedef {import("../js/types/protocol/rest/daily-game-created").DailyGameCreated} DailyGameCreated */
/** @typedef {import("../js/types/protocol/rest/game-record-response").GameRecordResponse} GameRecordResponse */
/** @typedef {import("../js/types/protocol/rest/replay-response").ReplayResponse} ReplayResponse */
/** @typedef {import("../js/types/protocol/rest/changes-response").ChangesResponse} ChangesResponse */
/** @typedef {import("../js/types/protocol/rest/action-accepted").ActionAccepted} ActionAccepted */
/** @typedef {import("../js/types/protocol/rest/hint-response").HintResponse} HintResponse */
/** @typedef {import("../js/types/protocol/rest/hint-response").HintView} HintView */
/** @typedef {import("../js/types/protocol/rest/analysis-response").AnalysisResponse} AnalysisResponse */
/** @typedef {import("../js/types/protocol/rest/analysis-response").Verdict} Verdict */
/** @typedef {import("../js/types/protocol/rest/revoked").Revoked} Revoked */

export {};
