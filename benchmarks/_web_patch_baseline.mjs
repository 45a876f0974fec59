// clients/web/patch.js as the web front end had it before it imported the SDK (commit
// 2b4831b), kept verbatim but for these lines: benchmarks/sdk_patch.mjs measures the SDK's
// applier against it on the same changes in the same run.

// @ts-check
// A tiny RFC 6902 applier for what the service emits: add, remove and replace.

/** @typedef {import("./types.js").PatchOperation} PatchOperation */

export class PatchError extends Error {}

/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped tokens.
 * @param {string} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchError(`bad JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * @param {unknown[]} list
 * @param {string} token
 * @param {boolean} appendOk
 */
function arrayIndex(list, token, appendOk) {
  if (token === "-" && appendOk) return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index ${token}`);
  const index = Number(token);
  if (index > list.length || (!appendOk && index === list.length)) {
    throw new PatchError(`array index ${token} out of range`);
  }
  return index;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Returns a new document: `doc` with the operations applied in order. `doc` itself is
 * left untouched; a bad operation throws `PatchError` (the caller then resynchronises).
 * @template T
 * @param {T} doc
 * @param {readonly PatchOperation[]} operations
 * @returns {T}
 */
export function applyPatch(doc, operations) {
  /** @type {unknown} */
  let root = structuredClone(doc);
  for (const operation of operations) {
    const tokens = parsePointer(operation.path);
    const value = operation.op === "remove" ? undefined : structuredClone(operation.value);
    if (tokens.length === 0) {
      if (operation.op === "remove") throw new PatchError("cannot remove the whole document");
      root = value;
      continue;
    }
    /** @type {unknown} */
    let parent = root;
    for (const token of tokens.slice(0, -1)) {
      if (Array.isArray(parent)) parent = parent[arrayIndex(parent, token, false)];
      else if (isObject(parent) && Object.hasOwn(parent, token)) parent = parent[token];
      else throw new PatchError(`path ${operation.path} does not exist`);
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(parent, last, operation.op === "add");
      if (operation.op === "add") parent.splice(index, 0, value);
      else if (operation.op === "remove") parent.splice(index, 1);
      else parent[index] = value;
    } else if (isObject(parent)) {
      if (operation.op !== "add" && !Object.hasOwn(parent, last)) {
        throw new PatchError(`path ${operation.path} does not exist`);
      }
      if (operation.op === "remove") delete parent[last];
      else parent[last] = value;
    } else {
      throw new PatchError(`path ${operation.path} does not exist`);
    }
  }
  return /** @type {T} */ (root);
}
