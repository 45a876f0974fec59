/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/player-created.js").PlayerCreated} PlayerCreated */
/** @typedef {import("../../types/protocol/rest/player-view.js").PlayerView} PlayerView */
/** @typedef {import("../../types/protocol/rest/player-stats.js").PlayerStats} PlayerStats */
/** @typedef {import("../../types/protocol/rest/link-code.js").LinkCode} LinkCode */
/** @typedef {import("../../types/protocol/rest/revoked.js").Revoked} Revoked */
export const ROUTES: string[];
export class PlayersApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     */
    constructor(http: Http, tokens: Tokens);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    /**
     * A new player. Its player token becomes the client's unless `{ keep: false }`.
     * @param {string} name
     * @param {{ keep?: boolean }} [options]
     * @returns {Promise<PlayerCreated>}
     */
    create(name: string, options?: {
        keep?: boolean;
    }): Promise<PlayerCreated>;
    /** @returns {Promise<PlayerView>} */
    me(): Promise<PlayerView>;
    /**
     * @param {string} name
     * @returns {Promise<PlayerView>}
     */
    rename(name: string): Promise<PlayerView>;
    /**
     * A one-time code that links another device to this player.
     * @returns {Promise<LinkCode>}
     */
    newLinkCode(): Promise<LinkCode>;
    /**
     * This device joins the player of `linkCode`; the new player token becomes the client's
     * unless `{ keep: false }`.
     * @param {string} linkCode
     * @param {{ keep?: boolean }} [options]
     * @returns {Promise<PlayerCreated>}
     */
    link(linkCode: string, options?: {
        keep?: boolean;
    }): Promise<PlayerCreated>;
    /**
     * Signs every other device of the player out.
     * @returns {Promise<Revoked>}
     */
    revokeOthers(): Promise<Revoked>;
    /**
     * The player's own statistics (with what only the player sees); another player's public
     * ones with `playerId`.
     * @param {string} [playerId]
     * @returns {Promise<PlayerStats>}
     */
    stats(playerId?: string): Promise<PlayerStats>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type PlayerCreated = import("../../types/protocol/rest/player-created.js").PlayerCreated;
export type PlayerView = import("../../types/protocol/rest/player-view.js").PlayerView;
export type PlayerStats = import("../../types/protocol/rest/player-stats.js").PlayerStats;
export type LinkCode = import("../../types/protocol/rest/link-code.js").LinkCode;
export type Revoked = import("../../types/protocol/rest/revoked.js").Revoked;
