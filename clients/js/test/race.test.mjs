// A race between two SDK clients against a real service: create and join over REST, get
// ready over the WebSocket, play the race games once the countdown is over, follow each
// other's progress, resign, read the result, and ask for the rematch.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { SolitaireClient } from "../src/index.js";
import { serverGame, waitFor } from "./support/play.mjs";
import { startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService();
});
after(async () => {
  await service?.stop();
});

test("two SDK clients race each other", async () => {
  const ada = new SolitaireClient({ url: service.url });
  const bo = new SolitaireClient({ url: service.url });
  const hosted = await ada.races.create({ name: "Ada", game: "TF", draw: 1, max_players: 2 });
  const joined = await bo.races.join({ join_code: hosted.join_code.toLowerCase(), name: "Bo" });
  assert.equal(joined.race_id, hosted.race_id);

  const adaRace = await ada.watchRace(hosted.race_id);
  const boRace = await bo.watchRace(joined.race_id);
  assert.equal(adaRace.isHost(), true);
  assert.equal(boRace.isHost(), false);
  assert.equal(boRace.me()?.name, "Bo");
  await waitFor(() => adaRace.race?.players.every((p) => p.connected) ?? false);

  /** @type {string[]} */
  const progressOfBo = [];
  adaRace.on("progress", (progress) => {
    if (progress.player_id === boRace.you?.player_id) progressOfBo.push(progress.state);
  });
  await adaRace.ready();
  await boRace.ready();
  // Each player's own game, followed once the countdown is over.
  const [adaGame, boGame] = await Promise.all([ada.playRace(adaRace), bo.playRace(boRace)]);
  assert.equal(adaRace.race?.status, "running");
  assert.equal(adaGame.id, hosted.game_id);
  assert.ok(adaRace.serverNow() >= (adaRace.race?.start_at ?? Infinity));
  // The same deal for both.
  assert.deepEqual(adaGame.state?.columns, boGame.state?.columns);

  await adaGame.act("d");
  await boGame.act("d");
  await boGame.act("d");
  await waitFor(() => progressOfBo.length === 2);
  assert.equal(adaRace.race?.players.find((p) => p.name === "Bo")?.moves, 2);
  // A race game stays private while the race runs.
  await assert.rejects(ada.games.get(boGame.id, { token: null }), { code: "race_running" });

  await boRace.resign();
  await adaGame.resign();
  await waitFor(() => adaRace.race?.status === "finished" && boRace.race?.status === "finished");
  const result = adaRace.race?.result;
  assert.ok(result);
  assert.deepEqual(
    result.ranking.map((r) => r.name).sort(),
    ["Ada", "Bo"],
  );
  assert.match(result.code, /^TF1-D1N-[A-Z]{28}$/);
  assert.deepEqual(
    Object.values(result.records).map((record) => record.split(" ").length).sort(),
    [3, 4], // the code, the actions, and "resign"
  );
  assert.deepEqual(boGame.state, (await serverGame(bo, boGame.id)).state);

  // A rematch: a new race of the same players, the same tokens.
  await boRace.rematch();
  await waitFor(() => !!adaRace.race?.rematch_race_id);
  const rematchId = adaRace.race?.rematch_race_id ?? "";
  const again = await ada.races.get(rematchId, { token: adaRace.token });
  assert.equal(again.race.players.length, 2);
  assert.equal(again.you?.player_id, adaRace.you?.player_id);
  ada.close();
  bo.close();
});
