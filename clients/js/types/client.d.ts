/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
/**
 * The WebSocket beside the REST API: `http://host:port` -> `ws://host:port/ws`, `https`
 * -> `wss`, a path prefix kept (a service behind a proxy at `/solitaire`).
 * @param {string} baseUrl
 */
export function socketUrlOf(baseUrl: string): string;
/** @typedef {import("./connection.js").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./connection.js").ReconnectOptions} ReconnectOptions */
/** @typedef {import("./frames.js").FrameError} FrameError */
/** @typedef {import("./errors.js").SolitaireError} SolitaireError */
/** @typedef {import("../types/protocol/public-state.js").PublicState} PublicState */
/** @typedef {import("../types/protocol/server-message.js").RaceView} RaceView */
/** @typedef {import("../types/protocol/server-message.js").You} You */
/**
 * @typedef {object} ClientOptions
 * @property {string} [url]  the service, `http://host:port` (default: the page's origin)
 * @property {string} [socketUrl]  the WebSocket (default: `ws://` or `wss://` + host + `/ws`)
 * @property {string | null | (() => string | null)} [playerToken]  sent where a player
 *   token is wanted; a function is asked each time
 * @property {typeof fetch} [fetch]  default: the platform's
 * @property {typeof WebSocket} [WebSocket]  default: the platform's (Node 20 has none
 *   without --experimental-websocket: pass `ws`'s)
 * @property {number} [requestTimeoutMs]  default time limit of a request, REST or
 *   WebSocket; default 15000
 * @property {number} [heartbeatMs]  a ping after this long; default 15000
 * @property {number} [heartbeatTimeoutMs]  a socket silent this long is dialled again;
 *   default twice `heartbeatMs` plus 5 s
 * @property {ReconnectOptions} [reconnect]  tries and backoff
 * @property {boolean} [changesInResults]  default true: one frame per accepted action
 * @property {number} [maxInFlight]  unanswered actions per game at most; default 8
 */
/**
 * @typedef {object} FollowOptions
 * @property {string | null} [token]  the game (or race) token; default the one the client
 *   was given for this game; null watches
 * @property {PublicState | null} [state]  a state already known (a creation answer's)
 * @property {number} [version]  its version
 * @property {boolean} [waitForStart]  a race game: wait for the race to run
 */
/**
 * @typedef {object} RaceFollowOptions
 * @property {string | null} [token]  the race token; default the one the client was given
 *   for this race; null spectates
 * @property {RaceView | null} [race]  the race as already known
 * @property {You | null} [you]
 */
/**
 * @typedef {object} ClientEvents
 * @property {ConnectionStatus} status  the WebSocket's status changed
 * @property {FrameError} frameRefused  the service sent a frame the SDK would not act on
 * @property {SolitaireError} error  an error frame that answers no request
 */
/** @extends {Emitter<ClientEvents>} */
export class SolitaireClient extends Emitter<ClientEvents> {
    /** @param {ClientOptions} [options] */
    constructor(options?: ClientOptions);
    tokens: Tokens;
    http: Http;
    connection: Connection;
    maxInFlight: number | undefined;
    /** Games: create, read, play over HTTP, hints, analysis, records, replays. */
    games: GamesApi;
    /** Races: create, join, read, commands. */
    races: RacesApi;
    /** Quick pairing: race now over the WebSocket, or seek, read and cancel by REST. */
    pairing: PairingApi;
    /** Arena tournaments: list, make, join, leave, standings (followed live), heats. */
    arenas: ArenasApi;
    /** Players, link codes, statistics. */
    players: PlayersApi;
    /** The daily challenge and the leaderboards. */
    daily: DailyApi;
    /** Health and the OpenAPI document. */
    service: ServiceApi;
    /** The WebSocket's status. */
    get status(): import("./connection.js").ConnectionStatus;
    /** Opens the WebSocket (following a game or a race opens it too). */
    connect(): Promise<void>;
    /**
     * The game object of `gameId` for this client, made (not yet following) when there is
     * none: listen to its events, then `follow()` it. The same object is returned until it
     * is left.
     * @param {string} gameId
     * @param {FollowOptions} [options]
     * @returns {Game}
     */
    game(gameId: string, options?: FollowOptions): Game;
    /**
     * Follows a game over the WebSocket: as its player with its token (the client keeps the
     * tokens of the games it created), or as a watcher (`token: null`). Resolves once its
     * state is the server's; a game that cannot be followed is left, and the promise rejects.
     * @param {string} gameId
     * @param {FollowOptions} [options]
     * @returns {Promise<Game>}
     */
    follow(gameId: string, options?: FollowOptions): Promise<Game>;
    /**
     * The race object of `raceId` for this client, made (not yet watching) when there is
     * none: listen to its events, then `follow()` it.
     * @param {string} raceId
     * @param {RaceFollowOptions} [options]
     * @returns {Race}
     */
    race(raceId: string, options?: RaceFollowOptions): Race;
    /**
     * Follows a race: as one of its players with the race token (kept by the client for the
     * races it created or joined), or as a spectator (`token: null`). Resolves once the race
     * view is the server's.
     * @param {string} raceId
     * @param {RaceFollowOptions} [options]
     * @returns {Promise<Race>}
     */
    watchRace(raceId: string, options?: RaceFollowOptions): Promise<Race>;
    /**
     * Follows this player's own game of a followed race, once the race runs.
     * @param {Race} race
     * @returns {Promise<Game>}
     */
    playRace(race: Race): Promise<Game>;
    /** The games followed now. */
    get followedGames(): Game[];
    /** The races followed now. */
    get followedRaces(): Race[];
    /** Closes the WebSocket for good; REST calls still work. */
    close(): void;
}
export type ConnectionStatus = import("./connection.js").ConnectionStatus;
export type ReconnectOptions = import("./connection.js").ReconnectOptions;
export type FrameError = import("./frames.js").FrameError;
export type SolitaireError = import("./errors.js").SolitaireError;
export type PublicState = import("../types/protocol/public-state.js").PublicState;
export type RaceView = import("../types/protocol/server-message.js").RaceView;
export type You = import("../types/protocol/server-message.js").You;
export type ClientOptions = {
    /**
     * the service, `http://host:port` (default: the page's origin)
     */
    url?: string | undefined;
    /**
     * the WebSocket (default: `ws://` or `wss://` + host + `/ws`)
     */
    socketUrl?: string | undefined;
    /**
     * sent where a player
     * token is wanted; a function is asked each time
     */
    playerToken?: string | (() => string | null) | null | undefined;
    /**
     * default: the platform's
     */
    fetch?: typeof fetch | undefined;
    /**
     * default: the platform's (Node 20 has none
     * without --experimental-websocket: pass `ws`'s)
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
     * default time limit of a request, REST or
     * WebSocket; default 15000
     */
    requestTimeoutMs?: number | undefined;
    /**
     * a ping after this long; default 15000
     */
    heartbeatMs?: number | undefined;
    /**
     * a socket silent this long is dialled again;
     * default twice `heartbeatMs` plus 5 s
     */
    heartbeatTimeoutMs?: number | undefined;
    /**
     * tries and backoff
     */
    reconnect?: import("./connection.js").ReconnectOptions | undefined;
    /**
     * default true: one frame per accepted action
     */
    changesInResults?: boolean | undefined;
    /**
     * unanswered actions per game at most; default 8
     */
    maxInFlight?: number | undefined;
};
export type FollowOptions = {
    /**
     * the game (or race) token; default the one the client
     * was given for this game; null watches
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
     * a race game: wait for the race to run
     */
    waitForStart?: boolean | undefined;
};
export type RaceFollowOptions = {
    /**
     * the race token; default the one the client was given
     * for this race; null spectates
     */
    token?: string | null | undefined;
    /**
     * the race as already known
     */
    race?: import("../types/protocol/server-message.js").RaceView | null | undefined;
    you?: import("../types/protocol/server-message.js").You | null | undefined;
};
export type ClientEvents = {
    /**
     * the WebSocket's status changed
     */
    status: ConnectionStatus;
    /**
     * the service sent a frame the SDK would not act on
     */
    frameRefused: FrameError;
    /**
     * an error frame that answers no request
     */
    error: SolitaireError;
};
import { Emitter } from "./emitter.js";
import { Tokens } from "./tokens.js";
import { Http } from "./http.js";
import { Connection } from "./connection.js";
import { GamesApi } from "./rest/games.js";
import { RacesApi } from "./rest/races.js";
import { PairingApi } from "./rest/pairing.js";
import { ArenasApi } from "./rest/arenas.js";
import { PlayersApi } from "./rest/players.js";
import { DailyApi } from "./rest/daily.js";
import { ServiceApi } from "./rest/service.js";
import { Game } from "./game.js";
import { Race } from "./race.js";
