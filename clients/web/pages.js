// @ts-check
// What the pages share: error text and mode names.

import { SolitaireError } from "./client.js";
import { t } from "./i18n.js";

/** @param {unknown} error */
export function errorText(error) {
  if (error instanceof SolitaireError) {
    const code = error.code;
    if (code === "bad_name") return t("error_bad_name");
    if (code === "not_found") return t("error_not_found");
    if (code === "rate_limited") return t("error_rate_limited");
    if (code === "unauthorized") return t("error_unauthorized");
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * `DS.D3V` as the player reads it: "Double Solitaire · 3 · Vegas".
 * @param {string} mode
 */
export function modeLabel(mode) {
  const [game, rules] = mode.split(".");
  const name = game === "TF" ? t("game_TF") : t("game_DS");
  const draw = rules?.[1] === "3" ? t("draw_3_short") : t("draw_1_short");
  const scoring = rules?.[2] === "V" ? t("scoring_vegas") : t("scoring_normal");
  return `${name} · ${draw} · ${scoring}`;
}
