// The SDK covers the whole REST API: every operation of the OpenAPI document has its call
// (a module of src/rest/ lists the routes it covers), and the WebSocket's client messages
// are the ones the SDK sends. A route added to the service fails this test until the SDK
// has a call for it.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";

import {
  ARENA_ROUTES,
  DAILY_ROUTES,
  GAME_ROUTES,
  PAIRING_ROUTES,
  PLAYER_ROUTES,
  RACE_ROUTES,
  SERVICE_ROUTES,
  SolitaireClient,
  socketUrlOf,
} from "../src/index.js";
import { ROOT } from "./support/service.mjs";

/** Operations a front end has no use for: Prometheus scrapes them. */
const NOT_FOR_FRONT_ENDS = new Set(["GET /metrics"]);

test("every operation of the OpenAPI document has its SDK call", async () => {
  const openapi = JSON.parse(await readFile(join(ROOT, "schemas", "openapi.json"), "utf8"));
  const documented = new Set();
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const method of Object.keys(operations)) {
      if (["get", "post", "patch", "put", "delete"].includes(method)) {
        documented.add(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  const covered = [
    ...GAME_ROUTES,
    ...RACE_ROUTES,
    ...PAIRING_ROUTES,
    ...ARENA_ROUTES,
    ...PLAYER_ROUTES,
    ...DAILY_ROUTES,
    ...SERVICE_ROUTES,
  ];
  assert.equal(new Set(covered).size, covered.length, "a route is listed twice");
  const missing = [...documented].filter((r) => !covered.includes(r) && !NOT_FOR_FRONT_ENDS.has(r));
  const unknown = covered.filter((r) => !documented.has(r));
  assert.deepEqual(missing, [], "operations without an SDK call");
  assert.deepEqual(unknown, [], "SDK calls of operations the service does not have");
});

test("the client's groups are the REST modules", () => {
  const client = new SolitaireClient({ url: "http://127.0.0.1:1" });
  for (const group of ["games", "races", "pairing", "arenas", "players", "daily", "service"]) {
    assert.equal(typeof client[/** @type {"games"} */ (group)], "object", group);
  }
  assert.equal(client.connection.url, "ws://127.0.0.1:1/ws");
  assert.equal(
    new SolitaireClient({ url: "https://example.org/" }).connection.url,
    "wss://example.org/ws",
  );
  assert.equal(socketUrlOf("http://127.0.0.1:8000/solitaire/"), "ws://127.0.0.1:8000/solitaire/ws");
  client.close();
});
