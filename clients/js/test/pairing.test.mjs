// Quick pairing through the SDK's REST calls against a real service (memory store, its
// waves running on their own): two players are paired into one rated race.

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

test("two players seek, are paired, and read their race with the token kept", async () => {
  const ada = new SolitaireClient({ url: service.url });
  const bob = new SolitaireClient({ url: service.url });
  await ada.players.create("Ada");
  await bob.players.create("Bob");
  const first = await ada.pairing.seek("TF.D1N");
  assert.equal(first.seek.status, "waiting");
  await assert.rejects(ada.pairing.seek("TF.D1N"), { code: "already_seeking", status: 409 });
  const second = await bob.pairing.seek("TF.D1N");
  let seen = [first, second];
  for (let polls = 0; polls < 200 && seen.some((s) => s.seek.status !== "paired"); polls += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = [await ada.pairing.get(first.seek.seek_id), await bob.pairing.get(second.seek.seek_id)];
  }
  const [adaSeek, bobSeek] = seen.map((s) => s.seek);
  assert.ok(adaSeek.race && bobSeek.race);
  assert.equal(adaSeek.race.race_id, bobSeek.race.race_id);
  const race = await ada.races.get(adaSeek.race.race_id);
  assert.equal(race.race.rated, true);
  assert.equal(race.you?.player_id, adaSeek.race.player_id);
  assert.equal((await bob.pairing.cancel(second.seek.seek_id)).seek.status, "paired");
  ada.close();
  bob.close();
});
