// @ts-check
// The statistics page: a table per mode and a small SVG chart of win rates and best
// times, drawn here rather than with a chart library.

import { clock, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, modeLabel } from "./pages.js";
import { savedPlayer } from "./player-store.js";
import { client } from "./client.js";
import { ratingsSection } from "./ratings.js";

/** @typedef {import("./types.js").ModeStats} ModeStats */

const SVG = "http://www.w3.org/2000/svg";
const BAR_HEIGHT = 18;
const ROW_GAP = 10;
const LABEL_WIDTH = 70;
const CHART_WIDTH = 320;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Two bars per mode: the win rate (of 100 %) and the best time (of the slowest best).
 * @param {[string, ModeStats][]} modes
 */
export function chart(modes) {
  const slowest = Math.max(1, ...modes.map(([, s]) => s.best_time_ms ?? 0));
  const rowHeight = 2 * BAR_HEIGHT + ROW_GAP;
  const height = modes.length * rowHeight + 24;
  const barSpace = CHART_WIDTH - LABEL_WIDTH - 60;
  const root = svg("svg", {
    viewBox: `0 0 ${CHART_WIDTH} ${height}`, class: "stats-chart", role: "img",
    "aria-label": t("stats_chart"), "data-testid": "stats-chart",
  });
  modes.forEach(([mode, stats], row) => {
    const y = row * rowHeight;
    root.append(svg("text", { x: 0, y: y + BAR_HEIGHT, class: "chart-label" }, mode));
    const rate = Math.round(stats.win_rate * 100);
    const rateWidth = Math.max(1, (barSpace * rate) / 100);
    root.append(
      svg("rect", { x: LABEL_WIDTH, y, width: rateWidth, height: BAR_HEIGHT - 2, class: "bar-rate", "data-mode": mode }),
      svg("text", { x: LABEL_WIDTH + rateWidth + 4, y: y + BAR_HEIGHT - 5, class: "chart-value" }, `${rate} %`),
    );
    const best = stats.best_time_ms;
    const timeWidth = best === null ? 0 : Math.max(1, (barSpace * best) / slowest);
    root.append(
      svg("rect", { x: LABEL_WIDTH, y: y + BAR_HEIGHT, width: timeWidth, height: BAR_HEIGHT - 2, class: "bar-time" }),
      svg("text", { x: LABEL_WIDTH + timeWidth + 4, y: y + 2 * BAR_HEIGHT - 5, class: "chart-value" }, best === null ? "—" : clock(best)),
    );
  });
  const legendY = modes.length * rowHeight + 14;
  root.append(
    svg("rect", { x: LABEL_WIDTH, y: legendY - 9, width: 10, height: 10, class: "bar-rate" }),
    svg("text", { x: LABEL_WIDTH + 14, y: legendY, class: "chart-value" }, t("stats_win_rate")),
    svg("rect", { x: LABEL_WIDTH + 110, y: legendY - 9, width: 10, height: 10, class: "bar-time" }),
    svg("text", { x: LABEL_WIDTH + 124, y: legendY, class: "chart-value" }, t("stats_best_time")),
  );
  return root;
}

/** @param {number | null | undefined} value */
const show = (value) => (value === null || value === undefined ? "—" : String(value));

/**
 * What only the player sees: whether they stand on public boards, and their games played
 * faster than a person plays (counted here, kept off the boards).
 * @param {import("./types.js").PlayerStats} stats
 */
function standing(stats) {
  const boards = stats.boards;
  const flagged = stats.unverified_games ?? [];
  return h("div", { class: "hint", "data-testid": "stats-standing" },
    boards && !boards.eligible
      ? h("p", { "data-testid": "stats-not-eligible" }, t("stats_not_eligible"), boards.reason ? ` (${boards.reason})` : "")
      : null,
    flagged.length
      ? h("div", { "data-testid": "stats-unverified" }, h("p", {}, t("stats_unverified")),
        h("ul", {}, flagged.map((game) =>
          h("li", { "data-game": game.game_id }, `${modeLabel(game.mode)}: ${game.detail ?? game.reason}`))))
      : null);
}

/** @param {HTMLElement} root */
export async function showStats(root) {
  if (!savedPlayer()) {
    fill(root, h("h2", {}, t("stats_title")),
      h("p", { class: "hint", "data-testid": "stats-empty" }, t("stats_need_player"), " ",
        h("a", { href: "#/profile" }, t("profile_title"))));
    return;
  }
  fill(root, h("p", { class: "hint" }, t("loading")));
  try {
    const stats = await client.players.stats();
    /** @type {[string, ModeStats][]} */
    const modes = [];
    for (const [mode, counts] of Object.entries(stats.modes)) if (counts) modes.push([mode, counts]);
    modes.sort(([a], [b]) => a.localeCompare(b));
    if (!modes.length) {
      fill(root, h("h2", {}, t("stats_title")), h("p", { class: "hint", "data-testid": "stats-empty" }, t("stats_none")),
        ratingsSection(stats.ratings));
      return;
    }
    /** @type {import("./i18n.js").Key[]} */
    const head = ["stats_mode", "stats_played", "stats_won", "stats_win_rate", "stats_streak",
      "stats_best_streak", "stats_best_time", "stats_fewest_moves", "stats_best_score", "stats_bankroll"];
    fill(root,
      h("h2", {}, `${t("stats_title")} · ${stats.name}`),
      h("div", { class: "scroll" },
        h("table", { class: "ranking stats", "data-testid": "stats-table" },
          h("thead", {}, h("tr", {}, head.map((key) => h("th", {}, t(key))))),
          h("tbody", {}, modes.map(([mode, s]) =>
            h("tr", { "data-mode": mode },
              h("td", {}, modeLabel(mode)), h("td", { "data-field": "played" }, s.played),
              h("td", { "data-field": "won" }, s.won), h("td", {}, `${Math.round(s.win_rate * 100)} %`),
              h("td", {}, s.current_streak), h("td", {}, s.best_streak),
              h("td", {}, s.best_time_ms === null ? "—" : clock(s.best_time_ms)),
              h("td", {}, show(s.fewest_moves)), h("td", {}, show(s.best_score)),
              h("td", {}, s.bankroll === null || s.bankroll === undefined ? "—" : `$${s.bankroll}`)))))),
      standing(stats),
      ratingsSection(stats.ratings),
      chart(modes));
  } catch (error) {
    fill(root, h("h2", {}, t("stats_title")), h("p", { class: "form-error", "data-testid": "page-error" }, errorText(error)));
  }
}
