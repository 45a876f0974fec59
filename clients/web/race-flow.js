// @ts-check
// Races on the page: creating and joining one, following it, leaving, the rematch, and the
// controls that do it.

import { t } from "./i18n.js";
import { menuError, openMenu } from "./menu.js";
import { renderHud } from "./readouts.js";
import { renderLobby, renderOpponents, renderResult } from "./race-view.js";
import { client } from "./client.js";
import { STORE_GAME, STORE_NAME, STORE_RACE, field, radio, save } from "./storage.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./types.js").RaceView} RaceView */
/** @typedef {import("./types.js").RaceJoined} RaceJoined */
/** @typedef {import("./types.js").CreateRaceRequest} CreateRaceRequest */

/** The race forms of the menu, and the buttons of the lobby and of the result. @param {App} app */
export function wireRace(app) {
  const ui = app.ui;
  ui.formRaceCreate.addEventListener("submit", (e) => {
    e.preventDefault();
    void createRace(app);
  });
  ui.formRaceJoin.addEventListener("submit", (e) => {
    e.preventDefault();
    void joinRace(app);
  });
  ui.lobbyReady.addEventListener("click", () => {
    const me = app.race?.me();
    void app.raceCommand(me?.ready ? "unready" : "ready");
  });
  ui.lobbyStart.addEventListener("click", () => void app.raceCommand("start"));
  ui.lobbyLeave.addEventListener("click", () => leaveRace(app));
  ui.resultRematch.addEventListener("click", () => void rematch(app));
  ui.resultReplay.addEventListener("click", () => {
    const code = app.race?.race?.result?.code;
    if (code) void app.newGame({ code });
  });
  ui.resultClose.addEventListener("click", () => {
    app.resultClosedFor = app.race?.id ?? "";
    ui.result.hidden = true;
  });
}

/** @param {App} app */
export function playerName(app) {
  const name = app.ui.raceName.value.trim();
  if (!name) {
    app.ui.raceName.focus();
    throw new Error(t("your_name"));
  }
  save(STORE_NAME, name);
  return name;
}

/** @param {App} app */
export async function createRace(app) {
  const form = app.ui.formRaceCreate;
  try {
    const limit = field(form, "time_limit")?.value ?? "";
    /** @type {CreateRaceRequest} */
    const request = {
      name: playerName(app),
      game: radio(form, "game") === "TF" ? "TF" : "DS",
      draw: radio(form, "draw") === "3" ? 3 : 1,
      scoring: radio(form, "scoring") === "vegas" ? "vegas" : "normal",
      max_players: Number(field(form, "max_players")?.value ?? 4),
      time_limit_seconds: limit ? Number(limit) : null,
    };
    enterRace(app, await client.races.create(request));
  } catch (error) {
    menuError(app, error);
  }
}

/** @param {App} app */
export async function joinRace(app) {
  const code = field(app.ui.formRaceJoin, "join_code")?.value.trim().toUpperCase() ?? "";
  try {
    const name = playerName(app);
    if (!code) throw new Error(t("join_code"));
    enterRace(app, await client.races.join({ join_code: code, name }));
  } catch (error) {
    menuError(app, error);
  }
}

/**
 * @param {App} app
 * @param {RaceJoined} joined
 */
export function enterRace(app, joined) {
  switchRace(app, joined.race_id, joined.player_token, joined.race, {
    player_id: joined.player_id,
    game_id: joined.game_id,
  });
}

/**
 * Follows a race (a new one, or the rematch of the current one).
 * @param {App} app
 * @param {string} raceId
 * @param {string} token
 * @param {RaceView | null} race
 * @param {import("./types.js").You | null} you
 */
export function switchRace(app, raceId, token, race, you) {
  stopRace(app);
  app.closeGame();
  app.board.clear();
  save(STORE_GAME, null);
  save(STORE_RACE, JSON.stringify({ race_id: raceId, token }));
  app.startedAt = null;
  app.stoppedAt = null;
  app.wantRematch = false;
  app.setNotice(null);
  app.ui.won.hidden = true;
  app.ui.menu.hidden = true;
  app.ui.result.hidden = true;
  const followed = client.race(raceId, { token, race, you });
  app.race = followed;
  app.stopRace = [
    followed.on("race", (view) => renderRace(app, view)),
    followed.on("error", (error) => app.onError(error)),
  ];
  if (race) renderRace(app, race);
  followed.follow().catch((error) => {
    if (app.race === followed) app.onError(error);
  });
}

/**
 * Stops following the race (and listening to it).
 * @param {App} app
 */
function stopRace(app) {
  for (const stop of app.stopRace.splice(0)) stop();
  app.race?.leave();
  app.race = null;
}

/**
 * @param {App} app
 * @param {{ quiet?: boolean }} [options]
 */
export function leaveRace(app, options = {}) {
  if (!app.race) return;
  save(STORE_RACE, null);
  stopRace(app);
  app.ui.lobby.hidden = true;
  app.ui.countdown.hidden = true;
  app.ui.result.hidden = true;
  app.ui.opponents.hidden = true;
  app.ui.resign.hidden = true;
  if (!options.quiet) {
    app.closeGame();
    app.board.clear();
    renderHud(app);
    openMenu(app);
  }
}

/** @param {App} app */
export async function rematch(app) {
  const session = app.race;
  const race = session?.race;
  if (!session || !race) return;
  if (race.rematch_race_id) {
    switchRace(app, race.rematch_race_id, session.token ?? "", null, null);
    return;
  }
  app.wantRematch = true;
  if (!(await app.raceCommand("rematch"))) app.wantRematch = false;
}

/**
 * @param {App} app
 * @param {RaceView} race
 */
export function renderRace(app, race) {
  const session = app.race;
  if (!session) return;
  const ui = app.ui;
  const me = session.me();
  if (race.rematch_race_id && app.wantRematch) {
    switchRace(app, race.rematch_race_id, session.token ?? "", null, null);
    return;
  }
  // The player's own game exists once the countdown begins.
  if (
    race.status !== "lobby" &&
    session.you &&
    (!app.game || app.game.id !== session.you.game_id)
  ) {
    app.openGame({
      gameId: session.you.game_id,
      token: session.token,
      code: null,
      waitForStart: true,
    });
  }
  if (me && (me.state === "resigned" || me.state === "won") && app.stoppedAt === null) {
    app.stoppedAt = Date.now();
  }

  ui.lobby.hidden = race.status !== "lobby";
  if (race.status === "lobby") renderLobby(app.ui, race, app.race);
  ui.opponents.hidden = race.status === "lobby";
  if (race.status !== "lobby") renderOpponents(app.ui, race, app.race);
  ui.resign.hidden = !(race.status === "running" && me?.state === "playing");
  if (race.status === "finished") {
    renderResult(app.ui, race, app.race);
    ui.result.hidden = app.resultClosedFor === race.race_id;
  } else {
    ui.result.hidden = true;
  }
  const done = me && (me.state === "won" || me.state === "resigned");
  if (done && race.status !== "finished" && app.notice?.kind !== "info") {
    app.setNotice({ kind: "info", key: me.state === "won" ? "you_won" : "race_done_wait" });
  } else if (race.status === "finished" && app.notice?.kind === "info") {
    app.setNotice(null);
  }
  renderHud(app);
}
