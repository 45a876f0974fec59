// Frames a real service never sends, from a scripted one: the SDK refuses what it cannot
// act on, reads on, keeps its state as it was, and resynchronises when a change does not
// follow or does not apply.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { FrameError, SolitaireClient, readFrame } from "../src/index.js";
import { drawChange, sampleState, startFake } from "./support/fake.mjs";
import { waitFor } from "./support/play.mjs";

/** @type {Awaited<ReturnType<typeof startFake>>} */
let fake;

before(async () => {
  fake = await startFake((socket, frame) => {
    if (frame.type === "subscribe") {
      const version = frame.since ?? 0;
      socket.send({
        type: "subscribed",
        id: frame.id,
        game_id: frame.game_id,
        role: "player",
        version,
        recovered: frame.since !== undefined,
      });
      if (frame.since === undefined) {
        socket.send({ type: "snapshot", game_id: frame.game_id, version, state: sampleState() });
      }
    }
  });
});
after(async () => {
  await fake?.close();
});

/** @param {string} gameId */
async function followed(gameId) {
  const client = new SolitaireClient({ url: "http://127.0.0.1:1", socketUrl: fake.url });
  /** @type {FrameError[]} */
  const refused = [];
  client.on("frameRefused", (error) => refused.push(error));
  const game = await client.follow(gameId, { token: "t" });
  const socket = fake.sockets.at(-1);
  assert.ok(socket);
  await socket.next("subscribe"); // the first one
  return { client, game, refused, socket };
}

test("frames the SDK cannot act on are refused one by one, and the game reads on", async () => {
  const { client, game, refused, socket } = await followed("g1");
  const bad = [
    "not json",
    "[1, 2]",
    '{"type": 5}',
    '{"type": "mystery", "game_id": "g1"}',
    { type: "change", game_id: "g1", version: 1, notation: "d", events: [], patch: "x", score: {} },
    { ...drawChange("g1", 1, "AS"), patch: [{ op: "move", from: "/waste", path: "/x" }] },
    { ...drawChange("g1", 1, "AS"), version: -1 },
    { type: "snapshot", game_id: "g1", version: 9, state: { columns: "none" } },
    { type: "result", id: "a-1", status: "maybe" },
    { type: "welcome", protocol: 1 },
  ];
  for (const frame of bad) socket.send(frame);
  socket.raw(Buffer.from([0xff, 0xfe, 0x7b]), true);
  socket.send(drawChange("g1", 1, "KD"));
  await waitFor(() => game.version === 1);
  assert.equal(refused.length, bad.length + 1);
  assert.ok(refused.every((error) => error instanceof FrameError));
  assert.deepEqual(game.state?.waste, ["KD"]);
  assert.equal(game.state?.moves, 1);
  assert.equal(client.status, "open");
  assert.equal(client.connection.reconnects, 0);
  client.close();
});

test("a change that skips a version makes the game subscribe again from its own", async () => {
  const { client, game, socket } = await followed("g2");
  socket.send(drawChange("g2", 1, "2C"));
  await waitFor(() => game.version === 1);
  socket.send(drawChange("g2", 3, "4C"));
  const again = await socket.next("subscribe");
  assert.equal(again.since, 1);
  assert.equal(game.version, 1);
  socket.send(drawChange("g2", 2, "3C"));
  socket.send(drawChange("g2", 3, "4C"));
  await waitFor(() => game.version === 3 && game.synced);
  assert.deepEqual(game.state?.waste, ["2C", "3C", "4C"]);
  client.close();
});

test("a change whose patch does not apply is dropped for a snapshot", async () => {
  const { client, game, socket } = await followed("g3");
  const broken = drawChange("g3", 1, "5C", [{ op: "replace", path: "/columns/7/up", value: [] }]);
  socket.send(broken);
  const again = await socket.next("subscribe");
  assert.equal(again.since, undefined);
  await waitFor(() => game.synced);
  assert.deepEqual(game.state, sampleState());
  assert.equal(game.version, 0);
  client.close();
});

test("readFrame reads text and UTF-8 bytes alike", () => {
  const text = JSON.stringify({ type: "pong", id: "p-1" });
  assert.deepEqual(readFrame(text), { type: "pong", id: "p-1" });
  assert.deepEqual(readFrame(new TextEncoder().encode(text)), { type: "pong", id: "p-1" });
  assert.deepEqual(readFrame(new TextEncoder().encode(text).buffer), { type: "pong", id: "p-1" });
  assert.throws(() => readFrame(42), FrameError);
});

test("readFrame reads quick pairing's seek answers and paired, and refuses them misshapen", () => {
  const seat = {
    race_id: "r1",
    game_id: "g1",
    player_id: "p1",
    player_token: "t1",
    opponent: { name: "Bo", rating: 1532 },
  };
  const waiting = { seek_id: "TF.D1N-a", mode: "TF.D1N", status: "waiting", rating: 1500, since: 1, race: null };
  const answer = { type: "seek", id: "s-1", seek: waiting };
  assert.deepEqual(readFrame(JSON.stringify(answer)), answer);
  const paired = { ...answer, seek: { ...waiting, status: "paired", race: seat } };
  assert.deepEqual(readFrame(JSON.stringify(paired)), paired);
  const message = { type: "paired", seek_id: "TF.D1N-a", ...seat };
  assert.deepEqual(readFrame(JSON.stringify(message)), message);
  assert.throws(() => readFrame(JSON.stringify({ ...message, player_token: null })), FrameError);
  assert.throws(() => readFrame(JSON.stringify({ ...message, opponent: null })), FrameError);
  assert.throws(() => readFrame(JSON.stringify({ ...answer, seek: { ...waiting, status: "x" } })), FrameError);
  assert.throws(() => readFrame(JSON.stringify({ type: "seek", seek: waiting })), FrameError);
});
