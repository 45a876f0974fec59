// @ts-check
// Small DOM helpers.

/**
 * The element with this id, checked to be of the given kind.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} kind
 * @returns {T}
 */
export function byId(id, kind) {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`missing element #${id}`);
  return found;
}

/** @typedef {string | number | boolean | null | undefined} AttrValue */
/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * Creates an element: `h("div", { class: "card", "data-card": "7H" }, "7", child)`.
 * Attributes set to null, undefined or false are left out; true sets an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "number" ? String(child) : child);
  }
  return node;
}

/**
 * Replaces the children of `node`.
 * @param {Element} node
 * @param {...(Child | Child[])} children
 */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "number" ? String(child) : child);
  }
}

/**
 * `m:ss` (or `h:mm:ss`) for a duration in milliseconds.
 * @param {number} ms
 */
export function clock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  const mm = hours ? String(m).padStart(2, "0") : String(m);
  return `${hours ? `${hours}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/**
 * `m:ss.t` for a finishing time.
 * @param {number} ms
 */
export function finishTime(ms) {
  const tenths = Math.floor((ms % 1000) / 100);
  return `${clock(ms)}.${tenths}`;
}
