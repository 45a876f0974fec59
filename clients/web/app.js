// @ts-check
// The page: the game being played; the menu (menu.js), races (race-flow.js, race-view.js),
// quick pairing (seek-flow.js), read-outs (readouts.js) and the pages over the table
// (router.js) live in modules of their own.

import { Board } from "./board.js";
import { byId } from "./dom.js";
import { knownError } from "./errors.js";
import { lang, setLang, translate } from "./i18n.js";
import { closeMenu, menuError, openMenu, wireMenu } from "./menu.js";
import { renderHud, renderNotice, showLink, tick } from "./readouts.js";
import { SolitaireError, client } from "./client.js";
import {
  STORE_DOUBLE,
  STORE_GAME,
  STORE_LANG,
  STORE_NAME,
  STORE_RACE,
  load,
  save,
} from "./storage.js";
import { leaveRace, renderRace, switchRace, wireRace } from "./race-flow.js";
import { wireArenas } from "./arena-flow.js";
import { wireSeek } from "./seek-flow.js";

/** @typedef {import("@solitaire/sdk").Game} Game */
/** @typedef {import("@solitaire/sdk").Race} Race */
/** @typedef {import("@solitaire/sdk").ConnectionStatus} ConnectionStatus */
/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./types.js").Rejection} Rejection */
/** @typedef {import("./types.js").RaceView} RaceView */
/** @typedef {import("./types.js").CreatedGame} CreatedGame */
/** @typedef {import("./types.js").RaceJoined} RaceJoined */
/** @typedef {import("./types.js").ActionInput} ActionInput */
/** @typedef {import("./types.js").CreateGameRequest} CreateGameRequest */
/** @typedef {import("./types.js").CreateRaceRequest} CreateRaceRequest */
/** @typedef {import("./i18n.js").Lang} Lang */

/**
 * What the message bar shows: a rule's refusal (re-rendered on a language switch), or
 * another error.
 * @typedef {{ kind: "rule", rejection: Rejection }
 *   | { kind: "error", code: string, text: string }
 *   | { kind: "info", key: "you_won" | "race_done_wait" }} Notice
 */

/**
 * The solo game kept across reloads.
 * @typedef {{ game_id: string, token: string, code: string, started_at: number }} SavedGame
 */

/**
 * The race seat kept across reloads.
 * @typedef {{ race_id: string, token: string }} SavedRace
 */

export class App {
  constructor() {
    this.client = client;
    /** The SDK's WebSocket (`drop()` cuts it, for the browser tests). */
    this.connection = client.connection;
    /** @type {Game | null} the game on the table */
    this.game = null;
    /** @type {string | null} its code, when the player may know it */
    this.gameCode = null;
    /** @type {(() => void)[]} stops the page's listeners of `game` */
    this.stopGame = [];
    /** @type {Race | null} */
    this.race = null;
    /** @type {(() => void)[]} stops the page's listeners of `race` */
    this.stopRace = [];
    /** @type {Notice | null} */
    this.notice = null;
    /** Local time the solo game started, or null. */
    this.startedAt = /** @type {number | null} */ (null);
    /** Local time the clock stopped (won or finished), or null while it runs. */
    this.stoppedAt = /** @type {number | null} */ (null);
    /** Whether this player asked for the rematch (then it is joined at once). */
    this.wantRematch = false;
    /** The race id whose result overlay the player closed. */
    this.resultClosedFor = "";

    this.ui = {
      table: byId("table", HTMLElement),
      undo: byId("btn-undo", HTMLButtonElement),
      resign: byId("btn-resign", HTMLButtonElement),
      newGame: byId("btn-new", HTMLButtonElement),
      lang: byId("btn-lang", HTMLButtonElement),
      double: byId("opt-double", HTMLInputElement),
      hudGame: byId("hud-game", HTMLElement),
      hudCode: byId("hud-code", HTMLElement),
      hudScore: byId("hud-score", HTMLElement),
      hudMoves: byId("hud-moves", HTMLElement),
      hudTime: byId("hud-time", HTMLElement),
      hudLeftWrap: byId("hud-left-wrap", HTMLElement),
      hudLeft: byId("hud-left", HTMLElement),
      link: byId("link", HTMLElement),
      message: byId("message", HTMLElement),
      messageRule: byId("message-rule", HTMLElement),
      messageText: byId("message-text", HTMLElement),
      messageClose: byId("message-close", HTMLButtonElement),
      opponents: byId("opponents", HTMLElement),
      won: byId("won", HTMLElement),
      countdown: byId("countdown", HTMLElement),
      countdownN: byId("countdown-n", HTMLElement),
      menu: byId("menu", HTMLElement),
      menuError: byId("menu-error", HTMLElement),
      menuClose: byId("menu-close", HTMLButtonElement),
      formNew: byId("form-new", HTMLFormElement),
      formCode: byId("form-code", HTMLFormElement),
      formRaceCreate: byId("form-race-create", HTMLFormElement),
      formRaceJoin: byId("form-race-join", HTMLFormElement),
      raceName: byId("race-name", HTMLInputElement),
      lobby: byId("lobby", HTMLElement),
      lobbyCode: byId("lobby-code", HTMLElement),
      lobbySettings: byId("lobby-settings", HTMLElement),
      lobbyPlayers: byId("lobby-players", HTMLElement),
      lobbyReady: byId("lobby-ready", HTMLButtonElement),
      lobbyStart: byId("lobby-start", HTMLButtonElement),
      lobbyLeave: byId("lobby-leave", HTMLButtonElement),
      result: byId("result", HTMLElement),
      resultRows: byId("result-rows", HTMLElement),
      resultCode: byId("result-code", HTMLElement),
      resultRematch: byId("result-rematch", HTMLButtonElement),
      resultRatingHead: byId("result-rating-head", HTMLElement),
      resultReplay: byId("result-replay", HTMLButtonElement),
      resultClose: byId("result-close", HTMLButtonElement),
    };

    this.board = new Board(this.ui.table, {
      onAction: (action) => this.act(action),
      canPlay: () => this.canPlay(),
      doubleClick: () => this.ui.double.checked,
    });
  }

  // ------------------------------------------------------------------ start up

  start() {
    const savedLang = load(STORE_LANG);
    setLang(savedLang === "fi" ? "fi" : "en");
    this.ui.double.checked = load(STORE_DOUBLE) !== "off";
    this.ui.raceName.value = load(STORE_NAME) ?? "";
    translate();
    this.wire();
    client.on("status", (status) => {
      showLink(this, linkStatus(status));
      if (status !== "open") this.ui.table.dataset.synced = "false";
    });
    client.connect().catch((error) => this.onError(error));
    setInterval(() => tick(this), 200);
    if (!this.resume()) openMenu(this);
  }

  wire() {
    const ui = this.ui;
    wireMenu(this);
    wireRace(this);
    wireSeek(this);
    wireArenas(this);
    ui.undo.addEventListener("click", () => this.undo());
    ui.resign.addEventListener("click", () => void this.raceCommand("resign"));
    ui.lang.addEventListener("click", () => this.switchLang(lang() === "en" ? "fi" : "en"));
    ui.double.addEventListener("change", () =>
      save(STORE_DOUBLE, ui.double.checked ? "on" : "off"),
    );
    ui.messageClose.addEventListener("click", () => this.setNotice(null));
    document.addEventListener("keydown", (e) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
      if (typing) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
        e.preventDefault();
        this.undo();
      } else if (e.key === "Escape" && !ui.menu.hidden && this.game) {
        closeMenu(this);
      }
    });
  }

  /** Picks the saved race or solo game up again after a reload. */
  resume() {
    const race = load(STORE_RACE);
    if (race) {
      try {
        /** @type {SavedRace} */
        const seat = JSON.parse(race);
        if (seat.race_id && seat.token) {
          switchRace(this, seat.race_id, seat.token, null, null);
          return true;
        }
      } catch {
        // fall through to the solo game
      }
      save(STORE_RACE, null);
    }
    const raw = load(STORE_GAME);
    if (!raw) return false;
    try {
      /** @type {SavedGame} */
      const saved = JSON.parse(raw);
      if (!saved.game_id || !saved.token) return false;
      this.startedAt = saved.started_at || Date.now();
      this.stoppedAt = null;
      this.openGame({ gameId: saved.game_id, token: saved.token, code: saved.code });
      return true;
    } catch {
      save(STORE_GAME, null);
      return false;
    }
  }

  // ------------------------------------------------------------------ language

  /** @param {Lang} next */
  switchLang(next) {
    setLang(next);
    save(STORE_LANG, next);
    translate();
    renderNotice(this);
    renderHud(this);
    if (this.board.state) this.board.render(this.board.state);
    if (this.race?.race) renderRace(this, this.race.race);
  }

  // ------------------------------------------------------------------ solo games

  /** @param {CreateGameRequest} request */
  async newGame(request) {
    let created;
    try {
      created = await client.games.create(request);
    } catch (error) {
      menuError(this, error);
      return;
    }
    leaveRace(this, { quiet: true });
    // The clock runs from the deal (the server's `clock_started_at`), whatever the delay.
    this.startedAt = Date.now() - (created.server_time - created.clock_started_at);
    this.stoppedAt = null;
    save(
      STORE_GAME,
      JSON.stringify({
        game_id: created.game_id,
        token: created.player_token,
        code: created.code,
        started_at: this.startedAt,
      }),
    );
    this.openGame({
      gameId: created.game_id,
      token: created.player_token,
      code: created.code,
      state: created.state,
      version: created.version,
    });
    this.ui.menu.hidden = true;
    this.ui.result.hidden = true;
  }

  /**
   * Puts a game on the table and follows it: a new one, a saved one, or the player's
   * race game (which waits for the race to run).
   * @param {{ gameId: string, token: string | null, code: string | null, state?: PublicState,
   *           version?: number, waitForStart?: boolean }} options
   */
  openGame(options) {
    this.closeGame();
    const game = client.game(options.gameId, {
      token: options.token,
      state: options.state ?? null,
      version: options.version,
      waitForStart: options.waitForStart,
    });
    this.game = game;
    this.gameCode = options.code;
    this.stopGame = [
      game.on("change", ({ change }) => this.onState(change)),
      game.on("snapshot", () => this.onState(null)),
      game.on("synced", (synced) => {
        if (this.game === game) this.ui.table.dataset.synced = String(synced);
      }),
      game.on("error", (error) => this.onError(error)),
    ];
    this.ui.table.dataset.gameId = game.id;
    this.ui.table.dataset.synced = "false";
    this.ui.table.dataset.version = String(game.version);
    this.setNotice(null);
    this.ui.won.hidden = true;
    if (game.state) this.board.render(game.state);
    else this.board.clear();
    renderHud(this);
    game.follow().catch((error) => {
      if (this.game === game) this.onError(error);
    });
  }

  /** Stops following the game on the table. */
  closeGame() {
    for (const stop of this.stopGame.splice(0)) stop();
    this.game?.leave();
    this.game = null;
    this.gameCode = null;
  }

  /** @param {import("./types.js").Change | null} change */
  onState(change) {
    const state = this.game?.state;
    if (!state) return;
    if (change && this.notice) this.setNotice(null);
    this.ui.table.dataset.version = String(this.game?.version ?? -1);
    this.board.render(state);
    if (state.won && this.stoppedAt === null) this.stoppedAt = Date.now();
    this.ui.won.hidden = !state.won;
    renderHud(this);
  }

  /** @param {unknown} error */
  onError(error) {
    if (!(error instanceof SolitaireError) || error.local) {
      if (error instanceof SolitaireError && error.code === "closed") return;
      const text = error instanceof Error ? error.message : String(error);
      this.setNotice({ kind: "error", code: "offline", text });
      return;
    }
    const seatGone = error.code === "not_found" || error.code === "unauthorized";
    if (seatGone && this.race && error.raceId === this.race.id) {
      // The saved race is gone (or no longer ours): back to the menu.
      leaveRace(this);
    }
    if (error.code === "not_found" && this.game && error.gameId === this.game.id) {
      // The saved game expired: start over.
      save(STORE_GAME, null);
      this.closeGame();
      this.board.clear();
      openMenu(this);
    }
    this.setNotice({ kind: "error", code: error.code, text: knownError(error.code) ?? error.message });
  }

  /**
   * What the page does with a refused action, undo or race command.
   * @param {unknown} error
   */
  onRefused(error) {
    if (error instanceof SolitaireError && error.code === "rule_violation" && error.rule) {
      const rejection = { rule_id: error.rule, message_en: error.messageEn, message_fi: error.messageFi ?? "" };
      this.setNotice({ kind: "rule", rejection });
    } else {
      this.onError(error);
    }
  }

  canPlay() {
    const state = this.game?.state;
    if (!state || state.won) return false;
    const session = this.race;
    const race = session?.race;
    if (!session || !race) return true;
    const me = session.me();
    const started =
      race.status === "running" || (race.start_at !== null && session.serverNow() >= race.start_at);
    return race.status !== "finished" && started && me?.state !== "resigned" && me?.state !== "won";
  }

  /** @param {ActionInput} action */
  act(action) {
    if (!this.game || !this.canPlay()) return;
    this.game.act(action).catch((error) => this.onRefused(error));
  }

  undo() {
    if (!this.game || !this.canPlay() || !this.game.state?.undo_available) return;
    this.game.undo().catch((error) => this.onRefused(error));
  }

  /**
   * A command of the player in the race followed.
   * @param {"ready" | "unready" | "start" | "resign" | "rematch"} command
   * @returns {Promise<boolean>} accepted
   */
  async raceCommand(command) {
    const race = this.race;
    if (!race) return false;
    try {
      await race.command(command);
      return true;
    } catch (error) {
      if (this.race === race) this.onError(error);
      return false;
    }
  }

  // ------------------------------------------------------------------ read-outs

  /** @param {Notice | null} notice */
  setNotice(notice) {
    this.notice = notice;
    renderNotice(this);
  }

}

/**
 * The connection light: open, connecting (or connecting again), or off.
 * @param {ConnectionStatus} status
 * @returns {"open" | "connecting" | "closed"}
 */
function linkStatus(status) {
  if (status === "open") return "open";
  return status === "connecting" || status === "reconnecting" ? "connecting" : "closed";
}

const app = new App();
// A handle for the browser console.
Object.assign(window, { solitaire: app });
app.start();
