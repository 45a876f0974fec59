// @ts-check
// The menu over the table: opening and closing it, its tabs, the forms of a new game and of
// a game's code, and the line that says why a request failed. The race forms in it are
// wired by race-flow.js.

import { knownError } from "./errors.js";
import { SolitaireError } from "./client.js";
import { checked, field, radio } from "./storage.js";

/** @typedef {import("./app.js").App} App */

/** @param {App} app */
export function wireMenu(app) {
  const ui = app.ui;
  ui.newGame.addEventListener("click", () => openMenu(app));
  ui.menuClose.addEventListener("click", () => closeMenu(app));
  for (const tab of ui.menu.querySelectorAll("[data-tab]")) {
    tab.addEventListener("click", () => showTab(app, tab.getAttribute("data-tab") ?? "play"));
  }
  for (const form of [ui.formNew, ui.formRaceCreate]) {
    form.addEventListener("change", () => syncScoring(form));
    syncScoring(form);
  }
  ui.formNew.addEventListener("submit", (e) => {
    e.preventDefault();
    const form = ui.formNew;
    void app.newGame({
      game: radio(form, "game") === "TF" ? "TF" : "DS",
      draw: radio(form, "draw") === "3" ? 3 : 1,
      scoring: radio(form, "scoring") === "vegas" ? "vegas" : "normal",
      ...(checked(form, "winnable") ? { winnable: true } : {}),
    });
  });
  ui.formCode.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = field(ui.formCode, "code")?.value.trim() ?? "";
    if (code) void app.newGame({ code });
  });
}

/** Vegas scoring exists for Double Solitaire only. @param {HTMLFormElement} form */
export function syncScoring(form) {
  const tf = radio(form, "game") === "TF";
  const vegas = form.querySelector('input[name="scoring"][value="vegas"]');
  const normal = form.querySelector('input[name="scoring"][value="normal"]');
  if (vegas instanceof HTMLInputElement && normal instanceof HTMLInputElement) {
    vegas.disabled = tf;
    if (tf && vegas.checked) normal.checked = true;
    vegas.closest("label")?.classList.toggle("disabled", tf);
  }
}

/** @param {App} app */
export function openMenu(app) {
  app.ui.menuError.hidden = true;
  app.ui.menuClose.hidden = !app.game && !app.race;
  app.ui.menu.hidden = false;
}

/** @param {App} app */
export function closeMenu(app) {
  if (!app.game && !app.race) return;
  app.ui.menu.hidden = true;
}

/**
 * @param {App} app
 * @param {string} name
 */
export function showTab(app, name) {
  for (const tab of app.ui.menu.querySelectorAll("[data-tab]")) {
    tab.classList.toggle("active", tab.getAttribute("data-tab") === name);
  }
  for (const page of app.ui.menu.querySelectorAll("[data-page]")) {
    if (page instanceof HTMLElement) page.hidden = page.getAttribute("data-page") !== name;
  }
}

/**
 * @param {App} app
 * @param {unknown} error
 */
export function menuError(app, error) {
  app.ui.menuError.textContent = describe(error);
  app.ui.menuError.hidden = false;
}

/**
 * A readable line for a failed request.
 * @param {unknown} error
 */
export function describe(error) {
  if (error instanceof SolitaireError && !error.local) {
    const known = knownError(error.code, error.retryAfter);
    return known ? `${known} (${error.message})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
