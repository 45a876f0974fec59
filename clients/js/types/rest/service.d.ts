/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../../types/protocol/rest/health.js").Health} Health */
export const ROUTES: string[];
export class ServiceApi {
    /** @param {Http} http */
    constructor(http: Http);
    http: import("../http.js").Http;
    /**
     * Where things are.
     * @returns {Promise<{ service: string, openapi: string, websocket: string, games: string }>}
     */
    info(): Promise<{
        service: string;
        openapi: string;
        websocket: string;
        games: string;
    }>;
    /** @returns {Promise<Health>} */
    health(): Promise<Health>;
    /**
     * Whether the store answers: rejects with a `SolitaireError` of status 503 when not.
     * @returns {Promise<Health>}
     */
    ready(): Promise<Health>;
    /**
     * The OpenAPI document of the REST API.
     * @returns {Promise<Record<string, unknown>>}
     */
    openapi(): Promise<Record<string, unknown>>;
}
export type Http = import("../http.js").Http;
export type Health = import("../../types/protocol/rest/health.js").Health;
