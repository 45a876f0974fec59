// @ts-check
// REST calls about the service itself.

/** @typedef {import("../http.js").Http} Http */
/** @typedef {import("../../types/protocol/rest/health.js").Health} Health */

export const ROUTES = ["GET /api", "GET /healthz", "GET /readyz", "GET /openapi.json"];

export class ServiceApi {
  /** @param {Http} http */
  constructor(http) {
    this.http = http;
  }

  /**
   * Where things are.
   * @returns {Promise<{ service: string, openapi: string, websocket: string, games: string }>}
   */
  info() {
    return this.http.json("GET", "/api");
  }

  /** @returns {Promise<Health>} */
  health() {
    return this.http.json("GET", "/healthz");
  }

  /**
   * Whether the store answers: rejects with a `SolitaireError` of status 503 when not.
   * @returns {Promise<Health>}
   */
  ready() {
    return this.http.json("GET", "/readyz");
  }

  /**
   * The OpenAPI document of the REST API.
   * @returns {Promise<Record<string, unknown>>}
   */
  openapi() {
    return this.http.json("GET", "/openapi.json");
  }
}
