/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../tokens.js").Tokens} Tokens */
/** @typedef {import("../connection.js").Connection} Connection */
/** @typedef {import("../seek.js").Paired} Paired */
/** @typedef {import("../seek.js").SeekNowOptions} SeekNowOptions */
/** @typedef {import("../../types/protocol/rest/seek-request.js").SeekRequest} SeekRequest */
/** @typedef {import("../../types/protocol/rest/seek-response.js").SeekResponse} SeekResponse */
export const ROUTES: string[];
export class PairingApi {
    /**
     * @param {Http} http
     * @param {Tokens} tokens
     * @param {Connection | null} [connection]  the client's WebSocket, for `seekNow` and `live`
     */
    constructor(http: Http, tokens: Tokens, connection?: Connection | null);
    http: import("../http.js").Http;
    tokens: import("../tokens.js").Tokens;
    connection: import("../connection.js").Connection | null;
    /**
     * Asks to race now in a mode over the WebSocket, with the client's player token, and
     * resolves with the race once a wave pairs the seek (its race token is kept). The seek
     * lives while the socket does: the service cancels it when the socket closes. Aborting
     * `signal` cancels it (the promise rejects with `cancelled`, or resolves when a wave came
     * first). After a reconnection the SDK seeks again on the new socket (see `live`).
     * @param {SeekRequest["mode"]} mode  e.g. `"TF.D1N"`
     * @param {SeekNowOptions} [options]
     * @returns {Promise<Paired>}
     */
    seekNow(mode: SeekRequest["mode"], options?: SeekNowOptions): Promise<Paired>;
    /**
     * `seekNow` with its events: `waiting` (the seek the service holds, again with a new
     * id after a reconnection), `paired`, `ended`; `result` is `seekNow`'s promise and
     * `cancel()` cancels.
     * @param {SeekRequest["mode"]} mode
     * @param {SeekNowOptions} [options]
     * @returns {LiveSeek}
     */
    live(mode: SeekRequest["mode"], options?: SeekNowOptions): LiveSeek;
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
export type Connection = import("../connection.js").Connection;
export type Paired = import("../seek.js").Paired;
export type SeekNowOptions = import("../seek.js").SeekNowOptions;
export type SeekRequest = import("../../types/protocol/rest/seek-request.js").SeekRequest;
export type SeekResponse = import("../../types/protocol/rest/seek-response.js").SeekResponse;
import { LiveSeek } from "../seek.js";
