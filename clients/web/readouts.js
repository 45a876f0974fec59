// @ts-check
// What the page reads out: the message bar, the HUD, the connection light, the clocks.

import { clock } from "./dom.js";
import { lang, t } from "./i18n.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./types.js").RaceView} RaceView */

/** @param {App} app */
export function renderNotice(app) {
  const notice = app.notice;
  const ui = app.ui;
  ui.message.hidden = !notice;
  if (!notice) return;
  if (notice.kind === "rule") {
    ui.message.dataset.kind = "rule";
    ui.messageRule.textContent = notice.rejection.rule_id;
    ui.messageRule.title = t("rule");
    ui.messageText.textContent =
      lang() === "fi" ? notice.rejection.message_fi : notice.rejection.message_en;
  } else if (notice.kind === "error") {
    ui.message.dataset.kind = "error";
    ui.messageRule.textContent = notice.code;
    ui.messageRule.title = "";
    ui.messageText.textContent = notice.text;
  } else {
    ui.message.dataset.kind = "info";
    ui.messageRule.textContent = "";
    ui.messageText.textContent = t(notice.key);
  }
  // Restart the attention animation.
  ui.message.classList.remove("flash");
  void ui.message.offsetWidth;
  ui.message.classList.add("flash");
}

/** @param {App} app */
export function renderHud(app) {
  const ui = app.ui;
  const state = app.game?.state;
  ui.hudGame.textContent = state
    ? `${state.game === "DS" ? t("game_DS") : t("game_TF")} · ${state.draw} · ${
        state.scoring === "vegas" ? t("scoring_vegas") : t("scoring_normal")
      }`
    : "—";
  ui.hudCode.textContent = app.gameCode ?? app.race?.race?.result?.code ?? "—";
  ui.hudScore.textContent = state ? state.score_display : "0";
  ui.hudScore.classList.toggle("negative", !!state && state.score < 0);
  ui.hudMoves.textContent = state ? String(state.moves) : "0";
  ui.undo.disabled = !state || !state.undo_available || !app.canPlay();
  tick(app);
}

/**
 * @param {App} app
 * @param {"open" | "connecting" | "closed"} status
 */
export function showLink(app, status) {
  app.ui.link.dataset.status = status;
  app.ui.link.title =
    status === "open" ? t("online") : status === "connecting" ? t("connecting") : t("offline");
}

/**
 * Updates the clocks: elapsed time, time left, countdown.
 * @param {App} app
 */
export function tick(app) {
  const ui = app.ui;
  const race = app.race?.race;
  if (race && app.race) {
    const now = app.race.serverNow();
    const me = app.race.me();
    let elapsed = 0;
    if (race.start_at !== null && now >= race.start_at) {
      let end = now;
      if (race.finished_at !== null) end = race.finished_at;
      if (me?.finish_ms !== null && me?.finish_ms !== undefined)
        end = race.start_at + me.finish_ms;
      if (me?.state === "resigned" && app.stoppedAt !== null)
        end = Math.min(end, app.stoppedAt + app.race.clockOffset);
      elapsed = end - race.start_at;
    }
    ui.hudTime.textContent = clock(elapsed);
    const showLeft = race.ends_at !== null && race.status !== "finished";
    ui.hudLeftWrap.hidden = !showLeft;
    if (showLeft && race.ends_at !== null)
      ui.hudLeft.textContent = clock(Math.max(0, race.ends_at - now));
    tickCountdown(app, race, now);
    return;
  }
  ui.hudLeftWrap.hidden = true;
  if (app.startedAt === null || !app.game) {
    ui.hudTime.textContent = "0:00";
    return;
  }
  ui.hudTime.textContent = clock((app.stoppedAt ?? Date.now()) - app.startedAt);
}

/**
 * @param {App} app
 * @param {RaceView} race
 * @param {number} now server time
 */
export function tickCountdown(app, race, now) {
  const ui = app.ui;
  const counting =
    race.start_at !== null && race.status !== "finished" && race.status !== "lobby";
  const left = counting && race.start_at !== null ? race.start_at - now : -Infinity;
  if (left > 0) {
    ui.countdown.hidden = false;
    ui.countdown.dataset.phase = "counting";
    ui.countdownN.textContent = String(Math.ceil(left / 1000));
  } else if (left > -1000) {
    ui.countdown.hidden = false;
    ui.countdown.dataset.phase = "go";
    ui.countdownN.textContent = t("go");
  } else {
    ui.countdown.hidden = true;
  }
}
