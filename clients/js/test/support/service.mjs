// Starts what the tests talk to: the service (`python -m service`) on a free port, with the
// memory store or a private Redis server, and stops it after the test file.

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..", "..", "..", "..");

/** The Python that runs the service: $SOLITAIRE_PYTHON, else the checkout's .venv (made by `make test`). */
export function python() {
  if (process.env.SOLITAIRE_PYTHON) return process.env.SOLITAIRE_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  if (existsSync(venv)) return venv;
  throw new Error("no .venv/bin/python: run `make test` (or set SOLITAIRE_PYTHON) first");
}

/**
 * Whether `port` (0: any) can be listened on now; the port listened on, or null.
 * @param {number} port
 * @returns {Promise<number | null>}
 */
function tryPort(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A free TCP port on loopback for a child process to listen on: drawn at random below the
 * kernel's range for outgoing connections, as the Python suites do, since a port of that
 * range can become the local port of any outgoing connection before the child binds it.
 */
export async function freePort() {
  let ephemeral = 32_768;
  try {
    const range = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
    ephemeral = Number(range.trim().split(/\s+/)[0]);
  } catch {
    // not Linux: its usual range
  }
  for (let tries = 0; ephemeral > 21_000 && tries < 200; tries += 1) {
    const port = await tryPort(20_000 + Math.floor(Math.random() * (ephemeral - 20_000)));
    if (port !== null) return port;
  }
  const any = await tryPort(0);
  if (any === null) throw new Error("no free port on loopback");
  return any;
}

/**
 * @param {string} url
 * @param {number} deadline  Date.now() to give up at
 * @param {() => string | null} [failed]  why the process is gone, if it is
 */
async function waitReady(url, deadline, failed = () => null) {
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A private Redis server (`redis-server` on a free port, nothing saved).
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startRedis() {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  killedWithThisProcess(child);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error("redis-server did not start (is it installed?)");
    const up = await new Promise((resolve) => {
      const socket = createConnection(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error("redis-server did not listen in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop: () => stopChild(child),
  };
}

/**
 * The service on a free port (`python -m service`), with the memory store unless `env`
 * names another `STORE_URL`.
 * @param {Record<string, string>} [env]  settings (docs: README, configuration)
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void>, start: () => Promise<void> }>}
 */
export async function startService(env = {}) {
  let port = await freePort();
  const settings = {
    STORE_URL: "memory://",
    LOG_LEVEL: "warning",
    WINNABLE_POOL_SIZE: "0",
    // Every test of a file comes from one address, faster than a person plays.
    HTTP_WRITE_RATE_PER_SECOND: "1000",
    HTTP_WRITE_BURST: "1000",
    CHANGES_RATE_PER_SECOND: "1000",
    CHANGES_BURST: "1000",
    RACE_COUNTDOWN_SECONDS: "0.3",
    ...env,
    HOST: "127.0.0.1",
    PORT: String(port),
  };
  let url = `http://127.0.0.1:${port}`;
  /** @type {import("node:child_process").ChildProcess | null} */
  let child = null;
  let stderr = "";
  const launch = async () => {
    stderr = "";
    let exit = null;
    const started = spawn(python(), ["-m", "service"], {
      cwd: ROOT,
      env: { ...process.env, ...settings, NO_PROXY: "*", PYTHONDONTWRITEBYTECODE: "" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child = started;
    killedWithThisProcess(started);
    started.stderr?.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    started.on("exit", (code) => {
      exit = code;
    });
    try {
      // Long enough for a machine under heavy load: the service imports a good deal.
      await waitReady(`${url}/healthz`, Date.now() + 90_000, () =>
        exit === null ? null : `the service exited (${exit}): ${stderr}`,
      );
    } catch (error) {
      // A service left running would keep the test file's process alive.
      await stopChild(started);
      throw error;
    }
  };
  // A free port can be taken by another process between being found and being bound
  // (the suites run many services at once): then the service starts on another.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("address already in use")) throw error;
      port = await freePort();
      settings.PORT = String(port);
      url = `http://127.0.0.1:${port}`;
    }
  }
  return {
    url,
    port,
    stop: async () => {
      if (child) await stopChild(child);
      child = null;
    },
    /** Starts it again after `stop()`, on the same port with the same settings. */
    start: launch,
  };
}

/**
 * Kills `child` when this process exits, however it exits: a test that fails before its
 * `after` hook must not leave a service or a Redis server behind.
 * @param {import("node:child_process").ChildProcess} child
 */
function killedWithThisProcess(child) {
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
}

/** @param {import("node:child_process").ChildProcess} child */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.kill("SIGTERM");
  });
}
