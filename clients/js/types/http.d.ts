/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/**
 * @typedef {object} CallOptions
 * @property {unknown} [body]  sent as JSON
 * @property {string | null} [token]  sent as `Authorization: Bearer`
 * @property {Record<string, string | number | undefined>} [query]
 * @property {Record<string, string>} [headers]
 * @property {number} [timeout]  ms; default the client's `requestTimeoutMs`
 */
/**
 * @typedef {object} HttpAnswer
 * @property {number} status
 * @property {unknown} data  the parsed JSON body (null when empty, or for a 304)
 * @property {Headers} headers
 */
export class Http {
    /**
     * @param {{ baseUrl: string, fetch?: typeof fetch, timeoutMs?: number }} options
     */
    constructor(options: {
        baseUrl: string;
        fetch?: typeof fetch;
        timeoutMs?: number;
    });
    /** The service's address, without a trailing slash. */
    baseUrl: string;
    timeoutMs: number;
    /**
     * One request; resolves with any 2xx or 304 answer, rejects with a `SolitaireError`
     * for the others (`network` or `timeout` when no answer came).
     * @param {string} method
     * @param {string} path  from the root, with its parameters already encoded
     * @param {CallOptions} [options]
     * @returns {Promise<HttpAnswer>}
     */
    send(method: string, path: string, options?: CallOptions): Promise<HttpAnswer>;
    /**
     * One request whose answer is its JSON body.
     * @param {string} method
     * @param {string} path
     * @param {CallOptions} [options]
     * @returns {Promise<any>}
     */
    json(method: string, path: string, options?: CallOptions): Promise<any>;
}
export function seg(value: string): string;
export type CallOptions = {
    /**
     * sent as JSON
     */
    body?: unknown;
    /**
     * sent as `Authorization: Bearer`
     */
    token?: string | null | undefined;
    query?: Record<string, string | number | undefined> | undefined;
    headers?: Record<string, string> | undefined;
    /**
     * ms; default the client's `requestTimeoutMs`
     */
    timeout?: number | undefined;
};
export type HttpAnswer = {
    status: number;
    /**
     * the parsed JSON body (null when empty, or for a 304)
     */
    data: unknown;
    headers: Headers;
};
