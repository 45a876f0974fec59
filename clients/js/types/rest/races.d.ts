/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/create-race-request.js").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("../../types/protocol/rest/join-race-request.js").JoinRaceRequest} JoinRaceRequest */
/** @typedef {import("../../types/protocol/rest/race-joined.js").RaceJoined} RaceJoined */
/** @typedef {import("../../types/protocol/rest/race-response.js").RaceResponse} RaceResponse */
/** @typedef {{ token?: string | null }} TokenOption */
export const ROUTES: string[];
export class RacesApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     */
    constructor(http: Http, tokens: Tokens);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    /**
     * A new race, with you as its host. The race token (also your race game's game token)
     * is kept for the calls that follow.
     * @param {CreateRaceRequest} request
     * @returns {Promise<RaceJoined>}
     */
    create(request: CreateRaceRequest): Promise<RaceJoined>;
    /**
     * Takes a seat in the race of a join code.
     * @param {JoinRaceRequest} request
     * @returns {Promise<RaceJoined>}
     */
    join(request: JoinRaceRequest): Promise<RaceJoined>;
    /**
     * The race; with the race token, `you` too.
     * @param {string} raceId
     * @param {TokenOption} [options]
     * @returns {Promise<RaceResponse>}
     */
    get(raceId: string, options?: TokenOption): Promise<RaceResponse>;
    /**
     * @param {string} raceId
     * @param {boolean} [ready]  false takes it back
     * @param {TokenOption} [options]
     * @returns {Promise<RaceResponse>}
     */
    ready(raceId: string, ready?: boolean, options?: TokenOption): Promise<RaceResponse>;
    /**
     * @param {string} raceId
     * @param {TokenOption} [options]
     * @returns {Promise<RaceResponse>}
     */
    start(raceId: string, options?: TokenOption): Promise<RaceResponse>;
    /**
     * @param {string} raceId
     * @param {TokenOption} [options]
     * @returns {Promise<RaceResponse>}
     */
    resign(raceId: string, options?: TokenOption): Promise<RaceResponse>;
    /**
     * The new race of the same players; the same race token plays it.
     * @param {string} raceId
     * @param {TokenOption} [options]
     * @returns {Promise<RaceResponse>}
     */
    rematch(raceId: string, options?: TokenOption): Promise<RaceResponse>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type CreateRaceRequest = import("../../types/protocol/rest/create-race-request.js").CreateRaceRequest;
export type JoinRaceRequest = import("../../types/protocol/rest/join-race-request.js").JoinRaceRequest;
export type RaceJoined = import("../../types/protocol/rest/race-joined.js").RaceJoined;
export type RaceResponse = import("../../types/protocol/rest/race-response.js").RaceResponse;
export type TokenOption = {
    token?: string | null;
};
