// @ts-check
// The player this browser is: its token and name, kept in localStorage.

const STORE_PLAYER = "solitaire.player";

/** @typedef {{ player_id: string, name: string, token: string }} SavedPlayer */

/** @returns {SavedPlayer | null} */
export function savedPlayer() {
  try {
    const raw = localStorage.getItem(STORE_PLAYER);
    if (!raw) return null;
    const player = JSON.parse(raw);
    return player && typeof player.token === "string" ? player : null;
  } catch {
    return null;
  }
}

/** @param {SavedPlayer | null} player */
export function savePlayer(player) {
  try {
    if (player) localStorage.setItem(STORE_PLAYER, JSON.stringify(player));
    else localStorage.removeItem(STORE_PLAYER);
  } catch {
    // storage may be unavailable (private mode): the player then lasts for the visit
  }
}

/** The player token to send with new games, or null when playing anonymously. */
export function playerToken() {
  return savedPlayer()?.token ?? null;
}
