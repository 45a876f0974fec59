// @ts-check
// How a card looks: a face-up card drawn from its two-character text, or a card back.

import { h } from "./dom.js";

export const SUITS = /** @type {const} */ (["S", "H", "D", "C"]);
export const SUIT_SYMBOL = { S: "♠\uFE0E", H: "♥\uFE0E", D: "♦\uFE0E", C: "♣\uFE0E" };
const RANK_TEXT = /** @type {Record<string, string>} */ ({ T: "10" });

/** @param {string} card */
function suitOf(card) {
  return /** @type {"S" | "H" | "D" | "C"} */ (card[1]);
}

/** @param {string} card */
function rankText(card) {
  return RANK_TEXT[card[0]] ?? card[0];
}

/** @param {string} card */
function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

/**
 * A face-up card.
 * @param {string} card
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 */
export function cardFace(card, attrs = {}) {
  const suit = SUIT_SYMBOL[suitOf(card)];
  const rank = rankText(card);
  const court = "JQK".includes(card[0]);
  return h(
    "div",
    {
      class: `card face ${isRed(card) ? "red" : "black"}`,
      "data-card": card,
      "aria-label": card,
      ...attrs,
    },
    h(
      "span",
      { class: "corner" },
      h("span", { class: "rank" }, rank),
      h("span", { class: "suit" }, suit),
    ),
    court
      ? h("span", { class: "pip court" }, card[0], h("small", {}, suit))
      : h("span", { class: "pip" }, suit),
    h("span", { class: "corner end" }, rank, suit),
  );
}

/** A face-down card. @param {Record<string, string | number>} [attrs] */
export function cardBack(attrs = {}) {
  return h("div", { class: "card back", "data-testid": "card-back", ...attrs });
}
