// @ts-check
// The protocol's types, generated from the JSON Schemas (see ../types/generate.mjs).
// Other modules import them from here: `@typedef {import("./types.js").PublicState} PublicState`.

/** @typedef {import("../types/generated/public-state").PublicState} PublicState */
/** @typedef {import("../types/generated/public-state").ColumnView} ColumnView */
/** @typedef {import("../types/generated/action").Action} ActionInput */
/** @typedef {import("../types/generated/action").MoveAction} MoveAction */
/** @typedef {import("../types/generated/action").TapAction} TapAction */
/** @typedef {import("../types/generated/action").DrawAction} DrawAction */
/** @typedef {import("../types/generated/server-message").ServerMessage} ServerMessage */
/** @typedef {import("../types/generated/server-message").Change} Change */
/** @typedef {Change["patch"][number]} PatchOperation */
/** @typedef {import("../types/generated/server-message").SnapshotMessage} SnapshotMessage */
/** @typedef {import("../types/generated/server-message").SubscribedMessage} SubscribedMessage */
/** @typedef {import("../types/generated/server-message").ResultMessage} ResultMessage */
/** @typedef {import("../types/generated/server-message").ErrorMessage} ErrorMessage */
/** @typedef {import("../types/generated/server-message").Rejection} Rejection */
/** @typedef {import("../types/generated/server-message").RaceMessage} RaceMessage */
/** @typedef {import("../types/generated/server-message").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("../types/generated/server-message").RaceView} RaceView */
/** @typedef {import("../types/generated/server-message").RacePlayer} RacePlayer */
/** @typedef {import("../types/generated/server-message").RankingEntry} RankingEntry */
/** @typedef {import("../types/generated/server-message").You} You */
/** @typedef {import("../types/generated/server-message").ErrorCode} ErrorCode */
/** @typedef {import("../types/generated/client-message").ClientMessage} ClientMessage */
/** @typedef {import("../types/generated/rest/create-game-request").CreateGameRequest} CreateGameRequest */
/** @typedef {import("../types/generated/rest/created-game").CreatedGame} CreatedGame */
/** @typedef {import("../types/generated/rest/game-state-response").GameStateResponse} GameStateResponse */
/** @typedef {import("../types/generated/rest/create-race-request").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("../types/generated/rest/join-race-request").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("../types/generated/rest/race-joined").RaceJoined} RaceJoined */
/** @typedef {import("../types/generated/rest/problem").Problem} Problem */
/** @typedef {import("../types/generated/rest/player-created").PlayerCreated} PlayerCreated */
/** @typedef {import("../types/generated/rest/player-view").PlayerView} PlayerView */
/** @typedef {import("../types/generated/rest/player-stats").PlayerStats} PlayerStats */
/** @typedef {import("../types/generated/rest/player-stats").ModeStats} ModeStats */
/** @typedef {import("../types/generated/rest/link-code").LinkCode} LinkCode */
/** @typedef {import("../types/generated/rest/daily-overview").DailyOverview} DailyOverview */
/** @typedef {import("../types/generated/rest/daily-overview").DailyChallenge} DailyChallenge */
/** @typedef {import("../types/generated/rest/daily-board").DailyBoard} DailyBoard */
/** @typedef {import("../types/generated/rest/daily-board").BoardRow} BoardRow */
/** @typedef {import("../types/generated/rest/daily-game-created").DailyGameCreated} DailyGameCreated */
/** @typedef {import("../types/generated/rest/game-record-response").GameRecordResponse} GameRecordResponse */
/** @typedef {import("../types/generated/rest/replay-response").ReplayResponse} ReplayResponse */
/** @typedef {import("../types/generated/rest/changes-response").ChangesResponse} ChangesResponse */
/** @typedef {import("../types/generated/rest/action-accepted").ActionAccepted} ActionAccepted */
/** @typedef {import("../types/generated/rest/hint-response").HintResponse} HintResponse */
/** @typedef {import("../types/generated/rest/hint-response").HintView} HintView */
/** @typedef {import("../types/generated/rest/analysis-response").AnalysisResponse} AnalysisResponse */
/** @typedef {import("../types/generated/rest/analysis-response").Verdict} Verdict */
/** @typedef {import("../types/generated/rest/revoked").Revoked} Revoked */

/**
 * Every client message carries a request id except `hello` and (optionally) `ping`;
 * `Omit` on a union would merge its members, so the id is stripped member by member.
 * @template T
 * @typedef {T extends { id: string } ? Omit<T, "id"> : never} WithoutId
 */
/** @typedef {WithoutId<ClientMessage>} ClientRequest */

export {};
