#!/usr/bin/env node
// Writes the SDK's TypeScript declarations (types/*.d.ts, beside types/protocol/) from the
// JSDoc of src/, with TypeScript itself; members whose names start with `_` are the SDK's
// own workings and are left out of them.
//
//   node tools/sdk-declarations.mjs           write types/**/*.d.ts (but types/protocol/)
//   node tools/sdk-declarations.mjs --check   write nothing; exit 1 when a committed file
//                                             is stale, missing or left over

import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const typesDir = join(root, "types");
const shown = "clients/js/types";
const BANNER =
  "/* Generated from the JSDoc of clients/js/src by clients/js/tools/sdk-declarations.mjs. " +
  "Do not edit: change the source, then run scripts/check-types --write. */\n";

/** Leaves out the class members named `_...`. */
function withoutPrivateMembers(context) {
  const visit = (node) => {
    if (ts.isClassDeclaration(node)) {
      const members = node.members.filter((member) => {
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : "";
        return !name.startsWith("_");
      });
      return context.factory.updateClassDeclaration(
        node,
        node.modifiers,
        node.name,
        node.typeParameters,
        node.heritageClauses,
        members,
      );
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitNode(file, visit);
}

/** Output path (relative to types/) -> file text. */
function generate() {
  const configPath = join(root, "tsconfig.declarations.json");
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (!config) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(config.fileNames, config.options);
  const files = new Map();
  const result = program.emit(
    undefined,
    (fileName, text) => {
      files.set(relative(typesDir, fileName), BANNER + text);
    },
    undefined,
    true,
    { afterDeclarations: [withoutPrivateMembers] },
  );
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length) {
    const host = {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    };
    throw new Error(ts.formatDiagnostics(problems, host));
  }
  return files;
}

/** The committed declarations, types/protocol/ aside (generate-types.mjs writes it). */
async function existing(dir = typesDir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(typesDir, "protocol")) found.push(...(await existing(path)));
    } else if (entry.name.endsWith(".d.ts")) {
      found.push(relative(typesDir, path));
    }
  }
  return found;
}

async function main() {
  const check = process.argv.includes("--check");
  const wanted = generate();
  const problems = [];
  for (const [name, text] of wanted) {
    const path = join(typesDir, name);
    const current = await readFile(path, "utf8").catch(() => null);
    if (current === text) continue;
    if (check) {
      problems.push(`${current === null ? "missing" : "stale"}: ${shown}/${name}`);
    } else {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text, "utf8");
      console.log(`wrote ${shown}/${name}`);
    }
  }
  for (const name of await existing()) {
    if (wanted.has(name)) continue;
    if (check) problems.push(`left over: ${shown}/${name}`);
    else {
      await rm(join(typesDir, name));
      console.log(`removed ${shown}/${name}`);
    }
  }
  if (problems.length) {
    console.error(problems.join("\n"));
    console.error(
      "The SDK's declarations do not match its source: run `scripts/check-types --write`.",
    );
    process.exit(1);
  }
  if (check) console.log(`the SDK's declarations are up to date (${wanted.size} files)`);
}

await main();
