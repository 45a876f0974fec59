// Reconnection with actions in flight, against a real service keeping its games in Redis:
// the socket is cut at random moments while a whole winning line is played with many
// actions unanswered, and the service itself is stopped and started again mid-game. Every
// action is applied exactly once (the record is the line), and the state is the server's.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { SolitaireClient } from "../src/index.js";
import { FAST, serverGame, waitFor, winningLine } from "./support/play.mjs";
import { startProxy } from "./support/proxy.mjs";
import { startRedis, startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startRedis>>} */
let redis;
/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  redis = await startRedis();
  service = await startService({ ...FAST, STORE_URL: redis.url });
});
after(async () => {
  await service?.stop();
  await redis?.stop();
});

const FAST_RECONNECT = { maxAttempts: 50, baseDelayMs: 20, maxDelayMs: 200 };

test("cuts of the socket with actions in flight lose nothing and double nothing", async () => {
  const proxy = await startProxy(service.port);
  const client = new SolitaireClient({
    url: service.url,
    socketUrl: `ws://127.0.0.1:${proxy.port}/ws`,
    reconnect: FAST_RECONNECT,
    requestTimeoutMs: 30_000,
  });
  const code = "TF1-D1N-AAAAAAC";
  const line = await winningLine(client, code);
  const created = await client.games.create({ code });
  const game = await client.follow(created.game_id);
  // Eight cuts, at versions drawn at random, each a few milliseconds after that version's
  // change: actions sent before it are on their way, some answered and some not.
  const cutAt = new Set();
  while (cutAt.size < 8) cutAt.add(1 + Math.floor(Math.random() * (line.length - 10)));
  let cuts = 0;
  game.on("change", ({ change }) => {
    if (!cutAt.has(change.version)) return;
    setTimeout(() => {
      if (proxy.cut() > 0) cuts += 1;
    }, Math.random() * 3);
  });
  const played = await Promise.all(line.map((action) => game.act(action)));
  assert.ok(cuts >= 6, `only ${cuts} cuts`);
  assert.ok(client.connection.reconnects >= 6);
  assert.deepEqual(
    played.map((p) => p.version),
    line.map((_, i) => i + 1),
  );
  const record = await client.games.record(game.id);
  assert.deepEqual(record.actions, line, "an action was lost or applied twice");
  assert.equal(record.won, true);
  const server = await serverGame(client, game.id);
  assert.equal(game.version, server.version);
  assert.deepEqual(game.state, server.state);
  client.close();
  await proxy.close();
});

test("a service stopped and started again mid-game: the game goes on where it was", async () => {
  const client = new SolitaireClient({
    url: service.url,
    // Tries enough for the service's start on a busy machine (it can take many seconds).
    reconnect: { maxAttempts: 1000, baseDelayMs: 20, maxDelayMs: 500 },
    requestTimeoutMs: 120_000,
  });
  const created = await client.games.create({ code: "DS1-D1N-AAAAAAC" });
  const game = await client.follow(created.game_id);
  /** @type {string[]} */
  const statuses = [];
  client.on("status", (status) => statuses.push(status));
  await game.act("d");
  await service.stop();
  await waitFor(() => client.status === "reconnecting");
  // Sent while the service is away: they wait for it, then apply once.
  const pending = Promise.allSettled([game.act("d"), game.act("d"), game.undo()]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await service.start();
  const results = await pending;
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value.version : r.reason)),
    [2, 3, 4],
  );
  await waitFor(() => client.status === "open");
  assert.ok(statuses.includes("reconnecting"), String(statuses));
  const server = await serverGame(client, game.id);
  assert.equal(server.version, 4);
  assert.deepEqual(game.state, server.state);
  assert.deepEqual((await client.games.record(game.id)).actions, ["d", "d", "d", "u"]);
  client.close();
});
