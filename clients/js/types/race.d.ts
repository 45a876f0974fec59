/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/** @typedef {import("./connection.js").Connection} Connection */
/** @typedef {import("../types/protocol/server-message.js").ServerMessage} ServerMessage */
/** @typedef {import("../types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../types/protocol/server-message.js").RacePlayer} RacePlayer */
/** @typedef {import("../types/protocol/server-message.js").RaceProgressMessage} RaceProgressMessage */
/** @typedef {import("../types/protocol/server-message.js").You} You */
/** @typedef {"ready" | "unready" | "start" | "resign" | "rematch"} RaceCommand */
/**
 * @typedef {object} RaceOptions
 * @property {string} raceId
 * @property {string | null} [token]  the race token: a player; none: a spectator
 * @property {RaceView | null} [race]  the race as already known
 * @property {You | null} [you]
 */
/**
 * @typedef {object} RaceEvents
 * @property {RaceView} race  the race changed (a `race` message, or live progress)
 * @property {RaceProgressMessage} progress  a player's live figures (also folded into `race`)
 * @property {SolitaireError} error  a failure not tied to a request of yours
 * @property {Race} left  `leave()` was called
 */
/** @extends {Emitter<RaceEvents>} */
export class Race extends Emitter<RaceEvents> {
    /**
     * @param {Connection} connection
     * @param {RaceOptions} options
     */
    constructor(connection: Connection, options: RaceOptions);
    connection: import("./connection.js").Connection;
    /** @type {string} */
    id: string;
    /** @type {string | null} */
    token: string | null;
    /** @type {RaceView | null} */
    race: RaceView | null;
    /** @type {You | null} this player's id and game (null for a spectator) */
    you: You | null;
    /** @type {number} the version of the last `race` message; -1 before the first */
    version: number;
    /** Server clock minus local clock, in ms. */
    clockOffset: number;
    closed: boolean;
    /**
     * Watches the race (connecting first when needed), and again after every reconnection.
     * Resolves with the race as the service has it.
     * @returns {Promise<Race>}
     */
    follow(): Promise<Race>;
    /** The server's clock now, as far as the last message tells. */
    serverNow(): number;
    /** This player's row of the race, or null (a spectator, or before the race is known). */
    me(): import("../types/protocol/server-message.js").RacePlayer | null;
    /** Whether this player is the host. */
    isHost(): boolean;
    /**
     * Sends a player's command; resolves once the service accepted it (the new race view
     * follows as a `race` event). Not sent again after a lost connection.
     * @param {RaceCommand} command
     * @param {{ timeout?: number }} [options]
     * @returns {Promise<void>}
     */
    command(command: RaceCommand, options?: {
        timeout?: number;
    }): Promise<void>;
    /** @param {boolean} [ready]  false takes it back */
    ready(ready?: boolean): Promise<void>;
    /** The host starts the countdown without waiting for everyone to be ready. */
    start(): Promise<void>;
    resign(): Promise<void>;
    /** Asks for a new race with the same players (its id comes as `race.rematch_race_id`). */
    rematch(): Promise<void>;
    /** Stops following the race (unwatches it when connected). */
    leave(): void;
}
export type Connection = import("./connection.js").Connection;
export type ServerMessage = import("../types/protocol/server-message.js").ServerMessage;
export type RaceView = import("../types/protocol/server-message.js").RaceView;
export type RacePlayer = import("../types/protocol/server-message.js").RacePlayer;
export type RaceProgressMessage = import("../types/protocol/server-message.js").RaceProgressMessage;
export type You = import("../types/protocol/server-message.js").You;
export type RaceCommand = "ready" | "unready" | "start" | "resign" | "rematch";
export type RaceOptions = {
    raceId: string;
    /**
     * the race token: a player; none: a spectator
     */
    token?: string | null | undefined;
    /**
     * the race as already known
     */
    race?: import("../types/protocol/server-message.js").RaceView | null | undefined;
    you?: import("../types/protocol/server-message.js").You | null | undefined;
};
export type RaceEvents = {
    /**
     * the race changed (a `race` message, or live progress)
     */
    race: RaceView;
    /**
     * a player's live figures (also folded into `race`)
     */
    progress: RaceProgressMessage;
    /**
     * a failure not tied to a request of yours
     */
    error: SolitaireError;
    /**
     * `leave()` was called
     */
    left: Race;
};
import { Emitter } from "./emitter.js";
import { SolitaireError } from "./errors.js";
