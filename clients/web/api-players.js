// @ts-check
// The REST routes of players, statistics, the daily challenge, records and replays.

import { call } from "./api.js";
import { playerToken } from "./player-store.js";

/** @typedef {import("./types.js").PlayerCreated} PlayerCreated */
/** @typedef {import("./types.js").PlayerView} PlayerView */
/** @typedef {import("./types.js").PlayerStats} PlayerStats */
/** @typedef {import("./types.js").LinkCode} LinkCode */
/** @typedef {import("./types.js").DailyOverview} DailyOverview */
/** @typedef {import("./types.js").DailyBoard} DailyBoard */
/** @typedef {import("./types.js").DailyGameCreated} DailyGameCreated */
/** @typedef {import("./types.js").GameRecordResponse} GameRecordResponse */
/** @typedef {import("./types.js").ReplayResponse} ReplayResponse */
/** @typedef {import("./types.js").ActionAccepted} ActionAccepted */
/** @typedef {import("./types.js").HintResponse} HintResponse */
/** @typedef {import("./types.js").AnalysisResponse} AnalysisResponse */
/** @typedef {import("./types.js").Revoked} Revoked */

const enc = encodeURIComponent;

/** @param {string} name @returns {Promise<PlayerCreated>} */
export async function createPlayer(name) {
  return /** @type {PlayerCreated} */ (await call("POST", "/players", { name }));
}

/** @returns {Promise<PlayerView>} */
export async function me() {
  return /** @type {PlayerView} */ (await call("GET", "/players/me", undefined, playerToken()));
}

/** @param {string} name @returns {Promise<PlayerView>} */
export async function rename(name) {
  return /** @type {PlayerView} */ (await call("PATCH", "/players/me", { name }, playerToken()));
}

/** @returns {Promise<LinkCode>} */
export async function newLinkCode() {
  return /** @type {LinkCode} */ (
    await call("POST", "/players/me/link-codes", undefined, playerToken())
  );
}

/** @param {string} linkCode @returns {Promise<PlayerCreated>} */
export async function link(linkCode) {
  return /** @type {PlayerCreated} */ (
    await call("POST", "/players/link", { link_code: linkCode })
  );
}

/** @returns {Promise<PlayerStats>} */
export async function myStats() {
  return /** @type {PlayerStats} */ (
    await call("GET", "/players/me/stats", undefined, playerToken())
  );
}

/** @returns {Promise<DailyOverview>} */
export async function dailyOverview() {
  return /** @type {DailyOverview} */ (await call("GET", "/daily", undefined, playerToken()));
}

/** @param {string} date @param {string} mode @returns {Promise<DailyGameCreated>} */
export async function playDaily(date, mode) {
  return /** @type {DailyGameCreated} */ (
    await call("POST", `/daily/${enc(date)}/${enc(mode)}/games`, {}, playerToken())
  );
}

/** @param {string} date @param {string} mode @returns {Promise<DailyBoard>} */
export async function dailyBoard(date, mode) {
  return /** @type {DailyBoard} */ (
    await call("GET", `/daily/${enc(date)}/${enc(mode)}?top=10&around=3`, undefined, playerToken())
  );
}

/** @param {string} gameId @param {string} token @returns {Promise<ActionAccepted>} */
export async function resign(gameId, token) {
  return /** @type {ActionAccepted} */ (
    await call("POST", `/games/${enc(gameId)}/resign`, {}, token)
  );
}

/** @param {string} gameId @param {string | null} token @returns {Promise<GameRecordResponse>} */
export async function record(gameId, token) {
  return /** @type {GameRecordResponse} */ (
    await call("GET", `/games/${enc(gameId)}/record`, undefined, token)
  );
}

/** @param {string} gameId @returns {Promise<ReplayResponse>} */
export async function replay(gameId) {
  return /** @type {ReplayResponse} */ (await call("GET", `/games/${enc(gameId)}/replay`));
}

/** @param {string} gameId @param {string} token @returns {Promise<HintResponse>} */
export async function hint(gameId, token) {
  return /** @type {HintResponse} */ (await call("POST", `/games/${enc(gameId)}/hint`, {}, token));
}

/** @param {string} gameId @returns {Promise<AnalysisResponse>} */
export async function analysis(gameId) {
  return /** @type {AnalysisResponse} */ (await call("GET", `/games/${enc(gameId)}/analysis`));
}

/** @returns {Promise<Revoked>} */
export async function revokeOthers() {
  return /** @type {Revoked} */ (
    await call("POST", "/players/me/revoke-others", {}, playerToken())
  );
}
