/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./tokens.js").Tokens} Tokens */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").ArenaStandingsMessage} ArenaStandingsMessage */
/** @typedef {import("../types/protocol/server-message.js").ArenaRow} ArenaRow */
/** @typedef {import("../types/protocol/server-message.js").ArenaYou} ArenaYou */
/**
 * The followed page as it stands.
 * @typedef {object} ArenaPage
 * @property {string} arena_id
 * @property {number} page
 * @property {number} total  players in the standings
 * @property {boolean} final  the arena is over and every heat counted
 * @property {ArenaRow[]} rows  the page's lines, by rank
 * @property {ArenaYou | null} you  the client's own line and heat (with a player token)
 */
/**
 * @typedef {object} FollowArenaOptions
 * @property {number} [page]  the page of 20 lines, from 1 (default 1)
 * @property {AbortSignal} [signal]  aborting stops following (`unfollow_arena`)
 */
/**
 * @typedef {object} ArenaFollowEvents
 * @property {ArenaPage} standings  the page changed (the first time in full)
 * @property {ArenaPage} final  the standings are final; following stops
 * @property {SolitaireError} ended  following stopped before the final page: stopped
 *   (`cancelled`), refused, the client closed or gave up reconnecting
 */
/** @extends {Emitter<ArenaFollowEvents>} */
export class ArenaFollow extends Emitter<ArenaFollowEvents> {
    /**
     * Use `client.arenas.follow(arenaId)`.
     * @param {Connection} connection
     * @param {Tokens} tokens
     * @param {string} arenaId
     * @param {FollowArenaOptions} [options]
     */
    constructor(connection: Connection, tokens: Tokens, arenaId: string, options?: FollowArenaOptions);
    connection: import("./connection.js").Connection;
    tokens: import("./tokens.js").Tokens;
    arenaId: string;
    pageNumber: number;
    /** @type {ArenaPage | null} the page as it stands, once the first full page came */
    page: ArenaPage | null;
    /** @type {SolitaireError | null} why following stopped before the final page */
    error: SolitaireError | null;
    /** True once the final page came. */
    finished: boolean;
    /** True once following stopped. */
    get done(): boolean;
    /** Stops following (`unfollow_arena`). */
    stop(): Promise<void>;
}
export type Connection = import("./connection.js").Connection;
export type ConnectionStatus = import("./connection.js").ConnectionStatus;
export type Tokens = import("./tokens.js").Tokens;
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
export type ArenaStandingsMessage = import("../types/protocol/server-message.js").ArenaStandingsMessage;
export type ArenaRow = import("../types/protocol/server-message.js").ArenaRow;
export type ArenaYou = import("../types/protocol/server-message.js").ArenaYou;
/**
 * The followed page as it stands.
 */
export type ArenaPage = {
    arena_id: string;
    page: number;
    /**
     * players in the standings
     */
    total: number;
    /**
     * the arena is over and every heat counted
     */
    final: boolean;
    /**
     * the page's lines, by rank
     */
    rows: ArenaRow[];
    /**
     * the client's own line and heat (with a player token)
     */
    you: ArenaYou | null;
};
export type FollowArenaOptions = {
    /**
     * the page of 20 lines, from 1 (default 1)
     */
    page?: number | undefined;
    /**
     * aborting stops following (`unfollow_arena`)
     */
    signal?: AbortSignal | undefined;
};
export type ArenaFollowEvents = {
    /**
     * the page changed (the first time in full)
     */
    standings: ArenaPage;
    /**
     * the standings are final; following stops
     */
    final: ArenaPage;
    /**
     * following stopped before the final page: stopped
     * (`cancelled`), refused, the client closed or gave up reconnecting
     */
    ended: SolitaireError;
};
import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";
