// @ts-check
// The daily page: today's challenges with the time to the next ones, a button to play
// each (a player's one ranked attempt: the day's deal has no practice until the day is
// over) and each board, with your own attempt when it is not on it; below them the
// all-time rating boards (ratings.js).

import { playerToken } from "./player-store.js";
import { clock, fill, finishTime, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, modeLabel } from "./pages.js";
import { client } from "./client.js";
import { ratingBoards } from "./ratings.js";

/** @typedef {import("./types.js").DailyChallenge} DailyChallenge */
/** @typedef {import("./types.js").DailyBoard} DailyBoard */
/** @typedef {import("./types.js").BoardRow} BoardRow */

/** The rows of a board the page shows: the top ten, and three either side of yours. */
const BOARD_PAGE = { top: 10, around: 3 };
/** The key app.js resumes a solo game from after a reload. */
const STORE_GAME = "solitaire.game";

/** @type {ReturnType<typeof setInterval> | null} */
let countdownTimer = null;

/**
 * @param {BoardRow} row
 * @param {boolean} mine
 */
function boardRow(row, mine) {
  const time = row.won && row.time_ms !== null && row.time_ms !== undefined ? finishTime(row.time_ms) : t("daily_not_won");
  const replayLink = row.game_id
    ? h("a", { href: `#/replay/${encodeURIComponent(row.game_id)}`, "data-testid": "board-replay" }, t("replay_watch"))
    : "";
  return h("tr", { class: mine ? "me" : null, "data-testid": "board-row", "data-rank": row.rank },
    h("td", {}, row.rank), h("td", {}, row.name), h("td", {}, time),
    h("td", {}, row.foundations ?? "—"), h("td", { class: "moves" }, row.moves ?? "—"), h("td", {}, replayLink));
}

/**
 * Your own attempt when the board does not show it: unverified (played faster than a
 * person plays), or you are not on public boards yet (a new account).
 * @param {DailyBoard} board
 */
function offBoard(board) {
  const mine = board.mine;
  if (!mine || mine.on_board) return null;
  const why = mine.off_board === "unverified" ? t("daily_unverified") : t("daily_not_eligible");
  return h("p", { class: "hint", "data-testid": "daily-off-board", "data-reason": mine.off_board ?? "" },
    why, mine.off_board_detail ? ` (${mine.off_board_detail})` : "");
}

/** @param {DailyBoard} board */
function boardTable(board) {
  const mineId = board.you?.player_id;
  const rows = [...board.top];
  // Your row and your neighbours, after the top when they are not already in it.
  const shown = new Set(rows.map((row) => row.rank));
  const more = board.around.length ? board.around : board.you ? [board.you] : [];
  const extra = more.filter((row) => !shown.has(row.rank));
  if (!rows.length && !extra.length) return h("p", { class: "hint", "data-testid": "board-empty" }, t("daily_board_empty"));
  return h("table", { class: "ranking", "data-testid": "daily-board" },
    h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("player")), h("th", {}, t("finish")),
      h("th", {}, t("cards")), h("th", { class: "moves" }, t("moves")), h("th", {}, ""))),
    h("tbody", {}, rows.map((row) => boardRow(row, row.player_id === mineId)),
      extra.length ? h("tr", { class: "gap" }, h("td", { colspan: 6 }, "…")) : null,
      extra.map((row) => boardRow(row, row.player_id === mineId))));
}

/**
 * @param {DailyChallenge} challenge
 * @param {HTMLElement} error
 */
async function challengeCard(challenge, error) {
  const made = Boolean(challenge.ranked_game_id);
  const signedIn = playerToken() !== null;
  const label = made ? t("daily_attempt_made") : signedIn ? t("daily_play_ranked") : t("daily_needs_player");
  const play = h("button", {
    type: "button", class: made || !signedIn ? "" : "primary", "data-testid": "daily-play",
    disabled: made || !signedIn ? true : null,
  }, label);
  play.addEventListener("click", async () => {
    try {
      const game = await client.daily.play(challenge.date, challenge.mode);
      // The clock runs from the deal, on the server's time: the same instant here.
      const startedAt = Date.now() - (game.server_time - game.clock_started_at);
      localStorage.setItem(STORE_GAME, JSON.stringify({
        game_id: game.game_id, token: game.player_token, code: game.code ?? "", started_at: startedAt,
      }));
      // The page picks the saved game up on load, as after any reload.
      location.assign(location.pathname);
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
    }
  });
  let board;
  let mine = null;
  try {
    const read = await client.daily.board(challenge.date, challenge.mode, BOARD_PAGE);
    board = boardTable(read);
    mine = offBoard(read);
  } catch (err) {
    board = h("p", { class: "form-error" }, errorText(err));
  }
  return h("section", { class: "daily-card", "data-testid": "daily-challenge", "data-mode": challenge.mode },
    h("h3", {}, modeLabel(challenge.mode)),
    h("p", { class: "hint" }, `${t("daily_players")}: ${challenge.players}`),
    play, mine, board);
}

/**
 * The day before `date` (`YYYY-MM-DD`, UTC).
 * @param {string} date
 */
export function dayBefore(date) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * Yesterday's boards, public now: every ranked game can be watched again.
 * @param {string} date
 * @param {string[]} modes
 */
async function pastBoards(date, modes) {
  const boards = await Promise.all(
    modes.map(async (mode) => {
      try {
        const board = await client.daily.board(date, mode, BOARD_PAGE);
        return h("section", { class: "daily-card", "data-testid": "daily-past", "data-mode": mode },
          h("h3", {}, modeLabel(mode)), offBoard(board), boardTable(board));
      } catch {
        return null; // a day before the service kept boards
      }
    }),
  );
  return h("div", {}, h("h2", {}, `${t("daily_yesterday")} · ${date}`), h("div", { class: "daily-grid" }, boards));
}

/** @param {HTMLElement} root */
export async function showDaily(root) {
  if (countdownTimer) clearInterval(countdownTimer);
  fill(root, h("p", { class: "hint" }, t("loading")));
  try {
    const overview = await client.daily.overview();
    const nextAt = Date.now() + overview.seconds_to_next * 1000;
    const countdown = h("b", { "data-testid": "daily-countdown" });
    const tick = () => {
      if (!root.isConnected || root.closest("[hidden]")) return;
      countdown.textContent = clock(nextAt - Date.now());
    };
    tick();
    countdownTimer = setInterval(tick, 1000);
    const error = h("p", { class: "form-error", "data-testid": "daily-error", hidden: true });
    const cards = await Promise.all(overview.challenges.map((c) => challengeCard(c, error)));
    const modes = overview.challenges.map((c) => c.mode);
    const past = await pastBoards(dayBefore(overview.date), modes);
    fill(root,
      h("h2", {}, `${t("daily_title")} · ${overview.date}`),
      h("p", { class: "hint" }, `${t("daily_next_in")} `, countdown),
      error,
      h("div", { class: "daily-grid" }, cards),
      past,
      ratingBoards());
  } catch (error) {
    fill(root, h("h2", {}, t("daily_title")), h("p", { class: "form-error", "data-testid": "page-error" }, errorText(error)));
  }
}
