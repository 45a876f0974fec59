// @ts-check
// Pointer input on the card table: presses, drags and taps turned into actions.
//
// Pointer events serve mouse, pen and touch alike. A press on a face-up card that moves
// more than a few pixels becomes a drag carrying the card and every card on it; a press
// that does not move is a tap. With the "double-click" setting on, a tap waits briefly
// for a second one and is sent as a double tap if it comes.

import { h } from "./dom.js";

/** @typedef {import("./types.js").ActionInput} ActionInput */

const DRAG_THRESHOLD_PX = 6;
const DOUBLE_TAP_MS = 320;

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

export class PointerInput {
  /**
   * @param {HTMLElement} root  the table the board draws in
   * @param {BoardHandlers} handlers
   * @param {() => boolean} hasState  whether a state is drawn
   */
  constructor(root, handlers, hasState) {
    this.root = root;
    this.handlers = handlers;
    this.hasState = hasState;
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
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (!this.hasState() || !this.handlers.canPlay()) return;
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
