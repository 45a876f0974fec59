// @ts-check
// The REST half of the protocol: games and races are created over HTTP.

/** @typedef {import("./types.js").CreateGameRequest} CreateGameRequest */
/** @typedef {import("./types.js").CreatedGame} CreatedGame */
/** @typedef {import("./types.js").GameStateResponse} GameStateResponse */
/** @typedef {import("./types.js").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("./types.js").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("./types.js").RaceJoined} RaceJoined */
/** @typedef {import("./types.js").Problem} Problem */

import { playerToken } from "./player-store.js";

/** A refused request, with the RFC 9457 problem the service sent (when it sent one). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {Problem | null} problem
   */
  constructor(status, problem) {
    super(problem ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<unknown>}
 */
export async function call(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  /** @type {unknown} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const problem =
      data && typeof data === "object" && "code" in data ? /** @type {Problem} */ (data) : null;
    throw new ApiError(response.status, problem);
  }
  return data;
}

/**
 * A new game: a random deal of the given kind, or the deal of `code`.
 * @param {CreateGameRequest} request
 * @returns {Promise<CreatedGame>}
 */
export async function createGame(request) {
  // A player token makes the game count for the player; the game has its own game token.
  return /** @type {CreatedGame} */ (await call("POST", "/games", request, playerToken()));
}

/**
 * @param {string} gameId
 * @param {string | null} token
 * @returns {Promise<GameStateResponse>}
 */
export async function getGame(gameId, token) {
  return /** @type {GameStateResponse} */ (
    await call("GET", `/games/${encodeURIComponent(gameId)}`, undefined, token)
  );
}

/**
 * @param {CreateRaceRequest} request
 * @returns {Promise<RaceJoined>}
 */
export async function createRace(request) {
  return /** @type {RaceJoined} */ (await call("POST", "/races", request, playerToken()));
}

/**
 * @param {JoinRaceRequest} request
 * @returns {Promise<RaceJoined>}
 */
export async function joinRace(request) {
  return /** @type {RaceJoined} */ (await call("POST", "/races/join", request, playerToken()));
}
