// The package as a front-end team gets it: `npm pack` of a clean clone of the repository
// (its committed files only), installed into an empty project, imports and runs under Node,
// and its declarations type-check a TypeScript program that uses it.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

import { ROOT } from "./support/service.mjs";

const run = promisify(execFile);
const tsc = join(ROOT, "clients", "js", "node_modules", ".bin", "tsc");

test("npm pack of a clean clone gives a package that installs, imports and type-checks", {
  skip: existsSync(join(ROOT, ".git")) ? false : "not in a git checkout",
}, async () => {
  const work = await mkdtemp(join(tmpdir(), "sdk-pack-"));
  try {
    const clone = join(work, "clone");
    await run("git", ["clone", "--quiet", "--no-hardlinks", ROOT, clone]);
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], {
      cwd: join(clone, "clients", "js"),
    });
    const [{ filename, files }] = JSON.parse(packed.stdout);
    const names = files.map((/** @type {{ path: string }} */ f) => f.path);
    for (const name of ["package.json", "README.md", "src/index.js", "types/index.d.ts", "types/protocol/server-message.d.ts"]) {
      assert.ok(names.includes(name), `${name} is not in the package`);
    }
    assert.ok(!names.some((/** @type {string} */ n) => n.startsWith("test/") || n.startsWith("tools/")));

    const app = join(work, "app");
    await run("mkdir", ["-p", app]);
    await writeFile(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await run("npm", ["install", "--no-audit", "--no-fund", "--offline", join(work, filename)], { cwd: app });
    const { stdout } = await run(
      process.execPath,
      ["-e", 'import("@solitaire/sdk").then((m) => console.log(typeof m.SolitaireClient, typeof m.applyPatch))'],
      { cwd: app },
    );
    assert.equal(stdout.trim(), "function function");

    await writeFile(
      join(app, "main.ts"),
      `import { SolitaireClient, SolitaireError, type PublicState, type Played } from "@solitaire/sdk";
const client = new SolitaireClient({ url: "http://127.0.0.1:8000" });
async function play(): Promise<number> {
  const created = await client.games.create({ game: "TF", draw: 1 });
  const game = await client.follow(created.game_id);
  game.on("change", ({ change, state }) => console.log(change.notation, state.score));
  const played: Played = await game.act("d");
  const state: PublicState | null = game.state;
  try {
    await game.act({ type: "move", from: "c1", to: "c2" });
  } catch (error) {
    if (error instanceof SolitaireError) console.log(error.code, error.rule, error.messageFi);
  }
  return played.version + (state?.moves ?? 0);
}
void play();
`,
    );
    // As a Node project resolves packages, and as a bundler does.
    for (const [module, moduleResolution] of [
      ["NodeNext", "NodeNext"],
      ["ESNext", "Bundler"],
    ]) {
      await writeFile(
        join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module,
            moduleResolution,
            lib: ["ES2022", "DOM"],
            strict: true,
            noEmit: true,
            types: [],
          },
          files: ["main.ts"],
        }),
      );
      const checked = await run(tsc, ["-p", app]).catch((error) => error);
      assert.equal(checked.code ?? 0, 0, `${moduleResolution}: ${checked.stdout}`);
    }
    const manifest = JSON.parse(await readFile(join(app, "node_modules", "@solitaire", "sdk", "package.json"), "utf8"));
    assert.equal(manifest.name, "@solitaire/sdk");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
