/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @param {unknown} change */
export function isChange(change: unknown): boolean;
/**
 * Parses and checks one frame (text, or UTF-8 JSON bytes); throws `FrameError` when the
 * SDK cannot act on it.
 * @param {unknown} data  a WebSocket message's data
 * @returns {ServerMessage}
 */
export function readFrame(data: unknown): ServerMessage;
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** A frame from the server that the SDK refuses to act on. */
export class FrameError extends Error {
    /**
     * @param {string} message
     * @param {unknown} frame  the frame as received (text, bytes or parsed value)
     */
    constructor(message: string, frame: unknown);
    frame: unknown;
}
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
