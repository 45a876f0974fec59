// @ts-check
// "Was it winnable?" on the end screen of a solo game: the solver's verdict on the deal
// and, for a game given up, on the position where the player stopped. The service works
// the verdicts out on the first request (a few seconds), so the block says so meanwhile.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./pages.js";
import { SolitaireError, client } from "./client.js";

/** @typedef {import("./types.js").Verdict} Verdict */

/**
 * @param {"deal" | "position"} which
 * @param {Verdict} verdict
 */
function verdictLine(which, verdict) {
  const key = /** @type {const} */ ({
    won: which === "deal" ? "verdict_deal_won" : "verdict_position_won",
    unwinnable: which === "deal" ? "verdict_deal_unwinnable" : "verdict_position_unwinnable",
    unknown: which === "deal" ? "verdict_deal_unknown" : "verdict_position_unknown",
  })[verdict.result];
  const text = t(key).replace("{n}", String(verdict.line?.length ?? 0));
  return h("p", { "data-testid": `verdict-${which}`, "data-result": verdict.result }, text);
}

/**
 * A block that fills itself with the verdicts of the ended game `gameId`.
 * @param {string} gameId
 */
export function verdictBlock(gameId) {
  const block = h("section", { class: "verdict", "data-testid": "verdict", "data-state": "pending" });
  const load = async () => {
    block.dataset.state = "pending";
    fill(block, h("h3", {}, t("verdict_title")), h("p", { class: "hint" }, t("verdict_pending")));
    try {
      const answer = await client.games.analysis(gameId);
      block.dataset.state = "done";
      fill(block, h("h3", {}, t("verdict_title")), verdictLine("deal", answer.deal),
        answer.position && verdictLine("position", answer.position));
    } catch (error) {
      // A solver restarting answers 503: asking again is what the service expects.
      const retry = error instanceof SolitaireError && error.status === 503;
      block.dataset.state = "failed";
      const again = retry && h("button", { type: "button", "data-testid": "verdict-retry" }, t("verdict_retry"));
      if (again) again.addEventListener("click", () => void load());
      fill(block, h("h3", {}, t("verdict_title")),
        h("p", { class: "form-error", "data-testid": "verdict-error" }, errorText(error)), again);
    }
  };
  void load();
  return block;
}
