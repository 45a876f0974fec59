// @ts-check
// Settings kept in localStorage, and reading the page's small forms.

export const STORE_GAME = "solitaire.game";
export const STORE_RACE = "solitaire.race";
export const STORE_LANG = "solitaire.lang";
export const STORE_DOUBLE = "solitaire.double-click";
export const STORE_NAME = "solitaire.name";

/**
 * @param {string} key
 * @returns {string | null}
 */
export function load(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string | null} value
 */
export function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage may be unavailable (private mode); settings then last for the visit
  }
}

/**
 * The checked value of a radio group in a form.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function radio(form, name) {
  const field = form.elements.namedItem(name);
  return field instanceof RadioNodeList ? field.value : "";
}

/**
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function field(form, name) {
  const node = form.elements.namedItem(name);
  return node instanceof HTMLInputElement || node instanceof HTMLSelectElement ? node : null;
}

/**
 * The solo game kept in storage when it is the one on the table (`gameId`); null in a
 * race or for another game.
 * @param {string | undefined} gameId
 * @returns {{ game_id: string, token: string } | null}
 */
export function savedSoloGame(gameId) {
  try {
    if (load(STORE_RACE)) return null;
    const saved = JSON.parse(load(STORE_GAME) ?? "null");
    return saved && saved.game_id && saved.game_id === gameId ? saved : null;
  } catch {
    return null;
  }
}

/**
 * Whether a form's checkbox is ticked.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function checked(form, name) {
  const node = form.elements.namedItem(name);
  return node instanceof HTMLInputElement && node.checked;
}
