// @ts-check
// "Race someone": quick pairing from the menu's race tab. The player asks to race now in a
// mode (with their player token), the page shows the wait (the mode, the time waited, the
// player's rating) with a Cancel button and reads the seek every second, which also keeps
// it alive on the server; once a wave pairs it, the page follows the race made, whose
// countdown is already running. Cancel removes the seek, and so does leaving the page.

import { byId, clock } from "./dom.js";
import { t } from "./i18n.js";
import { describe, openMenu } from "./menu.js";
import { modeLabel } from "./pages.js";
import { playerToken } from "./player-store.js";
import { SolitaireError, client } from "./client.js";
import { switchRace } from "./race-flow.js";
import { radio } from "./storage.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./types.js").SeekResponse} SeekResponse */
/** @typedef {SeekResponse["seek"]} Seek */
/** @typedef {import("../js/types/protocol/rest/seek-request.js").SeekRequest["mode"]} SeekMode */

/** How often the page reads its seek: well inside the 30 s after which an unread one is dropped. */
const POLL_MS = 1000;

const ui = {
  form: byId("form-race-seek", HTMLFormElement),
  start: byId("seek-start", HTMLButtonElement),
  overlay: byId("seek", HTMLElement),
  mode: byId("seek-mode", HTMLElement),
  elapsed: byId("seek-elapsed", HTMLElement),
  rating: byId("seek-rating", HTMLElement),
  error: byId("seek-error", HTMLElement),
  cancel: byId("seek-cancel", HTMLButtonElement),
};

/** How often the read-outs of the wait are drawn again. */
const TICK_MS = 250;

/**
 * The seek the page waits on, and when it last asked the service about it.
 * @typedef {{ seek: Seek, startedAt: number, polledAt: number, polling: boolean,
 *   timer: ReturnType<typeof setInterval> }} Waiting
 */
/** @type {Waiting | null} */
let waiting = null;

/** @param {App} app */
export function wireSeek(app) {
  ui.form.addEventListener("change", () => syncVegas(ui.form));
  syncVegas(ui.form);
  ui.form.addEventListener("submit", (e) => {
    e.preventDefault();
    const game = radio(ui.form, "game") === "TF" ? "TF" : "DS";
    const draw = radio(ui.form, "draw") === "3" ? "3" : "1";
    const scoring = game === "DS" && radio(ui.form, "scoring") === "vegas" ? "V" : "N";
    void seek(app, /** @type {SeekMode} */ (`${game}.D${draw}${scoring}`));
  });
  ui.cancel.addEventListener("click", () => void cancel(app));
  // The page's language switch redraws the wait in the new words.
  byId("btn-lang", HTMLButtonElement).addEventListener("click", () => setTimeout(render));
  // A page closed or reloaded while waiting takes its seek away with it (an unread seek
  // would otherwise wait 30 s, and could be paired into a race nobody plays). A request
  // marked keepalive outlives the page, which the SDK's calls cannot ask for.
  window.addEventListener("pagehide", () => {
    const token = playerToken();
    if (!waiting || !token) return;
    const seekId = encodeURIComponent(waiting.seek.seek_id);
    void fetch(`${client.http.baseUrl}/pairing/seeks/${seekId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      keepalive: true,
    }).catch(() => {});
  });
}

/** Vegas scoring exists for Double Solitaire only. @param {HTMLFormElement} form */
function syncVegas(form) {
  const tf = radio(form, "game") === "TF";
  const vegas = form.querySelector('input[name="scoring"][value="vegas"]');
  const normal = form.querySelector('input[name="scoring"][value="normal"]');
  if (vegas instanceof HTMLInputElement && normal instanceof HTMLInputElement) {
    vegas.disabled = tf;
    if (tf && vegas.checked) normal.checked = true;
    vegas.closest("label")?.classList.toggle("disabled", tf);
  }
}

/**
 * What the page says when the service refuses a seek.
 * @param {unknown} error
 */
function seekError(error) {
  if (error instanceof SolitaireError && error.code === "unauthorized" && !playerToken()) {
    return `${t("seek_needs_player")} (${error.message})`;
  }
  return describe(error);
}

/**
 * Asks to race now in `mode`; a seek of this player already waiting in the mode (from
 * before a reload, say) is the one waited on.
 * @param {App} app
 * @param {SeekMode} mode  e.g. `TF.D1N`
 */
async function seek(app, mode) {
  if (waiting || ui.start.disabled) return;
  app.ui.menuError.hidden = true;
  ui.start.disabled = true;
  const found = await ask(app, mode);
  ui.start.disabled = false;
  if (!found || waiting) return;
  app.ui.menu.hidden = true;
  ui.error.hidden = true;
  ui.cancel.disabled = false;
  const now = Date.now();
  waiting = { seek: found, startedAt: now, polledAt: now, polling: false, timer: setInterval(() => tick(app), TICK_MS) };
  ui.overlay.dataset.mode = found.mode;
  ui.overlay.dataset.seekId = found.seek_id;
  render();
  ui.overlay.hidden = false;
  settle(app, found);
}

/**
 * The seek the service answers, or null after showing its refusal in the menu.
 * @param {App} app
 * @param {SeekMode} mode
 * @returns {Promise<Seek | null>}
 */
async function ask(app, mode) {
  try {
    return (await client.pairing.seek(mode)).seek;
  } catch (error) {
    const seekId = waitingSeekOf(error);
    if (seekId === null) {
      showMenuError(app, error);
      return null;
    }
    try {
      return (await client.pairing.get(seekId)).seek;
    } catch (again) {
      showMenuError(app, again);
      return null;
    }
  }
}

/**
 * The id of the player's seek already waiting, from an `already_seeking` refusal.
 * @param {unknown} error
 */
function waitingSeekOf(error) {
  if (!(error instanceof SolitaireError) || error.code !== "already_seeking") return null;
  const body = error.body;
  if (typeof body !== "object" || body === null || !("seek_id" in body)) return null;
  return typeof body.seek_id === "string" ? body.seek_id : null;
}

/**
 * @param {App} app
 * @param {unknown} error
 */
function showMenuError(app, error) {
  app.ui.menuError.textContent = seekError(error);
  app.ui.menuError.hidden = false;
}

/** @param {App} app */
function tick(app) {
  const current = waiting;
  if (!current) return;
  render();
  if (current.polling || Date.now() - current.polledAt < POLL_MS) return;
  current.polling = true;
  void poll(app).finally(() => {
    current.polling = false;
    current.polledAt = Date.now();
  });
}

/** The wait's read-outs, in the page's language (also called each tick). */
export function render() {
  if (!waiting) return;
  ui.mode.textContent = modeLabel(waiting.seek.mode);
  ui.elapsed.textContent = clock(Date.now() - waiting.startedAt);
  ui.rating.textContent = t("seek_rating").replace("{r}", String(waiting.seek.rating));
}

/** @param {App} app */
async function poll(app) {
  const current = waiting;
  if (!current) return;
  try {
    const { seek: read } = await client.pairing.get(current.seek.seek_id);
    if (waiting === current) settle(app, read);
  } catch (error) {
    if (waiting !== current) return;
    if (error instanceof SolitaireError && error.code === "not_found") {
      // Dropped by the service (unread for too long, the tab asleep): ask again.
      stop();
      openMenu(app);
      app.ui.menuError.textContent = t("seek_ended");
      app.ui.menuError.hidden = false;
      return;
    }
    // A failed read (offline, busy) is tried again at the next tick.
    ui.error.textContent = seekError(error);
    ui.error.hidden = false;
  }
}

/**
 * Acts on the seek as the service has it: paired, the race begins; cancelled, the wait ends.
 * @param {App} app
 * @param {Seek} read
 */
function settle(app, read) {
  if (!waiting) return;
  waiting.seek = read;
  ui.error.hidden = true;
  if (read.status === "waiting") return;
  stop();
  const race = read.race;
  if (read.status === "paired" && race && race.player_token) {
    switchRace(app, race.race_id, race.player_token, null, {
      player_id: race.player_id,
      game_id: race.game_id,
    });
    return;
  }
  openMenu(app);
  if (read.status !== "cancelled") {
    app.ui.menuError.textContent = t("seek_ended");
    app.ui.menuError.hidden = false;
  }
}

/** @param {App} app */
async function cancel(app) {
  const current = waiting;
  if (!current) return;
  ui.cancel.disabled = true;
  try {
    const { seek: read } = await client.pairing.cancel(current.seek.seek_id);
    // A wave may have come first: then the answer says paired and the race begins.
    if (waiting === current) settle(app, read);
  } catch (error) {
    if (waiting !== current) return;
    ui.cancel.disabled = false;
    ui.error.textContent = seekError(error);
    ui.error.hidden = false;
  }
}

/** Ends the wait on the page. */
function stop() {
  if (!waiting) return;
  clearInterval(waiting.timer);
  waiting = null;
  ui.overlay.hidden = true;
  delete ui.overlay.dataset.seekId;
}
