/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../connection.js").Connection} Connection */
/** @typedef {import("../arena.js").FollowArenaOptions} FollowArenaOptions */
/** @typedef {import("../../types/protocol/rest/create-arena-request.js").CreateArenaRequest} CreateArenaRequest */
/** @typedef {import("../../types/protocol/rest/arena-response.js").ArenaResponse} ArenaResponse */
/** @typedef {import("../../types/protocol/rest/arena-list.js").ArenaList} ArenaList */
/** @typedef {import("../../types/protocol/rest/arena-standings.js").ArenaStandings} ArenaStandings */
/** @typedef {import("../../types/protocol/rest/arena-heats.js").ArenaHeats} ArenaHeats */
export const ROUTES: string[];
export class ArenasApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     * @param {Connection | null} [connection]  the client's WebSocket, for `follow`
     */
    constructor(http: Http, tokens: Tokens, connection?: Connection | null);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    connection: import("../connection.js").Connection | null;
    /**
     * Follows a page of the arena's standings over the WebSocket (`follow_arena`), with
     * the client's player token when it has one (then `page.you` is its line and heat, the
     * heat's race token kept). `page` stays current: each change is applied as it comes.
     * Events: `standings` (the page changed), `final` (the last page; following stops),
     * `ended`. After a reconnection it follows again and the page comes in full.
     * @param {string} arenaId
     * @param {FollowArenaOptions} [options]
     * @returns {ArenaFollow}
     */
    follow(arenaId: string, options?: FollowArenaOptions): ArenaFollow;
    /**
     * Arenas upcoming, running and finished (the last two days).
     * @returns {Promise<ArenaList>}
     */
    list(): Promise<ArenaList>;
    /**
     * Makes an arena of the client's player, starting now or `starts_in` minutes ahead.
     * @param {CreateArenaRequest} body  e.g. `{mode: "TF.D1N", name: "Friday", minutes: 30}`
     * @returns {Promise<ArenaResponse>}
     */
    create(body: CreateArenaRequest): Promise<ArenaResponse>;
    /**
     * The arena, with the client's line and heat when its player joined; the heat's race
     * token is kept.
     * @param {string} arenaId
     * @returns {Promise<ArenaResponse>}
     */
    get(arenaId: string): Promise<ArenaResponse>;
    /**
     * Cancels an arena the client's player made, before it starts.
     * @param {string} arenaId
     * @returns {Promise<ArenaResponse>}
     */
    cancel(arenaId: string): Promise<ArenaResponse>;
    /**
     * Joins the arena, or comes back after leaving.
     * @param {string} arenaId
     * @returns {Promise<ArenaResponse>}
     */
    join(arenaId: string): Promise<ArenaResponse>;
    /**
     * Leaves the arena: no more heats until joining again.
     * @param {string} arenaId
     * @returns {Promise<ArenaResponse>}
     */
    leave(arenaId: string): Promise<ArenaResponse>;
    /**
     * A page (from 1) of 20 lines of the standings.
     * @param {string} arenaId
     * @param {number} [page]
     * @returns {Promise<ArenaStandings>}
     */
    standings(arenaId: string, page?: number): Promise<ArenaStandings>;
    /**
     * Every heat: its race (readable and replayable once over) and outcomes.
     * @param {string} arenaId
     * @returns {Promise<ArenaHeats>}
     */
    heats(arenaId: string): Promise<ArenaHeats>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type Connection = import("../connection.js").Connection;
export type FollowArenaOptions = import("../arena.js").FollowArenaOptions;
export type CreateArenaRequest = import("../../types/protocol/rest/create-arena-request.js").CreateArenaRequest;
export type ArenaResponse = import("../../types/protocol/rest/arena-response.js").ArenaResponse;
export type ArenaList = import("../../types/protocol/rest/arena-list.js").ArenaList;
export type ArenaStandings = import("../../types/protocol/rest/arena-standings.js").ArenaStandings;
export type ArenaHeats = import("../../types/protocol/rest/arena-heats.js").ArenaHeats;
import { ArenaFollow } from "../arena.js";
