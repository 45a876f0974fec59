// What several tests do: a winning line for a deal, and the server's view of a game.

/** @typedef {import("../../src/index.js").SolitaireClient} SolitaireClient */

/**
 * A line of actions that wins the deal of `code`, from the service's own solver: a game of
 * the code is dealt, resigned, and its analysis read.
 * @param {SolitaireClient} client
 * @param {string} code
 * @returns {Promise<string[]>}
 */
export async function winningLine(client, code) {
  const scratch = await client.games.create({ code });
  await client.games.resign(scratch.game_id);
  const analysis = await client.games.analysis(scratch.game_id);
  if (analysis.deal.result !== "won" || !analysis.deal.line) {
    throw new Error(`the solver found no win for ${code}: ${analysis.deal.result}`);
  }
  return analysis.deal.line;
}

/**
 * The game as `GET /games/{id}` has it.
 * @param {SolitaireClient} client
 * @param {string} gameId
 */
export async function serverGame(client, gameId) {
  const answer = await client.games.get(gameId);
  if (!answer) throw new Error("no answer");
  return answer;
}

/** Settings of a service that lets one test client play as fast as it can. */
export const FAST = {
  RATE_PER_SECOND: "2000",
  RATE_BURST: "2000",
};

/**
 * Waits until `done()` holds.
 * @param {() => boolean} done
 * @param {number} [ms]
 */
export async function waitFor(done, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
