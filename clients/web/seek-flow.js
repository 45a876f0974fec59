// @ts-check
// "Race someone": quick pairing from the menu's race tab. The player asks to race now in a
// mode (with their player token) over the page's WebSocket, and the page shows the wait
// (the mode, the time waited, the player's rating) with a Cancel button; once a wave pairs
// the seek (the `paired` message), the page follows the race made, whose countdown is
// already running. Cancel removes the seek; leaving the page closes its socket, and the
// service drops the socket's seek with it.
//
// Where the socket cannot seek (it is down, and the request's time runs out) or the player
// already has a seek waiting (from before a reload, say; in any mode, as a player has one
// waiting seek in all), the page asks by REST instead and reads that seek every second,
// which keeps it alive on the server; a `keepalive` DELETE takes it away when the page goes.

import { byId, clock } from "./dom.js";
import { t } from "./i18n.js";
import { describe, openMenu } from "./menu.js";
import { modeLabel } from "./pages.js";
import { playerToken } from "./player-store.js";
import { SolitaireError, client } from "./client.js";
import { switchRace } from "./race-flow.js";
import { radio } from "./storage.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("@solitaire/sdk").LiveSeek} LiveSeek */
/** @typedef {import("@solitaire/sdk").Paired} Paired */
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
 * Refusals of a seek over the WebSocket after which the page asks by REST: the socket was
 * down, or a seek of the player's already waits, in any mode (REST names it).
 */
const BY_REST = new Set(["already_seeking", "timeout", "connection_lost", "disconnected"]);

/**
 * The seek the page waits on: over the WebSocket (`live`), or by REST (`live` null, read
 * every second), and when it last asked the service about it.
 * @typedef {{ seek: Seek, live: LiveSeek | null, startedAt: number, polledAt: number,
 *   polling: boolean, timer: ReturnType<typeof setInterval> }} Waiting
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
  // would otherwise wait 30 s, and could be paired into a race nobody plays). A seek over
  // the WebSocket goes with the socket; one read by REST is deleted by a request marked
  // keepalive, which outlives the page (the SDK's calls cannot ask for that).
  window.addEventListener("pagehide", () => {
    const token = playerToken();
    if (!waiting || waiting.live || !token) return;
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
 * Asks to race now in `mode` over the WebSocket; by REST when the socket cannot, or when a
 * seek of this player already waits, in any mode (then that seek is the one waited on).
 * @param {App} app
 * @param {SeekMode} mode  e.g. `TF.D1N`
 */
async function seek(app, mode) {
  if (waiting || ui.start.disabled) return;
  app.ui.menuError.hidden = true;
  ui.start.disabled = true;
  const live = client.pairing.live(mode);
  const first = await firstNews(live);
  /** @type {Seek | null} */
  let found = null;
  if (first instanceof SolitaireError) {
    if (!BY_REST.has(first.code)) {
      ui.start.disabled = false;
      showMenuError(app, first);
      return;
    }
    found = await ask(app, mode);
  } else if ("status" in first) {
    found = first;
  } else {
    ui.start.disabled = false;
    begin(app, first);
    return;
  }
  ui.start.disabled = false;
  if (!found || waiting) return;
  app.ui.menu.hidden = true;
  ui.error.hidden = true;
  ui.cancel.disabled = false;
  const now = Date.now();
  const by = found === first ? live : null;
  const timer = setInterval(() => tick(app), TICK_MS);
  const current = { seek: found, live: by, startedAt: now, polledAt: now, polling: false, timer };
  waiting = current;
  ui.overlay.dataset.mode = found.mode;
  ui.overlay.dataset.seekId = found.seek_id;
  render();
  ui.overlay.hidden = false;
  if (!by) {
    settle(app, found);
    return;
  }
  by.on("paired", (paired) => {
    if (waiting !== current) return;
    stop();
    begin(app, paired);
  });
  by.on("ended", (error) => {
    if (waiting !== current) return;
    stop();
    openMenu(app);
    if (error.code === "cancelled") return;
    app.ui.menuError.textContent = error.code === "closed" ? t("seek_ended") : seekError(error);
    app.ui.menuError.hidden = false;
  });
  // After a reconnection the SDK seeks again: a new seek id.
  by.on("waiting", (again) => {
    if (waiting !== current) return;
    current.seek = again;
    ui.overlay.dataset.seekId = again.seek_id;
  });
}

/**
 * The first thing a seek over the WebSocket comes to: held (waiting), paired already, or
 * refused.
 * @param {LiveSeek} live
 * @returns {Promise<Seek | Paired | SolitaireError>}
 */
function firstNews(live) {
  return new Promise((resolve) => {
    live.once("waiting", resolve);
    live.result.then(resolve, (error) =>
      resolve(error instanceof SolitaireError ? error : new SolitaireError("bad_answer", String(error))),
    );
  });
}

/**
 * Follows the race a seek was paired into.
 * @param {App} app
 * @param {Paired} seat
 */
function begin(app, seat) {
  switchRace(app, seat.race_id, seat.player_token, null, {
    player_id: seat.player_id,
    game_id: seat.game_id,
  });
}

/**
 * The seek the service answers by REST, or null after showing its refusal in the menu.
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
  if (current.live || current.polling || Date.now() - current.polledAt < POLL_MS) return;
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
    begin(app, { ...race, player_token: race.player_token, seek_id: read.seek_id });
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
  if (current.live) {
    // Its events end the wait: cancelled, or paired when a wave came first.
    void current.live.cancel();
    return;
  }
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
