// Players, their devices, statistics, the daily challenge and the boards, through the
// SDK's REST calls against a real service (memory store).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { SolitaireClient, SolitaireError } from "../src/index.js";
import { startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  // The day's deals come from the pool of certified winnable deals.
  service = await startService({ WINNABLE_POOL_SIZE: "1" });
});
after(async () => {
  await service?.stop();
});

describe("players, the daily challenge and the boards", () => {
  test("every REST call of players works through the SDK", async () => {
    const client = new SolitaireClient({ url: service.url });
    const created = await client.players.create("Ada");
    assert.equal(client.tokens.player(), created.player_token);
    assert.equal((await client.players.me()).name, "Ada");
    assert.equal((await client.players.rename("Ada L")).name, "Ada L");
    const { link_code: linkCode } = await client.players.newLinkCode();
    const phone = new SolitaireClient({ url: service.url });
    const linked = await phone.players.link(linkCode);
    assert.equal(linked.player_id, created.player_id);
    assert.equal((await client.players.revokeOthers()).revoked, 1);
    await assert.rejects(phone.players.me(), { code: "unauthorized", status: 401 });

    const overview = await client.daily.overview();
    const challenge = overview.challenges[0];
    // The day's deals come from the pool of certified winnable deals, filled in the
    // background: the service says how long to wait.
    let attempt;
    for (let tries = 0; !attempt; tries += 1) {
      try {
        attempt = await client.daily.play(overview.date, challenge.mode);
      } catch (error) {
        if (!(error instanceof SolitaireError) || error.code !== "winnable_pool_empty" || tries > 20) {
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    const game = await client.follow(attempt.game_id);
    await game.act("d");
    await game.resign();
    const board = await client.daily.board(overview.date, challenge.mode, { top: 5 });
    assert.equal(board.mine?.game_id, attempt.game_id);
    const stats = await client.players.stats();
    assert.equal(stats.player_id, created.player_id);
    assert.ok((await client.players.stats(created.player_id)).modes);
    const leaderboard = await client.daily.leaderboard(`streak.${challenge.mode}`, { top: 3 });
    assert.equal(leaderboard.board, `streak.${challenge.mode}`);
    assert.equal((await client.service.health()).status, "ok");
    assert.equal((await client.service.info()).websocket, "/ws");
    client.close();
  });
});

