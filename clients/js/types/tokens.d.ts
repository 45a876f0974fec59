/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. Do not edit: change the source, then run scripts/check-types --write. */
export class Tokens {
    /** @param {string | null | (() => string | null)} [player] */
    constructor(player?: string | null | (() => string | null));
    /** The player token to send, or null (anonymous). */
    player(): string | null;
    /**
     * A token, or a function that reads it each time (from a store the front end keeps).
     * @param {string | null | (() => string | null)} token
     */
    setPlayer(token: string | null | (() => string | null)): void;
    /** @param {string} gameId */
    game(gameId: string): string | null;
    /** @param {string} gameId @param {string} token */
    setGame(gameId: string, token: string): void;
    /** @param {string} raceId */
    race(raceId: string): string | null;
    /** @param {string} raceId @param {string} token */
    setRace(raceId: string, token: string): void;
}
