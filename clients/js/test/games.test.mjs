// Whole games through the SDK against a real service (memory store): a won game of each
// kind, followed live by the player and by a watcher on the same client, every change
// applied by patch and the end state equal to the server's.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { SolitaireClient } from "../src/index.js";
import { FAST, serverGame, waitFor, winningLine } from "./support/play.mjs";
import { startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService(FAST);
});
after(async () => {
  await service?.stop();
});

for (const [code, pipelined] of [
  ["TF1-D1N-AAAAAAB", false],
  ["DS1-D1N-AAAAAAB", true],
]) {
  test(`a whole game of ${code.slice(0, 2)}, played to its win ${pipelined ? "with actions in flight together" : "one action at a time"}`, async () => {
    const client = new SolitaireClient({ url: service.url });
    const line = await winningLine(client, code);
    const created = await client.games.create({ code });
    const game = await client.follow(created.game_id, {
      state: created.state,
      version: created.version,
    });
    assert.equal(game.role, "player");
    // A watcher of the same game, on the same client and the same socket.
    const watcher = new SolitaireClient({ url: service.url });
    const watched = await watcher.follow(created.game_id, { token: null });
    assert.equal(watched.role, "watcher");

    const seen = { changes: 0, scores: 0, over: 0, animations: 0 };
    game.on("change", ({ change, state, previous }) => {
      seen.changes += 1;
      seen.animations += change.events.length;
      assert.equal(state, game.state);
      assert.notEqual(state, previous);
    });
    game.on("score", () => {
      seen.scores += 1;
    });
    game.on("over", (state) => {
      seen.over += 1;
      assert.equal(state.won, true);
    });

    if (pipelined) {
      const played = await Promise.all(line.map((action) => game.act(action)));
      assert.deepEqual(
        played.map((p) => p.version),
        line.map((_, i) => i + 1),
      );
    } else {
      for (const [i, action] of line.entries()) {
        const played = await game.act(action);
        assert.equal(played.version, i + 1);
        assert.equal(game.version, i + 1);
      }
    }
    assert.equal(game.state?.won, true);
    assert.equal(game.over, true);
    assert.equal(seen.changes, line.length);
    assert.equal(seen.over, 1);
    assert.ok(seen.scores > 10 && seen.animations >= line.length);

    const server = await serverGame(client, game.id);
    assert.equal(server.version, line.length);
    assert.deepEqual(game.state, server.state);
    // The watcher's copy catches up with the same changes.
    await waitFor(() => watched.version === line.length);
    assert.deepEqual(watched.state, server.state);
    const record = await client.games.record(game.id);
    assert.deepEqual(record.actions, line);
    assert.equal(record.won, true);
    client.close();
    watcher.close();
  });
}

describe("one socket for every game", () => {
  test("a client follows several games and plays them in turn", async () => {
    const client = new SolitaireClient({ url: service.url });
    const games = [];
    for (const code of ["TF1-D1N-AAAAAAC", "DS1-D3N-AAAAAAK", "DS1-D1V-AAAAAAB"]) {
      const created = await client.games.create({ code });
      games.push(await client.follow(created.game_id));
    }
    assert.equal(client.followedGames.length, 3);
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(games.map((game) => game.act("d")));
    }
    const undone = await games[0].undo();
    assert.equal(undone.notation, "u");
    for (const game of games) {
      const server = await serverGame(client, game.id);
      assert.deepEqual(game.state, server.state);
      assert.equal(game.version, server.version);
    }
    const hint = await games[1].hint();
    assert.equal(hint.game_id, games[1].id);
    assert.ok(hint.hint || hint.no_hint);
    const resigned = await games[2].resign();
    assert.equal(resigned.notation, "resign");
    assert.equal(games[2].over, true);
    games[0].leave();
    assert.equal(client.followedGames.length, 2);
    client.close();
  });

  test("a game made over HTTP is followed from its creation answer, and REST plays too", async () => {
    const client = new SolitaireClient({ url: service.url });
    const created = await client.games.create({ game: "DS", draw: 3, scoring: "vegas" });
    assert.equal(created.state.score, -104);
    const game = await client.follow(created.game_id, {
      state: created.state,
      version: created.version,
    });
    const accepted = await client.games.act(game.id, "d", { expectedVersion: 0 });
    assert.equal(accepted.version, 1);
    await waitFor(() => game.version === 1);
    const again = await client.games.act(game.id, "d", { requestId: "same-id" });
    const duplicate = await client.games.act(game.id, "d", { requestId: "same-id" });
    assert.equal(again.duplicate, false);
    assert.equal(duplicate.duplicate, true);
    await client.games.undo(game.id);
    await waitFor(() => game.version === 3);
    assert.deepEqual(game.state, (await serverGame(client, game.id)).state);
    assert.equal(await client.games.get(game.id, { etag: '"3"' }), null);
    const pages = [];
    for await (const page of client.games.allChanges(game.id, 0)) pages.push(page);
    assert.equal(pages.flatMap((p) => p.changes).length, 3);
    const legal = await client.games.legalActions(game.id);
    assert.ok(legal.actions.length > 0);
    await client.games.resign(game.id);
    const replay = await client.games.replay(game.id);
    assert.deepEqual(
      replay.actions.map((a) => a.notation),
      ["d", "d", "u", "resign"],
    );
    client.close();
  });
});
