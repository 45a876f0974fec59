// @ts-check
// The shuffled deck of a game code, dealt in the browser exactly as docs/deal.md
// specifies, so that a replay needs no game of its own on the server (rules.js deals it).

const MASK = (1n << 64n) - 1n;
const RANKS = "A23456789TJQK";
const SUITS = "SHDC";

/** @param {number} card */
export function cardText(card) {
  return RANKS[card % 13] + SUITS[Math.floor(card / 13)];
}

/**
 * @typedef {{ game: "DS" | "TF", draw: 1 | 3, scoring: "normal" | "vegas", letters: string }} ParsedCode
 */

/**
 * @param {string} code e.g. `DS1-D3V-QWERTYU` or a 28-letter secret code
 * @returns {ParsedCode}
 */
export function parseCode(code) {
  const match = /^(DS|TF)1-D([13])([NV])-([A-Z]{7}|[A-Z]{28})$/.exec(code.toUpperCase());
  if (!match) throw new Error(`not a game code: ${code}`);
  const game = match[1] === "TF" ? "TF" : "DS";
  const scoring = match[3] === "V" ? "vegas" : "normal";
  if (game === "TF" && scoring === "vegas") throw new Error(`not a game code: ${code}`);
  return { game, draw: match[2] === "3" ? 3 : 1, scoring, letters: match[4] };
}

/** @param {string} letters base 26, `A` = 0, most significant first */
function base26(letters) {
  let n = 0n;
  for (const ch of letters) n = n * 26n + BigInt(ch.charCodeAt(0) - 65);
  return n;
}

/** @param {"DS" | "TF"} game */
function unshuffled(game) {
  const deck = [];
  for (let copy = 0; copy < (game === "DS" ? 2 : 1); copy++) {
    for (let card = 0; card < 52; card++) deck.push(card);
  }
  return deck;
}

/**
 * The numbers of a public deal: SplitMix64 seeded with the deal number.
 * @param {bigint} seed
 * @returns {() => Promise<bigint>}
 */
function splitmix(seed) {
  let state = seed;
  return async () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
}

/**
 * The numbers of a secret deal: the first 8 bytes of SHA-256(seed16 || k).
 * @param {bigint} seed
 * @returns {() => Promise<bigint>}
 */
function sha256Stream(seed) {
  const input = new Uint8Array(20);
  for (let i = 0; i < 16; i++) input[i] = Number((seed >> BigInt(8 * (15 - i))) & 0xffn);
  const view = new DataView(input.buffer);
  let k = 0;
  return async () => {
    view.setUint32(16, k++);
    const digest = new DataView(await crypto.subtle.digest("SHA-256", input));
    return digest.getBigUint64(0);
  };
}

/**
 * The shuffled deck of a code, position 0 first (Fisher–Yates from the last position).
 * @param {ParsedCode} parsed
 */
export async function shuffledDeck(parsed) {
  const deck = unshuffled(parsed.game);
  const seed = base26(parsed.letters);
  const next = parsed.letters.length === 7 ? splitmix(seed) : sha256Stream(seed);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Number((await next()) % BigInt(i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}
