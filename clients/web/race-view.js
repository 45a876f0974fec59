// @ts-check
// What a race shows: the lobby, the opponents' progress and the result table.

import { clock, fill, finishTime, h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").RaceView} RaceView */
/** @typedef {import("./types.js").RacePlayer} RacePlayer */
/** @typedef {import("@solitaire/sdk").Race} RaceSession */

/**
 * The elements of the page a race fills.
 * @typedef {{
 *   lobbyCode: HTMLElement, lobbySettings: HTMLElement, lobbyPlayers: HTMLElement,
 *   lobbyReady: HTMLButtonElement, lobbyStart: HTMLButtonElement, opponents: HTMLElement,
 *   resultRows: HTMLElement, resultCode: HTMLElement, resultRematch: HTMLButtonElement,
 *   resultRatingHead: HTMLElement,
 * }} RaceUi
 */

const TOTAL_CARDS = { DS: 104, TF: 52 };

/**
 * @param {RaceUi} ui
 * @param {RaceView} race
 * @param {RaceSession | null} session
 */
export function renderLobby(ui, race, session) {
  const me = session?.me();
  ui.lobbyCode.textContent = race.join_code;
  ui.lobbySettings.textContent = [
    race.game === "DS" ? t("game_DS") : t("game_TF"),
    race.draw === 3 ? t("draw_3") : t("draw_1"),
    race.scoring === "vegas" ? t("scoring_vegas") : t("scoring_normal"),
    `${race.players.length}/${race.max_players} ${t("players").toLowerCase()}`,
    race.time_limit_seconds
      ? `${t("time_limit")} ${clock(race.time_limit_seconds * 1000)}`
      : null,
  ]
    .filter(Boolean)
    .join(" · ");
  fill(
    ui.lobbyPlayers,
    race.players.map((player) =>
      h(
        "li",
        {
          class: `player${player.ready ? " ready" : ""}${player.connected ? "" : " away"}`,
          "data-testid": "race-player",
          "data-player-id": player.player_id,
          "data-ready": player.ready,
        },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("span", { class: "name" }, player.name),
        player.player_id === race.host ? h("span", { class: "tag" }, t("host")) : null,
        player.player_id === session?.you?.player_id
          ? h("span", { class: "tag you" }, t("you"))
          : null,
        h("span", { class: "ready-state" }, player.ready ? t("ready") : t("not_ready")),
      ),
    ),
  );
  ui.lobbyReady.textContent = me?.ready ? t("unready") : t("i_am_ready");
  ui.lobbyReady.dataset.ready = String(!!me?.ready);
  ui.lobbyStart.hidden = !session?.isHost();
}

/**
 * @param {RaceUi} ui
 * @param {RaceView} race
 * @param {RaceSession | null} session
 */
export function renderOpponents(ui, race, session) {
  const total = TOTAL_CARDS[race.game];
  const others = race.players.filter((p) => p.player_id !== session?.you?.player_id);
  fill(
    ui.opponents,
    h("span", { class: "label" }, t("opponents")),
    others.map((player) =>
      h(
        "div",
        {
          class: `opponent state-${player.state}`,
          "data-testid": "opponent",
          "data-player-id": player.player_id,
          "data-state": player.state,
          "data-moves": player.moves,
          "data-foundations": player.foundations,
        },
        h("span", { class: "name" }, player.name),
        h(
          "span",
          {
            class: "progress",
            role: "progressbar",
            "aria-valuemin": 0,
            "aria-valuemax": total,
            "aria-valuenow": player.foundations,
          },
          h("span", { class: "fill", style: `width:${(100 * player.foundations) / total}%` }),
        ),
        h(
          "span",
          { class: "figure", "data-testid": "opponent-foundations" },
          `${player.foundations}/${total}`,
        ),
        h(
          "span",
          { class: "figure", title: t("score") },
          h("small", {}, "★"),
          h("span", { "data-testid": "opponent-score" }, player.score_display || "0"),
        ),
        h(
          "span",
          { class: "figure", "data-testid": "opponent-moves" },
          `${player.moves} ${t("moves").toLowerCase()}`,
        ),
        h(
          "span",
          { class: "badge-state", "data-testid": "opponent-state" },
          stateText(player.state),
        ),
      ),
    ),
  );
}

/**
 * A player's new rating and what the race changed: `1658 (+158)`.
 * @param {import("./types.js").RatingChange | undefined} change
 */
function ratingChange(change) {
  if (!change) return h("td", { "data-testid": "result-rating" }, "—");
  const delta = Math.round(change.change);
  return h("td", { "data-testid": "result-rating", "data-change": delta },
    `${Math.round(change.rating)} (${delta >= 0 ? "+" : "−"}${Math.abs(delta)})`);
}

/** @param {RacePlayer["state"]} state */
export function stateText(state) {
  return t(`state_${state}`);
}

/**
 * @param {RaceUi} ui
 * @param {RaceView} race
 * @param {RaceSession | null} session
 */
export function renderResult(ui, race, session) {
  const result = race.result;
  const total = TOTAL_CARDS[race.game];
  const myId = session?.you?.player_id;
  // A rated race's result carries each rated player's new rating and the change.
  const ratings = new Map((result?.ratings ?? []).map((change) => [change.player_id, change]));
  ui.resultRatingHead.hidden = !ratings.size;
  fill(
    ui.resultRows,
    (result?.ranking ?? []).map((entry) =>
      h(
        "tr",
        {
          "data-testid": "result-row",
          "data-player-id": entry.player_id,
          "data-rank": entry.rank,
          "data-state": entry.state,
          class: entry.player_id === myId ? "me" : null,
        },
        h("td", { class: "rank" }, entry.rank),
        h(
          "td",
          { class: "who" },
          entry.name,
          entry.player_id === myId ? h("span", { class: "tag you" }, t("you")) : null,
        ),
        h(
          "td",
          {},
          entry.finish_ms !== null
            ? finishTime(entry.finish_ms)
            : h(
                "span",
                { class: `badge-state state-${entry.state}` },
                stateText(entry.state),
              ),
        ),
        h("td", {}, `${entry.foundations}/${total}`),
        h("td", {}, entry.score_display || "0"),
        h("td", { class: "moves" }, entry.moves),
        ratings.size ? ratingChange(ratings.get(entry.player_id)) : null,
      ),
    ),
  );
  ui.resultCode.textContent = result?.code ?? "";
  ui.resultRematch.textContent = race.rematch_race_id ? t("join_rematch") : t("rematch");
}
