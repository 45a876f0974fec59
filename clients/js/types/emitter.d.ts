/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/**
 * @template {Record<string, unknown>} Events  event name -> what its listeners receive
 */
export class Emitter<Events extends Record<string, unknown>> {
    /**
     * Calls `listener` with every `event`; returns the function that stops it.
     * @template {keyof Events} K
     * @param {K} event
     * @param {(payload: Events[K]) => void} listener
     * @returns {() => void}
     */
    on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void;
    /**
     * Calls `listener` with the next `event` only.
     * @template {keyof Events} K
     * @param {K} event
     * @param {(payload: Events[K]) => void} listener
     * @returns {() => void}
     */
    once<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void;
    /**
     * @template {keyof Events} K
     * @param {K} event
     * @param {(payload: Events[K]) => void} listener
     */
    off<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): void;
    /**
     * Calls the listeners in the order they were added. A listener that throws does not stop
     * the others nor the SDK: its error is thrown again on its own, where the platform reports
     * uncaught errors.
     * @template {keyof Events} K
     * @param {K} event
     * @param {Events[K]} payload
     */
    emit<K extends keyof Events>(event: K, payload: Events[K]): void;
}
