// Following an arena's standings over the SDK's shared WebSocket against a real service
// (memory store, its waves running on their own): a follower's page is whole after
// every change, shows its player's heat as soon as a wave pairs them, and follows again
// after the socket drops.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { SolitaireClient } from "../src/index.js";
import { startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService({ ARENA_WAVE_SECONDS: "0.2" });
});
after(async () => {
  await service?.stop();
});

/** @param {string} name */
async function player(name) {
  const client = new SolitaireClient({ url: service.url });
  await client.players.create(name);
  return client;
}

/**
 * Resolves with the followed page once `check` holds for it.
 * @param {import("../src/index.js").ArenaFollow} follow
 * @param {(page: import("../src/index.js").ArenaPage) => boolean} check
 * @returns {Promise<import("../src/index.js").ArenaPage>}
 */
function until(follow, check) {
  return new Promise((resolve) => {
    if (follow.page && check(follow.page)) {
      resolve(follow.page);
      return;
    }
    const stop = follow.on("standings", (page) => {
      if (!check(page)) return;
      stop();
      resolve(page);
    });
  });
}

/**
 * Waits for the race's countdown to end.
 * @param {SolitaireClient} client
 * @param {string} raceId
 */
async function running(client, raceId) {
  for (let reads = 0; reads < 200; reads += 1) {
    const { race } = await client.races.get(raceId);
    if (race.status !== "countdown" && race.status !== "waiting") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`race ${raceId} never started`);
}

test("two players' follows show their heat, then the counted heat's points", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const { arena } = await ada.arenas.create({ mode: "TF.D1N", name: "Followed", minutes: 5 });
  const adaFollow = ada.arenas.follow(arena.arena_id);
  const bobFollow = bob.arenas.follow(arena.arena_id);
  try {
    const empty = await until(adaFollow, () => true);
    assert.equal(empty.total, 0);
    assert.deepEqual(empty.rows, []);
    await ada.arenas.join(arena.arena_id);
    await bob.arenas.join(arena.arena_id);
    const adaPaired = await until(adaFollow, (p) => Boolean(p.you?.heat));
    const bobPaired = await until(bobFollow, (p) => Boolean(p.you?.heat));
    const adaHeat = adaPaired.you?.heat;
    const bobHeat = bobPaired.you?.heat;
    assert.ok(adaHeat && bobHeat);
    assert.equal(adaHeat.race_id, bobHeat.race_id);
    assert.equal(adaHeat.opponent.name, "Bob");
    // The own line comes at once; the page's lines within ARENA_PAGE_SECONDS.
    const page = await until(adaFollow, (p) => p.rows.length === 2);
    assert.deepEqual(
      page.rows.map((r) => r.name).sort(),
      ["Ada", "Bob"],
      "the page holds both lines",
    );
    // Ada resigns: Bob wins the heat, and both pages show his two points.
    await running(ada, adaHeat.race_id);
    await ada.races.resign(adaHeat.race_id);
    await bob.races.resign(bobHeat.race_id);
    for (const follow of [adaFollow, bobFollow]) {
      const counted = await until(follow, (p) => p.rows.some((r) => r.heats === 1 && r.points > 0));
      assert.equal(counted.rows.length, 2);
      assert.equal(counted.rows[0].rank, 1);
      assert.equal(counted.total, 2);
    }
  } finally {
    await adaFollow.stop();
    await bobFollow.stop();
    ada.close();
    bob.close();
  }
});

test("a follow whose socket dropped follows again on the new socket", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const { arena } = await ada.arenas.create({ mode: "DS.D3N", name: "Dropped", minutes: 5 });
  const follow = ada.arenas.follow(arena.arena_id);
  try {
    assert.equal((await until(follow, () => true)).total, 0);
    const reopened = new Promise((resolve) => {
      const stop = ada.connection.on("open", ({ reconnected }) => {
        if (!reconnected) return;
        stop();
        resolve(undefined);
      });
    });
    ada.connection.drop();
    await reopened;
    // Joined after the new socket opened: only a follow made on it can tell.
    await bob.arenas.join(arena.arena_id);
    const page = await until(follow, (p) => p.total === 1);
    assert.deepEqual(page.rows.map((r) => r.name), ["Bob"]);
    assert.equal(page.you, null);
    assert.ok(!follow.done);
  } finally {
    await follow.stop();
    ada.close();
    bob.close();
  }
});

test("a follow stopped by its signal ends with cancelled", async () => {
  const ada = await player("Ada");
  const { arena } = await ada.arenas.create({ mode: "DS.D1N", name: "Stopped", minutes: 5 });
  const controller = new AbortController();
  const follow = ada.arenas.follow(arena.arena_id, { signal: controller.signal });
  try {
    await until(follow, () => true);
    const ended = new Promise((resolve) => follow.once("ended", resolve));
    controller.abort();
    const error = /** @type {import("../src/index.js").SolitaireError} */ (await ended);
    assert.equal(error.code, "cancelled");
    assert.ok(follow.done);
  } finally {
    ada.close();
  }
});

test("following an arena that does not exist ends with not_found", async () => {
  const ada = await player("Ada");
  const follow = ada.arenas.follow("TF.D1N-nothing");
  try {
    const error = /** @type {import("../src/index.js").SolitaireError} */ (
      await new Promise((resolve) => follow.once("ended", resolve))
    );
    assert.equal(error.code, "not_found");
  } finally {
    ada.close();
  }
});
