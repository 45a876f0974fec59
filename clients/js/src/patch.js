// @ts-check
// RFC 6902 JSON Patch for what the service emits (add, remove, replace; RFC 6901 pointers),
// applied without touching the document it is given: the result shares every part the
// patch left alone and copies only the objects and arrays on the paths it changed.
//
// So a change costs what it touches, not the size of the state, and a front end can tell
// what changed by identity (`next.columns[4] !== previous.columns[4]`), as React and other
// view libraries do. docs/benchmarks.md compares it with fast-json-patch and with the
// web front end's earlier applier, which cloned the whole state for every change.

/** @typedef {import("../types/protocol/server-message.js").AddOperation} AddOperation */
/** @typedef {import("../types/protocol/server-message.js").RemoveOperation} RemoveOperation */
/** @typedef {import("../types/protocol/server-message.js").ReplaceOperation} ReplaceOperation */
/** @typedef {AddOperation | RemoveOperation | ReplaceOperation} PatchOperation */

/** A patch that does not apply to the document (the caller then resynchronises). */
export class PatchError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PatchError";
  }
}

/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped tokens.
 * @param {string} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || !pointer.startsWith("/")) {
    throw new PatchError(`bad JSON pointer ${JSON.stringify(pointer)}`);
  }
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (token.includes("~")) tokens[i] = token.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return tokens;
}

/**
 * Returns `doc` with the operations applied in order, as a new document; `doc` itself and
 * the operations are left untouched. A bad operation throws `PatchError`.
 * @template T
 * @param {T} doc
 * @param {readonly PatchOperation[]} operations
 * @returns {T}
 */
export function applyPatch(doc, operations) {
  /** Containers this call made: changed in place by the operations after the first. */
  const fresh = new Set();
  /** @type {unknown} */
  let root = doc;
  for (const operation of operations) {
    const { op, path } = operation;
    if (op !== "add" && op !== "remove" && op !== "replace") {
      throw new PatchError(`unsupported operation ${JSON.stringify(op)}`);
    }
    const tokens = parsePointer(path);
    if (tokens.length === 0) {
      if (op === "remove") throw new PatchError("cannot remove the whole document");
      root = copyJson(operation.value);
      continue;
    }
    root = own(root, fresh, path);
    /** @type {any} */
    let parent = root;
    const last = tokens.length - 1;
    for (let i = 0; i < last; i += 1) {
      const token = tokens[i];
      let key;
      if (Array.isArray(parent)) key = arrayIndex(parent, token, false, path);
      else if (Object.hasOwn(parent, token)) key = token;
      else throw new PatchError(`path ${path} does not exist`);
      const child = own(parent[key], fresh, path);
      parent[key] = child;
      parent = child;
    }
    const token = tokens[last];
    if (Array.isArray(parent)) {
      const index = arrayIndex(parent, token, op === "add", path);
      if (op === "add") parent.splice(index, 0, copyJson(operation.value));
      else if (op === "remove") parent.splice(index, 1);
      else parent[index] = copyJson(operation.value);
    } else {
      if (op !== "add" && !Object.hasOwn(parent, token)) {
        throw new PatchError(`path ${path} does not exist`);
      }
      if (op === "remove") delete parent[token];
      else parent[token] = copyJson(/** @type {AddOperation | ReplaceOperation} */ (operation).value);
    }
  }
  return /** @type {T} */ (root);
}

/**
 * `node` when this call made it, else a shallow copy of it (recorded as made here).
 * @param {unknown} node
 * @param {Set<unknown>} fresh
 * @param {string} path
 * @returns {any}
 */
function own(node, fresh, path) {
  if (fresh.has(node)) return node;
  let copy;
  if (Array.isArray(node)) copy = node.slice();
  else if (typeof node === "object" && node !== null) copy = { ...node };
  else throw new PatchError(`path ${path} does not exist`);
  fresh.add(copy);
  return copy;
}

/**
 * @param {unknown[]} list
 * @param {string} token
 * @param {boolean} appendOk
 * @param {string} path
 */
function arrayIndex(list, token, appendOk, path) {
  if (token === "-" && appendOk) return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index in ${path}`);
  const index = Number(token);
  if (index > list.length || (!appendOk && index === list.length)) {
    throw new PatchError(`array index out of range in ${path}`);
  }
  return index;
}

/**
 * A deep copy of a JSON value (a patch's value must not be shared with the document).
 * @param {unknown} value
 * @returns {unknown}
 */
function copyJson(value) {
  if (typeof value !== "object" || value === null) {
    if (value === undefined) throw new PatchError("an operation without a value");
    return value;
  }
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) copy[i] = copyJson(value[i]);
    return copy;
  }
  /** @type {Record<string, unknown>} */
  const copy = {};
  for (const key of Object.keys(value)) copy[key] = copyJson(/** @type {any} */ (value)[key]);
  return copy;
}
