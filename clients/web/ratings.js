// @ts-check
// Ratings from rated races (docs/ratings.md): the player's own per mode, for the profile
// and statistics pages, and the all-time `rating.<mode>` boards beside the daily ones.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, modeLabel } from "./pages.js";
import { client } from "./client.js";

/** @typedef {import("./types.js").ModeRating} ModeRating */
/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").BoardRow} BoardRow */

/** Every mode a game offers (Vegas scoring is for Double Solitaire only). */
export const MODES = ["DS.D1N", "DS.D3N", "DS.D1V", "DS.D3V", "TF.D1N", "TF.D3N"];

/** The rows of a board the page shows: the top ten, and three either side of yours. */
const BOARD_PAGE = { top: 10, around: 3 };

/**
 * A rating as the player reads it: `1658 ± 484`, with a `?` and "(provisional)" while
 * it is provisional.
 * @param {ModeRating} rating
 */
export function ratingCell(rating) {
  const value = `${Math.round(rating.rating)}${rating.provisional ? "?" : ""}`;
  return h("span", { class: "rating", "data-testid": "rating-value" },
    h("b", {}, value), ` ± ${Math.round(rating.deviation)}`,
    rating.provisional ? [" ", h("span", { class: "provisional" }, `(${t("rating_provisional")})`)] : null);
}

/**
 * The player's ratings, a row per mode rated in.
 * @param {Record<string, ModeRating | undefined> | null | undefined} ratings
 */
export function ratingsSection(ratings) {
  /** @type {[string, ModeRating][]} */
  const rows = [];
  for (const [mode, rating] of Object.entries(ratings ?? {})) if (rating) rows.push([mode, rating]);
  rows.sort(([a], [b]) => a.localeCompare(b));
  return h("section", { "data-testid": "ratings" },
    h("h3", {}, t("ratings_title")),
    rows.length
      ? h("table", { class: "ranking", "data-testid": "ratings-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("stats_mode")), h("th", {}, t("rating_value")),
          h("th", {}, t("rating_races")))),
        h("tbody", {}, rows.map(([mode, rating]) =>
          h("tr", { "data-testid": "rating-row", "data-mode": mode, "data-provisional": String(rating.provisional) },
            h("td", {}, modeLabel(mode)), h("td", {}, ratingCell(rating)), h("td", {}, rating.games)))))
      : h("p", { class: "hint", "data-testid": "ratings-none" }, t("ratings_none")));
}

/**
 * @param {BoardRow} row
 * @param {boolean} mine
 */
function boardRow(row, mine) {
  return h("tr", { class: mine ? "me" : null, "data-testid": "rating-board-row", "data-rank": row.rank },
    h("td", {}, row.rank), h("td", {}, row.name), h("td", {}, row.value ?? "—"));
}

/** @param {Board} board */
function boardTable(board) {
  const mineId = board.you?.player_id;
  const rows = [...board.top];
  const shown = new Set(rows.map((row) => row.rank));
  const more = board.around.length ? board.around : board.you ? [board.you] : [];
  const extra = more.filter((row) => !shown.has(row.rank));
  if (!rows.length && !extra.length) {
    return h("p", { class: "hint", "data-testid": "rating-board-empty" }, t("rating_board_empty"));
  }
  return h("table", { class: "ranking", "data-testid": "rating-board-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("player")), h("th", {}, t("rating_value")))),
    h("tbody", {}, rows.map((row) => boardRow(row, row.player_id === mineId)),
      extra.length ? h("tr", { class: "gap" }, h("td", { colspan: 3 }, "…")) : null,
      extra.map((row) => boardRow(row, row.player_id === mineId))));
}

/**
 * The `rating.<mode>` boards: a mode to pick, and its board.
 * @param {string} [mode]  the one shown first
 */
export function ratingBoards(mode = MODES[0]) {
  const select = h("select", { class: "rating-board-mode", "data-testid": "rating-board-mode", "aria-label": t("stats_mode") },
    MODES.map((m) => h("option", { value: m, selected: m === mode }, modeLabel(m))));
  const body = h("div", {});
  const section = h("section", { class: "daily-card", "data-testid": "rating-board", "data-mode": mode },
    h("h2", {}, t("rating_board_title")), select, body);
  const load = async () => {
    const chosen = select.value;
    section.dataset.mode = chosen;
    section.dataset.loaded = "false";
    try {
      const board = await client.daily.leaderboard(`rating.${chosen}`, BOARD_PAGE);
      if (select.value === chosen) fill(body, boardTable(board));
    } catch (error) {
      if (select.value === chosen) fill(body, h("p", { class: "form-error" }, errorText(error)));
    }
    if (select.value === chosen) section.dataset.loaded = "true";
  };
  select.addEventListener("change", () => void load());
  void load();
  return section;
}
