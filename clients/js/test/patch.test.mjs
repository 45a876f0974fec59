// The SDK's JSON Patch: RFC 6902's add, remove and replace with RFC 6901 pointers, the
// document left untouched, the parts a patch leaves alone shared, and the same results as
// fast-json-patch on random documents and patches.

import assert from "node:assert/strict";
import { test } from "node:test";

import fastJsonPatch from "fast-json-patch";

import { PatchError, applyPatch, parsePointer } from "../src/patch.js";

test("edge cases of pointers and operations", () => {
  const doc = { a: [1, 2], b: { "x/y": 1, "m~n": 2 }, c: null };
  const out = applyPatch(doc, [
    { op: "add", path: "/a/-", value: 3 },
    { op: "add", path: "/a/0", value: 0 },
    { op: "remove", path: "/a/1" },
    { op: "replace", path: "/b/x~1y", value: [9] },
    { op: "remove", path: "/b/m~0n" },
    { op: "replace", path: "/c", value: "C" },
    { op: "add", path: "/d", value: { e: 1 } },
  ]);
  assert.deepEqual(out, { a: [0, 2, 3], b: { "x/y": [9] }, c: "C", d: { e: 1 } });
  assert.deepEqual(doc, { a: [1, 2], b: { "x/y": 1, "m~n": 2 }, c: null }, "the input changed");
  for (const operations of [
    [{ op: "remove", path: "/missing" }],
    [{ op: "replace", path: "/a/2", value: 1 }],
    [{ op: "add", path: "/a/05", value: 1 }],
    [{ op: "add", path: "/nope/x", value: 1 }],
    [{ op: "replace", path: "a", value: 1 }],
    [{ op: "remove", path: "" }],
    [{ op: "add", path: "/a/-/x", value: 1 }],
    [{ op: "move", path: "/a/0", from: "/a/1" }],
    [{ op: "replace", path: "/c/x", value: 1 }],
  ]) {
    assert.throws(() => applyPatch(doc, /** @type {any} */ (operations)), PatchError);
  }
  assert.deepEqual(parsePointer("/a~1b/~0c/"), ["a/b", "~c", ""]);
  assert.deepEqual(applyPatch(doc, [{ op: "replace", path: "", value: [1] }]), [1]);
});

test("what a patch leaves alone is shared, what it changes is new", () => {
  const state = {
    columns: [{ down: 1, up: ["AS"] }, { down: 0, up: ["KD", "QC"] }, { down: 2, up: [] }],
    waste: ["2H"],
    score: 5,
  };
  const value = ["3H"];
  const next = applyPatch(state, [
    { op: "remove", path: "/columns/1/up/1" },
    { op: "add", path: "/columns/1/up/-", value: "QS" },
    { op: "replace", path: "/waste", value },
    { op: "replace", path: "/score", value: 10 },
  ]);
  assert.notEqual(next, state);
  assert.notEqual(next.columns, state.columns);
  assert.notEqual(next.columns[1], state.columns[1]);
  assert.equal(next.columns[0], state.columns[0]);
  assert.equal(next.columns[2], state.columns[2]);
  assert.deepEqual(next.columns[1].up, ["KD", "QS"]);
  assert.notEqual(next.waste, value, "a patch's value is copied, not shared");
  value.push("4H");
  assert.deepEqual(next.waste, ["3H"]);
  assert.deepEqual(state.columns[1].up, ["KD", "QC"]);
});

test("the same results as fast-json-patch on random documents and patches", () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = (/** @type {any[]} */ list) => list[Math.floor(random() * list.length)];
  const leaf = () => pick([1, "x", null, true, ["A", "B"], { k: 2 }]);
  for (let round = 0; round < 300; round += 1) {
    const doc = {
      columns: Array.from({ length: 3 }, () => ({ down: 1, up: ["AS", "2H", "3C"].slice(0, 1 + Math.floor(random() * 3)) })),
      waste: ["KD"],
      score: 0,
    };
    /** @type {any[]} */
    const operations = [];
    let shadow = structuredClone(doc);
    for (let i = 0; i < 6; i += 1) {
      const column = Math.floor(random() * 3);
      const up = shadow.columns[column].up;
      const candidates = [
        { op: "add", path: `/columns/${column}/up/-`, value: leaf() },
        { op: "add", path: `/columns/${column}/up/0`, value: leaf() },
        { op: "replace", path: `/columns/${column}/down`, value: Math.floor(random() * 5) },
        { op: "replace", path: "/waste", value: [leaf()] },
        { op: "add", path: "/new", value: leaf() },
        { op: "replace", path: "/score", value: Math.floor(random() * 100) },
      ];
      if (up.length) {
        candidates.push({ op: "remove", path: `/columns/${column}/up/${up.length - 1}` });
        candidates.push({ op: "replace", path: `/columns/${column}/up/0`, value: leaf() });
      }
      const operation = pick(candidates);
      operations.push(operation);
      shadow = fastJsonPatch.applyPatch(shadow, [structuredClone(operation)], true, true).newDocument;
    }
    const before = structuredClone(doc);
    const ours = applyPatch(doc, operations);
    const theirs = fastJsonPatch.applyPatch(structuredClone(doc), structuredClone(operations), true, true)
      .newDocument;
    assert.deepEqual(ours, theirs);
    assert.deepEqual(doc, before);
  }
});
