// @ts-check
// What the page says for the service's error codes it can explain better than the
// problem's detail (which is English only).

import { lang } from "./i18n.js";

/** @typedef {import("./types.js").ErrorCode} ErrorCode */

/** `{s}` is the wait the service asks for (Retry-After). */
/** @type {Partial<Record<ErrorCode, { en: string, fi: string }>>} */
const ERROR_TEXT = {
  race_not_started: { en: "The race has not started yet.", fi: "Kilpa ei ole vielä alkanut." },
  race_over: { en: "The race is over for this game.", fi: "Kilpa on tämän pelin osalta ohi." },
  rate_limited: { en: "Too fast: slow down a little.", fi: "Liian nopeasti: hidasta hieman." },
  not_found: { en: "Not found.", fi: "Ei löytynyt." },
  bad_code: { en: "That is not a valid game code.", fi: "Pelikoodi ei kelpaa." },
  race_full: { en: "The race is full.", fi: "Kilpa on täynnä." },
  race_started: { en: "The race has already started.", fi: "Kilpa on jo alkanut." },
  already_seeking: {
    en: "You are already looking for an opponent.",
    fi: "Etsit jo vastustajaa.",
  },
  not_your_seek: {
    en: "That search for an opponent is another player's.",
    fi: "Tuo vastustajan haku on toisen pelaajan.",
  },
  arena_over: { en: "This arena is over.", fi: "Tämä areena on päättynyt." },
  arena_started: {
    en: "This arena has already started: it can no longer be cancelled.",
    fi: "Tämä areena on jo alkanut: sitä ei voi enää perua.",
  },
  not_in_arena: { en: "You have not joined this arena.", fi: "Et ole liittynyt tähän areenaan." },
  not_your_arena: {
    en: "Only the player who made this arena may cancel it.",
    fi: "Vain areenan tehnyt pelaaja voi perua sen.",
  },
  store_unavailable: {
    en: "The server is busy; try again.",
    fi: "Palvelin on kiireinen; yritä uudelleen.",
  },
  winnable_not_offered: {
    en: "Winnable deals are not offered for Double Solitaire drawing three with Vegas scoring: deal a random one.",
    fi: "Varmasti ratkeavia jakoja ei ole tarjolla Tuplapasianssiin, kun nostetaan kolme ja pisteytys on Vegas: jaa satunnainen jako.",
  },
  busy: {
    en: "The solver is busy with other players' requests: try again in {s} s.",
    fi: "Ratkaisija on kiireinen muiden pelaajien pyyntöjen kanssa: yritä uudelleen {s} s kuluttua.",
  },
  winnable_pool_empty: {
    en: "No certified winnable deal of this kind is ready yet: try again in {s} s, or deal a random one.",
    fi: "Varmasti ratkeavaa jakoa ei ole vielä valmiina: yritä uudelleen {s} s kuluttua tai jaa satunnainen jako.",
  },
};

/**
 * The page's own words for `code`, or null.
 * @param {string} code
 * @param {number | null} [retryAfter] seconds, from the problem
 */
export function knownError(code, retryAfter) {
  const known = ERROR_TEXT[/** @type {ErrorCode} */ (code)];
  return known ? known[lang()].replace("{s}", String(retryAfter ?? 5)) : null;
}
