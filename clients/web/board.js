// @ts-check
// The card table: draws a public state and turns pointer input into actions.
//
// Pointer events serve mouse, pen and touch alike. A press on a face-up card that moves
// more than a few pixels becomes a drag carrying the card and every card on it; a press
// that does not move is a tap. With the "double-click" setting on, a tap waits briefly
// for a second one and is sent as a double tap if it comes.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").PublicState} PublicState */
/** @typedef {import("./types.js").ActionInput} ActionInput */

export const SUITS = /** @type {const} */ (["S", "H", "D", "C"]);
const SUIT_SYMBOL = { S: "♠\uFE0E", H: "♥\uFE0E", D: "♦\uFE0E", C: "♣\uFE0E" };
const RANK_TEXT = /** @type {Record<string, string>} */ ({ T: "10" });
const DRAG_THRESHOLD_PX = 6;
const DOUBLE_TAP_MS = 320;
/** Widths at or above this lay the stock and foundations beside the tableau. */
const WIDE_MIN_PX = 720;

/**
 * @typedef {object} BoardHandlers
 * @property {(action: ActionInput) => void} onAction
 * @property {() => boolean} canPlay
 * @property {() => boolean} doubleClick  whether double taps are on
 */

/**
 * @typedef {object} Press
 * @property {number} pointerId
 * @property {string} pile
 * @property {number} count  cards carried (from the pressed one to the top)
 * @property {boolean} top  the pressed card is the pile's top card
 * @property {HTMLElement[]} cards
 * @property {number} x
 * @property {number} y
 * @property {HTMLElement | null} ghost
 * @property {number} grabX
 * @property {number} grabY
 */

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
function cardBack(attrs = {}) {
  return h("div", { class: "card back", "data-testid": "card-back", ...attrs });
}

export class Board {
  /**
   * @param {HTMLElement} root
   * @param {BoardHandlers} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** @type {PublicState | null} */
    this.state = null;
    /** @type {Press | null} */
    this.press = null;
    /** @type {{ pile: string, timer: ReturnType<typeof setTimeout> } | null} */
    this.pendingTap = null;
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    root.addEventListener("pointermove", (e) => this.pointerMove(e));
    root.addEventListener("pointerup", (e) => this.pointerUp(e));
    root.addEventListener("pointercancel", () => this.cancelPress());
    root.addEventListener("contextmenu", (e) => {
      if (e.target instanceof Element && e.target.closest(".card")) e.preventDefault();
    });
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
    this.cancelPress();
    this.state = null;
    fill(this.root);
  }

  // ------------------------------------------------------------------ drawing

  /** @param {PublicState} state */
  render(state) {
    this.cancelPress();
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

  // ------------------------------------------------------------------ input

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (!this.state || !this.handlers.canPlay()) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (this.press) return;
    const target = e.target instanceof Element ? e.target : null;
    const pileNode = target?.closest("[data-pile]");
    if (!(pileNode instanceof HTMLElement) || !this.root.contains(pileNode)) return;
    const pile = pileNode.dataset.pile ?? "";
    if (pile === "s") {
      // A tap on the stock draws (or recycles) when the press ends.
      this.press = this.newPress(e, pile, 0, false, []);
      return;
    }
    const card = target?.closest(".card.face[data-index]");
    if (!(card instanceof HTMLElement)) return;
    const index = Number(card.dataset.index);
    const top = card.hasAttribute("data-top");
    /** @type {HTMLElement[]} */
    let cards = [card];
    let count = 1;
    if (pile.startsWith("c")) {
      cards = /** @type {HTMLElement[]} */ (
        Array.from(pileNode.querySelectorAll(".card.face[data-index]")).filter(
          (node) => node instanceof HTMLElement && Number(node.dataset.index) >= index,
        )
      );
      count = cards.length;
    } else if (!top) {
      return; // only the top of the waste or of a foundation can be taken
    }
    e.preventDefault();
    this.press = this.newPress(e, pile, count, top, cards);
  }

  /**
   * @param {PointerEvent} e
   * @param {string} pile
   * @param {number} count
   * @param {boolean} top
   * @param {HTMLElement[]} cards
   * @returns {Press}
   */
  newPress(e, pile, count, top, cards) {
    try {
      this.root.setPointerCapture(e.pointerId);
    } catch {
      // the pointer may already be gone
    }
    const rect = cards[0]?.getBoundingClientRect();
    return {
      pointerId: e.pointerId,
      pile,
      count,
      top,
      cards,
      x: e.clientX,
      y: e.clientY,
      ghost: null,
      grabX: rect ? e.clientX - rect.left : 0,
      grabY: rect ? e.clientY - rect.top : 0,
    };
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const press = this.press;
    if (!press || e.pointerId !== press.pointerId || !press.cards.length) return;
    if (!press.ghost) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_THRESHOLD_PX) return;
      press.ghost = this.lift(press);
    }
    e.preventDefault();
    press.ghost.style.transform = `translate(${e.clientX - press.grabX}px, ${e.clientY - press.grabY}px)`;
  }

  /**
   * Starts a drag: a floating copy of the carried cards follows the pointer.
   * @param {Press} press
   */
  lift(press) {
    const first = press.cards[0].getBoundingClientRect();
    const ghost = h("div", { class: "ghost", "data-testid": "drag-ghost" });
    ghost.style.setProperty("--w", this.root.style.getPropertyValue("--w"));
    ghost.style.setProperty("--h", this.root.style.getPropertyValue("--h"));
    for (const card of press.cards) {
      const rect = card.getBoundingClientRect();
      const copy = /** @type {HTMLElement} */ (card.cloneNode(true));
      copy.style.left = `${rect.left - first.left}px`;
      copy.style.top = `${rect.top - first.top}px`;
      ghost.append(copy);
      card.classList.add("lifted");
    }
    ghost.style.transform = `translate(${first.left}px, ${first.top}px)`;
    document.body.append(ghost);
    this.root.classList.add("dragging");
    return ghost;
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const press = this.press;
    if (!press || e.pointerId !== press.pointerId) return;
    this.press = null;
    if (press.ghost) {
      const target = this.dropTarget(e.clientX, e.clientY, press);
      this.land(press);
      if (!target || target === press.pile) return;
      const to = target.startsWith("f") ? "f" : target;
      if (to === "f" && press.pile.startsWith("f")) return;
      this.handlers.onAction({ type: "move", from: press.pile, to, count: press.count });
      return;
    }
    if (press.pile === "s") {
      this.handlers.onAction({ type: "draw" });
    } else if (press.top && (press.pile === "w" || press.pile.startsWith("c"))) {
      this.tap(press.pile);
    }
  }

  /** @param {string} pile */
  tap(pile) {
    if (!this.handlers.doubleClick()) {
      this.handlers.onAction({ type: "tap", from: pile });
      return;
    }
    const pending = this.pendingTap;
    if (pending && pending.pile === pile) {
      clearTimeout(pending.timer);
      this.pendingTap = null;
      this.handlers.onAction({ type: "tap", from: pile, double: true });
      return;
    }
    if (pending) {
      clearTimeout(pending.timer);
      this.handlers.onAction({ type: "tap", from: pending.pile });
    }
    this.pendingTap = {
      pile,
      timer: setTimeout(() => {
        this.pendingTap = null;
        this.handlers.onAction({ type: "tap", from: pile });
      }, DOUBLE_TAP_MS),
    };
  }

  /**
   * The pile under the pointer, else under the middle of the carried top card.
   * @param {number} x
   * @param {number} y
   * @param {Press} press
   * @returns {string | null}
   */
  dropTarget(x, y, press) {
    const points = [[x, y]];
    const card = press.ghost?.firstElementChild;
    if (card) {
      const rect = card.getBoundingClientRect();
      points.push([rect.left + rect.width / 2, rect.top + Math.min(rect.height / 2, 24)]);
    }
    for (const [px, py] of points) {
      for (const node of document.elementsFromPoint(px, py)) {
        const pile = node.closest("[data-pile]");
        if (pile instanceof HTMLElement && this.root.contains(pile)) {
          const name = pile.dataset.pile ?? "";
          if (name.startsWith("c") || name.startsWith("f")) return name;
        }
      }
    }
    return null;
  }

  /**
   * Ends a drag: the ghost goes, the carried cards show again until the change arrives.
   * @param {Press} press
   */
  land(press) {
    press.ghost?.remove();
    for (const card of press.cards) card.classList.remove("lifted");
    this.root.classList.remove("dragging");
  }

  cancelPress() {
    if (this.press) this.land(this.press);
    this.press = null;
  }
}
