// @ts-check
// Arenas, from the menu's race tab: the arenas upcoming, running and finished, a short
// arena of the player's own when none runs, and one arena's page: its live standings
// (followed over the page's WebSocket, the player's own line marked), joining and
// leaving. When a wave pairs the player into a heat the page follows the heat's race as
// "Race someone" does; once the heat is counted it comes back to the arena's page, where
// the next heat begins the same way. A finished arena shows its final standings.
// The open arena's page has a hash of its own (#/arena/<arena id>, router.js), so a
// reload comes back to it, and into the heat under way. The player who made an upcoming
// arena may cancel it there.

import { byId } from "./dom.js";
import { t } from "./i18n.js";
import { describe, openMenu } from "./menu.js";
import { modeLabel } from "./pages.js";
import { playerToken, savedPlayer } from "./player-store.js";
import { SolitaireError, client } from "./client.js";
import { leaveRace, switchRace } from "./race-flow.js";
import { radio } from "./storage.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("@solitaire/sdk").ArenaFollow} ArenaFollow */
/** @typedef {import("@solitaire/sdk").ArenaPage} ArenaPage */
/** @typedef {import("../js/types/protocol/rest/arena-response.js").ArenaResponse} ArenaResponse */
/** @typedef {ArenaResponse["arena"]} Arena */
/** @typedef {import("../js/types/protocol/rest/create-arena-request.js").CreateArenaRequest} CreateArenaRequest */

/** A player's short arena: the shortest the service makes. */
const SHORT_MINUTES = 5;

const ui = {
  list: byId("arena-list", HTMLElement),
  create: byId("arena-create", HTMLButtonElement),
  seekForm: byId("form-race-seek", HTMLFormElement),
  overlay: byId("arena", HTMLElement),
  name: byId("arena-name", HTMLElement),
  status: byId("arena-status", HTMLElement),
  you: byId("arena-you", HTMLElement),
  rows: byId("arena-rows", HTMLElement),
  error: byId("arena-error", HTMLElement),
  join: byId("arena-join", HTMLButtonElement),
  leave: byId("arena-leave", HTMLButtonElement),
  cancel: byId("arena-cancel", HTMLButtonElement),
  back: byId("arena-back", HTMLButtonElement),
};

/**
 * The arena whose page is open: the arena as last read, its followed standings, and the
 * heat the page went into (its race id), if any.
 * @typedef {{ arena: Arena, follow: ArenaFollow, heat: string | null }} Open
 */
/** @type {Open | null} */
let open = null;

/** The page's app, for the router's arena pages. @type {App | null} */
let wired = null;

/** The hash of an arena's page. @param {string} arenaId */
function arenaHash(arenaId) {
  return `#/arena/${encodeURIComponent(arenaId)}`;
}

/** Takes the arena's hash off the address without going through the router again. */
function dropHash() {
  if (location.hash.startsWith("#/arena/")) {
    history.pushState(null, "", location.pathname + location.search);
  }
}

/**
 * The router's way in: opens the arena's page of the hash (after a reload, or the
 * browser's back and forward), or closes the open one when the hash names none.
 * @param {string | null} arenaId
 */
export function routeArena(arenaId) {
  const app = wired;
  if (!app) return;
  if (arenaId === null) {
    if (open) close(app);
    return;
  }
  if (open?.arena.arena_id !== arenaId) void show(app, arenaId);
}

/** @param {App} app */
export function wireArenas(app) {
  wired = app;
  for (const tab of document.querySelectorAll('[data-tab="race"]')) {
    tab.addEventListener("click", () => void list(app));
  }
  ui.create.addEventListener("click", () => void create(app));
  ui.join.addEventListener("click", () => void join());
  ui.leave.addEventListener("click", () => void leave());
  ui.cancel.addEventListener("click", () => void cancel());
  ui.back.addEventListener("click", () => close(app));
  // The page's language switch redraws the arena in the new words.
  byId("btn-lang", HTMLButtonElement).addEventListener("click", () =>
    setTimeout(() => {
      render();
      void list(app);
    }),
  );
}

/**
 * What the page says when the service refuses an arena request.
 * @param {unknown} error
 */
function arenaError(error) {
  if (error instanceof SolitaireError && error.code === "unauthorized" && !playerToken()) {
    return `${t("arena_needs_player")} (${error.message})`;
  }
  return describe(error);
}

/**
 * @param {App} app
 * @param {unknown} error
 */
function showMenuError(app, error) {
  app.ui.menuError.textContent = arenaError(error);
  app.ui.menuError.hidden = false;
}

/** @param {unknown} error */
function showError(error) {
  ui.error.textContent = arenaError(error);
  ui.error.hidden = false;
}

/** Lists the arenas upcoming, running and finished in the race tab. @param {App} app */
async function list(app) {
  let arenas;
  try {
    arenas = await client.arenas.list();
  } catch (error) {
    showMenuError(app, error);
    return;
  }
  ui.list.replaceChildren();
  const all = [...arenas.running, ...arenas.upcoming, ...arenas.finished];
  for (const arena of all) {
    const item = document.createElement("li");
    item.dataset.testid = "arena-item";
    item.dataset.arenaId = arena.arena_id;
    item.dataset.status = arena.status;
    const label = document.createElement("span");
    label.textContent = `${arena.name} · ${modeLabel(arena.mode)} · ${statusText(arena.status)}`;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = "arena-open";
    button.textContent = t("arena_open");
    button.addEventListener("click", () => void show(app, arena.arena_id));
    item.append(label, " ", button);
    ui.list.append(item);
  }
  if (all.length === 0) {
    const item = document.createElement("li");
    item.className = "hint";
    item.textContent = t("arena_none");
    ui.list.append(item);
  }
  // A short arena of one's own only when none runs: join the running one instead.
  ui.create.hidden = arenas.running.length > 0;
}

/** @param {string} status */
function statusText(status) {
  const key = /** @type {Parameters<typeof t>[0]} */ (`arena_${status}`);
  return t(key);
}

/** The mode chosen in the "Race someone" form. */
function chosenMode() {
  const game = radio(ui.seekForm, "game") === "TF" ? "TF" : "DS";
  const draw = radio(ui.seekForm, "draw") === "3" ? "3" : "1";
  const scoring = game === "DS" && radio(ui.seekForm, "scoring") === "vegas" ? "V" : "N";
  return /** @type {CreateArenaRequest["mode"]} */ (`${game}.D${draw}${scoring}`);
}

/** Makes a short arena starting now, and joins it. @param {App} app */
async function create(app) {
  app.ui.menuError.hidden = true;
  ui.create.disabled = true;
  try {
    const { arena } = await client.arenas.create({
      mode: chosenMode(),
      name: t("arena_default_name"),
      minutes: SHORT_MINUTES,
    });
    await client.arenas.join(arena.arena_id);
    await show(app, arena.arena_id);
  } catch (error) {
    showMenuError(app, error);
  } finally {
    ui.create.disabled = false;
  }
}

/**
 * Opens an arena's page and follows its standings.
 * @param {App} app
 * @param {string} arenaId
 */
async function show(app, arenaId) {
  let arena;
  try {
    arena = (await client.arenas.get(arenaId)).arena;
  } catch (error) {
    // An arena's hash that names no arena (any more) is not kept.
    if (location.hash === arenaHash(arenaId)) {
      history.replaceState(null, "", location.pathname + location.search);
    }
    openMenu(app);
    showMenuError(app, error);
    return;
  }
  stopFollowing();
  const follow = client.arenas.follow(arenaId);
  const current = { arena, follow, heat: null };
  open = current;
  follow.on("standings", (page) => {
    if (open !== current) return;
    render();
    heatNews(app, current, page);
  });
  follow.on("final", () => {
    if (open !== current) return;
    current.arena = { ...current.arena, status: "finished", final: true };
    render();
  });
  follow.on("ended", (error) => {
    if (open !== current || error.code === "cancelled") return;
    showError(error);
  });
  ui.error.hidden = true;
  app.ui.menu.hidden = true;
  ui.overlay.dataset.arenaId = arenaId;
  if (location.hash !== arenaHash(arenaId)) history.pushState(null, "", arenaHash(arenaId));
  render();
  ui.overlay.hidden = false;
}

/**
 * Goes into the player's heat once a wave pairs them, and back to the arena's page once
 * the heat is counted.
 * @param {App} app
 * @param {Open} current
 * @param {ArenaPage} page
 */
function heatNews(app, current, page) {
  const heat = page.you?.heat ?? null;
  if (heat && heat.player_token && heat.race_id !== current.heat) {
    current.heat = heat.race_id;
    ui.overlay.hidden = true;
    // After a reload the page picked the heat's race up already (its saved seat).
    if (app.race?.id === heat.race_id) return;
    switchRace(app, heat.race_id, heat.player_token, null, {
      player_id: heat.player_id,
      game_id: heat.game_id,
    });
    return;
  }
  if (!heat && current.heat !== null) {
    // The heat was counted: back to the arena, whose next heat begins the same way.
    if (app.race && app.race.id === current.heat) leaveRace(app, { quiet: true });
    app.closeGame();
    app.board.clear();
    current.heat = null;
    app.ui.menu.hidden = true;
    ui.overlay.hidden = false;
  }
}

/** Draws the open arena's page in the page's language. */
function render() {
  const current = open;
  if (!current) return;
  const { arena, follow } = current;
  const page = follow.page;
  const final = page?.final ?? arena.final;
  ui.name.textContent = arena.name;
  ui.status.textContent = `${modeLabel(arena.mode)} · ${final ? t("arena_final") : statusText(arena.status)}`;
  ui.overlay.dataset.status = final ? "final" : arena.status;
  const you = page?.you ?? null;
  const rows = page?.rows ?? [];
  ui.rows.replaceChildren();
  for (const row of rows) {
    const line = document.createElement("tr");
    line.dataset.testid = "arena-row";
    line.dataset.rank = String(row.rank);
    line.dataset.playerId = row.player_id;
    line.dataset.points = String(row.points);
    line.dataset.heats = String(row.heats);
    if (you && row.player_id === you.player_id) {
      line.classList.add("you");
      line.dataset.you = "true";
    }
    for (const text of [
      String(row.rank),
      `${row.name}${row.fire ? " 🔥" : ""}`,
      String(row.points),
      String(row.heats),
    ]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      line.append(cell);
    }
    ui.rows.append(line);
  }
  const over = final || arena.status === "finished" || arena.status === "cancelled";
  if (!you) ui.you.textContent = t("arena_out");
  else if (!you.present) ui.you.textContent = t("arena_left");
  else {
    const place = t("arena_you")
      .replace("{rank}", String(you.rank))
      .replace("{points}", String(you.points));
    ui.you.textContent = over || you.heat ? place : `${place} · ${t("arena_waiting")}`;
  }
  ui.join.hidden = over || Boolean(you?.present);
  ui.leave.hidden = over || !you?.present;
  const me = savedPlayer()?.player_id;
  ui.cancel.hidden = !(arena.status === "upcoming" && me && arena.created_by === me);
}

/** Joins the open arena, or comes back to it. */
async function join() {
  const current = open;
  if (!current) return;
  ui.error.hidden = true;
  ui.join.disabled = true;
  try {
    const { arena } = await client.arenas.join(current.arena.arena_id);
    if (open === current) current.arena = arena;
    render();
  } catch (error) {
    showError(error);
  } finally {
    ui.join.disabled = false;
  }
}

/** Leaves the open arena: no more heats, the points kept. */
async function leave() {
  const current = open;
  if (!current) return;
  ui.error.hidden = true;
  ui.leave.disabled = true;
  try {
    const { arena } = await client.arenas.leave(current.arena.arena_id);
    if (open === current) current.arena = arena;
    render();
  } catch (error) {
    showError(error);
  } finally {
    ui.leave.disabled = false;
  }
}

/** Cancels the open arena, the player's own, before it starts. */
async function cancel() {
  const current = open;
  if (!current) return;
  ui.error.hidden = true;
  ui.cancel.disabled = true;
  try {
    const { arena } = await client.arenas.cancel(current.arena.arena_id);
    if (open === current) current.arena = arena;
  } catch (error) {
    showError(error);
    // Refused because the arena started meanwhile (say): what it is now decides the
    // buttons.
    try {
      const { arena } = await client.arenas.get(current.arena.arena_id);
      if (open === current) current.arena = arena;
    } catch {
      // the refusal shown is what counts
    }
  } finally {
    ui.cancel.disabled = false;
  }
  render();
}

function stopFollowing() {
  const current = open;
  open = null;
  if (current) void current.follow.stop();
}

/** Closes the arena's page, back to the menu. @param {App} app */
function close(app) {
  stopFollowing();
  ui.overlay.hidden = true;
  delete ui.overlay.dataset.arenaId;
  dropHash();
  openMenu(app);
  void list(app);
}
