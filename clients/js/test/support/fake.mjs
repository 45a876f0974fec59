// A scripted WebSocket server that plays the service's part, for what a real service never
// sends: frames of the wrong shape, patches that do not apply, silence.

import { WebSocketServer } from "ws";

/**
 * @typedef {object} FakeSocket
 * @property {(frame: unknown) => void} send  a JSON frame (a string is sent as is)
 * @property {(data: Buffer | string, binary?: boolean) => void} raw
 * @property {unknown[]} received  the client's frames, parsed
 * @property {(type: string, count?: number) => Promise<any>} next  the next frame of `type`
 */

/**
 * @param {(socket: FakeSocket, frame: any) => void} [onFrame]  called for every frame the
 *   client sends after its hello (which is answered with a welcome)
 * @returns {Promise<{ url: string, sockets: FakeSocket[], close: () => Promise<void> }>}
 */
export function startFake(onFrame = () => {}) {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  /** @type {FakeSocket[]} */
  const sockets = [];
  server.on("connection", (ws) => {
    /** @type {((frame: any) => void)[]} */
    const waiters = [];
    /** @type {FakeSocket} */
    const fake = {
      send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
      raw: (data, binary = false) => ws.send(data, { binary }),
      received: [],
      next: (type) =>
        new Promise((resolve) => {
          const seen = fake.received.find((f) => /** @type {any} */ (f).type === type && !taken.has(f));
          if (seen) {
            taken.add(seen);
            resolve(seen);
          } else {
            waiters.push((frame) => {
              if (frame.type !== type || taken.has(frame)) return false;
              taken.add(frame);
              resolve(frame);
              return true;
            });
          }
        }),
    };
    const taken = new Set();
    sockets.push(fake);
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      fake.received.push(frame);
      if (frame.type === "hello") {
        fake.send({
          type: "welcome",
          protocol: 1,
          max_frame_bytes: 16384,
          max_subscriptions: 16,
          rate_per_second: 20,
          rate_burst: 40,
          changes_in_results: true,
        });
        return;
      }
      for (let i = 0; i < waiters.length; i += 1) {
        if (waiters[i](frame)) {
          waiters.splice(i, 1);
          break;
        }
      }
      onFrame(fake, frame);
    });
  });
  return new Promise((resolve) => {
    server.on("listening", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      resolve({
        url: `ws://127.0.0.1:${port}/ws`,
        sockets,
        close: () =>
          new Promise((done) => {
            for (const client of server.clients) client.terminate();
            server.close(() => done(undefined));
          }),
      });
    });
  });
}

/** A public state of a Solitaire Réfléchi game, for the fake service to send. */
export function sampleState() {
  return {
    game: "TF",
    draw: 1,
    scoring: "normal",
    columns: [
      { down: 0, up: ["7H"] },
      { down: 0, up: ["9S", "4H"] },
    ],
    stock: 24,
    waste: [],
    foundations: [null, null, null, null],
    score: 0,
    score_display: "0",
    moves: 0,
    undo_available: 0,
    won: false,
    resigned: false,
  };
}

/**
 * A change frame that draws `card` at `version`.
 * @param {string} gameId
 * @param {number} version
 * @param {string} card
 * @param {unknown[]} [patch]
 */
export function drawChange(gameId, version, card, patch) {
  return {
    type: "change",
    game_id: gameId,
    version,
    notation: "d",
    action: { type: "draw" },
    events: [{ type: "drew", cards: [card] }],
    patch: patch ?? [
      { op: "add", path: "/waste/-", value: card },
      { op: "replace", path: "/moves", value: version },
    ],
    score: { delta: 0, total: 0, display: "0" },
  };
}
