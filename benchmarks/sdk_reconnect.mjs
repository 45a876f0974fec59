#!/usr/bin/env node
// Reconnection under fire: starts a service (games in a private Redis, or in memory) and
// plays whole games through the SDK, each a winning line sent with actions in flight,
// through a proxy that cuts the SDK's socket at random moments, 100 times in all. After
// each game its record must be the line (no action lost, none applied twice) and the
// SDK's state must be `GET /games/{id}`'s.
//
//   node benchmarks/sdk_reconnect.mjs                 100 cuts, Redis store
//   node benchmarks/sdk_reconnect.mjs --cuts 300      more
//   node benchmarks/sdk_reconnect.mjs --store memory  games in the service's memory
//   node benchmarks/sdk_reconnect.mjs --quick         5 cuts (a smoke run)
//
// The service's rate limits are raised: the figures are about what a cut costs, not about
// how fast one player may play.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { SolitaireClient } from "../clients/js/src/index.js";
import { startProxy } from "../clients/js/test/support/proxy.mjs";
import { startRedis, startService } from "../clients/js/test/support/service.mjs";
import { report } from "./_report.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const quick = args.includes("--quick");
const CUTS = Number(option("--cuts", quick ? "5" : "100"));
const STORE = option("--store", "redis");
const CODES = quick
  ? ["TF1-D1N-AAAAAAB"]
  : ["TF1-D1N-AAAAAAB", "DS1-D1N-AAAAAAB", "TF1-D1N-AAAAAAC", "DS1-D1N-AAAAAAC"];
// Node 20 has no WebSocket class without --experimental-websocket: the `ws` package's then
// (one of the SDK's development packages), which browsers' WebSocket API it follows.
const here = dirname(fileURLToPath(import.meta.url));
const WebSocketClass =
  globalThis.WebSocket ??
  createRequire(join(here, "..", "clients", "js", "package.json"))("ws").WebSocket;

/** The length of the longest common subsequence of two lists of actions. */
function commonLength(a, b) {
  let previous = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    const row = new Array(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], row[j - 1]);
    }
    previous = row;
  }
  return previous[b.length];
}

function percentile(values, p) {
  if (!values.length) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const redis = STORE === "redis" ? await startRedis() : null;
  const service = await startService({
    STORE_URL: redis ? redis.url : "memory://",
    RATE_PER_SECOND: "2000",
    RATE_BURST: "2000",
  });
  const proxy = await startProxy(service.port);
  const client = new SolitaireClient({
    url: service.url,
    socketUrl: `ws://127.0.0.1:${proxy.port}/ws`,
    WebSocket: WebSocketClass,
    reconnect: { maxAttempts: 50, baseDelayMs: 20, maxDelayMs: 500 },
    requestTimeoutMs: 60_000,
  });
  const started = performance.now();
  const totals = { games: 0, actions: 0, lost: 0, doubled: 0, mismatches: 0, rejected: 0, duplicates: 0 };
  /** @type {number[]} ms from a cut to the socket open and every game resumed */
  const recoveries = [];
  let cuts = 0;
  let cutAt = 0;
  client.connection.on("open", () => {
    if (cutAt) recoveries.push(performance.now() - cutAt);
    cutAt = 0;
  });
  try {
    const lines = new Map();
    for (const code of CODES) {
      const scratch = await client.games.create({ code });
      await client.games.resign(scratch.game_id);
      const { deal } = await client.games.analysis(scratch.game_id);
      if (deal.result !== "won" || !deal.line) throw new Error(`no winning line for ${code}`);
      lines.set(code, deal.line);
    }
    // Cuts at random moments while a game is played: after each one, once the socket is
    // open again, a random wait of 0 to 40 ms, so that some cuts fall among resent actions.
    let playing = false;
    const cutter = (async () => {
      while (cuts < CUTS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        if (!playing || client.status !== "open") continue;
        if (proxy.cut() > 0) {
          cuts += 1;
          cutAt = performance.now();
        }
      }
    })();
    for (let n = 0; cuts < CUTS; n += 1) {
      const code = CODES[n % CODES.length];
      const line = lines.get(code);
      const created = await client.games.create({ code });
      const game = await client.follow(created.game_id);
      playing = true;
      const results = await Promise.allSettled(line.map((action) => game.act(action)));
      playing = false;
      totals.games += 1;
      totals.actions += line.length;
      totals.rejected += results.filter((r) => r.status === "rejected").length;
      totals.duplicates += results.filter((r) => r.status === "fulfilled" && r.value.duplicate).length;
      const record = await client.games.record(game.id);
      const common = commonLength(line, record.actions);
      totals.lost += line.length - common;
      totals.doubled += record.actions.length - common;
      const server = await client.games.get(game.id);
      if (!server || server.version !== game.version || JSON.stringify(server.state) !== JSON.stringify(game.state)) {
        totals.mismatches += 1;
      }
      game.leave();
    }
    await cutter;
  } finally {
    client.close();
    await proxy.close();
    await service.stop();
    await redis?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  report(`SDK reconnection: ${cuts} cuts of the socket over ${totals.games} games (${STORE} store)`, [
    { metric: "sdk.reconnect.cuts", value: cuts, unit: "1", label: "times the socket was cut" },
    { metric: "sdk.reconnect.games", value: totals.games, unit: "1", label: "whole games played to their win" },
    { metric: "sdk.reconnect.actions", value: totals.actions, unit: "1", label: "actions sent" },
    { metric: "sdk.reconnect.lost", value: totals.lost, unit: "1", target: "0", label: "actions of a line missing from the game's record" },
    { metric: "sdk.reconnect.doubled", value: totals.doubled, unit: "1", target: "0", label: "actions in a record more often than in the line" },
    { metric: "sdk.reconnect.state_mismatches", value: totals.mismatches, unit: "1", target: "0", label: "games whose SDK state differed from GET /games/{id} at the end" },
    { metric: "sdk.reconnect.rejected", value: totals.rejected, unit: "1", target: "0", label: "actions whose promise rejected" },
    { metric: "sdk.reconnect.duplicates", value: totals.duplicates, unit: "1", label: "resent actions the service had applied already (answered as duplicates)" },
    { metric: "sdk.reconnect.recovery_ms_p50", value: Number(percentile(recoveries, 50).toFixed(1)), unit: "ms", label: "from a cut to the socket open and the games resumed, median" },
    { metric: "sdk.reconnect.recovery_ms_p95", value: Number(percentile(recoveries, 95).toFixed(1)), unit: "ms", label: "the same, 95th percentile" },
    { metric: "sdk.reconnect.seconds", value: Number(seconds.toFixed(1)), unit: "s", label: "wall time, solver lines included" },
  ]);
}

await main();
