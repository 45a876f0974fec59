// A TCP proxy in front of the service whose connections can be cut at any moment, as a
// network failure cuts them: whatever was on its way in either direction is lost.

import { createConnection, createServer } from "node:net";

/**
 * @param {number} targetPort  the service's port on loopback
 * @returns {Promise<{ port: number, cut: () => number, close: () => Promise<void> }>}
 */
export function startProxy(targetPort) {
  /** @type {Set<import("node:net").Socket>} */
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection(targetPort, "127.0.0.1");
    const pair = [client, upstream];
    for (const socket of pair) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      resolve({
        port,
        /** Cuts every open connection at once; returns how many there were. */
        cut: () => {
          const open = [...sockets];
          for (const socket of open) socket.resetAndDestroy();
          return open.length / 2;
        },
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done(undefined));
          }),
      });
    });
  });
}
