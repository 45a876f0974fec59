/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").Change} Change */
/** @typedef {import("../types/protocol/server-message.js").ScoreChange} ScoreChange */
/** @typedef {import("../types/protocol/server-message.js").HintAnswer} HintAnswer */
/** @typedef {import("../types/protocol/server-message.js").ResultMessage} ResultMessage */
/** @typedef {import("../types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../types/protocol/action.js").Action} Action */
/**
 * What an accepted action, undo or resignation answers: the version it produced, the
 * action as applied, and whether the service had applied it already (a request sent again
 * after a lost connection).
 * @typedef {object} Played
 * @property {number} version
 * @property {string} notation
 * @property {boolean} duplicate
 * @property {Change | null} change  the change it made (null for a duplicate, or when it
 *   came as a frame of its own)
 */
/**
 * @typedef {object} PlayOptions
 * @property {number} [expectedVersion]  play only if the game is still at this version
 *   (else `stale_version`)
 * @property {number} [timeout]  ms for the answer (and for the state to include it)
 */
/**
 * @typedef {object} GameOptions
 * @property {string} gameId
 * @property {string | null} [token]  the game (or race) token: play; none: watch
 * @property {PublicState | null} [state]  a state already known (a creation answer's)
 * @property {number} [version]  its version
 * @property {boolean} [waitForStart]  a race game: until the race runs, `race_not_started`
 *   (and `not_found`) mean "not yet", and subscribing is tried again every 250 ms
 * @property {number} [maxInFlight]  actions of this game sent and unanswered at most; the
 *   others wait their turn (the service remembers the ids of the last 32); default 8
 */
/**
 * @typedef {object} GameEvents
 * @property {{ change: Change, state: PublicState, previous: PublicState }} change  a change
 *   was applied: `change.events` say what happened, in order, for animation
 * @property {{ state: PublicState, version: number }} snapshot  the state was replaced whole
 * @property {ScoreChange & { version: number }} score  the score changed
 * @property {PublicState} over  the game ended (won or resigned)
 * @property {boolean} synced  subscribed and up to date (true), or no longer sure (false)
 * @property {SolitaireError} error  a failure not tied to a request of yours
 * @property {Game} left  `leave()` was called
 */
/** @extends {Emitter<GameEvents>} */
export class Game extends Emitter<GameEvents> {
    /**
     * @param {Connection} connection
     * @param {GameOptions} options
     */
    constructor(connection: Connection, options: GameOptions);
    connection: import("./connection.js").Connection;
    /** @type {string} */
    id: string;
    /** @type {string | null} */
    token: string | null;
    /** @type {PublicState | null} the server's public state, as of `version` */
    state: PublicState | null;
    /** @type {number} -1 until a state is known */
    version: number;
    /** @type {"player" | "watcher" | null} */
    role: "player" | "watcher" | null;
    /** True while subscribed and up to date. */
    synced: boolean;
    /** True once `leave()` was called. */
    closed: boolean;
    waitForStart: boolean;
    maxInFlight: number;
    /**
     * Follows the game: subscribes (connecting first when needed), and again after every
     * reconnection. Resolves once the state is the server's.
     * @returns {Promise<Game>}
     */
    follow(): Promise<Game>;
    /** Whether the game is over (won or resigned). */
    get over(): boolean;
    /**
     * Plays one action (notation such as `"c3>f"`, or an object); resolves once the local
     * state includes it, rejects with a `SolitaireError` (`rule_violation` with its `rule`
     * and messages, `stale_version`, `invalid_action`...).
     * @param {Action | string} action
     * @param {PlayOptions} [options]
     * @returns {Promise<Played>}
     */
    act(action: Action | string, options?: PlayOptions): Promise<Played>;
    /**
     * Takes the last action back.
     * @param {PlayOptions} [options]
     */
    undo(options?: PlayOptions): Promise<Played>;
    /**
     * Ends the game where it stands (in a race: resigns from the race).
     * @param {{ timeout?: number }} [options]
     */
    resign(options?: {
        timeout?: number;
    }): Promise<Played>;
    /**
     * A suggested action, from what the player can see (not sent again after a lost
     * connection: each hint counts).
     * @param {{ timeout?: number }} [options]
     * @returns {Promise<HintAnswer>}
     */
    hint(options?: {
        timeout?: number;
    }): Promise<HintAnswer>;
    /**
     * Stops following the game (unsubscribes when connected). Its actions still unanswered
     * are answered as before.
     */
    leave(): void;
}
export type Connection = import("./connection.js").Connection;
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
export type Change = import("../types/protocol/server-message.js").Change;
export type ScoreChange = import("../types/protocol/server-message.js").ScoreChange;
export type HintAnswer = import("../types/protocol/server-message.js").HintAnswer;
export type ResultMessage = import("../types/protocol/server-message.js").ResultMessage;
export type PublicState = import("../types/protocol/public-state.js").PublicState;
export type Action = import("../types/protocol/action.js").Action;
/**
 * What an accepted action, undo or resignation answers: the version it produced, the
 * action as applied, and whether the service had applied it already (a request sent again
 * after a lost connection).
 */
export type Played = {
    version: number;
    notation: string;
    duplicate: boolean;
    /**
     * the change it made (null for a duplicate, or when it
     * came as a frame of its own)
     */
    change: Change | null;
};
export type PlayOptions = {
    /**
     * play only if the game is still at this version
     * (else `stale_version`)
     */
    expectedVersion?: number | undefined;
    /**
     * ms for the answer (and for the state to include it)
     */
    timeout?: number | undefined;
};
export type GameOptions = {
    gameId: string;
    /**
     * the game (or race) token: play; none: watch
     */
    token?: string | null | undefined;
    /**
     * a state already known (a creation answer's)
     */
    state?: import("../types/protocol/public-state.js").PublicState | null | undefined;
    /**
     * its version
     */
    version?: number | undefined;
    /**
     * a race game: until the race runs, `race_not_started`
     * (and `not_found`) mean "not yet", and subscribing is tried again every 250 ms
     */
    waitForStart?: boolean | undefined;
    /**
     * actions of this game sent and unanswered at most; the
     * others wait their turn (the service remembers the ids of the last 32); default 8
     */
    maxInFlight?: number | undefined;
};
export type GameEvents = {
    /**
     * a change
     * was applied: `change.events` say what happened, in order, for animation
     */
    change: {
        change: Change;
        state: PublicState;
        previous: PublicState;
    };
    /**
     * the state was replaced whole
     */
    snapshot: {
        state: PublicState;
        version: number;
    };
    /**
     * the score changed
     */
    score: ScoreChange & {
        version: number;
    };
    /**
     * the game ended (won or resigned)
     */
    over: PublicState;
    /**
     * subscribed and up to date (true), or no longer sure (false)
     */
    synced: boolean;
    /**
     * a failure not tied to a request of yours
     */
    error: SolitaireError;
    /**
     * `leave()` was called
     */
    left: Game;
};
import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";
