// @ts-check
// Resigning a single game, its end screen (with the code a secret deal reveals at the
// end and whether the game was winnable), and the links from end screens to the game's
// replay. The game id comes from the
// table (app.js marks it), the game token from the solo game app.js keeps in storage.

import { byId, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./pages.js";
import { SolitaireError, client } from "./client.js";
import { savedSoloGame } from "./storage.js";
import { verdictBlock } from "./verdict.js";

const ui = {
  table: byId("table", HTMLElement),
  resign: byId("btn-solo-resign", HTMLButtonElement),
  won: byId("won", HTMLElement),
  wonReplay: byId("won-replay", HTMLAnchorElement),
  wonVerdict: byId("won-verdict", HTMLButtonElement),
  raceResult: byId("result", HTMLElement),
  raceReplay: byId("result-watch", HTMLAnchorElement),
  end: byId("solo-end", HTMLElement),
  endBody: byId("solo-end-body", HTMLElement),
};

/** Games resigned from this page: their resign button stays hidden. */
const resigned = new Set();

const soloGame = () => savedSoloGame(ui.table.dataset.gameId);

/** @param {string} gameId */
const replayHref = (gameId) => `#/replay/${encodeURIComponent(gameId)}`;

function sync() {
  const gameId = ui.table.dataset.gameId ?? "";
  const solo = soloGame();
  ui.resign.hidden = !solo || !ui.won.hidden || resigned.has(solo.game_id);
  ui.wonVerdict.hidden = !solo;
  ui.wonReplay.href = replayHref(gameId);
  ui.raceReplay.href = replayHref(gameId);
  ui.raceReplay.hidden = !gameId;
}

async function resignGame() {
  const solo = soloGame();
  if (!solo || !confirm(t("resign_confirm"))) return;
  ui.end.hidden = false;
  fill(ui.endBody, h("p", { class: "hint" }, t("loading")));
  try {
    await client.games.resign(solo.game_id, { token: solo.token });
    resigned.add(solo.game_id);
    // A daily challenge keeps its deal (and so the record) private until the day ends.
    const over = await client.games.record(solo.game_id, { token: solo.token }).catch((error) => {
      if (error instanceof SolitaireError && error.code === "daily_running") return null;
      throw error;
    });
    fill(ui.endBody,
      h("h2", {}, t("solo_end_title")),
      h("p", {}, over ? t("solo_end_resigned") : t("solo_end_daily")),
      over && h("p", { class: "deal-code" }, h("span", {}, t("deal_code")), " ",
        h("code", { "data-testid": "solo-end-code" }, over.code)),
      over && verdictBlock(solo.game_id),
      h("div", { class: "row buttons" },
        over && h("a", { class: "button primary", href: replayHref(solo.game_id), "data-testid": "solo-end-replay" }, t("replay_watch")),
        h("button", { type: "button", "data-testid": "solo-end-new" }, t("new_game")),
        h("button", { type: "button", class: "plain", "data-testid": "solo-end-close" }, t("close"))));
  } catch (error) {
    fill(ui.endBody, h("p", { class: "form-error", "data-testid": "solo-end-error" }, errorText(error)),
      h("button", { type: "button", class: "plain", "data-testid": "solo-end-close" }, t("close")));
  }
  sync();
}

/** The end screen of a won game, opened from the "You won" banner. */
function wonScreen() {
  const solo = soloGame();
  if (!solo) return;
  ui.end.hidden = false;
  fill(ui.endBody,
    h("h2", {}, t("you_won_title")),
    verdictBlock(solo.game_id),
    h("div", { class: "row buttons" },
      h("a", { class: "button primary", href: replayHref(solo.game_id), "data-testid": "solo-end-replay" }, t("replay_watch")),
      h("button", { type: "button", "data-testid": "solo-end-new" }, t("new_game")),
      h("button", { type: "button", class: "plain", "data-testid": "solo-end-close" }, t("close"))));
}

ui.resign.addEventListener("click", () => void resignGame());
ui.wonVerdict.addEventListener("click", wonScreen);
ui.endBody.addEventListener("click", (e) => {
  const target = e.target instanceof Element ? e.target.closest("[data-testid]") : null;
  const id = target?.getAttribute("data-testid");
  if (id === "solo-end-new") byId("btn-new", HTMLButtonElement).click();
  if (id === "solo-end-new" || id === "solo-end-close" || id === "solo-end-replay") ui.end.hidden = true;
});
// app.js owns the table and the banners; follow what it shows.
const watch = new MutationObserver(sync);
for (const node of [ui.table, ui.won, ui.raceResult]) {
  watch.observe(node, { attributes: true, attributeFilter: ["data-game-id", "hidden"] });
}
window.addEventListener("storage", sync);
setInterval(sync, 1000);
sync();
