// The README's quick start, run as written against a real service: only the package name
// (this checkout's src/index.js) and the service's address are swapped in.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { promisify } from "node:util";

import { FAST } from "./support/play.mjs";
import { ROOT, startService } from "./support/service.mjs";

const run = promisify(execFile);
const SDK = join(ROOT, "clients", "js");

/** @type {Awaited<ReturnType<typeof startService>>} */
let service;

before(async () => {
  service = await startService(FAST);
});
after(async () => {
  await service?.stop();
});

test("the README's quick start plays a game", async () => {
  const readme = await readFile(join(SDK, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, "no js block under Quick start");
  const lines = code.trim().split("\n");
  assert.ok(lines.length <= 22, `the quick start has ${lines.length} lines`);
  const script = code
    .replace('"@solitaire/sdk"', JSON.stringify(pathToFileURL(join(SDK, "src", "index.js")).href))
    .replace("http://127.0.0.1:8000", service.url);
  const dir = await mkdtemp(join(tmpdir(), "quickstart-"));
  try {
    await writeFile(join(dir, "quickstart.mjs"), script);
    const { stdout } = await run(
      process.execPath,
      ["--experimental-websocket", join(dir, "quickstart.mjs")],
      { timeout: 60_000 },
    );
    const output = stdout.trim().split("\n");
    assert.match(output.at(-1) ?? "", /^moves \d+ score -?\$?\d+$/);
    assert.ok(output.includes("rule_violation TF-TAB-1 Kortin voi asettaa vain vastakkaisen värisen ja arvoltaan yhtä suuremman kortin päälle."), output.join("\n"));
    assert.ok(output.length > 20, "the game was not played");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
