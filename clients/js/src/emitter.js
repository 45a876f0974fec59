// @ts-check
// Typed events: `on(name, listener)` returns the function that removes the listener.

/**
 * @template {Record<string, unknown>} Events  event name -> what its listeners receive
 */
export class Emitter {
  constructor() {
    /** @type {Map<keyof Events, Set<(payload: any) => void>>} */
    this._listeners = new Map();
  }

  /**
   * Calls `listener` with every `event`; returns the function that stops it.
   * @template {keyof Events} K
   * @param {K} event
   * @param {(payload: Events[K]) => void} listener
   * @returns {() => void}
   */
  on(event, listener) {
    let listeners = this._listeners.get(event);
    if (!listeners) {
      listeners = new Set();
      this._listeners.set(event, listeners);
    }
    listeners.add(listener);
    return () => this.off(event, listener);
  }

  /**
   * Calls `listener` with the next `event` only.
   * @template {keyof Events} K
   * @param {K} event
   * @param {(payload: Events[K]) => void} listener
   * @returns {() => void}
   */
  once(event, listener) {
    /** @param {Events[K]} payload */
    const wrapper = (payload) => {
      this.off(event, wrapper);
      listener(payload);
    };
    return this.on(event, wrapper);
  }

  /**
   * @template {keyof Events} K
   * @param {K} event
   * @param {(payload: Events[K]) => void} listener
   */
  off(event, listener) {
    this._listeners.get(event)?.delete(listener);
  }

  /**
   * Calls the listeners in the order they were added. A listener that throws does not stop
   * the others nor the SDK: its error is thrown again on its own, where the platform reports
   * uncaught errors.
   * @template {keyof Events} K
   * @param {K} event
   * @param {Events[K]} payload
   */
  emit(event, payload) {
    const listeners = this._listeners.get(event);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(payload);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
