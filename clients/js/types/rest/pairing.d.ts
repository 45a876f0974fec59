/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../../types/protocol/rest/seek-request.js").SeekRequest} SeekRequest */
/** @typedef {import("../../types/protocol/rest/seek-response.js").SeekResponse} SeekResponse */
export const ROUTES: string[];
export class PairingApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     */
    constructor(http: Http, tokens: Tokens);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    /**
     * Asks to race now in a mode, with the client's player token. Poll `get` until the
     * seek is `paired` (each read keeps it alive); its race token is then kept.
     * @param {SeekRequest["mode"]} mode  e.g. `"TF.D1N"`
     * @returns {Promise<SeekResponse>}
     */
    seek(mode: SeekRequest["mode"]): Promise<SeekResponse>;
    /**
     * The seek: `waiting`, `paired` (with `race`) or `cancelled`.
     * @param {string} seekId
     * @returns {Promise<SeekResponse>}
     */
    get(seekId: string): Promise<SeekResponse>;
    /**
     * Cancels the seek; one already paired stays paired (the answer says so).
     * @param {string} seekId
     * @returns {Promise<SeekResponse>}
     */
    cancel(seekId: string): Promise<SeekResponse>;
}
export type Http = import("../http.js").Http;
export type Tokens = import("../tokens.js").Tokens;
export type SeekRequest = import("../../types/protocol/rest/seek-request.js").SeekRequest;
export type SeekResponse = import("../../types/protocol/rest/seek-response.js").SeekResponse;
