/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./rest/pairing.js").PairingApi} PairingApi */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").SeekView} SeekView */
/** @typedef {import("../types/protocol/server-message.js").PairedMessage} PairedMessage */
/** @typedef {import("../types/protocol/client-message.js").SeekMessage} SeekMessage */
/**
 * The race a seek was paired into, and the seat in it: `player_token` is the race token
 * (also the game token of the seat's game), kept by the client.
 * @typedef {Omit<PairedMessage, "type">} Paired
 */
/**
 * @typedef {object} SeekNowOptions
 * @property {AbortSignal} [signal]  aborting cancels the seek (`cancel_seek`); the promise
 *   then rejects with `cancelled`, or resolves when a wave paired the seek first
 */
/**
 * @typedef {object} LiveSeekEvents
 * @property {SeekView} waiting  the service holds the seek; again after a reconnection,
 *   with the new seek's id
 * @property {Paired} paired  a wave paired the seek (once)
 * @property {SolitaireError} ended  the seek ended without a race (cancelled, refused, the
 *   client closed or gave up reconnecting); the promise rejects with the same error
 */
/** @extends {Emitter<LiveSeekEvents>} */
export class LiveSeek extends Emitter<LiveSeekEvents> {
    /**
     * Use `client.pairing.live(mode)` or `client.pairing.seekNow(mode)`.
     * @param {Connection} connection
     * @param {PairingApi} pairing
     * @param {SeekMessage["mode"]} mode
     * @param {SeekNowOptions} [options]
     */
    constructor(connection: Connection, pairing: PairingApi, mode: SeekMessage["mode"], options?: SeekNowOptions);
    connection: import("./connection.js").Connection;
    pairing: import("./rest/pairing.js").PairingApi;
    mode: "DS.D1N" | "DS.D3N" | "DS.D1V" | "DS.D3V" | "TF.D1N" | "TF.D3N";
    /** @type {SeekView | null} the seek as the service last answered it */
    seek: SeekView | null;
    /** @type {Paired | null} */
    paired: Paired | null;
    /** @type {SolitaireError | null} */
    error: SolitaireError | null;
    /** Resolves with the race once paired; rejects with a `SolitaireError` otherwise. */
    result: Promise<Paired>;
    /** True once paired, cancelled or failed. */
    get done(): boolean;
    /**
     * Cancels the seek (`cancel_seek`). Resolves with the paired race when a wave came
     * first, with null once cancelled.
     * @returns {Promise<Paired | null>}
     */
    cancel(): Promise<Paired | null>;
}
export type Connection = import("./connection.js").Connection;
export type ConnectionStatus = import("./connection.js").ConnectionStatus;
export type PairingApi = import("./rest/pairing.js").PairingApi;
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
export type SeekView = import("../types/protocol/server-message.js").SeekView;
export type PairedMessage = import("../types/protocol/server-message.js").PairedMessage;
export type SeekMessage = import("../types/protocol/client-message.js").SeekMessage;
/**
 * The race a seek was paired into, and the seat in it: `player_token` is the race token
 * (also the game token of the seat's game), kept by the client.
 */
export type Paired = Omit<PairedMessage, "type">;
export type SeekNowOptions = {
    /**
     * aborting cancels the seek (`cancel_seek`); the promise
     * then rejects with `cancelled`, or resolves when a wave paired the seek first
     */
    signal?: AbortSignal | undefined;
};
export type LiveSeekEvents = {
    /**
     * the service holds the seek; again after a reconnection,
     * with the new seek's id
     */
    waiting: SeekView;
    /**
     * a wave paired the seek (once)
     */
    paired: Paired;
    /**
     * the seek ended without a race (cancelled, refused, the
     * client closed or gave up reconnecting); the promise rejects with the same error
     */
    ended: SolitaireError;
};
import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";
