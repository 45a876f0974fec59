// Refusals arrive as typed errors: the service's code, the rule and its messages in English
// and Finnish, over the WebSocket and over HTTP alike; the SDK's own failures (no answer in
// time, no service at all) have codes of their own.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { LOCAL_CODES, SolitaireClient, SolitaireError } from "../src/index.js";
import { startFake } from "./support/fake.mjs";
import { freePort, startService } from "./support/service.mjs";

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService();
});
after(async () => {
  await service?.stop();
});

describe("refusals of the service", () => {
  test("a move the rules forbid rejects with its rule and both messages", async () => {
    const client = new SolitaireClient({ url: service.url });
    const created = await client.games.create({ code: "TF1-D1N-AAAAAAB" });
    const game = await client.follow(created.game_id);
    const refused = await game.act("c2>c1").then(
      () => assert.fail("accepted"),
      (error) => error,
    );
    assert.ok(refused instanceof SolitaireError);
    assert.equal(refused.code, "rule_violation");
    assert.equal(refused.rule, "TF-TAB-1");
    assert.equal(refused.messageEn, "A card must go on a card of the opposite colour and one rank higher.");
    assert.equal(
      refused.messageFi,
      "Kortin voi asettaa vain vastakkaisen värisen ja arvoltaan yhtä suuremman kortin päälle.",
    );
    assert.equal(refused.text("fi"), refused.messageFi);
    assert.equal(refused.message, refused.messageEn);
    assert.equal(refused.local, false);
    assert.equal(refused.currentVersion, 0);

    // The same refusal over HTTP.
    await assert.rejects(client.games.act(game.id, "c2>c1"), {
      code: "rule_violation",
      rule: "TF-TAB-1",
      status: 409,
      messageFi: refused.messageFi,
    });
    // Other codes carry what goes with them.
    await assert.rejects(game.act("c12>c1"), { code: "invalid_action", reason: "bad_index" });
    await assert.rejects(game.act("d", { expectedVersion: 5 }), {
      code: "stale_version",
      currentVersion: 0,
    });
    await assert.rejects(client.games.act(game.id, "d", { token: "wrong" }), {
      code: "unauthorized",
      status: 401,
    });
    await assert.rejects(client.follow("no-such-game"), { code: "not_found" });
    await assert.rejects(client.games.create({ code: "TF1-D1V-AAAAAAB" }), {
      code: "bad_code",
      status: 422,
    });
    assert.equal(game.version, 0);
    assert.ok(game.synced);
    client.close();
  });

  test("a watcher cannot play", async () => {
    const client = new SolitaireClient({ url: service.url });
    const created = await client.games.create({ game: "TF" });
    const watching = await client.follow(created.game_id, { token: null });
    await assert.rejects(watching.act("d"), { code: "not_player" });
    client.close();
  });
});

describe("failures of the SDK's own", () => {
  test("a request with no answer in time rejects with `timeout`", async (t) => {
    const silent = await startFake(); // welcomes, then answers nothing
    t.after(() => silent.close());
    const client = new SolitaireClient({
      url: "http://127.0.0.1:1",
      socketUrl: silent.url,
      requestTimeoutMs: 150,
    });
    t.after(() => client.close());
    await assert.rejects(client.follow("g", { token: "t" }), { code: "timeout", local: true });
    const hinted = client.connection.request({ type: "hint", game_id: "g" }, { timeout: 50 });
    await assert.rejects(hinted, { code: "timeout", requestId: /^h-/ });
    assert.equal(client.status, "open");
  });

  test("a service that cannot be reached ends in `disconnected` after the tries allowed", async () => {
    const port = await freePort(); // nothing listens there
    const client = new SolitaireClient({
      url: `http://127.0.0.1:${port}`,
      reconnect: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 },
    });
    /** @type {string[]} */
    const statuses = [];
    client.on("status", (status) => statuses.push(status));
    await assert.rejects(client.connect(), { code: "disconnected", local: true });
    assert.equal(client.status, "disconnected");
    assert.deepEqual(statuses, ["connecting", "disconnected"]);
    await assert.rejects(client.connection.request({ type: "ping" }), { code: "disconnected" });
    await assert.rejects(client.games.get("x"), { code: "network" });
    assert.deepEqual([...LOCAL_CODES].sort(), [
      "bad_answer",
      "cancelled",
      "closed",
      "connection_lost",
      "disconnected",
      "network",
      "timeout",
    ]);
    client.close();
    await assert.rejects(client.connect(), { code: "closed" });
  });
});
