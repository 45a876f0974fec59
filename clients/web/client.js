// @ts-check
// The page's one client of the service, from the JavaScript SDK (clients/js), which the
// service serves at /sdk/ and index.html's import map names "@solitaire/sdk": the REST
// calls, and one WebSocket for the game and the race on the page.

import { SolitaireClient } from "@solitaire/sdk";
import { playerToken } from "./player-store.js";

export { SolitaireError } from "@solitaire/sdk";

export const client = new SolitaireClient({
  url: location.origin,
  // Read from localStorage each time: the profile page changes it.
  playerToken,
  // A page may stay open for hours: it keeps trying, every 4 s at most.
  reconnect: { maxAttempts: Number.POSITIVE_INFINITY, baseDelayMs: 200, maxDelayMs: 4000 },
});
