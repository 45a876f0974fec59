#!/usr/bin/env node
// The SDK's JSON Patch applier against the web front end's earlier one (which cloned the
// whole state for every change) and against fast-json-patch, on the same changes in the
// same run: changes of real games recorded from a service this script starts, then
// replayed with each applier in turns, and the CPU time of each pass measured.
//
//   node benchmarks/sdk_patch.mjs            6 games, 40 rounds
//   node benchmarks/sdk_patch.mjs --quick    2 short games, 4 rounds (a smoke run)
//
// Figures: sdk.patch.cpu_ratio (SDK over the web front end's code; 1.05 at most is the
// goal), and the CPU time per change of each applier.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { SolitaireClient } from "../clients/js/src/index.js";
import { applyPatch as sdkApply } from "../clients/js/src/patch.js";
import { startService } from "../clients/js/test/support/service.mjs";
import { report } from "./_report.mjs";
import { applyPatch as webApply } from "./_web_patch_baseline.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// fast-json-patch is one of the SDK's development packages (clients/js/node_modules).
const fastJsonPatch = createRequire(join(here, "..", "clients", "js", "package.json"))(
  "fast-json-patch",
);

const quick = process.argv.includes("--quick");
const CODES = quick
  ? ["DS1-D3N-AAAAAAK", "TF1-D1N-AAAAAAB"]
  : ["DS1-D1N-AAAAAAB", "DS1-D3N-AAAAAAK", "DS1-D1V-AAAAAAC", "TF1-D1N-AAAAAAB", "TF1-D3N-AAAAAAC", "TF1-D1N-AAAAAAD"];
const STEPS = quick ? 60 : 250;
const ROUNDS = quick ? 4 : 40;
const WARMUP = quick ? 1 : 5;

/**
 * Plays a game of each code over REST (moves, draws and undos, chosen deterministically)
 * and keeps its first state, its changes and its final state as the service has it.
 * @param {SolitaireClient} client
 */
async function record(client) {
  const games = [];
  for (const code of CODES) {
    const created = await client.games.create({ code });
    const changes = [];
    for (let step = 0; step < STEPS; step += 1) {
      let accepted;
      if (step % 9 === 8) {
        accepted = await client.games.undo(created.game_id);
      } else {
        const { actions } = await client.games.legalActions(created.game_id);
        if (!actions.length) break;
        const moves = actions.filter((a) => a.notation.includes(">"));
        const choice = moves.length && step % 3 ? moves[step % moves.length] : actions[0];
        accepted = await client.games.act(created.game_id, choice.notation);
      }
      changes.push(accepted.change);
    }
    const final = await client.games.get(created.game_id);
    games.push({ first: created.state, patches: changes.map((c) => c.patch), final: final?.state });
  }
  return games;
}

/**
 * Every applier: `prepare()` (not timed) returns the function that replays all the games
 * and returns their last states.
 */
function appliers(games) {
  const replay = (apply) => () => () => games.map((g) => g.patches.reduce(apply, g.first));
  return {
    web: replay((doc, patch) => webApply(doc, patch)),
    sdk: replay((doc, patch) => sdkApply(doc, patch)),
    // A new document per change, as the other two give: the state a view holds is never
    // changed under it.
    fast_json_patch: replay(
      (doc, patch) => fastJsonPatch.applyPatch(doc, patch, false, false).newDocument,
    ),
    // Changing the document in place: the cheapest, but a view's state changes under it,
    // and the patches' values become parts of the document (so each pass gets copies of
    // its own, as patches freshly read from the socket would be).
    fast_json_patch_mutating: () => {
      const copies = games.map((g) => ({ first: structuredClone(g.first), patches: structuredClone(g.patches) }));
      return () =>
        copies.map((g) =>
          g.patches.reduce(
            (doc, patch) => fastJsonPatch.applyPatch(doc, patch, false, true).newDocument,
            g.first,
          ),
        );
    },
  };
}

function cpuMicros(fn) {
  const before = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(before);
  return { micros: used.user + used.system, result };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const service = await startService({
    RATE_PER_SECOND: "1000",
    RATE_BURST: "1000",
    HTTP_WRITE_RATE_PER_SECOND: "5000",
    HTTP_WRITE_BURST: "5000",
  });
  let games;
  try {
    games = await record(new SolitaireClient({ url: service.url }));
  } finally {
    await service.stop();
  }
  const changes = games.reduce((n, g) => n + g.patches.length, 0);
  const runs = appliers(games);
  const names = Object.keys(runs);
  for (const name of names) {
    const last = runs[name]()();
    last.forEach((state, i) => assert.deepEqual(state, games[i].final, `${name} went astray`));
    for (let i = 1; i < WARMUP; i += 1) runs[name]()();
  }
  /** @type {Record<string, number[]>} */
  const passes = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each round in another order, so that no applier always runs after the same one.
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) passes[name].push(cpuMicros(runs[name]()).micros);
  }
  const total = (name) => passes[name].reduce((a, b) => a + b, 0);
  const perChange = (name) => median(passes[name]) / changes;
  report(`JSON Patch appliers on ${changes} changes of ${games.length} games, ${ROUNDS} rounds`, [
    {
      metric: "sdk.patch.cpu_ratio",
      value: Number((total("sdk") / total("web")).toFixed(3)),
      unit: "1",
      target: "<= 1.05",
      label: "CPU time of the SDK's applier over the web front end's earlier one",
    },
    {
      metric: "sdk.patch.fast_json_patch_ratio",
      value: Number((total("fast_json_patch") / total("web")).toFixed(3)),
      unit: "1",
      label: "fast-json-patch (a new document per change) over the web front end's",
    },
    {
      metric: "sdk.patch.fast_json_patch_mutating_ratio",
      value: Number((total("fast_json_patch_mutating") / total("web")).toFixed(3)),
      unit: "1",
      label: "fast-json-patch changing the document in place, over the web front end's",
    },
    ...names.map((name) => ({
      metric: `sdk.patch.${name}_us_per_change`,
      value: Number(perChange(name).toFixed(3)),
      unit: "us",
      label: `CPU per change, median pass (${name.replaceAll("_", " ")})`,
    })),
    { metric: "sdk.patch.changes", value: changes, unit: "1", label: "changes per pass" },
  ]);
}

await main();
