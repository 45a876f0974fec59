/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").WelcomeMessage} WelcomeMessage */
/** @typedef {import("../types/protocol/client-message.js").ClientMessage} ClientMessage */
/**
 * `idle` before the first `connect()`; `connecting` until the first connection is up;
 * `open`; `reconnecting` from a drop until the connection is back and every follower has
 * resumed; `disconnected` once the reconnection tries are spent (`reconnect()` starts
 * again); `closed` after `close()`.
 * @typedef {"idle" | "connecting" | "open" | "reconnecting" | "disconnected" | "closed"} ConnectionStatus
 */
/**
 * @typedef {object} ReconnectOptions
 * @property {number} [maxAttempts]  tries in a row before giving up (`disconnected`); default 10
 * @property {number} [baseDelayMs]  the first wait; each try doubles it; default 250
 * @property {number} [maxDelayMs]  the longest wait; default 8000
 */
/**
 * @typedef {object} ConnectionOptions
 * @property {string} url  the WebSocket address, `ws://host:port/ws`
 * @property {typeof WebSocket} [WebSocket]  the WebSocket class (default: the platform's)
 * @property {number} [requestTimeoutMs]  default time limit of a request; default 15000
 * @property {number} [heartbeatMs]  a ping after this long; default 15000
 * @property {number} [heartbeatTimeoutMs]  a socket silent this long is dropped and
 *   dialled again; default twice `heartbeatMs` plus 5 s
 * @property {ReconnectOptions} [reconnect]
 * @property {boolean} [changesInResults]  ask for the change of an accepted action inside
 *   its result (one frame per action); default true
 */
/**
 * @typedef {object} RequestOptions
 * @property {number} [timeout]  ms; default the connection's `requestTimeoutMs`
 * @property {boolean} [resend]  send again after a reconnection, with the same id (only for
 *   requests the service keeps idempotent by their id: action, undo, resign)
 * @property {boolean} [early]  sent while the followers resume, before the requests held
 *   back until then (used by the followers' own subscriptions)
 */
/**
 * A request waiting for its answer.
 * @typedef {object} Pending
 * @property {string} id
 * @property {Record<string, unknown>} frame
 * @property {(message: ServerMessage) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {ReturnType<typeof setTimeout> | undefined} timer
 * @property {boolean} resend
 * @property {boolean} early
 * @property {number} sentOn  the socket (by generation) it went out on; -1 while unsent
 */
/**
 * @typedef {object} ConnectionEvents
 * @property {ConnectionStatus} status  the status changed
 * @property {{ reconnected: boolean }} open  connected, followers resumed
 * @property {ServerMessage} message  every frame read, after the request it answers settles
 * @property {FrameError} frameRefused  a frame the SDK would not act on (it was ignored)
 * @property {SolitaireError} error  an error frame that answers no request of this client
 * @property {{ attempt: number, delayMs: number }} reconnecting  the next try, after a drop
 */
export const PROTOCOL: 1;
/** @extends {Emitter<ConnectionEvents>} */
export class Connection extends Emitter<ConnectionEvents> {
    /** @param {ConnectionOptions} options */
    constructor(options: ConnectionOptions);
    url: string;
    requestTimeoutMs: number;
    heartbeatMs: number;
    heartbeatTimeoutMs: number;
    reconnectOptions: {
        maxAttempts: number;
        baseDelayMs: number;
        maxDelayMs: number;
    };
    changesInResults: boolean;
    /** @type {typeof WebSocket | undefined} */
    WebSocketClass: typeof WebSocket | undefined;
    /** @type {ConnectionStatus} */
    status: ConnectionStatus;
    /** @type {WelcomeMessage | null} the last welcome: this connection's limits */
    welcome: WelcomeMessage | null;
    /** Times the socket was dialled again after a drop (for diagnostics and tests). */
    reconnects: number;
    /** A request id unique across page loads and devices. @param {string} kind */
    nextId(kind: string): string;
    /**
     * Connects (once; later calls wait for the same connection). Resolves when the service
     * has welcomed the client and every follower has resumed.
     * @returns {Promise<void>}
     */
    connect(): Promise<void>;
    /** Dials again at once after `disconnected` (or a drop); the followers resume. */
    reconnect(): Promise<void>;
    /**
     * Sends a request with a fresh id and resolves with the frame that answers it (a
     * `result`, `subscribed`, `unsubscribed`, `race`, `hint` or `pong`); an `error` frame
     * rejects it with a `SolitaireError`. Requests made while the socket is down wait for
     * it (within their time limit).
     * @param {Record<string, unknown> & { type: string }} body  the message without its id
     * @param {RequestOptions} [options]
     * @returns {Promise<ServerMessage>}
     */
    request(body: Record<string, unknown> & {
        type: string;
    }, options?: RequestOptions): Promise<ServerMessage>;
    /**
     * Runs `resume` after every (re)connection, before the requests held back until then;
     * returns the function that stops it.
     * @param {() => Promise<unknown>} resume
     */
    addResumer(resume: () => Promise<unknown>): () => boolean;
    /** Closes the socket as a network failure would: reconnection follows (for tests). */
    drop(): void;
    /** Closes for good: every waiting request is rejected with `closed`. */
    close(): void;
}
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
export type WelcomeMessage = import("../types/protocol/server-message.js").WelcomeMessage;
export type ClientMessage = import("../types/protocol/client-message.js").ClientMessage;
/**
 * `idle` before the first `connect()`; `connecting` until the first connection is up;
 * `open`; `reconnecting` from a drop until the connection is back and every follower has
 * resumed; `disconnected` once the reconnection tries are spent (`reconnect()` starts
 * again); `closed` after `close()`.
 */
export type ConnectionStatus = "idle" | "connecting" | "open" | "reconnecting" | "disconnected" | "closed";
export type ReconnectOptions = {
    /**
     * tries in a row before giving up (`disconnected`); default 10
     */
    maxAttempts?: number | undefined;
    /**
     * the first wait; each try doubles it; default 250
     */
    baseDelayMs?: number | undefined;
    /**
     * the longest wait; default 8000
     */
    maxDelayMs?: number | undefined;
};
export type ConnectionOptions = {
    /**
     * the WebSocket address, `ws://host:port/ws`
     */
    url: string;
    /**
     * the WebSocket class (default: the platform's)
     */
    WebSocket?: {
        new (url: string | URL, protocols?: string | string[]): WebSocket;
        prototype: WebSocket;
        readonly CONNECTING: 0;
        readonly OPEN: 1;
        readonly CLOSING: 2;
        readonly CLOSED: 3;
    } | undefined;
    /**
     * default time limit of a request; default 15000
     */
    requestTimeoutMs?: number | undefined;
    /**
     * a ping after this long; default 15000
     */
    heartbeatMs?: number | undefined;
    /**
     * a socket silent this long is dropped and
     * dialled again; default twice `heartbeatMs` plus 5 s
     */
    heartbeatTimeoutMs?: number | undefined;
    reconnect?: ReconnectOptions | undefined;
    /**
     * ask for the change of an accepted action inside
     * its result (one frame per action); default true
     */
    changesInResults?: boolean | undefined;
};
export type RequestOptions = {
    /**
     * ms; default the connection's `requestTimeoutMs`
     */
    timeout?: number | undefined;
    /**
     * send again after a reconnection, with the same id (only for
     * requests the service keeps idempotent by their id: action, undo, resign)
     */
    resend?: boolean | undefined;
    /**
     * sent while the followers resume, before the requests held
     * back until then (used by the followers' own subscriptions)
     */
    early?: boolean | undefined;
};
/**
 * A request waiting for its answer.
 */
export type Pending = {
    id: string;
    frame: Record<string, unknown>;
    resolve: (message: ServerMessage) => void;
    reject: (error: Error) => void;
    timer: ReturnType<typeof setTimeout> | undefined;
    resend: boolean;
    early: boolean;
    /**
     * the socket (by generation) it went out on; -1 while unsent
     */
    sentOn: number;
};
export type ConnectionEvents = {
    /**
     * the status changed
     */
    status: ConnectionStatus;
    /**
     * connected, followers resumed
     */
    open: {
        reconnected: boolean;
    };
    /**
     * every frame read, after the request it answers settles
     */
    message: ServerMessage;
    /**
     * a frame the SDK would not act on (it was ignored)
     */
    frameRefused: FrameError;
    /**
     * an error frame that answers no request of this client
     */
    error: SolitaireError;
    /**
     * the next try, after a drop
     */
    reconnecting: {
        attempt: number;
        delayMs: number;
    };
};
import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";
import { FrameError } from "./frames.js";
