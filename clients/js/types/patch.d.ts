/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped tokens.
 * @param {string} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer: string): string[];
/**
 * Returns `doc` with the operations applied in order, as a new document; `doc` itself and
 * the operations are left untouched. A bad operation throws `PatchError`.
 * @template T
 * @param {T} doc
 * @param {readonly PatchOperation[]} operations
 * @returns {T}
 */
export function applyPatch<T>(doc: T, operations: readonly PatchOperation[]): T;
/** @typedef {import("../types/protocol/server-message.js").AddOperation} AddOperation */
/** @typedef {import("../types/protocol/server-message.js").RemoveOperation} RemoveOperation */
/** @typedef {import("../types/protocol/server-message.js").ReplaceOperation} ReplaceOperation */
/** @typedef {AddOperation | RemoveOperation | ReplaceOperation} PatchOperation */
/** A patch that does not apply to the document (the caller then resynchronises). */
export class PatchError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
export type AddOperation = import("../types/protocol/server-message.js").AddOperation;
export type RemoveOperation = import("../types/protocol/server-message.js").RemoveOperation;
export type ReplaceOperation = import("../types/protocol/server-message.js").ReplaceOperation;
export type PatchOperation = AddOperation | RemoveOperation | ReplaceOperation;
