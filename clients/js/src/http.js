// @ts-check
// The REST half of the protocol: JSON over fetch, the bearer token a call needs, and every
// refusal turned into a `SolitaireError` from its RFC 9457 problem document.

import { SolitaireError, fromProblem } from "./errors.js";

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
  constructor(options) {
    /** The service's address, without a trailing slash. */
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this._fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /**
   * One request; resolves with any 2xx or 304 answer, rejects with a `SolitaireError`
   * for the others (`network` or `timeout` when no answer came).
   * @param {string} method
   * @param {string} path  from the root, with its parameters already encoded
   * @param {CallOptions} [options]
   * @returns {Promise<HttpAnswer>}
   */
  async send(method, path, options = {}) {
    /** @type {Record<string, string>} */
    const headers = { accept: "application/json", ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const url = this.baseUrl + path + queryString(options.query);
    const timeout = options.timeout ?? this.timeoutMs;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeout);
    let response;
    let text;
    try {
      response = await this._fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: abort.signal,
      });
      text = await response.text();
    } catch (error) {
      if (abort.signal.aborted) {
        throw new SolitaireError("timeout", `no answer to ${method} ${path} within ${timeout} ms`);
      }
      throw new SolitaireError("network", `${method} ${path} failed: ${String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    /** @type {unknown} */
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
        if (response.ok) {
          throw new SolitaireError("bad_answer", `${method} ${path} answered no JSON`, {
            status: response.status,
          });
        }
      }
    }
    if (!response.ok && response.status !== 304) {
      throw fromProblem(response.status, data, response.headers.get("retry-after"));
    }
    return { status: response.status, data, headers: response.headers };
  }

  /**
   * One request whose answer is its JSON body.
   * @param {string} method
   * @param {string} path
   * @param {CallOptions} [options]
   * @returns {Promise<any>}
   */
  async json(method, path, options) {
    return (await this.send(method, path, options)).data;
  }
}

/** @param {Record<string, string | number | undefined> | undefined} query */
function queryString(query) {
  if (!query) return "";
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined);
  if (!pairs.length) return "";
  const encoded = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `?${encoded.join("&")}`;
}

/** A path segment. @param {string} value */
export const seg = (value) => encodeURIComponent(value);
