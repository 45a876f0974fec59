// Quick pairing over the SDK's shared WebSocket against a real service (memory store, its
// waves running on their own): two clients seeking now are paired into one race, an
// aborted seek is cancelled, a closed socket's seek is dropped by the service, and a seek
// whose socket dropped is made again on the new one.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { SolitaireClient } from "../src/index.js";
import { startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService({});
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
 * The seek as the service has it once it no longer waits (read by REST).
 * @param {SolitaireClient} client
 * @param {string} seekId
 */
async function settled(client, seekId) {
  for (let reads = 0; reads < 200; reads += 1) {
    const { seek } = await client.pairing.get(seekId);
    if (seek.status !== "waiting") return seek;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`seek ${seekId} still waits`);
}

/** @param {import("../src/index.js").LiveSeek} live */
function waited(live) {
  return new Promise((resolve) => live.once("waiting", resolve));
}

test("two clients seek now over the socket and are both paired into one race", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const adaLive = ada.pairing.live("TF.D1N");
  const adaWaiting = await waited(adaLive);
  assert.equal(adaWaiting.status, "waiting");
  assert.equal(adaWaiting.mode, "TF.D1N");
  const [adaPaired, bobPaired] = await Promise.all([adaLive.result, bob.pairing.seekNow("TF.D1N")]);
  assert.equal(adaPaired.race_id, bobPaired.race_id);
  assert.equal(adaPaired.seek_id, adaWaiting.seek_id);
  assert.notEqual(adaPaired.player_id, bobPaired.player_id);
  assert.equal(adaPaired.opponent.name, "Bob");
  assert.equal(bobPaired.opponent.name, "Ada");
  // The race token is kept: the race is watched as its player.
  const race = await ada.watchRace(adaPaired.race_id);
  assert.equal(race.you?.player_id, adaPaired.player_id);
  assert.equal(race.race?.rated, true);
  assert.equal((await ada.pairing.get(adaPaired.seek_id)).seek.status, "paired");
  ada.close();
  bob.close();
});

test("aborting a seek cancels it, and nobody is paired with it", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const carol = await player("Carol");
  const abort = new AbortController();
  const live = ada.pairing.live("TF.D3N", { signal: abort.signal });
  const seek = await waited(live);
  abort.abort();
  await assert.rejects(live.result, { code: "cancelled", local: true, rule: null });
  assert.equal((await ada.pairing.get(seek.seek_id)).seek.status, "cancelled");
  // Bob and Carol, seeking after, are paired with each other.
  const [bobPaired, carolPaired] = await Promise.all([
    bob.pairing.seekNow("TF.D3N"),
    carol.pairing.seekNow("TF.D3N"),
  ]);
  assert.equal(bobPaired.race_id, carolPaired.race_id);
  assert.equal(bobPaired.opponent.name, "Carol");
  // An aborted signal seeks nothing.
  await assert.rejects(ada.pairing.seekNow("TF.D3N", { signal: abort.signal }), {
    code: "cancelled",
  });
  for (const client of [ada, bob, carol]) client.close();
});

test("a closed socket's seek is dropped by the service and never paired", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const carol = await player("Carol");
  const live = ada.pairing.live("DS.D1N");
  const seek = await waited(live);
  ada.close();
  await assert.rejects(live.result, { code: "closed" });
  // REST calls still work after close(): the service cancelled the seek with the socket.
  assert.equal((await settled(ada, seek.seek_id)).status, "cancelled");
  const [bobPaired, carolPaired] = await Promise.all([
    bob.pairing.seekNow("DS.D1N"),
    carol.pairing.seekNow("DS.D1N"),
  ]);
  assert.equal(bobPaired.race_id, carolPaired.race_id);
  assert.equal(bobPaired.opponent.name, "Carol");
  bob.close();
  carol.close();
});

test("a seek whose socket dropped is made again on the new socket, and paired", async () => {
  const ada = await player("Ada");
  const bob = await player("Bob");
  const live = ada.pairing.live("DS.D3N");
  const first = await waited(live);
  const again = waited(live);
  ada.connection.drop();
  const second = await again;
  assert.notEqual(second.seek_id, first.seek_id);
  assert.equal((await ada.pairing.get(first.seek_id)).seek.status, "cancelled");
  const [adaPaired, bobPaired] = await Promise.all([live.result, bob.pairing.seekNow("DS.D3N")]);
  assert.equal(adaPaired.seek_id, second.seek_id);
  assert.equal(adaPaired.race_id, bobPaired.race_id);
  ada.close();
  bob.close();
});

test("a refused seek rejects with the service's code", async () => {
  const anonymous = new SolitaireClient({ url: service.url });
  await assert.rejects(anonymous.pairing.seekNow("TF.D1N"), { code: "unauthorized" });
  const ada = await player("Ada");
  const first = ada.pairing.live("DS.D1V");
  const waiting = await waited(first);
  await assert.rejects(ada.pairing.seekNow("DS.D1V"), (error) => {
    assert.equal(error.code, "already_seeking");
    assert.equal(error.rule, null);
    // The seek that waits, named as over REST, and the refusal in both languages.
    assert.equal(error.body.seek_id, waiting.seek_id);
    assert.match(error.messageEn, /DS\.D1V/);
    assert.match(error.messageFi, /DS\.D1V/);
    return true;
  });
  assert.equal(await first.cancel(), null);
  await assert.rejects(first.result, { code: "cancelled" });
  anonymous.close();
  ada.close();
});
