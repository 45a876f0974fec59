// @ts-check
// The card table: draws a public state, sized to the window; pointer.js turns input on it
// into actions, cards.js draws the cards.

import { cardBack, cardFace, SUIT_SYMBOL, SUITS } from "./cards.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { PointerInput } from "./pointer.js";

/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./pointer.js").BoardHandlers} BoardHandlers */

/** Widths at or above this lay the stock and foundations beside the tableau. */
const WIDE_MIN_PX = 720;

export class Board {
  /**
   * @param {HTMLElement} root
   * @param {BoardHandlers} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    /** @type {PublicState | null} */
    this.state = null;
    this.input = new PointerInput(root, handlers, () => this.state !== null);
    let frame = 0;
    const relayout = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const size = `${this.root.clientWidth}x${window.innerHeight}`;
        if (this.state && size !== this.laidOutFor) this.render(this.state);
      });
    };
    window.addEventListener("resize", relayout);
    new ResizeObserver(relayout).observe(root);
    /** The size the board was last laid out for ("width x height"). */
    this.laidOutFor = "";
  }

  clear() {
    this.input.cancelPress();
    this.state = null;
    fill(this.root);
  }

  // ------------------------------------------------------------------ drawing

  /** @param {PublicState} state */
  render(state) {
    this.input.cancelPress();
    this.state = state;
    this.laidOutFor = `${this.root.clientWidth}x${window.innerHeight}`;
    const padding = getComputedStyle(this.root);
    const width =
      (this.root.clientWidth || window.innerWidth) -
      parseFloat(padding.paddingLeft) -
      parseFloat(padding.paddingRight);
    const cols = state.columns.length;
    const perRow = state.foundations.length / 4;
    const wide = width >= WIDE_MIN_PX;
    const gap = Math.round(Math.max(3, Math.min(10, width / 120)));
    let w;
    if (wide) {
      // Tableau columns, 4 gaps, then a side panel: the stock, 2 gaps, the fanned waste
      // (1.68 cards wide); below them the foundations.
      w = (width - (cols - 1 + 4 + 2) * gap - 4) / (cols + 2.68);
      w = Math.min(w, 104, (window.innerHeight - 130) / 1.4 / 3.9);
    } else {
      w = (width - (cols - 1) * gap) / cols;
      w = Math.min(w, 90);
    }
    w = Math.max(30, Math.floor(w));
    const cardH = Math.round(w * 1.4);
    const placeH = Math.round(cardH * (wide ? 0.74 : 0.62));
    const style = this.root.style;
    style.setProperty("--w", `${w}px`);
    style.setProperty("--h", `${cardH}px`);
    style.setProperty("--gap", `${gap}px`);
    style.setProperty("--place-h", `${placeH}px`);
    style.setProperty("--cols", String(cols));
    style.setProperty("--per-row", String(perRow));
    this.root.dataset.layout = wide ? "wide" : "narrow";
    this.root.dataset.game = state.game;

    const board = h(
      "div",
      { class: "board", "data-testid": "board", "data-game": state.game },
      h("div", { class: "deck" }, this.stock(state), this.waste(state, w)),
      this.foundations(state),
      this.tableau(state),
    );
    fill(this.root, board);
    this.placeColumnCards(state, cardH);
  }

  /** @param {PublicState} state */
  stock(state) {
    const canRecycle = state.stock === 0 && state.waste.length > 0 && state.scoring === "normal";
    return h(
      "div",
      {
        class: `pile stock${state.stock === 0 ? " empty" : ""}`,
        "data-pile": "s",
        "data-testid": "stock",
        role: "button",
        "aria-label": `${t("stock")}: ${state.stock}`,
      },
      state.stock > 0
        ? [cardBack(), state.stock > 1 ? cardBack({ class: "card back under" }) : null]
        : h("span", { class: "slot-mark" }, canRecycle ? "↻" : ""),
      h("span", { class: "badge", "data-testid": "stock-count" }, state.stock),
    );
  }

  /**
   * @param {PublicState} state
   * @param {number} w
   */
  waste(state, w) {
    const shown = state.draw === 3 ? state.waste.slice(-3) : state.waste.slice(-1);
    const first = state.waste.length - shown.length;
    const fan = Math.round(w * 0.34);
    return h(
      "div",
      {
        class: "pile waste",
        "data-pile": "w",
        "data-testid": "waste",
        "data-count": state.waste.length,
        "aria-label": t("waste"),
      },
      shown.map((card, i) => {
        const top = first + i === state.waste.length - 1;
        return cardFace(card, {
          "data-index": first + i,
          "data-top": top,
          style: `left:${i * fan}px`,
        });
      }),
    );
  }

  /** @param {PublicState} state */
  foundations(state) {
    const perRow = state.foundations.length / 4;
    return h(
      "div",
      {
        class: "foundations",
        "data-pile": "f",
        "data-testid": "foundations",
        "aria-label": t("foundations"),
      },
      SUITS.map((suit, row) =>
        h(
          "div",
          { class: "frow", "data-suit": suit },
          Array.from({ length: perRow }, (_, k) => {
            const index = row * perRow + k;
            const card = state.foundations[index];
            return h(
              "div",
              {
                class: `pile place ${suit === "H" || suit === "D" ? "red" : "black"}`,
                "data-pile": `f${index + 1}`,
                "data-testid": "foundation",
              },
              card
                ? cardFace(card, { "data-top": true, "data-index": 0 })
                : h("span", { class: "slot-mark" }, SUIT_SYMBOL[suit]),
            );
          }),
        ),
      ),
    );
  }

  /** @param {PublicState} state */
  tableau(state) {
    return h(
      "div",
      { class: "tableau", "data-testid": "tableau" },
      state.columns.map((column, i) =>
        h(
          "div",
          {
            class: "pile column",
            "data-pile": `c${i + 1}`,
            "data-testid": "column",
            "data-down": column.down,
            "data-up": column.up.length,
          },
          Array.from({ length: column.down }, () => cardBack()),
          column.up.map((card, k) =>
            cardFace(card, { "data-index": k, "data-top": k === column.up.length - 1 }),
          ),
        ),
      ),
    );
  }

  /**
   * Spreads each column's cards, squeezing long columns to fit the window's height.
   * @param {PublicState} state
   * @param {number} cardH
   */
  placeColumnCards(state, cardH) {
    const tableau = this.root.querySelector(".tableau");
    if (!(tableau instanceof HTMLElement)) return;
    const top = tableau.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(window.innerHeight - top - 16, cardH * 3);
    let tallest = cardH;
    tableau.querySelectorAll(".column").forEach((node, i) => {
      const column = state.columns[i];
      let down = cardH * 0.12;
      let up = cardH * 0.27;
      const spread = column.down * down + Math.max(0, column.up.length - 1) * up;
      if (spread > 0 && spread + cardH > room) {
        const factor = (room - cardH) / spread;
        down = Math.max(cardH * 0.05, down * factor);
        up = Math.max(cardH * 0.21, up * factor);
      }
      let y = 0;
      node.querySelectorAll(".card").forEach((card, k) => {
        if (!(card instanceof HTMLElement)) return;
        card.style.top = `${Math.round(y)}px`;
        y += k < column.down ? down : up;
      });
      const height =
        column.down + column.up.length ? y - (column.up.length ? up : down) + cardH : cardH;
      tallest = Math.max(tallest, height);
    });
    tableau.style.minHeight = `${Math.round(Math.max(tallest, Math.min(room, cardH * 4)))}px`;
  }
}
