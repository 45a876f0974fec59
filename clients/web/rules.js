// @ts-check
// The rules as far as a replay needs them (docs/rules.md): the actions of an ended game's
// log applied to its deal, which the code revealed at the end gives in full. The log holds
// only actions the server accepted, so they are applied here, not judged; a replay of any
// length then needs one request for the log instead of a page of changes per 50 actions.

import { cardText, parseCode, shuffledDeck } from "./deal.js";

/** @typedef {import("./types.js").PublicState} PublicState */

const RECYCLE_COST = 100;
const VEGAS_START = -104;
/** Actions that can be taken back, as the engine keeps them (DS-APP-4, TF-APP-4). */
const UNDO_LIMIT = { DS: 200, TF: 100 };
const MOVE = /^([cwf])(\d*)(?::(\d+))?>([cf])(\d*)$/;
const TAP = /^(tt?)([cw])(\d*)$/;

/**
 * Everything undo restores; the move counter is not in it, as undoing is not a move back.
 * @typedef {{ columns: number[][], down: number[], stock: number[], waste: number[],
 *             foundations: number[], score: number }} Position
 */

/** @param {number} card */
const rankOf = (card) => (card % 13) + 1;
/** @param {number} card */
const suitOf = (card) => Math.floor(card / 13);
/** @param {number} card hearts and diamonds are suits 1 and 2 */
const isRed = (card) => suitOf(card) === 1 || suitOf(card) === 2;

/** @param {Position} p @returns {Position} */
function copyPosition(p) {
  return {
    columns: p.columns.map((column) => column.slice()),
    down: p.down.slice(),
    stock: p.stock.slice(),
    waste: p.waste.slice(),
    foundations: p.foundations.slice(),
    score: p.score,
  };
}

export class Replayer {
  /**
   * The opening position of `code`, dealt as docs/deal.md says.
   * @param {string} code
   */
  static async deal(code) {
    const parsed = parseCode(code);
    const deck = await shuffledDeck(parsed);
    const columns = [];
    let taken = 0;
    for (let size = 1; size <= (parsed.game === "DS" ? 9 : 7); size++) {
      columns.push(deck.slice(taken, taken + size));
      taken += size;
    }
    return new Replayer(parsed.game, parsed.draw, parsed.scoring, {
      columns,
      down: columns.map((column) => (parsed.game === "DS" ? column.length - 1 : 0)),
      // The top of a pile is its end, and deck[taken] is drawn first.
      stock: deck.slice(taken).reverse(),
      waste: [],
      foundations: Array(parsed.game === "DS" ? 8 : 4).fill(0),
      score: parsed.scoring === "vegas" ? VEGAS_START : 0,
    });
  }

  /**
   * @param {"DS" | "TF"} game
   * @param {1 | 3} draw
   * @param {"normal" | "vegas"} scoring
   * @param {Position} position
   */
  constructor(game, draw, scoring, position) {
    this.game = game;
    this.draw = draw;
    this.scoring = scoring;
    this.p = position;
    this.moves = 0;
    this.won = false;
    this.resigned = false;
    /** @type {Position[]} */
    this.undo = [];
  }

  /** @param {number} place */
  foundationSuit(place) {
    return this.game === "DS" ? place >> 1 : place;
  }

  /**
   * The place a card sent to the foundation area goes to (DS-FND-3), or -1.
   * @param {number} card
   */
  foundationFor(card) {
    const wanted = rankOf(card) - 1;
    const places = this.game === "DS" ? [suitOf(card) * 2, suitOf(card) * 2 + 1] : [suitOf(card)];
    return places.find((place) => this.p.foundations[place] === wanted) ?? -1;
  }

  /**
   * Plays one action of the log, in notation (docs/notation.md).
   * @param {string} notation
   */
  play(notation) {
    const text = notation.trim().toLowerCase();
    if (text === "u") {
      const before = this.undo.pop();
      if (!before) throw new Error("undo with nothing to undo");
      this.p = before;
      return;
    }
    if (text === "resign") {
      this.resigned = true;
      return;
    }
    this.remember();
    if (text === "d") this.drawCards();
    else if (text === "r") this.recycle();
    else if (MOVE.test(text)) this.move(text);
    else if (TAP.test(text)) this.tap(text);
    else throw new Error(`not an action: ${notation}`);
    this.moves += 1;
    this.won = this.p.foundations.every((height) => height === 13);
  }

  remember() {
    this.undo.push(copyPosition(this.p));
    if (this.undo.length > UNDO_LIMIT[this.game]) this.undo.shift();
  }

  drawCards() {
    const { stock, waste } = this.p;
    for (let n = Math.min(this.draw, stock.length); n > 0; n--) waste.push(/** @type {number} */ (stock.pop()));
  }

  recycle() {
    // Reversed, the waste's bottom card (drawn first) is the stock's top again.
    this.p.stock = this.p.waste.reverse();
    this.p.waste = [];
    const cost = Math.min(RECYCLE_COST, this.p.score);
    this.p.score -= cost;
  }

  /** @param {string} text */
  move(text) {
    const [, from, index, count, to, target] = /** @type {RegExpExecArray} */ (MOVE.exec(text));
    const source = { kind: from, index: Number(index) - 1, count: Number(count || 1) };
    const card = this.cardAt(source);
    this.apply(source, to === "f" ? { kind: "f", index: this.foundationFor(card) } : { kind: "c", index: Number(target) - 1 });
  }

  /** A tap sends the card home; a double tap then tries the longest column it fits (DS-APP-3). @param {string} text */
  tap(text) {
    const [, taps, from, index] = /** @type {RegExpExecArray} */ (TAP.exec(text));
    const source = { kind: from, index: Number(index) - 1, count: 1 };
    const card = this.cardAt(source);
    const home = this.foundationFor(card);
    if (home >= 0 || taps === "t") {
      this.apply(source, { kind: "f", index: home });
      return;
    }
    const own = from === "c" ? source.index : -1;
    let best = -1;
    this.p.columns.forEach((column, j) => {
      const top = column[column.length - 1];
      const fits = top !== undefined && isRed(top) !== isRed(card) && rankOf(top) === rankOf(card) + 1;
      if (j !== own && fits && (best < 0 || column.length > this.p.columns[best].length)) best = j;
    });
    if (best < 0 && rankOf(card) === 13) best = this.p.columns.findIndex((c, j) => !c.length && j !== own);
    this.apply(source, { kind: "c", index: best });
  }

  /** @param {{ kind: string, index: number, count: number }} source */
  cardAt(source) {
    if (source.kind === "c") {
      const column = this.p.columns[source.index];
      return column[column.length - source.count];
    }
    if (source.kind === "w") return this.p.waste[this.p.waste.length - 1];
    return this.foundationSuit(source.index) * 13 + this.p.foundations[source.index] - 1;
  }

  /**
   * @param {{ kind: string, index: number, count: number }} source
   * @param {{ kind: string, index: number }} target
   */
  apply(source, target) {
    const p = this.p;
    if (target.index < 0) throw new Error("the log's move fits nowhere");
    let moving;
    let flipped = false;
    if (source.kind === "c") {
      const column = p.columns[source.index];
      moving = column.splice(column.length - source.count);
      if (column.length && p.down[source.index] === column.length) {
        p.down[source.index] -= 1;
        flipped = true;
      }
    } else if (source.kind === "w") {
      moving = [/** @type {number} */ (p.waste.pop())];
    } else {
      moving = [this.cardAt(source)];
      p.foundations[source.index] -= 1;
    }
    if (target.kind === "c") p.columns[target.index].push(...moving);
    else p.foundations[target.index] += 1;
    p.score += this.points(source.kind, target.kind, flipped);
  }

  /**
   * @param {string} source
   * @param {string} target
   * @param {boolean} flipped
   */
  points(source, target, flipped) {
    if (this.scoring === "vegas") return target === "f" && source !== "f" ? 5 : 0;
    return (flipped ? 5 : 0) + (target === "f" ? 10 : source === "w" ? 5 : 0);
  }

  /** What the player saw: the public state as `GET /games/{id}` shows it. @returns {PublicState} */
  view() {
    const p = this.p;
    const score = p.score;
    return {
      game: this.game,
      draw: this.draw,
      scoring: this.scoring,
      columns: p.columns.map((column, i) => ({ down: p.down[i], up: column.slice(p.down[i]).map(cardText) })),
      stock: p.stock.length,
      waste: p.waste.map(cardText),
      foundations: p.foundations.map((height, place) =>
        height ? cardText(this.foundationSuit(place) * 13 + height - 1) : null,
      ),
      score,
      score_display: this.scoring === "normal" ? String(score) : score < 0 ? `-$${-score}` : `$${score}`,
      moves: this.moves,
      undo_available: this.won || this.resigned ? 0 : this.undo.length,
      won: this.won,
      resigned: this.resigned,
    };
  }
}
