// @ts-check
// The page's own words in English and Finnish. Rule messages come from the service.

/** @typedef {"en" | "fi"} Lang */

const EN = {
  title: "Solitaire",
  new_game: "New game",
  race: "Race",
  undo: "Undo",
  settings: "Settings",
  double_click: "Double-click",
  double_click_hint: "Double tap sends a card to a foundation or the best column",
  language: "Suomeksi",
  code: "Code",
  score: "Score",
  moves: "Moves",
  time: "Time",
  stock: "Stock",
  waste: "Waste",
  foundations: "Foundations",
  play_tab: "Play",
  race_tab: "Race",
  game: "Game",
  game_DS: "Double Solitaire",
  game_TF: "Solitaire Réfléchi",
  draw: "Draw",
  draw_1: "Draw 1 (easy)",
  draw_3: "Draw 3 (hard)",
  scoring: "Scoring",
  scoring_normal: "Normal",
  scoring_vegas: "Vegas",
  vegas_ds_only: "Vegas scoring is for Double Solitaire only.",
  deal: "Deal",
  or_code: "…or replay a game code",
  code_placeholder: "DS1-D1N-AAAAAAB",
  play_code: "Play code",
  close: "Close",
  your_name: "Your name",
  name_placeholder: "Player",
  create_race: "Create a race",
  max_players: "Players",
  time_limit: "Time limit",
  no_limit: "None",
  minutes: "min",
  create: "Create",
  join_race: "Join a race",
  join_code: "Join code",
  join: "Join",
  lobby: "Race lobby",
  share_code: "Share this join code:",
  players: "Players",
  ready: "Ready",
  not_ready: "Not ready",
  i_am_ready: "I'm ready",
  unready: "Not ready after all",
  start_race: "Start the race",
  leave: "Leave",
  host: "host",
  you: "you",
  waiting_players: "Waiting for players… The race starts when everyone is ready.",
  starting_in: "Starting in",
  go: "Go!",
  resign: "Resign",
  opponents: "Opponents",
  state_waiting: "waiting",
  state_playing: "playing",
  state_won: "won",
  state_resigned: "resigned",
  state_disconnected: "disconnected",
  result: "Race result",
  rank: "#",
  player: "Player",
  finish: "Finish",
  cards: "Cards",
  deal_code: "Deal code",
  rematch: "Rematch",
  join_rematch: "Join the rematch",
  replay_deal: "Play this deal alone",
  time_left: "Left",
  you_won: "You won!",
  race_done_wait: "You are done. Waiting for the others…",
  connecting: "Connecting…",
  offline: "Offline, reconnecting…",
  online: "Connected",
  rule: "Rule",
  not_started: "The race has not started yet.",
  error_generic: "Something went wrong",
  welcome: "Pick a game to start.",
};

/** @type {typeof EN} */
const FI = {
  title: "Pasianssi",
  new_game: "Uusi peli",
  race: "Kilpa",
  undo: "Peru",
  settings: "Asetukset",
  double_click: "Kaksoisnapautus",
  double_click_hint: "Kaksoisnapautus vie kortin peruspinoon tai parhaaseen sarakkeeseen",
  language: "In English",
  code: "Koodi",
  score: "Pisteet",
  moves: "Siirrot",
  time: "Aika",
  stock: "Pakka",
  waste: "Poistopino",
  foundations: "Peruspinot",
  play_tab: "Pelaa",
  race_tab: "Kilpa",
  game: "Peli",
  game_DS: "Tuplapasianssi",
  game_TF: "Solitaire Réfléchi",
  draw: "Nosto",
  draw_1: "Nosto 1 (helppo)",
  draw_3: "Nosto 3 (vaikea)",
  scoring: "Pisteytys",
  scoring_normal: "Normaali",
  scoring_vegas: "Vegas",
  vegas_ds_only: "Vegas-pisteytys on vain tuplapasianssissa.",
  deal: "Jaa",
  or_code: "…tai pelaa pelikoodi uudelleen",
  code_placeholder: "DS1-D1N-AAAAAAB",
  play_code: "Pelaa koodi",
  close: "Sulje",
  your_name: "Nimesi",
  name_placeholder: "Pelaaja",
  create_race: "Luo kilpa",
  max_players: "Pelaajia",
  time_limit: "Aikaraja",
  no_limit: "Ei",
  minutes: "min",
  create: "Luo",
  join_race: "Liity kilpaan",
  join_code: "Liittymiskoodi",
  join: "Liity",
  lobby: "Kilvan aula",
  share_code: "Jaa tämä liittymiskoodi:",
  players: "Pelaajat",
  ready: "Valmis",
  not_ready: "Ei valmis",
  i_am_ready: "Olen valmis",
  unready: "En olekaan valmis",
  start_race: "Aloita kilpa",
  leave: "Poistu",
  host: "isäntä",
  you: "sinä",
  waiting_players: "Odotetaan pelaajia… Kilpa alkaa, kun kaikki ovat valmiita.",
  starting_in: "Alkaa",
  go: "Nyt!",
  resign: "Luovuta",
  opponents: "Vastustajat",
  state_waiting: "odottaa",
  state_playing: "pelaa",
  state_won: "voitti",
  state_resigned: "luovutti",
  state_disconnected: "ei yhteyttä",
  result: "Kilvan tulos",
  rank: "#",
  player: "Pelaaja",
  finish: "Aika",
  cards: "Kortit",
  deal_code: "Jaon koodi",
  rematch: "Uusintaottelu",
  join_rematch: "Liity uusintaan",
  replay_deal: "Pelaa jako yksin",
  time_left: "Jäljellä",
  you_won: "Voitit!",
  race_done_wait: "Olet valmis. Odotetaan muita…",
  connecting: "Yhdistetään…",
  offline: "Ei yhteyttä, yhdistetään uudelleen…",
  online: "Yhdistetty",
  rule: "Sääntö",
  not_started: "Kilpa ei ole vielä alkanut.",
  error_generic: "Jokin meni vikaan",
  welcome: "Valitse peli aloittaaksesi.",
};

/** @typedef {keyof typeof EN} Key */

const TABLES = { en: EN, fi: FI };

/** @type {Lang} */
let current = "en";

/** @param {Lang} lang */
export function setLang(lang) {
  current = lang;
  document.documentElement.lang = lang;
}

export function lang() {
  return current;
}

/**
 * The text for `key` in the current language.
 * @param {Key} key
 */
export function t(key) {
  return TABLES[current][key];
}

/**
 * @param {string} key
 * @returns {key is Key}
 */
export function isKey(key) {
  return key in EN;
}

/**
 * Fills every `[data-i18n]` element (text) and `[data-i18n-placeholder]` input.
 * @param {ParentNode} root
 */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const key = node.getAttribute("data-i18n") ?? "";
    if (isKey(key)) node.textContent = t(key);
  }
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    const key = node.getAttribute("data-i18n-placeholder") ?? "";
    if (isKey(key) && node instanceof HTMLInputElement) node.placeholder = t(key);
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    const key = node.getAttribute("data-i18n-title") ?? "";
    if (isKey(key) && node instanceof HTMLElement) node.title = t(key);
  }
}
