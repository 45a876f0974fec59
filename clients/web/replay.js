// @ts-check
// The replay viewer: every state of an ended game, from the deal of its code and the
// actions of its log, stepped through, played at a chosen speed, or jumped to.

import { Board } from "./board.js";
import { clock, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./pages.js";
import { Replayer } from "./rules.js";
import { client } from "./client.js";

/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./types.js").ReplayResponse} ReplayResponse */

const SPEEDS = [0.5, 1, 2, 4, 8];
/** Between two actions at speed 1 when the log has no times (older games). */
const DEFAULT_STEP_MS = 700;
/** A long think is shortened so that watching stays watchable. */
const LONGEST_PAUSE_MS = 3000;

/**
 * The states of a game, index k after action k (0 is the deal), rebuilt from the code and
 * the log's actions with the rules (rules.js): any length of log, one request.
 * @param {ReplayResponse} game
 * @returns {Promise<PublicState[]>}
 */
export async function replayStates(game) {
  const replayer = await Replayer.deal(game.code);
  const states = [replayer.view()];
  for (const action of game.actions) {
    replayer.play(action.notation);
    states.push(replayer.view());
  }
  return states;
}

class Viewer {
  /**
   * @param {HTMLElement} root
   * @param {ReplayResponse} game
   * @param {PublicState[]} states
   */
  constructor(root, game, states) {
    this.game = game;
    this.states = states;
    this.index = 0;
    this.speed = 1;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    const table = h("main", { class: "table replay-table", "data-testid": "replay-table" });
    this.board = new Board(table, { onAction: () => {}, canPlay: () => false, doubleClick: () => false });
    this.position = h("span", { "data-testid": "replay-position" });
    this.slider = h("input", {
      type: "range", min: 0, max: states.length - 1, value: 0,
      "data-testid": "replay-slider", "aria-label": t("replay_jump"),
    });
    this.playButton = h("button", { type: "button", class: "primary", "data-testid": "replay-play" });
    const speed = h("select", { "data-testid": "replay-speed", "aria-label": t("replay_speed") },
      SPEEDS.map((s) => h("option", { value: s, selected: s === 1 }, `${s}×`)));
    const link = `${location.origin}${location.pathname}#/replay/${encodeURIComponent(game.game_id)}`;
    const share = h("input", { readonly: true, value: link, "data-testid": "replay-link", "aria-label": t("replay_share") });
    const result = game.result;
    const outcome = result.won ? t("replay_won") : result.resigned ? t("replay_resigned") : t("replay_unfinished");
    fill(root,
      h("h2", {}, t("replay_title")),
      h("p", { class: "replay-summary", "data-testid": "replay-summary" },
        h("code", { "data-testid": "replay-code" }, game.code), " · ", outcome,
        ` · ${t("moves")} ${result.moves} · ${t("score")} ${result.score_display}`,
        result.duration_ms === null ? "" : ` · ${clock(result.duration_ms)}`),
      h("div", { class: "row replay-controls" },
        h("button", { type: "button", "data-testid": "replay-start", "aria-label": t("replay_start") }, "«"),
        h("button", { type: "button", "data-testid": "replay-back", "aria-label": t("replay_back") }, "‹"),
        this.playButton,
        h("button", { type: "button", "data-testid": "replay-forward", "aria-label": t("replay_forward") }, "›"),
        h("button", { type: "button", "data-testid": "replay-end", "aria-label": t("replay_end") }, "»"),
        speed, this.position),
      this.slider,
      h("p", { class: "replay-notation", "data-testid": "replay-notation" }),
      table,
      h("label", { class: "replay-share" }, h("span", { class: "legend" }, t("replay_share")), share));
    const click = (/** @type {string} */ id, /** @type {() => void} */ act) =>
      root.querySelector(`[data-testid="${id}"]`)?.addEventListener("click", act);
    click("replay-start", () => this.jump(0));
    click("replay-back", () => this.jump(this.index - 1));
    click("replay-forward", () => this.jump(this.index + 1));
    click("replay-end", () => this.jump(this.states.length - 1));
    this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.slider.addEventListener("input", () => this.jump(Number(this.slider.value)));
    speed.addEventListener("change", () => (this.speed = Number(speed.value)));
    share.addEventListener("focus", () => share.select());
    this.notation = /** @type {HTMLElement} */ (root.querySelector(".replay-notation"));
    this.jump(0);
  }

  /** @param {number} index */
  jump(index, keepPlaying = false) {
    if (!keepPlaying) this.pause();
    this.index = Math.max(0, Math.min(this.states.length - 1, index));
    this.board.render(this.states[this.index]);
    this.slider.value = String(this.index);
    const last = this.states.length - 1;
    this.position.textContent = `${this.index} / ${last}`;
    this.position.dataset.index = String(this.index);
    this.notation.textContent = this.index ? this.game.actions[this.index - 1].notation : t("replay_opening");
    this.playButton.textContent = this.timer ? t("replay_pause") : t("replay_play");
    this.playButton.setAttribute("aria-label", this.timer ? t("replay_pause") : t("replay_play"));
  }

  play() {
    if (this.index >= this.states.length - 1) this.jump(0);
    const step = () => {
      if (this.index >= this.states.length - 1) return this.pause();
      this.timer = setTimeout(() => {
        this.jump(this.index + 1, true);
        step();
      }, this.pauseBefore(this.index + 1) / this.speed);
    };
    step();
    this.jump(this.index, true);
  }

  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.playButton) {
      this.playButton.textContent = t("replay_play");
      this.playButton.setAttribute("aria-label", t("replay_play"));
    }
  }

  /** How long the player took before action `index`, as it was played. @param {number} index */
  pauseBefore(index) {
    const at = this.game.actions[index - 1]?.at_ms;
    const before = index > 1 ? this.game.actions[index - 2]?.at_ms : null;
    if (at === null || at === undefined || before === null || before === undefined) return DEFAULT_STEP_MS;
    return Math.min(LONGEST_PAUSE_MS, Math.max(150, at - before));
  }
}

/** @type {Viewer | null} */
let viewer = null;

/** Stops a playing replay when its page is left. */
export function closeReplay() {
  viewer?.pause();
  viewer = null;
}

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function showReplay(root, gameId) {
  closeReplay();
  fill(root, h("p", { class: "hint" }, t("loading")));
  try {
    const game = await client.games.replay(gameId);
    viewer = new Viewer(root, game, await replayStates(game));
  } catch (error) {
    fill(root, h("h2", {}, t("replay_title")), h("p", { class: "form-error", "data-testid": "page-error" }, errorText(error)));
  }
}
