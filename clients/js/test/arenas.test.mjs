// Arena tournaments through the SDK's REST calls against a real service (memory store,
// its waves running on their own): an arena is made, two players join, are paired into
// one heat, and the standings, heats, leaving and bad requests read as documented.

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

test("two players join an arena, are paired into a heat and read it with the token kept", async () => {
  const host = new SolitaireClient({ url: service.url });
  const ada = new SolitaireClient({ url: service.url });
  const bob = new SolitaireClient({ url: service.url });
  await host.players.create("Host");
  await ada.players.create("Ada");
  await bob.players.create("Bob");
  const made = await host.arenas.create({ mode: "TF.D1N", name: "SDK arena", minutes: 30 });
  const arenaId = made.arena.arena_id;
  assert.equal(made.arena.status, "running");
  assert.ok((await host.arenas.list()).running.some((a) => a.arena_id === arenaId));
  await ada.arenas.join(arenaId);
  await bob.arenas.join(arenaId);
  let mine = await ada.arenas.get(arenaId);
  for (let polls = 0; polls < 200 && !mine.you?.heat; polls += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    mine = await ada.arenas.get(arenaId);
  }
  const heat = mine.you?.heat;
  assert.ok(heat);
  const race = await ada.races.get(heat.race_id);
  assert.equal(race.race.rated, true);
  assert.equal(race.you?.player_id, heat.player_id);
  const page = await host.arenas.standings(arenaId, 1);
  assert.equal(page.total, 2);
  const heats = await host.arenas.heats(arenaId);
  assert.deepEqual(
    heats.heats.map((h) => h.race_id),
    [heat.race_id],
  );
  const left = await bob.arenas.leave(arenaId);
  assert.equal(left.you?.present, false);
  await assert.rejects(ada.arenas.cancel(arenaId), { code: "not_your_arena", status: 403 });
  await assert.rejects(host.arenas.leave(arenaId), { code: "not_in_arena", status: 409 });
  await assert.rejects(host.arenas.join("nope"), { code: "not_found", status: 404 });
  for (const client of [host, ada, bob]) client.close();
});
