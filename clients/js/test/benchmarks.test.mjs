// The SDK's benchmarks keep running: a smoke run of each prints its figures as JSON lines.
// Only that they run and report is checked (and that nothing was lost or doubled), never
// how fast: figures are for docs/benchmarks.md.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

import { ROOT } from "./support/service.mjs";

const run = promisify(execFile);

/** @param {string} script */
async function figures(script) {
  const { stdout } = await run(process.execPath, [join(ROOT, "benchmarks", script), "--quick"], {
    cwd: ROOT,
    timeout: 240_000,
  });
  /** @type {Record<string, { metric: string, value: number, unit: string }>} */
  const found = {};
  for (const line of stdout.split("\n")) {
    if (!line.startsWith('{"metric"')) continue;
    const figure = JSON.parse(line);
    assert.deepEqual(Object.keys(figure), ["metric", "value", "unit"]);
    assert.equal(typeof figure.value, "number");
    found[figure.metric] = figure;
  }
  return found;
}

test("sdk_reconnect.mjs reports its figures, nothing lost or doubled", async () => {
  const found = await figures("sdk_reconnect.mjs");
  for (const metric of ["lost", "doubled", "state_mismatches", "rejected"]) {
    assert.equal(found[`sdk.reconnect.${metric}`]?.value, 0, metric);
  }
  assert.equal(found["sdk.reconnect.cuts"]?.value, 5);
  assert.ok((found["sdk.reconnect.actions"]?.value ?? 0) > 100);
});

test("sdk_patch.mjs reports its figures", async () => {
  const found = await figures("sdk_patch.mjs");
  assert.ok(found["sdk.patch.cpu_ratio"]?.value > 0);
  assert.ok(found["sdk.patch.fast_json_patch_ratio"]?.value > 0);
  assert.equal(found["sdk.patch.changes"]?.value, 120);
});
