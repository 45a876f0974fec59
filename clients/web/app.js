// @ts-check
// The page: the game being played; the menu (menu.js), races (race-flow.js, race-view.js),
// read-outs (readouts.js) and the pages over the table (router.js) live in modules of their
// own.

import { createGame } from "./api.js";
import { Board } from "./board.js";
import { Connection, socketUrl } from "./connection.js";
import { byId } from "./dom.js";
import { knownError } from "./errors.js";
import { GameSession } from "./game.js";
import { lang, setLang, translate } from "./i18n.js";
import { closeMenu, menuError, openMenu, wireMenu } from "./menu.js";
import { RaceSession } from "./race.js";
import { renderHud, renderNotice, showLink, tick } from "./readouts.js";
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

/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./types.js").Rejection} Rejection */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
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
    this.connection = new Connection(socketUrl());
    /** @type {GameSession | null} */
    this.game = null;
    /** @type {RaceSession | null} */
    this.race = null;
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
    this.connection.statusListeners.add((status) => {
      showLink(this, status);
      if (status !== "open") this.ui.table.dataset.synced = "false";
    });
    this.connection.connect();
    setInterval(() => tick(this), 200);
    if (!this.resume()) openMenu(this);
  }

  wire() {
    const ui = this.ui;
    wireMenu(this);
    wireRace(this);
    ui.undo.addEventListener("click", () => this.undo());
    ui.resign.addEventListener("click", () => void this.race?.command("resign"));
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
      this.useGame(
        new GameSession(
          this.connection,
          { gameId: saved.game_id, token: saved.token, code: saved.code },
          this.gameHandlers(),
        ),
      );
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
      created = await createGame(request);
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
    this.useGame(
      new GameSession(
        this.connection,
        {
          gameId: created.game_id,
          token: created.player_token,
          code: created.code,
          state: created.state,
          version: created.version,
        },
        this.gameHandlers(),
      ),
    );
    this.ui.menu.hidden = true;
    this.ui.result.hidden = true;
  }

  /** @param {GameSession} session */
  useGame(session) {
    this.game?.close();
    this.game = session;
    this.ui.table.dataset.gameId = session.gameId;
    this.ui.table.dataset.synced = "false";
    this.ui.table.dataset.version = String(session.version);
    this.setNotice(null);
    this.ui.won.hidden = true;
    if (session.state) this.board.render(session.state);
    else this.board.clear();
    renderHud(this);
    void session.subscribe();
  }

  /** @returns {import("./game.js").GameHandlers} */
  gameHandlers() {
    return {
      onState: (change) => this.onState(change),
      onRejected: (rejection) => this.setNotice({ kind: "rule", rejection }),
      onError: (error) => this.onError(error),
      onSynced: (synced) => {
        this.ui.table.dataset.synced = String(synced);
      },
    };
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

  /** @param {ErrorMessage | Error} error */
  onError(error) {
    if (error instanceof Error) {
      this.setNotice({ kind: "error", code: "offline", text: error.message });
      return;
    }
    const seatGone = error.code === "not_found" || error.code === "unauthorized";
    if (seatGone && this.race && error.race_id === this.race.raceId) {
      // The saved race is gone (or no longer ours): back to the menu.
      leaveRace(this);
    }
    if (error.code === "not_found" && this.game && error.game_id === this.game.gameId) {
      // The saved game expired: start over.
      save(STORE_GAME, null);
      this.game.close();
      this.game = null;
      this.board.clear();
      openMenu(this);
    }
    this.setNotice({ kind: "error", code: error.code, text: knownError(error.code) ?? error.message });
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
    void this.game.act(action);
  }

  undo() {
    if (!this.game || !this.canPlay() || !this.game.state?.undo_available) return;
    void this.game.undo();
  }

  // ------------------------------------------------------------------ read-outs

  /** @param {Notice | null} notice */
  setNotice(notice) {
    this.notice = notice;
    renderNotice(this);
  }

}

const app = new App();
// A handle for the browser console.
Object.assign(window, { solitaire: app });
app.start();
